"""Hypothesis properties of reading a datasheet (chapter 02): characteristics at the ends of their ranges are read
as printed, what no datasheet prints is refused as one DatasheetError (never a KeyError or a wrong reading), and
a refused entry is named by its place. Each is paired with a broken reader that makes it fail (at the end)."""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rules.core import datasheets
from rules.core.datasheets import DatasheetError
from rules.model import PLACEHOLDER

#: A small datasheet with three of each list, so a bad entry's place can be told from its neighbours'.
SHEET = {
    "name": "Squad",
    "profiles": [{"name": n, "M": '6"', "T": 4, "Sv": "3+", "W": 2, "Ld": "6+", "OC": 2}
                 for n in ("Sergeant", "Trooper", "Gunner")],
    "weapons": [{"name": n, "range": '24"', "A": 2, "skill": "3+", "S": 4, "AP": -1, "D": 1}
                for n in ("Rifle", "Pistol", "Plasma gun")],
    "abilities": {"Oath": "Re-roll hit rolls.", "Shield": ""},
    "faction_keywords": ["IMPERIUM"],
    "keywords": ["INFANTRY"],
    "composition": [{"model": "Sergeant", "count": 1, "equipped": ["Pistol"]},
                    {"model": "Trooper", "count": 4, "equipped": ["Rifle"]},
                    {"model": "Gunner", "count": 1, "equipped": ["Rifle"]}],
    "wargear_options": [{"model": "Trooper", "replace": ["Rifle"], "with": ["Plasma gun"]},
                        {"model": "Gunner", "replace": ["Rifle"], "with": ["Plasma gun"]},
                        {"model": "Sergeant", "replace": ["Pistol"], "with": ["Plasma gun"]}],
}


def _changed(path: tuple, value) -> dict:
    """SHEET with the value at ``path`` replaced (or removed, for the value ``...``)."""
    data = copy.deepcopy(SHEET)
    *parents, last = path
    place = data
    for key in parents:
        place = place[key]
    if value is ...:
        del place[last]
    else:
        place[last] = value
    return data


@pytest.mark.refs("02.02", "02.04")
@given(m=st.one_of(st.integers(0, 30), st.just(PLACEHOLDER)), t=st.integers(1, 14), sv=st.integers(2, 6),
       w=st.integers(1, 30), ld=st.integers(2, 12), oc=st.one_of(st.integers(0, 10), st.just(PLACEHOLDER)),
       insv=st.one_of(st.none(), st.integers(2, 6)), rng=st.one_of(st.none(), st.integers(1, 72)),
       skill=st.integers(2, 6), s=st.integers(1, 24), ap=st.integers(-6, 0))
@example(m=0, t=1, sv=2, w=1, ld=2, oc=0, insv=2, rng=1, skill=2, s=1, ap=0)
@example(m=PLACEHOLDER, t=12, sv=6, w=30, ld=12, oc=PLACEHOLDER, insv=6, rng=None, skill=6, s=24, ap=-6)
def test_characteristics_are_read_as_printed(m, t, sv, w, ld, oc, insv, rng, skill, s, ap):
    """Every characteristic a datasheet can print, down to its smallest (M 0", T 1, Sv/InSv 2+, W 1, Ld 2+, OC 0,
    a range of 1", BS/WS 2+, S 1, AP 0) and up to the dice's reach (6+, Ld 12+), is read as its number; M and OC
    may be the placeholder '-1'."""
    printed = {"name": "Model", "M": "-1" if m == PLACEHOLDER else f'{m}"', "T": t, "Sv": f"{sv}+", "W": w,
               "Ld": f"{ld}+", "OC": "-1" if oc == PLACEHOLDER else oc, **({} if insv is None else {"InSv": f"{insv}+"})}
    profile = datasheets.read_profile(printed, "profile")
    assert (profile.M, profile.T, profile.Sv, profile.W, profile.Ld, profile.OC, profile.InSv) == (
        m, t, sv, w, ld, oc, insv)
    weapon = datasheets.read_weapon({"name": "Gun", "range": "Melee" if rng is None else f'{rng}"', "A": 1,
                                     "skill": f"{skill}+", "S": s, "AP": ap, "D": 1}, "weapon")
    assert (weapon.range, weapon.skill, weapon.S, weapon.AP) == (rng, skill, s, ap)


#: Changes to SHEET that no datasheet prints, each refused with one DatasheetError.
REFUSED = [
    (("profiles", 1, "InSv"), "1+"), (("profiles", 1, "InSv"), "7+"), (("profiles", 1, "Sv"), "7+"),
    (("profiles", 1, "Ld"), "1+"), (("profiles", 1, "T"), 0), (("profiles", 1, "W"), 0),
    (("profiles", 1, "name"), ...), (("profiles", 1), "Trooper"), (("profiles",), "Trooper"),
    (("weapons", 1, "skill"), "7+"), (("weapons", 1, "skill"), "1+"), (("weapons", 1, "range"), '0"'),
    (("weapons", 1, "S"), 0), (("weapons", 1, "AP"), 1), (("weapons", 1, "name"), ...), (("weapons", 1), "Pistol"),
    (("abilities",), {"Oath": "", " Oath ": "again"}), (("abilities",), {"": "nameless"}), (("abilities",), 3),
    (("faction_keywords",), "IMPERIUM"), (("keywords",), "INFANTRY"), (("keywords",), ["INFANTRY", " "]),
    (("composition", 1, "count"), ...), (("composition", 1, "model"), ...), (("composition", 1), "Trooper"),
    (("composition", 1, "count"), 0), (("composition", 1, "model"), "Nobody"),
    (("wargear_options", 1, "with"), ...), (("wargear_options", 1, "replace"), ...),
    (("wargear_options", 1), "swap"), (("wargear_options", 1, "with"), ["Lascannon"]),
    (("name",), ""), (("profiles",), []),
]


@pytest.mark.refs("02.01", "02.02", "02.03", "02.04", "02.05", "02.06", "02.07")
@given(st.sampled_from(REFUSED))
@example((("profiles", 1, "InSv"), "7+"))
@example((("weapons", 1, "skill"), "7+"))
@example((("profiles", 1, "name"), ...))
@example((("weapons", 1, "name"), ...))
@example((("abilities",), {"Oath": "", " Oath ": "again"}))
@example((("keywords",), "INFANTRY"))
@example((("composition", 1, "count"), ...))
@example((("wargear_options", 1, "with"), ...))
def test_what_no_datasheet_prints_is_refused(change):
    """Characteristics beyond what a datasheet prints, entries without their name or parts, ability names missing
    or printed twice, keywords not given as a list: each is one DatasheetError, never another exception."""
    path, value = change
    with pytest.raises(DatasheetError):
        datasheets.read_datasheet(_changed(path, value))


#: A broken entry of each list, and the words that name the entry in the message ("profile 2").
BROKEN_ENTRY = {
    "profiles": (("Sv", "7+"), "profile"),
    "weapons": (("skill", "7+"), "weapon"),
    "composition": (("count", 0), "composition entry"),
    "wargear_options": (("with", ["Lascannon"]), "wargear option"),
}


@pytest.mark.refs("02.01", "02.06", "02.07")
@given(st.sampled_from(sorted(BROKEN_ENTRY)), st.integers(0, 2))
@example("profiles", 1)
@example("weapons", 1)
@example("composition", 1)
@example("wargear_options", 1)
def test_a_refused_entry_is_named_by_its_place(key, index):
    """The message names the refused entry by its place in its list, counted from 1 as a reader counts them."""
    (field, value), words = BROKEN_ENTRY[key]
    with pytest.raises(DatasheetError) as caught:
        datasheets.read_datasheet(_changed((key, index, field), value), "squad.yaml")
    assert re.search(rf"\b{words} {index + 1}\b", str(caught.value)), str(caught.value)
    assert "squad.yaml" in str(caught.value)


# -- Each property fails for a broken rule -------------------------------------------------------------------------

_read_profile = datasheets.read_profile

BROKEN = [
    (test_characteristics_are_read_as_printed, "_dice_result",
     lambda value, where, low, high: int(str(value).rstrip("+")) + 1),
    (test_what_no_datasheet_prints_is_refused, "_dice_result", lambda value, where, low, high: 4),
    (test_a_refused_entry_is_named_by_its_place, "read_profile",
     lambda data, where: _read_profile(data, where.replace("profile ", "profile #"))),
]


@pytest.mark.parametrize("prop,attribute,mutant", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_property_fails_for_a_broken_rule(monkeypatch, prop, attribute, mutant):
    monkeypatch.setattr(datasheets, attribute, mutant)
    with pytest.raises((Exception, pytest.fail.Exception)):
        prop()
