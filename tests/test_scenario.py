"""rules.scenario: the scenario schema's documented ranges, defaults and messages, read in this process.

Every bound below is a number of README's "Attack scenarios" table (the schema's documented ranges), written
out here rather than read from the constants, so that a constant moved by one fails a test.
"""

from __future__ import annotations

import pytest

from rules import scenario


def _weapon(**changes):
    return {"name": "bolt rifle", "count": 1, "A": 1, "skill": 3, "S": 4, "AP": 0, "D": 1, **changes}


def _model(**changes):
    return {"name": "Intercessor", "count": 1, "T": 4, "Sv": 3, "W": 1, **changes}


def _data(weapons=None, models=None, **top):
    return {"weapons": weapons or [_weapon()], "target": {"models": models or [_model()]}, **top}


def _verdict(data):
    """read_scenario's verdict: None when accepted, else the error message."""
    try:
        scenario.read_scenario(data)
    except scenario.ScenarioError as error:
        return str(error)
    return None


# (where in the scenario, the data with that value, lowest accepted, highest accepted), from README's table.
WEAPON_RANGES = [("count", 1, 100), ("skill", 2, 6), ("S", 1, 30), ("AP", -6, 0)]
MODEL_RANGES = [("count", 1, 40), ("T", 1, 30), ("Sv", 2, 7), ("W", 1, 40), ("InSv", 2, 6), ("FNP", 2, 6)]
CONTEXT_RANGES = [("hit_modifier", -6, 6), ("wound_modifier", -6, 6), ("attacker_moved_inches", 0, 100)]


def _cases():
    for key, low, high in WEAPON_RANGES:
        yield f"weapons[0].{key}", lambda v, k=key: _data([_weapon(**{k: v})]), low, high
    for key, low, high in MODEL_RANGES:
        yield f"target.models[0].{key}", lambda v, k=key: _data(models=[_model(**{k: v})]), low, high
    for key, low, high in CONTEXT_RANGES:
        yield f"context.{key}", lambda v, k=key: _data(context={k: v}), low, high


@pytest.mark.parametrize("where,build,low,high", list(_cases()), ids=[case[0] for case in _cases()])
def test_each_number_is_accepted_at_both_ends_of_its_range_and_refused_one_past(where, build, low, high):
    """README's table: `count` 1 to 100, `skill` 2 to 6, `S` 1 to 30, `AP` 0 to -6, a model's `count` 1 to 40,
    `T` 1 to 30, `Sv` 2 to 7, `W` 1 to 40, `InSv` and `FNP` 2 to 6, modifiers -6 to 6, moved inches 0 to 100."""
    assert _verdict(build(low)) is None
    assert _verdict(build(high)) is None
    for past in (low - 1, high + 1):
        message = _verdict(build(past))
        assert message is not None and message.startswith(f"scenario: {where} must be "), message
        assert message.endswith(f"not {past}"), message


@pytest.mark.parametrize("where,build", [
    ("weapons[0].count", lambda v: _data([_weapon(count=v)])),
    ("weapons[0].AP", lambda v: _data([_weapon(AP=v)])),
    ("target.models[0].W", lambda v: _data(models=[_model(W=v)])),
    ("context.attacker_moved_inches", lambda v: _data(context={"attacker_moved_inches": v})),
])
@pytest.mark.parametrize("value", [True, "3", 1.0, None])
def test_a_number_of_the_wrong_json_type_is_refused_and_named(where, build, value):
    """A number must be a whole JSON number: true is not 1, nor is "3" or 1.0 (the module docstring)."""
    message = _verdict(build(value))
    assert message is not None and message.startswith(f"scenario: {where} must be "), message


def test_a_positive_ap_is_refused_with_its_range_named():
    assert _verdict(_data([_weapon(AP=1)])) == (
        "scenario: weapons[0].AP must be 0 or a negative whole number down to -6, not 1")


def test_weapons_and_models_are_lists_of_at_least_one_entry():
    """README: `weapons` 1 to 50 entries; a target has 1 to 100 models."""
    assert _verdict(_data([_weapon(name=f"w{i}") for i in range(50)])) is None
    assert _verdict(_data([_weapon(name=f"w{i}") for i in range(51)])) == (
        "scenario: weapons must have from 1 to 50 entries, not 51")
    assert _verdict({"weapons": [], "target": {"models": [_model()]}}) == (
        "scenario: weapons must have from 1 to 50 entries, not 0")
    assert _verdict({"weapons": [_weapon()], "target": {"models": []}}) == (
        "scenario: target.models must have from 1 to 100 entries, not 0")


def test_the_whole_target_holds_at_most_100_models_and_1000_wounds():
    """README: target `models` 1 to 100 models and at most 1,000 wounds in all (sums of count and count x W)."""
    hundred = [_model(name=f"m{i}", count=count) for i, count in enumerate((40, 40, 20))]
    assert _verdict(_data(models=hundred)) is None
    one_more = hundred + [_model(name="extra")]
    assert _verdict(_data(models=one_more)) == (
        "scenario: target.models have 101 models in all (the sum of their counts); at most 100")
    thousand = [_model(name="Wraithlord", count=25, W=40)]  # 25 x 40 = 1000 wounds
    assert _verdict(_data(models=thousand)) is None
    over = thousand + [_model(name="Guardian")]
    assert _verdict(_data(models=over)) == (
        "scenario: target.models have 1001 wounds in all (the sum of count x W); at most 1000")


def test_the_weapons_roll_at_most_1000_attack_dice_and_score_at_most_1000_hits():
    """README: attack dice in all at most 1000; hits in all (each attack die with the most its [SUSTAINED HITS]
    can add) at most 1000."""
    hundred_attacks = [_weapon(name=f"w{i}", count=100) for i in range(10)]  # 10 x 100 x A1
    assert _verdict(_data(hundred_attacks)) is None
    assert _verdict(_data(hundred_attacks + [_weapon(name="one more")])) == (
        "scenario: weapons can roll up to 1001 attack dice in all (count x the most A and [RAPID FIRE], [BLAST], "
        "[CLEAVE] can give); at most 1000")
    sustained = [_weapon(name=f"s{i}", count=100, abilities=["SUSTAINED HITS 1"]) for i in range(5)]  # 500 x 2
    assert _verdict(_data(sustained)) is None
    assert _verdict(_data(sustained + [_weapon(name="plain")])) == (  # 501 dice, 1001 hits
        "scenario: weapons can score up to 1001 hits in all (their attack dice, each with the most "
        "[SUSTAINED HITS] can add); at most 1000")


def test_most_attacks_and_most_hits_count_only_what_abilities_add():
    """most_attacks: count x (A's highest + the most RAPID FIRE, BLAST, CLEAVE add); most_hits adds each
    attack's SUSTAINED HITS X at its highest (its docstrings)."""
    plain = scenario.read_weapon(_weapon(count=3, A="2D6"), "w")
    assert scenario.most_attacks(plain, 10) == 3 * 12
    assert scenario.most_hits(plain, 10) == 3 * 12
    lethal = scenario.read_weapon(_weapon(count=2, A=4, abilities=["LETHAL HITS", "SUSTAINED HITS D3"]), "w")
    assert scenario.most_attacks(lethal, 1) == 2 * 4
    assert scenario.most_hits(lethal, 1) == 2 * 4 * (1 + 3)


@pytest.mark.parametrize("value,message", [
    (1, None), ("60", None), ("D6+54", None), ("6D6", None), ("D3", None),
    ("61", "scenario: weapons[0].A must be from 1 to 60, not '61'"),
    ("0", "scenario: weapons[0].A must be from 1 to 60, not '0'"),
    ("2D6-7", "scenario: weapons[0].A '2D6-7' adds a number out of -6 to 60"),
    ("D6+61", "scenario: weapons[0].A 'D6+61' adds a number out of -6 to 60"),
    ("D6+55", "scenario: weapons[0].A 'D6+55' can roll 61; every result must be from 1 to 60"),
    ("7D3", "scenario: weapons[0].A '7D3' rolls more than 6 dice"),
    (True, "scenario: weapons[0].A must be a whole number or a dice expression such as D6+1, not true"),
    (1.5, "scenario: weapons[0].A must be a whole number or a dice expression such as D6+1, not 1.5"),
])
def test_dice_values_and_their_messages(value, message):
    """README: A and D are 1 to 60, or at most 6 dice adding -6 to 60 whose every result is 1 to 60."""
    assert _verdict(_data([_weapon(A=value)])) == message


@pytest.mark.parametrize("ability,accepted", [
    ("RAPID FIRE 1", True), ("SUSTAINED HITS 3D6", True), ("SUSTAINED HITS 7D3", False),
    ("LETHAL HITS", True), ("ANTI-INFANTRY 4+", True), ("PISTOL", True), ("STEALTH", False),
])
def test_ability_values_at_the_edges(ability, accepted):
    """README: X 1 to 20 (dice only for SUSTAINED HITS, every result 1 to 20); an ability without X is fine."""
    message = _verdict(_data([_weapon(abilities=[ability])]))
    assert (message is None) == accepted, message
    assert accepted or message.startswith("scenario: weapons[0].abilities[0]: "), message
    assert "not an ability form" not in (message or ""), message  # refused for its value, not its form


def test_a_melee_weapon_has_no_shooting_ability_but_a_ranged_one_may():
    """README: a `melee` weapon has none of ASSAULT, ... PISTOL, ..., which act only when a weapon shoots."""
    assert _verdict(_data([_weapon(abilities=["PISTOL"], melee=True)])) == (
        "scenario: weapons[0].abilities[0]: [PISTOL] only acts when a weapon shoots, and this weapon is melee")
    assert _verdict(_data([_weapon(abilities=["PISTOL", "RAPID FIRE 1"])])) is None
    assert _verdict(_data([_weapon(abilities=["LETHAL HITS"], melee=True)])) is None


def test_text_and_list_caps():
    """README: names at most 100 characters; keywords and abilities lists at most 50 entries."""
    assert _verdict(_data([_weapon(name="x" * 100)])) is None
    assert _verdict(_data([_weapon(name="x" * 101)])).startswith(
        "scenario: weapons[0].name must be at most 100 characters, not 101")
    keywords = {"weapons": [_weapon()], "target": {"keywords": ["INFANTRY"] * 50, "models": [_model()]}}
    assert _verdict(keywords) is None
    keywords["target"]["keywords"].append("INFANTRY")
    assert _verdict(keywords) == "scenario: target.keywords must have from 0 to 50 entries, not 51"


def test_unknown_and_missing_keys_are_named():
    """The module docstring: unknown keys are errors naming the place; a required key's absence is named."""
    allowed = "A, AP, D, S, abilities, count, melee, name, skill, type"
    assert _verdict(_data([_weapon(range=24)])) == (
        f"scenario: weapons[0].range is not a known key (expected one of {allowed})")
    assert _verdict(_data([_weapon(**{"b key": 1, "a key": 2})])) == (
        f"scenario: weapons[0].'a key' is not a known key (expected one of {allowed})")
    weapon = _weapon()
    del weapon["D"]
    assert _verdict(_data([weapon])) == "scenario: weapons[0] lacks 'D'"
    assert _verdict({"weapons": [_weapon()], "target": {"models": [_model()]}, "context": []}) == (
        "scenario: context must be an object, not a list")


def test_a_word_outside_its_options_is_refused():
    assert _verdict(_data(models=[_model(role="boss")])) == (
        "scenario: target.models[0].role must be one of bodyguard, leader, support, not 'boss'")
    assert _verdict(_data(context={"shooting_type": "rapid"})).startswith(
        "scenario: context.shooting_type must be one of assault, close-quarters, indirect, normal, snap")


def test_model_names_are_distinct():
    assert _verdict(_data(models=[_model(name="a"), _model(name="b")])) is None
    assert _verdict(_data(models=[_model(name="a"), _model(name="a")])) == (
        "scenario: target.models names must be distinct")


def test_an_omitted_context_is_the_readme_example_context_of_nothing_applying():
    """README's example writes every context key out as false or 0 (the issue's schema), and the extras
    default to "does not apply" (Context's comment; own_shooting_phase: true). Omitting them means the same."""
    written = {"target_within_half_range": False, "target_has_benefit_of_cover": False,
               "attacker_charged": False, "attacker_moved_inches": 0, "attacker_set_up_this_turn": False,
               "attacker_engaged": False, "plunging_fire": False, "hit_modifier": 0, "wound_modifier": 0,
               "shooting_type": "normal", "target_engaged": False, "attacker_monster_or_vehicle": False,
               "indirect_stationary_and_spotted": False, "own_shooting_phase": True, "attacker_infantry": False}
    assert set(written) == set(scenario.Context.__dataclass_fields__)
    assert scenario.read_scenario(_data()).context == scenario.read_scenario(_data(context=written)).context
    assert scenario.read_context({}, "context") == scenario.read_context(written, "context")


def test_each_context_value_given_is_the_value_read():
    given = {"attacker_moved_inches": 7, "hit_modifier": -1, "wound_modifier": 1, "shooting_type": "snap",
             "attacker_engaged": True, "own_shooting_phase": False}
    context = scenario.read_context(given, "context")
    assert {key: getattr(context, key) for key in given} == given


def test_choices_default_as_documented_and_are_read_as_given():
    """README: lethal_hits auto-wound, twin_linked failed, allocation_order the listed order, precision true,
    psychic_ignores harmful; each can be overridden under "choices"."""
    models = [_model(name="a"), _model(name="b")]
    defaults = scenario.read_scenario(_data(models=models)).choices
    assert (defaults.lethal_hits, defaults.twin_linked, defaults.allocation_order, defaults.precision,
            defaults.psychic_ignores) == ("auto-wound", "failed", (), True, "harmful")
    given = {"lethal_hits": "roll", "twin_linked": "non-critical", "allocation_order": ["b", "a"],
             "precision": False, "psychic_ignores": "none"}
    choices = scenario.read_scenario(_data(models=models, choices=given)).choices
    assert (choices.lethal_hits, choices.twin_linked, choices.allocation_order, choices.precision,
            choices.psychic_ignores) == ("roll", "non-critical", ("b", "a"), False, "none")


def test_allocation_order_names_each_target_model_at_most_once():
    models = [_model(name="a"), _model(name="b")]
    assert _verdict(_data(models=models, choices={"allocation_order": ["c"]})) == (
        "scenario: choices.allocation_order names 'c', which is not a model in the target")
    assert _verdict(_data(models=models, choices={"allocation_order": ["a", "a"]})) == (
        "scenario: choices.allocation_order names 'a' twice: each group has one place in the order")
