"""Hypothesis properties of chapter 24's printed forms and choices: which ability strings are read and as what,
which are refused, the default choice among duplicated abilities, and the Scouts distance's refusal of a unit
some model of which lacks Scouts. Each is paired with a broken rule that makes it fail (at the end)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rules import dice
from rules.core import core_abilities
from rules.core.core_abilities import Ability, AbilityError

#: Abilities that need a number, and the one whose number is optional ([BLAST] is [BLAST 1], 24.05).
REQUIRED = sorted(name for name, need in core_abilities.NUMBERED.items() if need == "required" and name != "FEEL NO PAIN")
OPTIONAL = sorted(name for name, need in core_abilities.NUMBERED.items() if need == "optional")
KEYWORDS = ("INFANTRY", "VEHICLE", "PSYKER", "BEASTS", "TITANIC")

restriction = st.lists(st.sampled_from(KEYWORDS), min_size=1, max_size=2, unique=True)
numbers = st.integers(1, 999_999_999)  # up to nine digits; more are refused
dice_values = st.sampled_from(["D3", "D6", "2D3", "2D6", "3D6"])


def _with(text: str, only: list[str]) -> str:
    """The printed form in square brackets, with an optional ': KEYWORD/KEYWORD' restriction (24.01)."""
    return f"[{text}{': ' + '/'.join(only) if only else ''}]"


@st.composite
def printed_abilities(draw) -> tuple[str, Ability]:
    """An ability string of a form chapter 24 prints, and the Ability it reads as."""
    only = draw(st.one_of(st.just([]), restriction))
    kind = draw(st.sampled_from(["number", "dice", "optional", "plain", "anti", "fnp"]))
    if kind == "number":
        name, value = draw(st.sampled_from(REQUIRED + OPTIONAL)), draw(numbers)
        text, read = f"{name} {value}", Ability(name, value)
    elif kind == "dice":
        name, value = draw(st.sampled_from(REQUIRED + OPTIONAL)), draw(dice_values)
        text, read = f"{name} {value}", Ability(name, dice.parse(value))
    elif kind == "optional":
        name = draw(st.sampled_from(OPTIONAL))
        text, read = name, Ability(name, 1)
    elif kind == "plain":
        name = draw(st.sampled_from(sorted(core_abilities.PLAIN)))
        text, read = name, Ability(name)
    elif kind == "anti":
        keyword, threshold = draw(st.sampled_from(KEYWORDS)), draw(st.integers(2, 6))
        text, read = f"ANTI-{keyword} {threshold}+", Ability("ANTI", threshold, keyword)
    else:
        threshold = draw(st.integers(2, 6))
        text, read = f"FEEL NO PAIN {threshold}+", Ability("FEEL NO PAIN", threshold)
    printed = _with(text, only)
    return printed, Ability(read.name, read.value, read.keyword, tuple(only), printed)


@pytest.mark.refs("24.01", "24.03", "24.12")
@given(printed_abilities())
@example(("[BLAST]", Ability("BLAST", 1, "", (), "[BLAST]")))
@example(("[SUSTAINED HITS D3]", Ability("SUSTAINED HITS", dice.parse("D3"), "", (), "[SUSTAINED HITS D3]")))
@example(("[ANTI-INFANTRY 2+]", Ability("ANTI", 2, "INFANTRY", (), "[ANTI-INFANTRY 2+]")))
@example(("[ANTI-INFANTRY 6+]", Ability("ANTI", 6, "INFANTRY", (), "[ANTI-INFANTRY 6+]")))
@example(("[FEEL NO PAIN 2+]", Ability("FEEL NO PAIN", 2, "", (), "[FEEL NO PAIN 2+]")))
@example(("[FEEL NO PAIN 6+]", Ability("FEEL NO PAIN", 6, "", (), "[FEEL NO PAIN 6+]")))
@example(("[RAPID FIRE 999999999]", Ability("RAPID FIRE", 999_999_999, "", (), "[RAPID FIRE 999999999]")))
def test_every_printed_form_is_read_as_printed(case):
    """Each form chapter 24 prints is read with its number, dice, ANTI keyword and X+ (2+ to 6+, the D6's
    reach), and its trailing keywords; [BLAST] without a number is [BLAST 1]."""
    printed, expected = case
    assert core_abilities.parse_ability(printed) == expected


@st.composite
def refused_abilities(draw) -> str:
    """A string in an ability's shape that chapter 24 does not print (or a number too large for any ability)."""
    kind = draw(st.sampled_from(["huge", "anti", "fnp-range", "fnp-form", "missing", "plain-number", "plus"]))
    if kind == "huge":
        digits = draw(st.integers(10, 30))
        return f"[{draw(st.sampled_from(REQUIRED + OPTIONAL))} {'9' * digits}]"
    if kind == "anti":
        return f"[ANTI-{draw(st.sampled_from(KEYWORDS))} {draw(st.integers(0, 99).filter(lambda t: not 2 <= t <= 6))}+]"
    if kind == "fnp-range":
        return f"[FEEL NO PAIN {draw(st.integers(0, 99).filter(lambda t: not 2 <= t <= 6))}+]"
    if kind == "fnp-form":  # Feel No Pain always takes the form X+ (24.12)
        return draw(st.sampled_from(["[FEEL NO PAIN]", "[FEEL NO PAIN 5]", "[FEEL NO PAIN D6+]", "[FEEL NO PAIN D3]"]))
    if kind == "plus":  # only ANTI and Feel No Pain print an X+ (24.03, 24.12)
        return f"[{draw(st.sampled_from(REQUIRED + OPTIONAL))} {draw(st.sampled_from(['1', '2', 'D3', 'D6']))}+]"
    if kind == "missing":
        return f"[{draw(st.sampled_from(REQUIRED))}]"
    return f"[{draw(st.sampled_from(sorted(core_abilities.PLAIN)))} {draw(st.integers(1, 6))}]"


@pytest.mark.refs("24.01", "24.03", "24.12")
@given(refused_abilities())
@example("[SUSTAINED HITS 1000000000]")
@example("[ANTI-INFANTRY 1+]")
@example("[ANTI-INFANTRY 7+]")
@example("[FEEL NO PAIN 1+]")
@example("[FEEL NO PAIN 7+]")
@example("[FEEL NO PAIN 5]")
@example("[FEEL NO PAIN D6+]")
@example("[SUSTAINED HITS]")
@example("[RAPID FIRE 2+]")
@example("[BLAST 2+]")
@example("[SUSTAINED HITS D3+]")
def test_forms_chapter_24_does_not_print_are_refused(text):
    """ANTI and Feel No Pain outside 2+ to 6+, Feel No Pain without its X+, an ability that needs a number
    without one, a plain ability with one, an X+ on any other ability, and numbers of ten digits or more: one
    AbilityError each."""
    with pytest.raises(AbilityError):
        core_abilities.parse_ability(text)


@pytest.mark.refs("24.02")
@given(st.sampled_from(REQUIRED + OPTIONAL),
       st.lists(st.one_of(st.integers(0, 6), dice_values), min_size=1, max_size=4))
@example("SUSTAINED HITS", [0, 1])
@example("BLAST", [0, 2, 1])
def test_duplicated_abilities_default_to_the_strongest(name, values):
    """Of duplicated instances (not cumulative, 24.02), the default choice is one with the highest number, a
    dice number counting as its average (an X of 0, which no datasheet prints, is the weakest)."""
    instances = [Ability(name, dice.parse(value) if isinstance(value, str) else value, text=f"[{name} {value}]")
                 for value in values]
    chosen = core_abilities.choose_instance(instances)

    def strength(value) -> Fraction:
        return dice.expected(dice.distribution(dice.parse(value))) if isinstance(value, str) else Fraction(value)

    assert chosen in instances
    assert strength(values[instances.index(chosen)]) == max(strength(v) for v in values)


@pytest.mark.refs("24.02", "24.31")
@given(st.lists(st.lists(st.sampled_from([3, 6, 8, 9]), max_size=2, unique=True), min_size=1, max_size=5))
@example([[6], []])
@example([[6, 8], []])
def test_scouts_distance_needs_scouts_on_every_model(models):
    """Scouts applies only if every model in the unit has it (24.31): a unit with a model without Scouts is
    refused; otherwise the distance is one no model exceeds, and one of its own Scouts numbers."""
    if all(models):
        chosen = core_abilities.scouts_distance(models)
        assert all(chosen <= max(scouts) for scouts in models)
        assert any(chosen in scouts for scouts in models)
    else:
        with pytest.raises(ValueError):
            core_abilities.scouts_distance(models)


# -- Each property fails for a broken rule -------------------------------------------------------------------------

_strength = core_abilities._strength

BROKEN = [
    (test_every_printed_form_is_read_as_printed, "NUMBERED", {**core_abilities.NUMBERED, "BLAST": "required"}),
    (test_forms_chapter_24_does_not_print_are_refused, "NUMBERED",
     {name: "optional" for name in core_abilities.NUMBERED}),
    (test_duplicated_abilities_default_to_the_strongest, "_strength", lambda ability: -_strength(ability)),
    (test_scouts_distance_needs_scouts_on_every_model, "scouts_distance_of",
     lambda has, values: max(values) if values else 0),
]


@pytest.mark.parametrize("prop,attribute,mutant", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_property_fails_for_a_broken_rule(monkeypatch, prop, attribute, mutant):
    monkeypatch.setattr(core_abilities, attribute, mutant)
    with pytest.raises((Exception, pytest.fail.Exception)):
        prop()
