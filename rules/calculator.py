"""The exact attack outcome calculator: chapters 04-06 and the weapon abilities, end to end.

Every probability is an exact rational (GMP's mpq inside, ``Fraction`` in the
result), never a float; the result is a distribution over the
state of the target unit after all weapons have attacked, in the listed order,
with damage carrying over. The sequence follows the rule functions step by step:

1. attack dice per weapon (A, [BLAST], [CLEAVE], [RAPID FIRE]: 04.03, 24.05/.06/.30);
2. each attack's hit roll (05.01 or 10.07/15.09; [TORRENT], [SUSTAINED HITS], [LETHAL HITS]);
3. each hit's wound roll (05.02; [ANTI], [LANCE], [TWIN-LINKED], [DEVASTATING WOUNDS]);
4. save rolls for the wounds, resolved lowest result first into the current
   allocation group (05.03-05.04, [PRECISION]), damage per attack with Feel No
   Pain per wound, excess damage lost with the model;
5. mortal wounds from critical wounds, after the normal damage, at most one
   model per critical wound (24.10, 06.02).

The unit state is a tuple with one ``(alive, top)`` pair per allocation group:
how many of its models are alive, and the remaining wounds of the one model
that takes the next attack (a wounded one if there is one, else a fresh one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, Callable, Mapping

import gmpy2

from rules import dice
from rules.core import attached_units, attack_sequence, core_abilities, monsters_and_vehicles, shooting_phase
from rules.core import other_concepts, other_rules, stratagems, terrain
from rules.core.attack_sequence import Hit, Save, Wound
from rules.core.datasheets import has_keyword
from rules.scenario import Scenario, WeaponSpec

Dist = dict
State = tuple[tuple[int, int], ...]

# Exact rationals: GMP's mpq inside the calculator (an order of magnitude faster than
# fractions.Fraction), converted to Fraction at the boundary. Never floats.
Q = gmpy2.mpq
ONE, ZERO, SIXTH = Q(1), Q(0), Q(1, 6)


def exact(value: Any) -> Any:
    """A Fraction (or int) as the calculator's rational type."""
    if isinstance(value, Fraction):
        return Q(value.numerator, value.denominator)
    return Q(value)


def to_fraction(value: Any) -> Fraction:
    """The calculator's rational back as a Fraction, for callers and JSON."""
    return Fraction(int(value.numerator), int(value.denominator))


def _fractions(dist: Mapping) -> Dist:
    return {k: to_fraction(p) for k, p in dist.items()}


def _mean(dist: Mapping) -> Any:
    return sum((k * p for k, p in dist.items()), ZERO)


def _exact_dist(dist: Mapping) -> Dist:
    return {k: exact(p) for k, p in dist.items()}


@dataclass(frozen=True)
class Group:
    """An allocation group's fixed characteristics (05.03)."""

    name: str
    count: int
    W: int
    Sv: int
    InSv: int | None
    FNP: int | None
    character: bool
    role: str
    T: int


@dataclass(frozen=True)
class WeaponPlan:
    """What one weapon's attacks do against a unit of a given Toughness, as exact distributions."""

    weapon: WeaponSpec
    attacks: Mapping[int, Any]
    hit: Mapping[Hit, Any]
    wound: Mapping[Wound, Any]
    per_attack: Mapping[tuple[int, int], Any]
    damage: Mapping[int, Any]
    devastating: bool
    precision: bool
    skill: int
    hit_modifier: int
    required: int
    critical: int
    wound_modifier: int
    hazard_rolls: int

    @cached_property
    def wound_events(self) -> Dist:
        """Chance of each (wounds to save, critical wounds) pair over all the weapon's attacks.

        Only the literal engine and the calculator's properties need it: the fast
        engine never pools the wounds, and this costs the square of the attacks.
        """
        add2 = lambda a, b: (a[0] + b[0], a[1] + b[1])  # noqa: E731
        powers = _power(self.per_attack, max(self.attacks), (0, 0), add2)
        events: Dist = {}
        for n, p in self.attacks.items():
            for key, q in powers[n].items():
                _add(events, key, p * q)
        return events


@dataclass
class Result:
    """The calculator's answer: distributions of the unit state and of the headline numbers."""

    scenario: Scenario
    groups: tuple[Group, ...]
    states: Dist
    models_destroyed: Dist
    wounds_lost: Dist
    steps: list[dict]

    @property
    def expected_models_destroyed(self) -> Fraction:
        return dice.expected(self.models_destroyed)

    @property
    def expected_wounds_lost(self) -> Fraction:
        return dice.expected(self.wounds_lost)


def _add(dist: Dist, key, p) -> None:
    if p:
        dist[key] = dist.get(key, ZERO) + p


def rerolled(single: Mapping, again: Callable[[Any], Any]) -> Dist:
    """One roll's outcomes when a result that ``again(result)`` accepts is re-rolled once: the second result
    stands, whatever it is (``single`` is the distribution of one roll)."""
    out: Dist = {}
    for first, p in single.items():
        if again(first):
            for second, q in single.items():
                _add(out, second, p * q)
        else:
            _add(out, first, p)
    return out


def _convolve(a: Mapping, b: Mapping, add=lambda x, y: x + y) -> Dist:
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            _add(out, add(x, y), px * py)
    return out


def _power(dist: Mapping, n: int, zero, add) -> list[Dist]:
    """dist convolved with itself 0..n times."""
    powers = [{zero: ONE}]
    for _ in range(n):
        powers.append(_convolve(powers[-1], dist, add))
    return powers


def _as_dist(value) -> Dist:
    if isinstance(value, dice.DiceExpression):
        return _exact_dist(dice.distribution(value))
    return {int(value): ONE}


@lru_cache(maxsize=None)
def _inflicts(roll: int, ap: int, sv: int, insv: int) -> bool:
    """05.04's save table, remembered: it is pure and asked the same few questions many times."""
    return attack_sequence.save_check(roll, ap, sv, insv) == Save.INFLICTS_DAMAGE


@lru_cache(maxsize=None)
def binomial(n: int, p) -> tuple:
    """P(k successes in n trials), k = 0..n, exactly (p given as a Fraction or an mpq)."""
    p = exact(p) if isinstance(p, Fraction) else p
    q = 1 - p
    return tuple(math.comb(n, k) * p ** k * q ** (n - k) for k in range(n + 1))


class Calculator:
    """Exact outcome of a scenario; build once, then ``run()``."""

    def __init__(self, scenario: Scenario, engine: str = "chain"):
        if engine not in ("chain", "literal"):
            raise ValueError(f"unknown engine {engine!r}: chain or literal")
        self.scenario = scenario
        self.engine = engine
        self.groups = self._make_groups()
        self.initial: State = tuple((g.count, g.W) for g in self.groups)
        self.initial_models = sum(g.count for g in self.groups)
        self._plans: dict = {}
        self._saves: dict = {}
        self._damage: dict = {}
        self._mortal: dict = {}
        self._lost: dict = {}

    # -- groups (05.03) --------------------------------------------------------------

    def _make_groups(self) -> tuple[Group, ...]:
        groups: list[Group] = []
        keys: dict = {}
        index = 0
        for spec in self.scenario.models:
            for copy in range(spec.count if spec.character else 1):
                key = attack_sequence.group_key(spec.character, index, spec.W, spec.Sv, spec.InSv)
                index += 1
                name = spec.name if not spec.character or spec.count == 1 else f"{spec.name} {copy + 1}"
                count = 1 if spec.character else spec.count
                if key in keys:
                    old = groups[keys[key]]
                    if (old.FNP, old.T, old.role) != (spec.FNP, spec.T, spec.role):
                        raise ValueError(f"models {old.name!r} and {spec.name!r} share an allocation group "
                                         "(same W, Sv and InSv) but differ in FNP, T or role; the calculator "
                                         "cannot tell which model of the group takes each attack")
                    groups[keys[key]] = Group(old.name, old.count + count, old.W, old.Sv, old.InSv, old.FNP,
                                              old.character, old.role, old.T)
                else:
                    keys[key] = len(groups)
                    groups.append(Group(name, count, spec.W, spec.Sv, spec.InSv, spec.FNP, spec.character,
                                        spec.role, spec.T))
        return tuple(groups)

    def toughness(self, state: State) -> int:
        """19.02: the highest T among the bodyguard models left, else among the leader/support models."""
        bodyguard = [g.T for g, (alive, _) in zip(self.groups, state) if alive and g.role == "bodyguard"]
        leaders = [g.T for g, (alive, _) in zip(self.groups, state) if alive and g.role != "bodyguard"]
        return attached_units.attached_unit_toughness(bodyguard, leaders)

    def allocation_order(self, state: State) -> tuple[int, ...]:
        """05.03 at the start of a save step: the defender's order, or listed order within the rules."""
        groups = [attack_sequence.Group(g.name, g.character, top < g.W and alive > 0)
                  for g, (alive, top) in zip(self.groups, state)]
        chosen = self.scenario.choices.allocation_order
        if chosen:
            rank = {name: i for i, name in enumerate(chosen)}
            proposal = sorted(range(len(groups)), key=lambda i: (rank.get(self.groups[i].name, len(rank)), i))
            if attack_sequence.allocation_order_is_legal([groups[i] for i in proposal]):
                return tuple(proposal)
        ordered = attack_sequence.default_allocation_order(groups)
        return tuple(groups.index(g) for g in ordered)

    # -- per-weapon plan (attack dice, hit and wound rolls) -------------------------------

    def plan(self, weapon: WeaponSpec, toughness: int) -> WeaponPlan:
        key = (weapon, toughness)
        if key not in self._plans:
            self._plans[key] = self._plan(weapon, toughness)
        return self._plans[key]

    def _plan(self, weapon: WeaponSpec, toughness: int) -> WeaponPlan:
        sc, ctx, choices = self.scenario, self.scenario.context, self.scenario.choices
        keywords = sc.target_keywords
        abilities = core_abilities.effective_abilities(weapon.abilities, keywords)
        has = abilities.__contains__
        ranged = not weapon.melee

        # Attack dice (04.03 with [RAPID FIRE], [BLAST], [CLEAVE]).
        per_model = _as_dist(weapon.A)
        extra = 0
        if has("RAPID FIRE") and ranged:
            extra += core_abilities.rapid_fire_extra_attacks(abilities["RAPID FIRE"].value, ctx.target_within_half_range)
        if has("BLAST"):
            extra += core_abilities.blast_extra_attacks(self.initial_models, abilities["BLAST"].value)
        if has("CLEAVE") and weapon.melee:
            extra += core_abilities.cleave_extra_attacks(self.initial_models, abilities["CLEAVE"].value, True)
        per_model = {a + extra: p for a, p in per_model.items()}
        attacks = {0: ONE}
        for _ in range(weapon.count):
            attacks = _convolve(attacks, per_model)

        # Hit roll (05.01, with 13.08, 22.05, 24.16, 17.03, 10.06, 24.29 modifiers).
        indirect = ranged and has("INDIRECT FIRE") and ctx.shooting_type == "indirect"
        stealth = "STEALTH" in sc.target_abilities and core_abilities.stealth_gives_cover(True, ranged)
        cover = ranged and core_abilities.cover_applies(
            ctx.target_has_benefit_of_cover or stealth or shooting_phase.indirect_target_has_cover(indirect),
            has("IGNORES COVER"))
        worsened = terrain.cover_skill_penalty(cover)
        improved = other_rules.plunging_fire_skill_bonus(ranged and ctx.plunging_fire)
        modifier = ctx.hit_modifier
        if ranged and has("HEAVY"):
            modifier += core_abilities.heavy_hit_modifier(ctx.own_shooting_phase, not ctx.attacker_engaged,
                                                          ctx.attacker_set_up_this_turn, ctx.attacker_moved_inches)
        if ranged:
            modifier += monsters_and_vehicles.engaged_monster_vehicle_hit_modifier(
                ctx.target_engaged and has_keyword(keywords, "MONSTER/VEHICLE"), has("CLOSE-QUARTERS"),
                ctx.attacker_engaged)
        if ranged and ctx.shooting_type == "close-quarters":
            modifier += shooting_phase.close_quarters_hit_modifier(ctx.attacker_monster_or_vehicle,
                                                                   has("CLOSE-QUARTERS"), ctx.target_engaged)
        skill_change = worsened - improved
        if has("PSYCHIC"):
            skill_change, modifier = core_abilities.psychic_modifiers(skill_change, modifier,
                                                                      choices.psychic_ignores == "harmful")
        modifier = attack_sequence.capped_roll_modifier(modifier)
        skill = attack_sequence.modified_skill(weapon.skill, max(skill_change, 0), max(-skill_change, 0))

        hit: Dist = {}
        for roll in range(1, 7):
            if core_abilities.torrent_hits_automatically(has("TORRENT")):
                outcome = Hit.HIT
            elif ranged and ctx.shooting_type == "snap":
                outcome = stratagems.snap_hit_roll(roll)
            elif indirect:
                outcome = shooting_phase.indirect_hit_roll(roll, modifier, skill, ctx.indirect_stationary_and_spotted)
            else:
                outcome = attack_sequence.hit_roll(roll, modifier, skill)
            _add(hit, Hit(outcome), SIXTH)

        # Wound roll (05.02 with 19.02 toughness, [LANCE], [ANTI], [TWIN-LINKED]).
        required = attack_sequence.wound_threshold(weapon.S, toughness)
        wound_modifier = ctx.wound_modifier
        if has("LANCE"):
            wound_modifier += core_abilities.lance_wound_modifier(ctx.attacker_charged)
        wound_modifier = attack_sequence.capped_roll_modifier(wound_modifier)
        critical = core_abilities.critical_wound_threshold(abilities.get("ANTI"), keywords)
        single = {}
        for roll in range(1, 7):
            _add(single, Wound(attack_sequence.wound_roll(roll, wound_modifier, required, critical)), SIXTH)
        wound: Dist = dict(single)
        if has("TWIN-LINKED"):
            non_critical = choices.twin_linked == "non-critical"
            wound = rerolled(single, lambda first: core_abilities.twin_linked_rerolls(
                first == Wound.FAIL, non_critical, first == Wound.CRITICAL_WOUND))

        # One hit's contribution: (wounds that go to saves, critical wounds that become mortal wounds).
        devastating = has("DEVASTATING WOUNDS")
        per_hit: Dist = {}
        for outcome, p in wound.items():
            if outcome == Wound.FAIL:
                _add(per_hit, (0, 0), p)
            elif outcome == Wound.CRITICAL_WOUND and devastating:
                _add(per_hit, (0, 1), p)
            else:
                _add(per_hit, (1, 0), p)
        add2 = lambda a, b: (a[0] + b[0], a[1] + b[1])  # noqa: E731
        extra_hits = _as_dist(abilities["SUSTAINED HITS"].value) if has("SUSTAINED HITS") else {0: ONE}
        lethal = has("LETHAL HITS")

        per_attack: Dist = {}
        for outcome, p in hit.items():
            if outcome == Hit.FAIL:
                _add(per_attack, (0, 0), p)
                continue
            critical_hit = outcome == Hit.CRITICAL_HIT
            first = ({(1, 0): ONE}
                     if core_abilities.lethal_hit_wounds_automatically(critical_hit and lethal,
                                                                      choices.lethal_hits == "auto-wound")
                     else per_hit)
            extra_dist: Dist = {(0, 0): ONE}
            if critical_hit:
                mixed: Dist = {}
                for x, px in extra_hits.items():
                    n_extra = core_abilities.sustained_hits(True, x) - 1
                    for key, q in _power(per_hit, n_extra, (0, 0), add2)[-1].items():
                        _add(mixed, key, px * q)
                extra_dist = mixed
            for key, q in _convolve(first, extra_dist, add2).items():
                _add(per_attack, key, p * q)

        damage = _as_dist(weapon.D)
        if has("MELTA"):
            bonus = core_abilities.melta_damage_bonus(abilities["MELTA"].value, ctx.target_within_half_range)
            damage = {d + bonus: p for d, p in damage.items()}
        hazard = core_abilities.hazard_rolls_after_attacking(weapon.count if has("HAZARDOUS") else 0)
        return WeaponPlan(weapon, attacks, hit, wound, per_attack, damage, devastating,
                          has("PRECISION") and choices.precision, skill, modifier, required, critical,
                          wound_modifier, hazard)

    # -- damage (05.04, 24.12, 06.02, 24.10) ---------------------------------------------

    def _lost_wounds(self, damage: int, fnp: int | None) -> tuple:
        """Distribution of wounds actually lost from ``damage``, Feel No Pain rolled per wound.

        Remembered per calculation (not in a module cache), so a Calculator is freed after use.
        """
        key = (damage, fnp)
        if key not in self._lost:
            self._lost[key] = binomial(damage, core_abilities.chance_wound_is_lost(fnp))
        return self._lost[key]

    def _damage_model(self, state: State, g: int, damage: Mapping[int, Any]) -> Dist:
        """One attack's damage to the selected model of group g; excess is lost (05.04)."""
        key = (state, g, id(damage))
        if key not in self._damage:
            self._damage[key] = self._damage_uncached(state, g, damage)
        return self._damage[key]

    def _damage_uncached(self, state: State, g: int, damage: Mapping[int, Any]) -> Dist:
        group = self.groups[g]
        alive, top = state[g]
        out: Dist = {}
        for d, p in damage.items():
            for lost, q in enumerate(self._lost_wounds(d, group.FNP)):
                remaining = attack_sequence.wounds_after_damage(top, lost)
                if remaining <= 0:
                    new = (alive - 1, group.W)
                else:
                    new = (alive, remaining)
                _add(out, state[:g] + (new,) + state[g + 1:], p * q)
        return out

    def _current_group(self, state: State, order: tuple[int, ...], precision: int | None) -> int | None:
        if precision is not None and state[precision][0] > 0:
            return precision
        for g in order:
            if state[g][0] > 0:
                return g
        return None

    def _one_save(self, state: State, roll: int, plan: WeaponPlan, order, precision) -> Dist:
        key = (state, roll, id(plan), order, precision)
        if key not in self._saves:
            g = self._current_group(state, order, precision)
            if g is None:
                result = {state: ONE}  # every model destroyed: excess attacks are lost
            elif _inflicts(roll, plan.weapon.AP, self.groups[g].Sv, self.groups[g].InSv or 0):
                result = self._damage_model(state, g, plan.damage)
            else:
                result = {state: ONE}
            self._saves[key] = result
        return self._saves[key]

    def resolve_saves(self, state: State, wound_events: Mapping[tuple[int, int], Any], plan: WeaponPlan) -> Dist:
        """All save rolls of one batch, resolved lowest result first (05.03-05.04).

        ``wound_events`` gives the chance of each (wounds to save, critical wounds)
        pair. Face by face: given r dice left, all showing v or more, the number
        showing exactly v is binomial with chance 1/(7 - v); those results are then
        resolved one at a time, since destroying a group changes the group the next
        one meets. Returns a distribution over (state, critical wounds).
        """
        order = self.allocation_order(state)
        precision = self._precision_group(state, plan)
        current: Dist = {}
        done: Dist = {}
        for (wounds, criticals), p in wound_events.items():
            _add(current, (state, wounds, criticals), p)
        for face in range(1, 7):
            nxt: Dist = {}
            chains: dict = {}
            for (st, left, criticals), p in current.items():
                g = self._current_group(st, order, precision)
                if left == 0 or g is None or not _inflicts(face, plan.weapon.AP, self.groups[g].Sv,
                                                           self.groups[g].InSv or 0):
                    # This face is saved by the current group, so every higher one is too
                    # (proof save-roll-monotone) and no damage can change the group: done.
                    _add(done, (st, criticals), p)
                    continue
                weights = (ZERO,) * left + (ONE,) if face == 6 else binomial(left, Q(1, 7 - face))
                chain = chains.setdefault(st, [{st: ONE}])
                while len(chain) <= left:
                    step: Dist = {}
                    for s, q in chain[-1].items():
                        for s2, q2 in self._one_save(s, face, plan, order, precision).items():
                            _add(step, s2, q * q2)
                    chain.append(step)
                get = nxt.get
                for k, w in enumerate(weights):
                    if w:
                        pw = p * w
                        rest = left - k
                        for s, q in chain[k].items():
                            key = (s, rest, criticals)
                            nxt[key] = get(key, ZERO) + pw * q
            current = nxt
        for (st, left, criticals), p in current.items():
            _add(done, (st, criticals), p)
        return done

    def _precision_group(self, state: State, plan: WeaponPlan) -> int | None:
        if not plan.precision:
            return None
        visible = [g for g, grp in enumerate(self.groups) if grp.character and state[g][0] > 0]
        return core_abilities.precision_current_group(visible)

    def resolve_mortal_wounds(self, state: State, criticals: int, plan: WeaponPlan) -> Dist:
        """[DEVASTATING WOUNDS]: D mortal wounds per critical wound, each batch damaging one model at most."""
        if criticals == 0:
            return {state: ONE}
        key = (state, criticals, id(plan))
        if key in self._mortal:
            return self._mortal[key]
        dist: Dist = {state: ONE}
        for _ in range(criticals):
            nxt: Dist = {}
            for st, p in dist.items():
                g = self._mortal_wound_group(st)
                if g is None:
                    _add(nxt, st, p)
                    continue
                for s2, q in self._damage_model(st, g, plan.damage).items():
                    _add(nxt, s2, p * q)
            dist = nxt
        self._mortal[key] = dist
        return dist

    def _mortal_wound_group(self, state: State) -> int | None:
        """06.02: the group of the model the next mortal wound must go to (first listed on a free choice)."""
        alive = [(g, grp, state[g]) for g, grp in enumerate(self.groups) if state[g][0] > 0]
        if not alive:
            return None
        kind = other_concepts.mortal_wound_model(
            any(not grp.character and top < grp.W for _, grp, (_, top) in alive),
            any(not grp.character for _, grp, _ in alive),
            any(grp.character and top < grp.W for _, grp, (_, top) in alive),
            any(grp.character for _, grp, _ in alive))
        wanted_character = kind in (other_concepts.MortalWoundTarget.WOUNDED_CHARACTER,
                                    other_concepts.MortalWoundTarget.CHARACTER)
        wanted_wounded = kind in (other_concepts.MortalWoundTarget.WOUNDED_NON_CHARACTER,
                                  other_concepts.MortalWoundTarget.WOUNDED_CHARACTER)
        for g, grp, (_, top) in alive:
            if grp.character == wanted_character and (top < grp.W or not wanted_wounded):
                return g
        return None

    # -- the whole scenario -------------------------------------------------------------------

    def run(self) -> Result:
        dist: Dist = {self.initial: ONE}
        steps = []
        for weapon in self.scenario.weapons:
            nxt: Dist = {}
            # States that meet the weapon alike (same Toughness, allocation order, [PRECISION] group) go
            # through the chain together; the literal engine takes them one by one.
            alike: dict = {}
            for state, p in dist.items():
                if all(alive == 0 for alive, _ in state):
                    _add(nxt, state, p)
                    continue
                plan = self.plan(weapon, self.toughness(state))
                order, precision = self.allocation_order(state), self._precision_group(state, plan)
                alike.setdefault((id(plan), order, precision), (plan, order, precision, {}))[3][state] = p
            for plan, order, precision, start in alike.values():
                if self.engine == "literal":
                    for state, p in start.items():
                        for s3, q in self.resolve_weapon_literal(state, plan).items():
                            _add(nxt, s3, p * q)
                else:
                    for s3, q in _Chain(self, start, plan, order, precision).run().items():
                        _add(nxt, s3, q)
            dist = nxt
            steps.append(self._explain(weapon, dist))
        return Result(self.scenario, self.groups, _fractions(dist), _fractions(self._models_destroyed(dist)),
                      _fractions(self._wounds_lost(dist)), steps)

    def resolve_weapon_literal(self, state: State, plan: WeaponPlan) -> Dist:
        """The rules as written, step by step: pool every wound, sort the save rolls, resolve one at a time.

        Its cost grows with the cube of the number of attacks; it is kept as the
        reference the fast engine (``_Chain``) is tested against.
        """
        out: Dist = {}
        for (s2, criticals), q in self.resolve_saves(state, plan.wound_events, plan).items():
            for s3, q3 in self.resolve_mortal_wounds(s2, criticals, plan).items():
                _add(out, s3, q * q3)
        return out

    def _models_left(self, state: State) -> int:
        return sum(alive for alive, _ in state)

    def _wounds_left(self, state: State) -> int:
        return sum((alive - 1) * g.W + top for g, (alive, top) in zip(self.groups, state) if alive)

    def _models_destroyed(self, dist: Mapping[State, Any]) -> Dist:
        out: Dist = {}
        for state, p in dist.items():
            _add(out, self.initial_models - self._models_left(state), p)
        return dict(sorted(out.items()))

    def _wounds_lost(self, dist: Mapping[State, Any]) -> Dist:
        total = self._wounds_left(self.initial)
        out: Dist = {}
        for state, p in dist.items():
            _add(out, total - self._wounds_left(state), p)
        return dict(sorted(out.items()))

    def _explain(self, weapon: WeaponSpec, dist: Mapping[State, Any]) -> dict:
        plan = self.plan(weapon, self.toughness(self.initial))
        hits_per_attack = plan.hit.get(Hit.HIT, 0) + plan.hit.get(Hit.CRITICAL_HIT, 0)
        first = self.groups[self.allocation_order(self.initial)[0]]
        unsaved = sum((SIXTH for roll in range(1, 7) if _inflicts(roll, weapon.AP, first.Sv, first.InSv or 0)), ZERO)
        step = {
            "weapon": weapon.name,
            "expected_attacks": _mean(plan.attacks),
            "skill": plan.skill,
            "hit_modifier": plan.hit_modifier,
            "p_hit": hits_per_attack,
            "p_critical_hit": plan.hit.get(Hit.CRITICAL_HIT, ZERO),
            "wound_roll_needed": plan.required,
            "wound_modifier": plan.wound_modifier,
            "critical_wound_on": plan.critical,
            "p_wound_per_hit": plan.wound.get(Wound.WOUND, 0) + plan.wound.get(Wound.CRITICAL_WOUND, 0),
            "expected_wounds_to_save": _mean(plan.attacks) * sum(k[0] * p for k, p in plan.per_attack.items()),
            "expected_mortal_wound_attacks": _mean(plan.attacks) * sum(k[1] * p for k, p in plan.per_attack.items()),
            "first_group": first.name,
            "p_save_fails": unsaved,
            "expected_damage_per_unsaved": _mean(plan.damage),
            "hazard_rolls": plan.hazard_rolls,
            "expected_models_destroyed_so_far": _mean(self._models_destroyed(dist)),
            "expected_wounds_lost_so_far": _mean(self._wounds_lost(dist)),
        }
        return {k: to_fraction(v) if isinstance(v, type(ONE)) else v for k, v in step.items()}


class _Chain:
    """The fast engine: one weapon's attacks as a Markov chain over the unit's state, attack by attack.

    Why it gives the literal engine's answer: save rolls are resolved lowest
    first, and whether a roll inflicts damage depends only on the current
    group's save, which fails on every face up to a threshold (proof
    save-roll-monotone). The groups' distinct thresholds cut the faces into
    bands. A roll in the lowest band fails against every group, so those rolls
    are resolved as they come: each is one damage to whichever group is current,
    and their order among themselves changes nothing. Rolls in higher bands come
    after all of them in the sorted order, so the chain only counts them and
    resolves them at the end, band by band; then the mortal wounds of the
    critical wounds (06.02). Counts that can no longer matter collapse (a band
    no living group fails on, a destroyed unit), and without Feel No Pain every
    damage removes a wound, so counts beyond the unit's wounds collapse too.
    Cost: about linear in the attacks (times the unit's states and the counts).
    """

    def __init__(self, calc: Calculator, start: Dist, plan: WeaponPlan, order: tuple[int, ...],
                 precision: int | None):
        """``start``: the unit's states before the weapon, with their chances; all share the allocation
        ``order`` and [PRECISION] group ``precision`` (the calculator groups them so)."""
        self.calc, self.start, self.plan = calc, start, plan
        self.order, self.precision = order, precision
        ap = plan.weapon.AP
        self.threshold = []
        for g in calc.groups:
            failing = [face for face in range(1, 7) if _inflicts(face, ap, g.Sv, g.InSv or 0)]
            if failing != list(range(1, len(failing) + 1)):
                raise AssertionError(f"save roll failures for {g.name} are not the lowest faces: {failing}")
            self.threshold.append(len(failing))
        alive = [g for g in range(len(calc.groups)) if any(s[g][0] for s in start)]
        self.bands = sorted({self.threshold[g] for g in alive} - {0})
        # A damage that loses no wound (every Feel No Pain roll passed) changes nothing. Where every group a
        # deferred count can reach shares one chance ``null`` of that, such rolls are dropped as they are
        # counted (thinned) and the rest resolved as damage that loses a wound; then, since each removes a
        # wound, counts past the unit's wounds left change nothing and are capped there.
        wounds = max(calc._wounds_left(s) for s in start)
        self.null = [self._shared_null([g for g in alive if self.threshold[g] >= band]) for band in self.bands]
        self.caps = [None if z is None else wounds for z in self.null]
        self.critical_null = self._shared_null(alive)
        self.critical_cap = None if self.critical_null is None else wounds
        self.powers: dict = {}
        self.mortal: dict = {}
        self.limits: dict = {}
        self.transitions: dict = {}

    def _why_large(self) -> str:
        uncapped = sum(cap is None for cap in self.caps[1:]) + (self.critical_cap is None)
        return (f"the target's groups need {len(self.bands)} different save rolls against this weapon"
                + (f" and {uncapped} count(s) of rolls cannot be capped because groups with different Feel No "
                   "Pain can take them" if uncapped else "")
                + "; split the weapon's attacks over fewer models or simplify the target")

    def _shared_null(self, groups: list[int]) -> Any:
        """The chance that one damage loses no wound, if the same for every group listed, else None."""
        chances = set()
        for g in groups:
            keep = 1 - exact(core_abilities.chance_wound_is_lost(self.calc.groups[g].FNP))
            chances.add(sum((p * keep ** d for d, p in self.plan.damage.items()), ZERO))
        if len(chances) > 1:
            return None
        return chances.pop() if chances else ZERO

    def _damaged(self, state: State, g: int, thinned: bool) -> Dist:
        """One damage to group g; when thinned, given that it loses a wound (the rest were dropped)."""
        dist = self.calc._damage_model(state, g, self.plan.damage)
        if not thinned or state not in dist:
            return dist
        kept = ONE - dist[state]
        return {s: p / kept for s, p in dist.items() if s != state}

    # -- one damage, and n of them -------------------------------------------------------------

    def _event(self, state: State, band: int) -> Dist:
        """One failed save in ``band``: damage to the current group if its save fails there."""
        g = self.calc._current_group(state, self.order, self.precision)
        if g is None or self.threshold[g] < self.bands[band]:
            return {state: ONE}
        return self._damaged(state, g, band > 0 and self.null[band] is not None)

    def _mortal_event(self, state: State) -> Dist:
        """One critical wound's mortal wounds: damage to the model 06.02 picks, at most one model (24.10)."""
        g = self.calc._mortal_wound_group(state)
        if g is None:
            return {state: ONE}
        return self._damaged(state, g, self.critical_null is not None)

    @staticmethod
    def _repeated(chain: list, n: int, event) -> Dist:
        """``chain[k]``: the state after k events from ``chain[0]``; extended with ``event`` as far as n."""
        while len(chain) <= n:
            step: Dist = {}
            for s, p in chain[-1].items():
                for s2, q in event(s).items():
                    _add(step, s2, p * q)
            chain.append(step)
        return chain[n]

    def _power(self, state: State, band: int, n: int) -> Dist:
        """The state after n failed saves in ``band``, each resolved in turn."""
        return self._repeated(self.powers.setdefault((state, band), [{state: ONE}]), n,
                              lambda s: self._event(s, band))

    def _mortal(self, state: State, n: int) -> Dist:
        """The state after n critical wounds' mortal wounds (06.02, 24.10)."""
        return self._repeated(self.mortal.setdefault(state, [{state: ONE}]), n, self._mortal_event)

    # -- the chain --------------------------------------------------------------------------------

    def _per_attack(self) -> Dist:
        """One attack as (failed saves in the lowest band, counts in each higher band, critical wounds)."""
        bands = self.bands
        chances = [Q(hi - lo, 6) * (1 if i == 0 or self.null[i] is None else 1 - self.null[i])
                   for i, (lo, hi) in enumerate(zip([0] + bands, bands))]
        saved = ONE - sum(chances, ZERO)
        die: Dist = {(0,) * len(bands): saved} if saved else {}
        for i, p in enumerate(chances):
            die[tuple(int(i == j) for j in range(len(bands)))] = p
        add = lambda a, b: tuple(x + y for x, y in zip(a, b))  # noqa: E731
        out: Dist = {}
        kept = binomial(0, ONE)
        for (wounds, criticals), p in self.plan.per_attack.items():
            if self.critical_null is not None:  # thinned: only critical wounds whose mortal wounds lose one
                kept = binomial(criticals, 1 - self.critical_null)
            for counts, q in _power(die, wounds, (0,) * len(bands), add)[wounds].items():
                for effective, r in (enumerate(kept) if self.critical_null is not None else ((criticals, ONE),)):
                    _add(out, (counts[0] if bands else 0, counts[1:], effective), p * q * r)
        return out

    def _limits(self, state: State) -> tuple[tuple[int, ...], int]:
        """The largest count of each deferred band, and of critical wounds, that can still matter from ``state``.

        0 for a band no living group fails on (its rolls are all saved) and for a
        destroyed unit; the unit's wounds where every counted roll loses a wound; otherwise no limit.
        """
        limits = self.limits.get(state)
        if limits is None:
            alive = [self.threshold[g] for g, (n, _) in enumerate(state) if n]
            top = max(alive, default=0)
            limits = (tuple(0 if band > top else _NO_LIMIT if cap is None else cap
                            for band, cap in zip(self.bands[1:], self.caps[1:])),
                      0 if not alive else _NO_LIMIT if self.critical_cap is None else self.critical_cap)
            self.limits[state] = limits
        return limits

    def _transitions(self, state: State, per_attack: Dist) -> tuple[int, list]:
        """One attack from ``state``: its chances' common denominator and [(state, band counts, criticals, weight,
        limits of the counts there)].

        Weights are whole numbers over the denominator, so the chain adds and
        multiplies integers (no gcd per step) and divides once at the end.
        """
        found = self.transitions.get(state)
        if found is None:
            merged: Dist = {}
            for (lowest, more, extra), q in per_attack.items():
                for s2, r in (self._power(state, 0, lowest).items() if self.bands else ((state, ONE),)):
                    _add(merged, (s2, more, extra), q * r)
            denominator = 1
            for q in merged.values():
                denominator = math.lcm(denominator, int(q.denominator))
            found = (denominator, [(s2, more, extra, gmpy2.mpz(q * denominator), self._limits(s2))
                                   for (s2, more, extra), q in merged.items()])
            self.transitions[state] = found
        return found

    def run(self) -> Dist:
        per_attack = self._per_attack()
        attacks = self.plan.attacks
        width = max(len(self.bands) - 1, 0)
        # The chain: (state, counts of the deferred bands, critical wounds) -> whole-number weight / denominator.
        denominator = gmpy2.mpz(math.lcm(*(int(p.denominator) for p in self.start.values())))
        current: dict = {}
        for state, p in self.start.items():
            key = (state, (0,) * width, 0)
            current[key] = current.get(key, 0) + gmpy2.mpz(p * denominator)
        finished: Dist = {}
        work = 0
        for n in range(max(attacks) + 1):
            if n:
                moves = {state: self._transitions(state, per_attack) for state, _, _ in current}
                step = 1
                for d, _ in moves.values():
                    step = math.lcm(step, d)
                work += len(current) * len(per_attack)
                if work > CHAIN_WORK_LIMIT:
                    raise TooLarge(f"the exact calculation needs more than {CHAIN_WORK_LIMIT:,} steps (at "
                                   f"attack {n} of {max(attacks)} of {self.plan.weapon.name!r}); "
                                   + self._why_large())
                nxt: dict = {}
                get = nxt.get
                for (state, deferred, criticals), w in current.items():
                    d, targets = moves[state]
                    w *= step // d
                    if width == 1:  # the common case of two save thresholds, without building tuples
                        (b,) = deferred
                        for s2, (more,), extra, k, ((top,), most) in targets:
                            key = (s2, (min(b + more, top),), min(criticals + extra, most))
                            nxt[key] = get(key, 0) + w * k
                        continue
                    for s2, more, extra, k, (bands, most) in targets:
                        key = (s2, tuple(min(x + y, top) for x, y, top in zip(deferred, more, bands)),
                               min(criticals + extra, most))
                        nxt[key] = get(key, 0) + w * k
                current = nxt
                denominator *= step
            if n in attacks:
                for key, w in current.items():
                    _add(finished, key, Q(w, denominator) * attacks[n])
        out: Dist = {}
        for (state, deferred, criticals), p in finished.items():
            dist: Dist = {state: ONE}
            for band, n in enumerate(deferred, start=1):
                if n:
                    step_dist: Dist = {}
                    for s, q in dist.items():
                        for s2, r in self._power(s, band, n).items():
                            _add(step_dist, s2, q * r)
                    dist = step_dist
            for s, q in dist.items():
                for s2, r in self._mortal(s, criticals).items():
                    _add(out, s2, p * q * r)
        return out


_NO_LIMIT = 1 << 62  # no cap: every count matters

#: The most chain steps (states carried x outcomes of an attack, summed over attacks) one weapon may take,
#: about 20 s here. Only units whose groups have three or more different save rolls together with
#: different Feel No Pain come near it (see ``_Chain._why_large``).
CHAIN_WORK_LIMIT = 10_000_000


class TooLarge(ValueError):
    """A legal scenario whose exact answer would take too long; the message says why."""


def calculate(scenario: Scenario, engine: str = "chain") -> Result:
    """The exact outcome of a scenario (the Python entry point of ``rules40k calc``)."""
    return Calculator(scenario, engine).run()


def outcome(scenario: Mapping) -> dict:
    """Read a scenario mapping and return the headline distributions as Fractions (for example data)."""
    from rules.scenario import read_scenario

    result = calculate(read_scenario(scenario))
    return {"models_destroyed": result.models_destroyed, "wounds_lost": result.wounds_lost,
            "expected_models_destroyed": result.expected_models_destroyed,
            "expected_wounds_lost": result.expected_wounds_lost}
