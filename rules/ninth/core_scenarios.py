"""The Core Rules' attack scenarios restated in the earlier edition's terms, for the review's sweep
(``rules40k review ninth core``): the same weapon, model and target numbers, the weapon's type read from its Core
Rules abilities. A matchup that needs something the earlier edition does not have is not comparable, and says why.

The restatement is a reading, stated here, not a rule of either edition:

- [RAPID FIRE X] is the type Rapid Fire where X equals A (the Core Rules add X attacks at half range, the earlier
  edition doubles A: the same number only then); [HEAVY], [ASSAULT] and [PISTOL] are those types; a melee weapon is
  Melee; a ranged weapon with none of them is read as an Assault weapon, whose rule acts only after an Advance,
  which no matchup of the grid makes;
- [BLAST] is the ability Blast; any other ability ([LETHAL HITS], [SUSTAINED HITS], [DEVASTATING WOUNDS], [ANTI],
  [TORRENT], [MELTA], [TWIN-LINKED], [LANCE], ...) has no counterpart, so the matchup is not compared;
- a squad's weapon (a count above 1) is carried by INFANTRY, a lone weapon is not (the earlier edition's Heavy
  penalty reads it); the benefit of cover is the earlier edition's terrain rules, which its calculator does not
  read, so a matchup in cover is not compared.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

TYPES = {"HEAVY": "Heavy", "ASSAULT": "Assault", "PISTOL": "Pistol"}
RAPID_FIRE = re.compile(r"RAPID FIRE (\d+)$")


def restate(data: Mapping[str, Any]) -> tuple[dict | None, str]:
    """The scenario in the earlier edition's terms, or None and the reason it cannot be stated there."""
    context = dict(data.get("context") or {})
    if context.get("target_has_benefit_of_cover"):
        return None, "the target has the benefit of cover, which the earlier edition's terrain rules decide"
    weapons = []
    for weapon in data["weapons"]:
        restated, why = _weapon(weapon)
        if restated is None:
            return None, why
        weapons.append(restated)
    if any(w["count"] > 1 and w.get("type") != "Melee" for w in weapons):
        context["attacker_infantry"] = True
    context.pop("attacker_charged", None)  # read by [LANCE] only, which is not restated
    out = {**data, "weapons": weapons}
    if context or "context" in data:
        out["context"] = context
    return out, ""


def _weapon(weapon: Mapping[str, Any]) -> tuple[dict | None, str]:
    abilities = [str(a).upper() for a in weapon.get("abilities") or []]
    kinds, kept = (["Melee"] if weapon.get("melee") else []), []
    for ability in abilities:
        rapid = RAPID_FIRE.match(ability)
        if rapid:
            if str(rapid.group(1)) != str(weapon["A"]):
                return None, (f"{weapon['name']}: [{ability}] adds {rapid.group(1)} attacks to A {weapon['A']}, which "
                              "the earlier edition's doubling cannot state")
            kinds.append("Rapid Fire")
        elif ability in TYPES:
            kinds.append(TYPES[ability])
        elif ability == "BLAST":
            kept.append("Blast")
        else:
            return None, f"{weapon['name']}: [{ability}] has no counterpart in the earlier edition"
    if len(kinds) > 1:
        return None, f"{weapon['name']}: {' and '.join(kinds)} at once, where the earlier edition gives a weapon one type"
    restated = {key: value for key, value in weapon.items() if key != "abilities"}
    restated["type"] = kinds[0] if kinds else "Assault"
    if kept:
        restated["abilities"] = kept
    return restated, ""
