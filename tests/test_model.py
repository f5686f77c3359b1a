"""rules.model: the shared data model's documented values, lookups and base sizes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import model
from rules.model import Datasheet, Placed, PlacedUnit, Profile, Weapon


def test_the_books_placeholder_characteristic_is_kept_as_minus_one():
    """The book prints '-1' for "no such capability"; the module keeps it as the value -1."""
    assert model.PLACEHOLDER == -1


def test_an_inch_is_exactly_25_4_millimetres():
    """A base's radius is half its diameter in millimetres, in inches at exactly 25.4 mm to the inch."""
    assert model.MM_PER_INCH == Fraction(127, 5)
    assert Placed(0, 0, base_mm="50.8").radius == 1  # a 2" base
    assert Placed(0, 0, base_mm=25).radius == Fraction(25, 2) / Fraction(254, 10) == Fraction(125, 254)


def test_a_placed_model_without_stated_extras_has_a_32_mm_base_on_the_ground_and_belongs_to_player_1():
    """Placed's docstring: left out, the base is 32 mm, the height 0 and the owner player 1 (example data such as
    spec/core/annotations/examples/03-moving.yaml leaves them out)."""
    plain = Placed(3, 4)
    assert (plain.base_mm, plain.z, plain.owner, plain.name) == (32, 0, 1, "")
    assert plain.radius == Fraction(16) / Fraction(254, 10)
    assert PlacedUnit().owner == 1 and PlacedUnit().models == ()


def _sheet():
    profiles = (Profile("Sergeant", 6, 4, 3, 2, 6, 1), Profile("Intercessor", 6, 4, 3, 2, 6, 2))
    weapons = (Weapon("Bolt rifle", 24, 2, 3, 4, -1, 1), Weapon("Close combat weapon", None, 3, 3, 4, 0, 1))
    return Datasheet("Intercessors", profiles, (), weapons, ("ADEPTUS ASTARTES",), ("INFANTRY",),
                     (("Sergeant", 1), ("Intercessor", 4)), ())


def test_a_datasheet_finds_its_profile_by_exact_name_and_its_weapon_by_name_in_any_case():
    sheet = _sheet()
    assert sheet.profile("Intercessor").OC == 2
    assert sheet.profile("Sergeant").OC == 1
    assert sheet.weapon("close combat weapon").range is None
    assert sheet.weapon("BOLT RIFLE").range == 24
    with pytest.raises(KeyError):
        sheet.profile("intercessor")  # profile names are matched exactly
    with pytest.raises(KeyError):
        sheet.weapon("plasma gun")
