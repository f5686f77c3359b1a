"""999.m41's blast, barrage and template weapons in ``calc --ruleset m41``: the hits a formation gives, then the
attack on the shared engine.

A blast does not roll to hit: each shot's marker scatters and hits the models under it (rules.m41.templates, 004
weapons/firing-blast-weapons). "Resolve each shot one at the time ... recording how many hits are scored by each
blast marker. Finally fire any other weapon in the unit, then add all of the hits together and roll to wound as
normal" (weapons/multiple-blasts). Under a large blast the models under the inner 3" take the full profile, the
outer ring's an AP worse by 1 that cannot overpower (``weapons.large_blast_ap``, ``weapons.overpowers``). A teardrop
template hits every model under it, placed to cover the most (``templates.teardrop``).

So the answer is a mixture: for each way the markers can fall (hits per weapon entry, inner and outer ring), the
engine's exact outcome with those hits fixed (``Weapon.fixed_hits``: no to-hit roll), weighted by the chance the
markers fall so. Those chances are exact Fractions where no scatter ring is cut and floats where one is
(rules.engine.templates), so every share here is a pair (exact part, numeric part), the chance being their sum,
and ``bound`` caps the numeric error of any one chance.

What the engine cannot follow is refused in one sentence: blast wounds on models of more than one wound (they go
one to a model, shooting/blast-weapons, where the engine stacks them), twin-linked blasts (scatter rolled twice,
with no rule for which to keep), blasts and templates as snap shots, and a melee weapon named a blast.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping

from rules.engine.calculate import Result
from rules.m41 import templates, usr, weapons
from rules.m41.scenario import WEAPON_WORDS, Scenario, ScenarioError, Weapon

Share = tuple[Fraction, float]  # (exact part, numeric part): the chance is their sum
#: One float operation's rounding, relative; a chance here is at most 1, so a sum of n products of chances rounds
#: by at most about (n + 3) of these, and the bound adds that for every step that sums.
ROUNDING = 2.0 ** -52
#: A formation in a scenario: the template command's, without "weapon" (the scenario's weapons say that).
FORMATION_KEYS = ("table", "firer", "aim", "bases", "target_in_sight", "narrow_width", "wide_width")
TEARDROP_WIDTHS = ("narrow_width", "wide_width")


def kind_of(weapon: Weapon, where: str = "weapon") -> str | None:
    """The template a weapon fires (templates.KINDS), or None for a weapon that rolls to hit."""
    keys = {rule.key for rule in weapon.rules} & set(WEAPON_WORDS)
    if not keys:
        return None
    if weapon.melee:
        raise ScenarioError(f"{where}: a melee weapon cannot be a {', '.join(sorted(keys))} weapon")
    if "template" in keys:
        if len(keys) > 1:
            raise ScenarioError(f"{where}.rules: a weapon is a Template or a Blast, not both")
        return "template"
    large = "large blast" in keys
    if "barrage" in keys:
        return "large barrage" if large else "barrage"
    return "large blast" if large else "blast"


def formation_for(scenario: Scenario, weapon: Weapon, kind: str) -> templates.Formation:
    """The scenario's formation, read by the template reader with this weapon's kind and BS."""
    data = scenario.formation
    if not isinstance(data, Mapping):
        raise ScenarioError("formation must be an object (table, firer, aim, bases)")
    for key in data:
        if key not in FORMATION_KEYS:
            raise ScenarioError(f"formation.{key} is not a formation field ({', '.join(FORMATION_KEYS)})")
    fired: dict[str, Any] = {"kind": kind}
    if kind == "template":
        for key in TEARDROP_WIDTHS:
            if key not in data:
                raise ScenarioError(f"formation lacks \"{key}\" for {weapon.name}'s teardrop (the document gives "
                                    "only its length, 8 1/4\")")
            fired[key] = data[key]
    else:
        fired["BS"] = weapon.BS
        if "target_in_sight" in data:
            fired["target_in_sight"] = data["target_in_sight"]
    mapping = {key: data[key] for key in ("table", "firer", "aim", "bases") if key in data}
    try:
        return templates.read_formation({**mapping, "weapon": fired})
    except templates.FormationError as error:
        raise ScenarioError(f"formation: {error}".replace("weapon.", "formation.")) from None


def check(scenario: Scenario) -> dict[int, templates.Formation]:
    """The formation each placed weapon entry fires into, by its index; or refuse, in one sentence, a scenario with
    blasts or templates the calculator cannot answer."""
    placed = {}
    total = sum(m.count for m in scenario.models)
    for i, weapon in enumerate(scenario.weapons):
        where = f"weapons[{i}]"
        kind = kind_of(weapon, where)
        if kind is None:
            continue
        formation = formation_for(scenario, weapon, kind)
        if len(formation.bases) != total:
            raise ScenarioError(f"formation.bases has {len(formation.bases)} base(s) but target.models has {total} "
                                "model(s): give one base per model")
        if kind != "template":
            if weapon.rule("twin linked") is not None:
                raise ScenarioError(f"{where}: a twin-linked blast rolls for scatter twice (usr/twin-linked) and the "
                                    "rules do not say which roll is kept, so it is not calculated")
            for j, model in enumerate(scenario.models):
                if model.W > 1:
                    raise ScenarioError(f"target.models[{j}]: blast wounds go one to a model (shooting/blast-weapons),"
                                        " which the calculator does not follow for models of more than 1 wound")
        if scenario.context.snap_shots:
            raise ScenarioError(f"context.snap_shots: {weapon.name}'s hits as a snap shot stand only on a further "
                                "4+ (shooting/snap-shots), which the calculator does not roll")
        placed[i] = formation
    return placed


def markers(scenario: Scenario, weapon: Weapon) -> int:
    """Markers (or templates) one entry places: its models times the shots its type fires."""
    ctx = scenario.context
    moved = not usr.counts_as_stationary(ctx.moved, weapon.rule("relentless") is not None,
                                         weapon.rule("slow and purposeful") is not None)
    return weapon.count * int(weapons.shots_fired(weapon.kind, weapon.shots, moved, ctx.within_half_range,
                                                  weapon.stationary_shots))


def _add(law: dict, key: Any, share: Share) -> None:
    exact, numeric = law.get(key, (Fraction(0), 0.0))
    law[key] = (exact + share[0], numeric + share[1])


def _times(a: Share, b: Share) -> Share:
    """(e1 + n1)(e2 + n2), its exact part e1 e2 kept exact."""
    return a[0] * b[0], float(a[0]) * b[1] + a[1] * float(b[0]) + a[1] * b[1]


def one_marker(formation: templates.Formation) -> tuple[dict[tuple[int, int], Share], float]:
    """Where one marker's hits fall, (under the inner 3", outer ring only) -> share, and the L1 bound of its
    numeric parts (each part within the geometry's bound, summed over the parts)."""
    if formation.kind == "template":
        return {(len(templates.teardrop(formation).covered), 0): (Fraction(1), 0.0)}, 0.0
    result = templates.blast(formation)
    joint = result.joint_hits()
    return joint, result.law.bound * sum(1 for _, numeric in joint.values() if numeric)


def entry_hits(formation: templates.Formation, count: int) -> tuple[dict[tuple[int, int], Share], float]:
    """The hits of ``count`` markers fired alike, added (each scatters on its own): their law and its L1 bound
    (the geometry's, once per marker, and the rounding of each convolution's sums)."""
    single, bound = one_marker(formation)
    law: dict[tuple[int, int], Share] = {(0, 0): (Fraction(1), 0.0)}
    for _ in range(count):
        out: dict[tuple[int, int], Share] = {}
        for (i, o), a in law.items():
            for (j, p), b in single.items():
                _add(out, (i + j, o + p), _times(a, b))
        law = out
    return law, (bound + (len(single) + 3) * ROUNDING) * count


@dataclass
class BlastAttackResult:
    """The mixed answer: every chance a Share, exact where the geometry is."""

    scenario: Scenario
    groups: tuple
    hits: dict[str, dict[tuple[int, int], Share]]  # per placed weapon entry: (inner, outer) -> share
    models_destroyed: dict[int, Share]
    wounds_lost: dict[int, Share]
    destroyed_by_group: dict[str, dict[int, Share]]
    bound: float  # the most any one chance's numeric part can be off
    steps: list[dict]  # one way's steps (--explain): the likeliest of those where the most weapons fire

    @staticmethod
    def _mean(law: Mapping[int, Share]) -> Share:
        return sum((k * e for k, (e, _) in law.items()), Fraction(0)), sum(k * n for k, (_, n) in law.items())

    @property
    def expected_models_destroyed(self) -> Share:
        return self._mean(self.models_destroyed)

    @property
    def expected_wounds_lost(self) -> Share:
        return self._mean(self.wounds_lost)

    @property
    def is_exact(self) -> bool:
        return not any(n for law in self.hits.values() for _, n in law.values())


def _fixed(weapon: Weapon, inner: int, outer: int) -> list[Weapon]:
    """The entry as the engine resolves it once its hits are counted: the full profile's hits, then the ring's."""
    out = [replace(weapon, count=1, fixed_hits=inner)] if inner else []
    if outer:
        out.append(replace(weapon, count=1, fixed_hits=outer, outer_ring=True))
    return out


def calculate(scenario: Scenario) -> BlastAttackResult:
    """The exact (where the geometry allows) outcome of a scenario with blast, barrage or template weapons."""
    from rules import calculator

    formations = check(scenario)
    laws, bound, placed = {}, 0.0, list(formations)
    for i in placed:
        laws[i], error = entry_hits(formations[i], markers(scenario, scenario.weapons[i]))
        bound += error
    ways: dict[tuple, Share] = {(): (Fraction(1), 0.0)}  # one (inner, outer) per placed entry
    for i in placed:
        ways = {key + (pair,): _times(share, laws[i][pair]) for key, share in ways.items() for pair in laws[i]}
    md: dict[int, Share] = {}
    wl: dict[int, Share] = {}
    by_group: dict[str, dict[int, Share]] = {}
    result: Result | None = None
    steps: list[dict] = []  # for --explain: the likeliest way the markers fall among those where most weapons fire
    shown_rank: tuple[int, float] = (-1, -1.0)
    for key, share in ways.items():
        counted = dict(zip(placed, key))
        fired = tuple(w for i, w in enumerate(scenario.weapons)
                      for w in (_fixed(w, *counted[i]) if i in counted else [w]))
        if not fired:  # nothing hit and nothing else fired: nothing lost
            _add(md, 0, share), _add(wl, 0, share)
            for model in scenario.models:
                _add(by_group.setdefault(model.name, {}), 0, share)
            continue
        result = calculator.Calculator(replace(scenario, weapons=fired), ruleset="m41").run()  # the engine's
        for target, law in ((md, result.models_destroyed), (wl, result.wounds_lost)):
            for k, p in law.items():
                _add(target, k, _times(share, (Fraction(p), 0.0)))
        for name, law in result.destroyed_by_group.items():
            for k, p in law.items():
                _add(by_group.setdefault(name, {}), k, _times(share, (Fraction(p), 0.0)))
        rank = (len(result.steps), float(share[0]) + share[1])
        if rank > shown_rank:
            steps, shown_rank = result.steps, rank
    numeric = any(n for law in laws.values() for _, n in law.values())  # else every float part is an exact 0.0
    bound = bound + (len(placed) + len(ways) + 3) * ROUNDING if numeric else 0.0  # the entries' products, the mixture
    groups = result.groups if result is not None else ()
    hits = {scenario.weapons[i].name: dict(sorted(laws[i].items())) for i in placed}
    return BlastAttackResult(scenario, groups, hits,
                             dict(sorted(md.items())), dict(sorted(wl.items())),
                             {g: dict(sorted(law.items())) for g, law in by_group.items()}, bound, steps)


def outcome(scenario: Any) -> dict:
    """Read a scenario with a formation and return its distributions as chances (exact part + numeric part), for
    example data: a wholly exact answer gives Fractions."""
    from rules.m41.scenario import read_scenario

    result = calculate(read_scenario(scenario))
    total = (lambda law: {k: e + Fraction(n) if n else e for k, (e, n) in law.items()})  # noqa: E731
    return {"models_destroyed": total(result.models_destroyed), "wounds_lost": total(result.wounds_lost),
            "hits": {name: {f"{i},{o}": p for (i, o), p in total(law).items()} for name, law in result.hits.items()},
            "exact": result.is_exact,
            "bound": result.bound}
