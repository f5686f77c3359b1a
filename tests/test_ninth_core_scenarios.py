"""rules.ninth.core_scenarios: how the review's sweep states a Core Rules matchup in the earlier edition's terms,
or says why it cannot (rules40k review ninth core). In-process, so `rules40k mutate` runs it against the module's
mutants (rules40k.mutate.SUPPORT_TESTS)."""

from __future__ import annotations


def test_the_earlier_edition_states_a_core_matchup_with_its_types():
    """rules.ninth.core_scenarios: a lasgun's [RAPID FIRE 1] on A 1 is the type Rapid Fire, [HEAVY] is Heavy, a
    plain ranged weapon reads as Assault, [BLAST] is Blast; [LETHAL HITS], [RAPID FIRE 1] on A 2 and cover cannot
    be stated, each with its reason."""
    from rules.ninth import core_scenarios

    def weapon(name, A, abilities, count=10):
        return {"name": name, "count": count, "A": A, "skill": 4, "S": 3, "AP": 0, "D": 1, "abilities": abilities}

    target = {"models": [{"name": "Guardsman", "count": 10, "T": 3, "Sv": 5, "W": 1}]}
    data, why = core_scenarios.restate({"weapons": [weapon("lasgun", 1, ["RAPID FIRE 1"]),
                                                    weapon("cannon", "D6", ["BLAST", "HEAVY"], count=1),
                                                    weapon("shoota", 2, [])], "target": target})
    assert why == "" and [(w["type"], w.get("abilities")) for w in data["weapons"]] == [
        ("Rapid Fire", None), ("Heavy", ["Blast"]), ("Assault", None)]
    assert data["context"] == {"attacker_infantry": True}
    for weapons, context, reason in (
            ([weapon("gauss", 1, ["LETHAL HITS"])], {}, "[LETHAL HITS] has no counterpart"),
            ([weapon("bolter", 2, ["RAPID FIRE 1"])], {}, "adds 1 attacks to A 2"),
            ([weapon("lasgun", 1, ["RAPID FIRE 1"])], {"target_has_benefit_of_cover": True}, "benefit of cover")):
        data, why = core_scenarios.restate({"weapons": weapons, "target": target, "context": context})
        assert data is None and reason in why


def test_a_melee_weapon_and_two_types_at_once():
    """A melee weapon is Melee; a ranged weapon with [ASSAULT] and [HEAVY] has two types, which the earlier edition
    cannot give one weapon; an explicit context is kept and [LANCE]'s charged flag dropped."""
    from rules.ninth import core_scenarios

    target = {"models": [{"name": "Guardsman", "count": 10, "T": 3, "Sv": 5, "W": 1}]}
    blade = {"name": "chainsword", "count": 1, "A": 3, "skill": 3, "S": 4, "AP": -1, "D": 1, "abilities": [],
             "melee": True}
    data, why = core_scenarios.restate({"weapons": [blade], "target": target,
                                        "context": {"attacker_charged": True, "hit_modifier": 1}})
    assert why == "" and data["weapons"][0]["type"] == "Melee" and "abilities" not in data["weapons"][0]
    assert data["context"] == {"hit_modifier": 1}  # a lone melee weapon: no INFANTRY squad assumed
    rifle = {"name": "bolt rifle", "count": 10, "A": 2, "skill": 3, "S": 4, "AP": -1, "D": 1,
             "abilities": ["ASSAULT", "HEAVY"]}
    data, why = core_scenarios.restate({"weapons": [rifle], "target": target})
    assert data is None and "Assault and Heavy at once" in why
    pistol = {**rifle, "count": 1, "abilities": ["PISTOL"]}
    data, why = core_scenarios.restate({"weapons": [pistol], "target": target})
    assert data["weapons"][0]["type"] == "Pistol" and "context" not in data


def test_two_models_are_a_squad():
    """A weapon carried by two models is a squad's (INFANTRY, for the Heavy penalty); one model's is not."""
    from rules.ninth import core_scenarios

    target = {"models": [{"name": "Guardsman", "count": 10, "T": 3, "Sv": 5, "W": 1}]}
    bolter = {"name": "heavy bolter", "count": 2, "A": 3, "skill": 4, "S": 5, "AP": -1, "D": 2, "abilities": ["HEAVY"]}
    data, _ = core_scenarios.restate({"weapons": [bolter], "target": target})
    assert data["context"] == {"attacker_infantry": True}
    data, _ = core_scenarios.restate({"weapons": [{**bolter, "count": 1}], "target": target})
    assert "context" not in data
