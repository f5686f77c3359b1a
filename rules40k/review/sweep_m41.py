"""The 999.m41 matchups a review sweeps: infantry, monstrous creatures and vehicles, each weapon against each target.

``outcomes()`` answers every matchup with the m41 calculator (rules.calculator.calculate, which hands a vehicle
to rules.m41.vehicle_attacks) under whatever rule functions are in place, so the review (variant_probe.py) calls
it with and without a variant's overrides. Model targets give the expected models destroyed; vehicle targets the
chance the vehicle is destroyed and the expected hull points lost. Profiles are 004's or the usual ones of the era.
"""

from __future__ import annotations

from fractions import Fraction

WEAPONS = {
    "10 boltguns": {"count": 10, "type": "Rapid Fire 1", "S": 4, "AP": 5, "BS": 4},
    "10 lasguns": {"count": 10, "type": "Rapid Fire 1", "S": 3, "AP": "-", "BS": 3},
    "twin-linked heavy bolter": {"count": 1, "type": "Heavy 3", "S": 5, "AP": 4, "BS": 4, "rules": ["Twin-linked"]},
    "2 autocannons": {"count": 2, "type": "Heavy 2", "S": 7, "AP": 4, "BS": 4},
    "lascannon": {"count": 1, "type": "Heavy 1", "S": 9, "AP": 2, "BS": 4},
    "5 poisoned needlers": {"count": 5, "type": "Assault 2", "S": 1, "AP": 5, "BS": 4, "rules": ["Poisoned (4+)"]},
    # Twin-linked with another re-roll: the case revision 007's twin-linked note is about ("so it explicitly stacks
    # with other re-rolls"); Hatred re-rolls failed hits in the first round of a combat.
    "5 twin-linked claws with Hatred, charging": {"count": 5, "type": "Melee", "S": 4, "AP": 5, "WS": 4, "A": 1,
                                                  "rules": ["Twin-linked", "Hatred"]},
}
#: What a weapon's matchups assume beyond the defaults (nothing moved, beyond half range, not charging).
CONTEXT = {"5 twin-linked claws with Hatred, charging": {"charged": True, "first_round": True}}

MODELS = {
    "10 Guardsmen (T3 5+)": {"count": 10, "WS": 3, "T": 3, "W": 1, "Sv": 5},
    "5 Space Marines (T4 3+)": {"count": 5, "WS": 4, "T": 4, "W": 1, "Sv": 3},
    "5 Terminators (T4 2+, 5++)": {"count": 5, "WS": 4, "T": 4, "W": 1, "Sv": 2, "InSv": 5},
    "3 Ogryns (T5 W3 5+)": {"count": 3, "WS": 4, "T": 5, "W": 3, "Sv": 5},
    "Wraithlord (T8 W3 3+)": {"count": 1, "WS": 4, "T": 8, "W": 3, "Sv": 3, "kind": "monstrous creature"},
    "5 Storm Guardians (T3 5+, 6++) in light cover": {"count": 5, "WS": 4, "T": 3, "W": 1, "Sv": 5, "InSv": 6},
}
COVER = {"5 Storm Guardians (T3 5+, 6++) in light cover": "light"}  # three saves: where their order and floor tell

VEHICLES = {
    "Rhino (AV11 front, 3 HP)": {"front": 11, "side": 11, "rear": 10, "HP": 3},
    "Land Raider (AV14 front, 4 HP)": {"front": 14, "side": 14, "rear": 14, "HP": 4},
}


VEHICLE_WEAPON_STRENGTH = 5  # against vehicles only S5 and up: S4 + D6 never beats AV11, so those rows are all zero


def matchups() -> dict[str, dict]:
    """Every weapon against every target, by name, as m41 scenario mappings."""
    out = {}
    for weapon, profile in WEAPONS.items():
        shooter = {"name": weapon, **profile}
        for target, model in MODELS.items():
            out[f"{weapon} at {target}"] = {"weapons": [shooter], "target": {"models": [{"name": target, **model}],
                                                                             "cover": COVER.get(target)},
                                            "context": CONTEXT.get(weapon, {})}
        for target, vehicle in VEHICLES.items() if profile["S"] >= VEHICLE_WEAPON_STRENGTH else ():
            out[f"{weapon} at {target}"] = {"weapons": [shooter],
                                            "target": {"vehicle": {"name": target, **vehicle}, "facing": "front"}}
    return out


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def outcomes() -> dict[str, dict]:
    """Each matchup's outcome, exact "p/q": {"measure": "models destroyed", "value"} for models, {"measure": "hull
    points lost", "value", "destroyed"} for a vehicle (the expected count, the chance it is destroyed, the expected
    damage results it suffers, counting those a worse result bestows, and the expected vehicle damaged
    sub-results), or {"error"} where the calculator refuses it."""
    from rules import calculator
    from rules.m41.vehicle_attacks import VehicleResult

    out = {}
    for name, data in matchups().items():
        try:  # calc's front door: the m41 reader and calculator.calculate answer a vehicle target too
            result = calculator.calculate(calculator.scenario_reader("m41")(data), ruleset="m41")
            if isinstance(result, VehicleResult):
                mean = sum((lost * p for lost, p in result.hull_points_lost.items()), Fraction(0))
                suffered = sum((n * p for dist in result.results_suffered.values() for n, p in dist.items()),
                               Fraction(0))
                out[name] = {"measure": "hull points lost", "value": _ratio(mean), "destroyed": _ratio(result.destroyed),
                             "damage results suffered": _ratio(suffered),
                             "damaged sub-results": _ratio(sum(result.sub_results.values(), Fraction(0)))}
            else:
                out[name] = {"measure": "models destroyed", "value": _ratio(result.expected_models_destroyed)}
        except Exception as error:  # noqa: BLE001 - a refusal is an outcome of the sweep, not a crash
            out[name] = {"error": (str(error).strip().splitlines() or [type(error).__name__])[0]}
    return out
