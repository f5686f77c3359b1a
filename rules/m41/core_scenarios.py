"""The Core Rules' attack scenarios restated in 999.m41's terms, for the review's sweep (``rules40k review m41 core``):
the same weapon, models and target numbers as rules/m41/core_views.py translates them. A matchup that needs
something 999.m41 does not have is not comparable, and says why.

The restatement is a reading, stated here, not a rule of either game:

- the Core Rules' BS N+ is BS 7 - N (the number 999.m41's to-hit chart prints N+ under); a negative AP is a rend of
  the same number (-1 to -3; worse has no counterpart), AP 0 is "-"; Strength and Toughness stop at 10, a model's
  wounds at 10;
- the weapon's type is read from its abilities: [RAPID FIRE X] is Rapid Fire where X equals A (999.m41 doubles the
  shots at half range: the same number only then), [HEAVY], [ASSAULT] and [PISTOL] are those types, a ranged weapon
  with none of them Assault; its number of shots is A, which must be a whole number;
- 999.m41 has no Damage: only a Damage of 1 is stated (an unsaved wound costs one wound there);
- [TWIN-LINKED] is the rule of the same name (which re-rolls hits there, wounds in the Core Rules); any other
  ability has no counterpart;
- a target is INFANTRY (infantry), a MONSTER (a monstrous creature) or a CHARACTER; its WS, which no ranged rule of
  999.m41 reads, is 4; a VEHICLE has armour values in 999.m41, not a Toughness and a Save;
- a melee matchup is not comparable: 999.m41's melee hit roll reads the defender's WS, which a Core Rules target
  does not have; neither is the benefit of cover (999.m41 gives a save by the type of cover) or a wound modifier.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

TOP_OF_CHART = 7  # BS n needs (7 - n)+ on 999.m41's chart
LARGEST = 10  # 999.m41's Strength, Toughness and Wounds stop at 10
WORST_REND = -3
TARGET_WS = 4  # read by no ranged rule of 999.m41
TYPES = {"HEAVY": "Heavy", "ASSAULT": "Assault", "PISTOL": "Pistol"}
RAPID_FIRE = re.compile(r"RAPID FIRE (\d+)$")
KINDS = (("CHARACTER", "character"), ("MONSTER", "monstrous creature"), ("INFANTRY", "infantry"))
CONTEXT = {"target_within_half_range": ("within_half_range", True), "attacker_charged": ("charged", True)}


def restate(data: Mapping[str, Any]) -> tuple[dict | None, str]:
    """The scenario in 999.m41's terms, or None and the reason it cannot be stated there."""
    weapons = []
    for weapon in data["weapons"]:
        restated, why = _weapon(weapon)
        if restated is None:
            return None, why
        weapons.append(restated)
    target, why = _target(data["target"])
    if target is None:
        return None, why
    context, why = _context(data.get("context") or {})
    if context is None:
        return None, why
    out = {"weapons": weapons, "target": target}
    if context:
        out["context"] = context
    return out, ""


def _weapon(weapon: Mapping[str, Any]) -> tuple[dict | None, str]:
    name = weapon["name"]
    if weapon.get("melee"):
        return None, f"{name}: a melee hit roll in 999.m41 reads the defender's WS, which the target does not have"
    if not isinstance(weapon["A"], int):
        return None, f"{name}: {weapon['A']} attacks; 999.m41's weapons fire a fixed number of shots"
    if weapon["D"] != 1:
        return None, f"{name}: Damage {weapon['D']}; 999.m41 has no Damage (an unsaved wound costs one wound)"
    if weapon["S"] > LARGEST:
        return None, f"{name}: Strength {weapon['S']}; 999.m41's Strength stops at {LARGEST}"
    if weapon["AP"] < WORST_REND:
        return None, f"{name}: AP {weapon['AP']}; 999.m41's armour rend goes to {WORST_REND}"
    kinds, rules = [], []
    for ability in (str(a).upper() for a in weapon.get("abilities") or []):
        rapid = RAPID_FIRE.match(ability)
        if rapid and int(rapid.group(1)) != weapon["A"]:
            return None, (f"{name}: [{ability}] adds {rapid.group(1)} attacks to A {weapon['A']}, which 999.m41's "
                          "doubling cannot state")
        if rapid or ability in TYPES:
            kinds.append("Rapid Fire" if rapid else TYPES[ability])
        elif ability == "TWIN-LINKED":
            rules.append("Twin-linked")
        else:
            return None, f"{name}: [{ability}] has no counterpart in 999.m41"
    if len(kinds) > 1:
        return None, f"{name}: {' and '.join(kinds)} at once, where 999.m41 gives a weapon one type"
    restated = {"name": name, "count": weapon["count"], "type": f"{kinds[0] if kinds else 'Assault'} {weapon['A']}",
                "BS": TOP_OF_CHART - weapon["skill"], "S": weapon["S"], "AP": weapon["AP"] if weapon["AP"] < 0 else "-"}
    if rules:
        restated["rules"] = rules
    return restated, ""


def _target(target: Mapping[str, Any]) -> tuple[dict | None, str]:
    keywords = [str(k).upper() for k in target.get("keywords") or []]
    if "VEHICLE" in keywords:
        return None, "the target is a VEHICLE, which has armour values in 999.m41, not a Toughness and a Save"
    kind = next((kind for keyword, kind in KINDS if keyword in keywords), None)
    if kind is None:
        return None, f"a target with keywords {', '.join(keywords) or 'none'} is none of 999.m41's unit types here"
    models = []
    for model in target["models"]:
        if model["T"] > LARGEST or model["W"] > LARGEST:
            return None, f"{model['name']}: T {model['T']}, W {model['W']}; 999.m41's stop at {LARGEST}"
        restated = {"name": model["name"], "count": model["count"], "WS": TARGET_WS, "T": model["T"],
                    "W": model["W"], "Sv": model["Sv"] if model["Sv"] <= 6 else "-", "kind": kind}
        restated.update({key: model[key] for key in ("InSv", "FNP") if model.get(key) is not None})
        models.append(restated)
    return {"models": models}, ""


def _context(context: Mapping[str, Any]) -> tuple[dict | None, str]:
    out: dict[str, Any] = {}
    for key, value in context.items():
        if not value:
            continue
        if key in CONTEXT:
            out[CONTEXT[key][0]] = CONTEXT[key][1]
        elif key == "attacker_moved_inches":
            out["moved"] = True
        elif key == "hit_modifier":
            out["to_hit_penalty"] = -value
        elif key == "target_has_benefit_of_cover":
            return None, "the target has the benefit of cover; 999.m41 gives a cover save by the type of cover"
        else:
            return None, f"the context's {key.replace('_', ' ')} has no counterpart in 999.m41"
    return out, ""
