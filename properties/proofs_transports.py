"""z3 proofs for transports (18), attached units (19) and strategic reserves (20).

Every builder calls the real rule functions through their modules, so a test
can swap in a broken copy (properties/test_transports_proofs.py). Two proofs are
findings (``expect="disproved"``): the rules as written fail the statement, and
the code follows the interpretation named in the finding record.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import z3

from properties.proofs import Built, proof
from rules.core import aircraft, attached_units, strategic_reserves, transports
from rules.model import Placed

TM = transports.TransportMove
MODE = transports.DisembarkMode


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _transport_move() -> tuple[Any, Any]:
    """The TRANSPORT's move this phase (0..6, TransportMove) and whether a tactical set up is possible."""
    return z3.Int("transport_move"), z3.Bool("tactical_set_up_possible")


# -- 18.04 disembark modes ------------------------------------------------------------------------


@proof("disembark-mode-always-chosen", ("18.04",),
       "Every unit eligible to disembark has exactly one disembark mode to select (combat disembark is the "
       "fallback), whatever its TRANSPORT did this phase and whether a tactical set up is possible.")
def _mode_always() -> Built:
    move, possible = _transport_move()
    on_battlefield, embarked_now = z3.Bools("transport_on_battlefield embarked_this_phase")
    eligible = transports.disembark_eligible(on_battlefield, embarked_now, move)
    mode = transports.disembark_mode(move, possible)
    goal = z3.Or(mode == int(MODE.RAPID), mode == int(MODE.TACTICAL), mode == int(MODE.COMBAT))
    return [_between(move, TM.NOT_SELECTED, TM.OTHER), eligible], goal, {
        "transport_move": move, "tactical_set_up_possible": possible, "transport_on_battlefield": on_battlefield,
        "embarked_this_phase": embarked_now}


@proof("disembark-modes-mutually-exclusive", ("18.04",),
       "For an eligible unit the rapid and tactical conditions, as printed, never hold together, and the mode "
       "selected is the one whose own condition holds: the order of assessment never changes the mode.")
def _modes_exclusive() -> Built:
    move, possible = _transport_move()
    rows = transports.DISEMBARK_MODE.rows
    rapid = rows[0].when(transport_move=move, tactical_set_up_possible=possible)
    tactical = rows[1].when(transport_move=move, tactical_set_up_possible=possible)
    mode = transports.disembark_mode(move, possible)
    goal = z3.And(z3.Not(z3.And(rapid, tactical)),
                  (mode == int(MODE.RAPID)) == rapid, (mode == int(MODE.TACTICAL)) == tactical,
                  (mode == int(MODE.COMBAT)) == z3.And(z3.Not(rapid), z3.Not(tactical)))
    eligible = transports.disembark_eligible(True, False, move)
    return [_between(move, TM.NOT_SELECTED, TM.OTHER), eligible], goal, {
        "transport_move": move, "tactical_set_up_possible": possible}


@proof("rapid-disembark-forced-after-ingress", ("18.04", "20.04"),
       "After its TRANSPORT made an ingress (or normal) move this phase a unit must rapid disembark, even where a "
       "tactical set up would be possible.")
def _rapid_forced() -> Built:
    move, possible = _transport_move()
    goal = transports.disembark_mode(move, possible) == int(MODE.RAPID)
    return [z3.Or(move == int(TM.INGRESS), move == int(TM.NORMAL))], goal, {
        "transport_move": move, "tactical_set_up_possible": possible}


@proof("combat-disembark-when-tactical-cannot-set-up", ("18.04",),
       "A unit whose TRANSPORT remained stationary or has not moved yet, but which cannot be set up for a tactical "
       "disembark, must combat disembark (it is never left without a mode).")
def _combat_fallback() -> Built:
    move, possible = _transport_move()
    goal = transports.disembark_mode(move, possible) == int(MODE.COMBAT)
    pre = [z3.Or(move == int(TM.REMAINED_STATIONARY), move == int(TM.NOT_SELECTED)), z3.Not(possible)]
    return pre, goal, {"transport_move": move, "tactical_set_up_possible": possible}


def _two_bases() -> tuple[Placed, Placed, dict[str, Any]]:
    mx, my, mz, tx, ty, tz = z3.Reals("model_x model_y model_z transport_x transport_y transport_z")
    return (Placed(mx, my, base_mm="32", z=mz), Placed(tx, ty, base_mm="100", z=tz),
            {"model_x": mx, "model_y": my, "model_z": mz, "transport_x": tx, "transport_y": ty, "transport_z": tz})


@proof("combat-disembark-allows-every-tactical-position", ("18.04",),
       "Every position a tactical disembark allows a model is also allowed to a combat disembark (6\" instead of "
       "3\", engagement allowed), so combat disembark can set up wherever tactical could.")
def _combat_superset() -> Built:
    model, transport, symbols = _two_bases()
    engaged, only_transports, ingressed, meets = z3.Bools(
        "engaged engaged_only_with_transports_opponents transport_ingressed_this_turn meets_ingress_restrictions")

    def allowed(mode: int) -> Any:
        return transports.disembark_position_allowed(mode, model, transport, engaged, only_transports, ingressed, meets)

    goal = z3.Implies(allowed(int(MODE.TACTICAL)), allowed(int(MODE.COMBAT)))
    return [], goal, {**symbols, "engaged": engaged, "engaged_only_with_transports_opponents": only_transports,
                      "transport_ingressed_this_turn": ingressed, "meets_ingress_restrictions": meets}


@proof("rapid-disembark-keeps-ingress-restrictions", ("18.04", "20.04"),
       "A model that rapid disembarks from a TRANSPORT that made an ingress move this turn is set up more than 8\" "
       "from all enemy units and, before the third battle round, outside the opponent's deployment zone.")
def _rapid_restrictions() -> Built:
    model, transport, symbols = _two_bases()
    engaged, only_transports, far, in_zone = z3.Bools(
        "engaged engaged_only_with_transports_opponents more_than_8_from_enemies in_opponents_deployment_zone")
    battle_round = z3.Int("battle_round")
    meets = strategic_reserves.ingress_restrictions_met(far, in_zone, battle_round)
    allowed = transports.disembark_position_allowed(int(MODE.RAPID), model, transport, engaged, only_transports, True,
                                                    meets)
    goal = z3.Implies(allowed, z3.And(far, z3.Implies(battle_round < 3, z3.Not(in_zone))))
    return [_between(battle_round, 1, 5)], goal, {
        **symbols, "engaged": engaged, "engaged_only_with_transports_opponents": only_transports,
        "more_than_8_from_enemies": far, "in_opponents_deployment_zone": in_zone, "battle_round": battle_round}


# -- 18.01 / 18.02 embarking ------------------------------------------------------------------------


def _embark_symbols() -> dict[str, Any]:
    names = ("battle_round_started after_normal_advance_or_fall_back every_model_within_3 set_up_this_turn "
             "eligible_per_datasheet friendly").split()
    symbols: dict[str, Any] = {name: z3.Bool(name) for name in names}
    symbols.update({name: z3.Int(name) for name in ("capacity", "used", "needed")})
    return symbols


@proof("embarking-never-exceeds-capacity", ("18.01", "18.02"),
       "A unit allowed to embark always fits: the places already taken plus its own never exceed the TRANSPORT's "
       "capacity, however many units share it.")
def _capacity() -> Built:
    s = _embark_symbols()
    allowed = transports.may_embark(**s)
    goal = z3.Implies(allowed, s["used"] + s["needed"] <= s["capacity"])
    return [s["used"] >= 0, s["needed"] >= 1, s["capacity"] >= 0], goal, s


@proof("no-embark-disembark-loop", ("18.02", "18.04"),
       "A unit cannot embark after being set up this turn (e.g. by disembarking), nor disembark in the phase it "
       "embarked, so it never shuttles in and out of a TRANSPORT within a phase.")
def _no_loop() -> Built:
    s = _embark_symbols()
    move = z3.Int("transport_move")
    on_battlefield = z3.Bool("transport_on_battlefield")
    embark_after_set_up = transports.may_embark(**{**s, "set_up_this_turn": True})
    disembark_after_embark = transports.disembark_eligible(on_battlefield, True, move)
    goal = z3.And(z3.Not(embark_after_set_up), z3.Not(disembark_after_embark))
    return [_between(move, TM.NOT_SELECTED, TM.OTHER)], goal, {
        **{k: v for k, v in s.items() if k != "set_up_this_turn"}, "transport_move": move,
        "transport_on_battlefield": on_battlefield}


# -- 18.05 emergency disembark -------------------------------------------------------------------------


@proof("emergency-disembark-accounts-for-every-model", ("18.05",),
       "An emergency disembark sets up as many models as can be placed and destroys exactly the rest: none is "
       "lost track of, and none is destroyed if all fit.")
def _emergency() -> Built:
    models, placeable = z3.Ints("models placeable")
    kept, lost = transports.emergency_disembark_outcome(models, placeable)
    goal = z3.And(kept + lost == models, kept >= 0, lost >= 0, kept <= placeable,
                  z3.Implies(placeable >= models, lost == 0), z3.Implies(placeable <= models, kept == placeable))
    return [models >= 1, placeable >= 0], goal, {"models": models, "placeable": placeable}


# -- 20.01 strategic reserves limit ------------------------------------------------------------------------


@proof("reserves-limit-is-half", ("20.01",),
       "Strategic reserves worth exactly half the points limit are allowed and one point more is not; and "
       "removing units never breaks the limit.")
def _half() -> Built:
    half, points, fewer = z3.Ints("half points fewer")
    within = strategic_reserves.reserves_within_limit
    goal = z3.And(within(half, 2 * half), z3.Not(within(half + 1, 2 * half)),
                  z3.Implies(within(points, 2 * half), within(fewer, 2 * half)))
    return [half >= 0, _between(fewer, 0, points)], goal, {"half": half, "points": points, "fewer": fewer}


@proof("reserves-formation-always-possible", ("20.01", "23.01"),
       "Whatever points of AIRCRAFT must go into strategic reserves, the player can always declare a legal battle "
       "formation (selecting nothing more), and any unit they do select keeps the total within 50%.")
def _formation() -> Built:
    selected, aircraft_points, limit = z3.Ints("selected_points aircraft_points points_limit")
    is_aircraft = z3.Bool("has_aircraft")
    required = z3.If(aircraft.must_be_placed_in_strategic_reserves(is_aircraft), aircraft_points, 0)
    legal = strategic_reserves.reserves_selection_legal
    goal = z3.And(legal(0, required, limit),
                  z3.Implies(z3.And(selected > 0, legal(selected, required, limit)),
                             strategic_reserves.reserves_within_limit(selected + required, limit)))
    return [selected >= 0, aircraft_points >= 0, limit >= 0], goal, {
        "selected_points": selected, "aircraft_points": aircraft_points, "points_limit": limit,
        "has_aircraft": is_aircraft}


@proof("reserves-limit-as-written-traps-aircraft", ("20.01", "23.01"),
       "As written (every strategic reserves unit counted against 50% of the points limit, AIRCRAFT always placed "
       "there), every army has a legal Declare Battle Formations choice.", expect="disproved")
def _aircraft_finding() -> Built:
    aircraft_points, limit = z3.Ints("aircraft_points points_limit")
    must = aircraft.must_be_placed_in_strategic_reserves(True)
    # The least the player can place is the AIRCRAFT alone; 20.01 as written limits that total too.
    least = z3.If(must, aircraft_points, 0)
    pre = [z3.Or(limit == 1000, limit == 2000, limit == 3000), _between(aircraft_points, 0, limit)]
    return pre, strategic_reserves.reserves_within_limit(least, limit), {
        "aircraft_points": aircraft_points, "points_limit": limit}


# -- 20.03 end of the third battle round ------------------------------------------------------------------

_RESERVE_FLAGS = ("in_reserves otherwise_stated made_ingress_move embarked transport_made_ingress_move repositioned "
                  "transport_repositioned").split()


def _fate_of_passenger_and_transport(destroyed: Any) -> Built:
    """A passenger in a strategic reserves TRANSPORT, and that TRANSPORT, at the end of battle round 3."""
    p = {name: z3.Bool(f"passenger_{name}") for name in ("otherwise_stated", "made_ingress_move", "repositioned")}
    t = {name: z3.Bool(f"transport_{name}") for name in ("otherwise_stated", "made_ingress_move", "repositioned")}
    passenger = destroyed(in_reserves=True, otherwise_stated=p["otherwise_stated"],
                          made_ingress_move=p["made_ingress_move"], embarked=True,
                          transport_made_ingress_move=t["made_ingress_move"], repositioned=p["repositioned"],
                          transport_repositioned=t["repositioned"])
    carrier = destroyed(in_reserves=True, otherwise_stated=t["otherwise_stated"],
                        made_ingress_move=t["made_ingress_move"], embarked=False, transport_made_ingress_move=False,
                        repositioned=t["repositioned"], transport_repositioned=False)
    # A passenger still inside cannot have made an ingress move or been repositioned on its own, and a rule
    # stating otherwise for the one is taken to state it for both.
    pre = [z3.Not(p["made_ingress_move"]), z3.Not(p["repositioned"]), p["otherwise_stated"] == t["otherwise_stated"]]
    symbols = {f"passenger_{k}": v for k, v in p.items()} | {f"transport_{k}": v for k, v in t.items()}
    return pre, z3.Implies(passenger, carrier), symbols


@proof("passengers-share-transport-fate", ("20.03",),
       "At the end of the third battle round a unit embarked within a strategic reserves TRANSPORT is destroyed "
       "only if that TRANSPORT is.")
def _passengers() -> Built:
    return _fate_of_passenger_and_transport(lambda **facts: strategic_reserves.destroyed_at_end_of_third_round(**facts))


def destruction_as_written() -> Any:
    """20.03's destruction with only the book's two exceptions (no row for passengers of repositioned TRANSPORTS)."""
    table = strategic_reserves.DESTROYED_AT_END_OF_THIRD_ROUND
    rows = tuple(row for row in table.rows if not row.label.startswith("embarked within a repositioned"))
    return dataclasses.replace(table, name="reserves-destroyed-as-written", rows=rows)


@proof("passengers-of-repositioned-transport-as-written", ("20.03", "20.02"),
       "With only the two printed exceptions, a unit embarked within a strategic reserves TRANSPORT is destroyed at "
       "the end of the third battle round only if that TRANSPORT is.", expect="disproved")
def _passengers_finding() -> Built:
    return _fate_of_passenger_and_transport(destruction_as_written())


@proof("reserves-exceptions-spare-arrivals", ("20.03",),
       "At the end of the third battle round no unit that made an ingress move, was repositioned, or is embarked "
       "within a TRANSPORT that made an ingress move is destroyed; every other strategic reserves unit is (unless "
       "a rule states otherwise).")
def _exceptions() -> Built:
    s = {name: z3.Bool(name) for name in _RESERVE_FLAGS}
    destroyed = strategic_reserves.destroyed_at_end_of_third_round(**s)
    spared = z3.Or(s["made_ingress_move"], s["repositioned"], s["transport_made_ingress_move"],
                   s["transport_repositioned"], s["otherwise_stated"], z3.Not(s["in_reserves"]))
    pre = [z3.Implies(s["transport_made_ingress_move"], s["embarked"]),
           z3.Implies(s["transport_repositioned"], s["embarked"])]
    return pre, destroyed == z3.Not(spared), s


@proof("reserves-arrive-from-round-two-by-themselves", ("20.03", "20.04"),
       "Unless a rule states otherwise, no strategic reserves unit arrives in the first battle round, and a unit "
       "embarked within a TRANSPORT in strategic reserves never makes an ingress move of its own.")
def _arrival() -> Built:
    battle_round = z3.Int("battle_round")
    in_reserves = z3.Bool("in_reserves")
    goal = z3.And(z3.Not(strategic_reserves.may_arrive_in_round(1)),
                  strategic_reserves.may_arrive_in_round(battle_round) == (battle_round >= 2),
                  z3.Not(strategic_reserves.ingress_eligible(in_reserves, True)))
    return [_between(battle_round, 1, 5)], goal, {"battle_round": battle_round, "in_reserves": in_reserves}


@proof("ingress-position-restrictions", ("20.04",),
       "A legal ingress position is always wholly within 6\" of the battlefield edges and more than 8\" from all "
       "enemy units, and before the third battle round never in the opponent's deployment zone.")
def _ingress_position() -> Built:
    edge, far, in_zone = z3.Bools("wholly_within_6_of_edges more_than_8_from_enemies in_opponents_deployment_zone")
    battle_round = z3.Int("battle_round")
    allowed = strategic_reserves.ingress_position_allowed(edge, far, in_zone, battle_round)
    goal = z3.Implies(allowed, z3.And(edge, far, z3.Implies(battle_round < 3, z3.Not(in_zone))))
    return [_between(battle_round, 1, 5)], goal, {
        "wholly_within_6_of_edges": edge, "more_than_8_from_enemies": far, "in_opponents_deployment_zone": in_zone,
        "battle_round": battle_round}


# -- 19 attached units -------------------------------------------------------------------------------


@proof("one-leader-and-one-support-per-bodyguard", ("19.01",),
       "Unless a rule states otherwise, a bodyguard unit never gets a second leader unit or a second support unit, "
       "but can have one of each; and only in the Muster Armies step.")
def _one_each() -> Built:
    muster, can_lead, leading = z3.Bools("muster_armies_step can_lead already_leading")
    leaders, supports = z3.Ints("bodyguard_leaders bodyguard_supports")
    lead = attached_units.may_lead
    role = attached_units.Role
    goal = z3.And(
        z3.Implies(leaders >= 1, z3.Not(lead(int(role.LEADER), muster, can_lead, leading, leaders, supports))),
        z3.Implies(supports >= 1, z3.Not(lead(int(role.SUPPORT), muster, can_lead, leading, leaders, supports))),
        lead(int(role.SUPPORT), True, True, False, 1, 0), lead(int(role.LEADER), True, True, False, 0, 1),
        z3.Not(lead(int(role.LEADER), False, can_lead, leading, leaders, supports)))
    return [leaders >= 0, supports >= 0], goal, {
        "muster_armies_step": muster, "can_lead": can_lead, "already_leading": leading, "bodyguard_leaders": leaders,
        "bodyguard_supports": supports}


@proof("destroyed-triggers-only-for-the-whole-attached-unit", ("19.02",),
       "For an attached unit whose models all started the battle in it, rules triggered when a unit is destroyed "
       "trigger exactly when its last model is destroyed, never when only a component unit is wiped out.")
def _triggers() -> Built:
    models_left = z3.Int("models_left")
    goal = attached_units.destroyed_rules_trigger(True, models_left, True, models_left) == (models_left == 0)
    return [models_left >= 0], goal, {"models_left": models_left}


_ABILITY_NAMES = ("affects_single_model model_is_that_model source_alive attack_resolving while_leading_ability "
                  "bodyguard_alive started_battle_attached").split()


def _ability_symbols() -> dict[str, Any]:
    symbols: dict[str, Any] = {name: z3.Bool(name) for name in _ABILITY_NAMES}
    symbols["source"] = z3.Int("source")
    return symbols


def _ability_domain(s: dict[str, Any]) -> list[Any]:
    src = attached_units.Source
    return [_between(s["source"], src.LEADER_OR_SUPPORT, src.SPECIFIC_MODEL),
            z3.Implies(s["attack_resolving"], z3.Not(s["source_alive"])),
            z3.Implies(s["source"] == int(src.BODYGUARD), s["source_alive"] == s["bodyguard_alive"])]


@proof("attached-ability-table-covers-every-possible-state", ("19.04",),
       "The 19.04 table is checked over exactly the states an attached unit can be in: an attack is still being "
       "resolved only once it has destroyed the source's last model, and a bodyguard source has a model left "
       "exactly when the bodyguard unit does.")
def _ability_table_domain() -> Built:
    table = attached_units.ATTACHED_ABILITY
    s = table.symbols()
    return [], table.domain(s) == z3.And(*_ability_domain(s)), s


@proof("attached-abilities-last-while-their-source", ("19.04",),
       "An ability conferred on an attached unit applies while its source has a model left or, if an attack "
       "destroyed that last model, until the attacking unit has resolved its attacks, and no longer; a revived "
       "source confers it again; a single-model ability never reaches another model.")
def _durations() -> Built:
    s = _ability_symbols()
    applies = attached_units.ability_applies(**s)
    star = z3.And(s["source"] == int(attached_units.Source.LEADER_OR_SUPPORT), s["while_leading_ability"],
                  z3.Not(s["bodyguard_alive"]))
    unit_wide = z3.And(z3.Not(s["affects_single_model"]), z3.Not(star))
    goal = z3.And(z3.Implies(unit_wide, applies == z3.Or(s["source_alive"], s["attack_resolving"])),
                  z3.Implies(z3.And(s["affects_single_model"], z3.Not(s["model_is_that_model"])), z3.Not(applies)))
    return _ability_domain(s), goal, s


@proof("while-leading-ability-needs-a-battle-start-attached", ("19.04",),
       "Once its bodyguard unit is destroyed, a living leader/support unit keeps its own 'while leading' abilities "
       "exactly when it started the battle in an attached unit.")
def _star() -> Built:
    s = _ability_symbols()
    facts = {**s, "affects_single_model": False, "source": int(attached_units.Source.LEADER_OR_SUPPORT),
             "source_alive": True, "attack_resolving": False, "while_leading_ability": True, "bodyguard_alive": False}
    goal = attached_units.ability_applies(**facts) == s["started_battle_attached"]
    return [], goal, {"started_battle_attached": s["started_battle_attached"],
                      "model_is_that_model": s["model_is_that_model"]}
