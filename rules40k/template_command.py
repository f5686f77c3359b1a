"""`rules40k template FORMATION.json`: the models a 999.m41 blast, barrage or teardrop hits in a formation.

Prints the distribution of models hit (and, for a large blast, the inner and outer-ring split) and each model's
chance, exact where no scatter ring is cut (a Hit!, or a ring wholly clear of every base and edge) and numeric
with a stated bound elsewhere; --json gives the exact and numeric parts apart; --plot draws the formation.
"""

from __future__ import annotations

import argparse
import json
import math
from fractions import Fraction
from pathlib import Path

PLOT_SUFFIXES = {".svg", ".png", ".pdf"}


def read(source: str):
    """The formation file read and checked, or one sentence naming the file and the place."""
    from rules.m41 import templates
    from rules40k import cli

    text, name = cli._read_source(source)
    try:
        data = json.loads(text, parse_float=Fraction)
    except json.JSONDecodeError as error:
        raise cli.UsageError(f"{name}: line {error.lineno}, column {error.colno}: not valid JSON ({error.msg})") \
            from None
    except (RecursionError, ValueError):
        raise cli.UsageError(f"{name}: not readable JSON (nested too deeply, or a number too long)") from None
    try:
        return templates.read_formation(data)
    except templates.FormationError as error:
        raise cli.UsageError(f"{name}: {error}") from None


def _share(exact: Fraction, numeric: float) -> str:
    from rules40k.cli import _percent

    return _percent(float(exact) + numeric)


def as_json(result) -> dict:
    """Machine output: each share as its exact part ("p/q") and numeric part (float), with the bound."""
    from rules.m41 import templates
    from rules40k.cli import _ratio

    formation = result.formation
    if isinstance(result, templates.TemplateResult):
        return {"kind": "template", "covered": result.covered, "models_hit": len(result.covered),
                "turn_degrees": math.degrees(result.placement.turn),
                "turns_covering_as_many_degrees": math.degrees(result.placement.width)}

    def part(value: tuple) -> dict:
        return {"exact": _ratio(value[0]), "numeric": value[1], "probability": float(value[0]) + value[1]}

    out = {"kind": formation.kind, "bound": result.law.bound,
           "scatter": {str(d): _ratio(p) for d, p in result.scatter.items()},
           "models_hit": {str(k): part(v) for k, v in result.hits().items()},
           "miss_beyond_table_edge": part(result.miss()),
           "model_chances": {base.name: part(v) for base, v in zip(formation.bases, result.model_chances())}}
    if formation.kind in ("large blast", "large barrage"):
        out["inner_and_outer_ring"] = {f"{i},{o}": part(v) for (i, o), v in result.joint_hits().items()}
    return out


def plot(result, path: Path) -> None:
    """The formation: bases shaded by their chance of being hit, the aim point and the centre's possible rings
    (blasts), or the teardrop where it covers the most (templates); written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import cm, colors
    from matplotlib.patches import Circle, Polygon, Rectangle

    from rules.m41 import templates
    from rules40k import atomic

    formation = result.formation
    figure, axis = plt.subplots(figsize=(8, 7))
    table = formation.table
    axis.add_patch(Rectangle((0, 0), float(table.width), float(table.depth), fill=False, edgecolor="#555555"))
    shade = matplotlib.colormaps["Reds"]
    if isinstance(result, templates.TemplateResult):
        chances = [1.0 if i in result.placement.covered else 0.0 for i in range(len(formation.bases))]
        outline = _teardrop_outline(result)
        axis.add_patch(Polygon(outline, closed=True, fill=True, alpha=0.25, facecolor="#a07010",
                               edgecolor="#a07010", label="teardrop covering the most"))
        title = f"Teardrop: {len(result.covered)} model(s) covered at best"
        focus = [(float(formation.firer.x), float(formation.firer.y))] + [tuple(p) for p in outline]
    else:
        chances = [float(e) + n for e, n in result.model_chances()]
        ax, ay = float(formation.aim[0]), float(formation.aim[1])
        marker = templates.BLAST_KINDS[formation.kind] / 2
        first = True
        for distance, weight in result.scatter.items():
            if distance == 0:
                continue
            axis.add_patch(Circle((ax, ay), float(distance), fill=False, linestyle="--", edgecolor="#1f5a8a",
                                  linewidth=0.4 + 4 * float(weight),
                                  label="centre's possible ring (width ~ chance)" if first else None))
            first = False
        axis.add_patch(Circle((ax, ay), marker, fill=False, edgecolor="#3d7a3d", label="marker on the aim point"))
        if marker * 2 == templates.weapons.LARGE_BLAST_DIAMETER:
            axis.add_patch(Circle((ax, ay), templates.weapons.SMALL_BLAST_DIAMETER / 2, fill=False,
                                  edgecolor="#3d7a3d", linestyle=":", label="its inner 3\" (full profile)"))
        axis.plot([ax], [ay], marker="x", color="#1f5a8a", linestyle="none", label="aim point")
        reach = float(max(result.scatter)) + marker
        focus = [(ax - reach, ay - reach), (ax + reach, ay + reach)]
        title = f"{formation.kind.capitalize()}, BS{formation.ballistic_skill}: chance each model is hit"
    for base, chance in zip(formation.bases, chances):
        axis.add_patch(Circle((float(base.x), float(base.y)), float(base.diameter) / 2, facecolor=shade(chance),
                              edgecolor="black", linewidth=0.6))
        axis.annotate(f"{100 * chance:.0f}%", (float(base.x), float(base.y) + float(base.diameter) / 2),
                      textcoords="offset points", xytext=(0, 2), ha="center", fontsize=7)
        focus.append((float(base.x), float(base.y)))
    axis.plot([float(formation.firer.x)], [float(formation.firer.y)], marker="^", color="black", linestyle="none",
              label=f"firer ({formation.firer.name})")
    focus.append((float(formation.firer.x), float(formation.firer.y)))
    xs, ys = [p[0] for p in focus], [p[1] for p in focus]
    pad = 2.0
    axis.set_xlim(max(min(xs) - pad, -1), min(max(xs) + pad, float(table.width) + 1))
    axis.set_ylim(max(min(ys) - pad, -1), min(max(ys) + pad, float(table.depth) + 1))
    axis.set_aspect("equal")
    axis.set_xlabel("inches")
    axis.set_title(title, fontsize=11)
    figure.colorbar(cm.ScalarMappable(norm=colors.Normalize(0, 1), cmap=shade), ax=axis, shrink=0.7,
                    label="chance the model is hit")
    axis.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=8, frameon=False)
    figure.tight_layout()
    atomic.write_figure(figure, path)


def _teardrop_outline(result) -> list[tuple[float, float]]:
    """The placed teardrop's outline as points (for drawing only)."""
    from rules.engine.templates import teardrop_gap

    template, turn = result.template, result.placement.turn
    fx, fy = float(result.formation.firer.x), float(result.formation.firer.y)
    points = []
    for step in range(360):  # walk out from the pivot in each direction to the template's far edge
        angle = math.radians(step)
        along_dir, across_dir = math.cos(angle), math.sin(angle)
        centre = (template.narrow_centre + template.wide_centre) / 2
        low, high = 0.0, template.length
        for _ in range(40):
            mid = (low + high) / 2
            if teardrop_gap(template, centre + mid * along_dir, mid * across_dir) == 0:
                low = mid
            else:
                high = mid
        along, across = centre + low * along_dir, low * across_dir
        points.append((fx + along * math.cos(turn) - across * math.sin(turn),
                       fy + along * math.sin(turn) + across * math.cos(turn)))
    return points


def run(args: argparse.Namespace) -> int:
    """The `template` verb."""
    from rules.m41 import templates
    from rules40k import atomic, cli

    if args.plot:
        if Path(args.plot).suffix not in PLOT_SUFFIXES:
            raise cli.UsageError(f"{args.plot}: the plot must be an .svg, .png or .pdf file")
        atomic.check_target(args.plot)
    formation = read(args.formation)
    result = templates.teardrop(formation) if formation.kind == "template" else templates.blast(formation)
    if args.plot:
        plot(result, Path(args.plot))
    if args.json:
        print(json.dumps(as_json(result), indent=2))
        return 0
    console = cli._console()
    if isinstance(result, templates.TemplateResult):
        console.print(f"The teardrop, its narrow end touching {formation.firer.name}, covers at most "
                      f"{len(result.covered)} model(s): {', '.join(result.covered) or 'none'} (turned "
                      f"{math.degrees(result.placement.turn):.1f}° from the table's x axis; turns within "
                      f"{math.degrees(result.placement.width):.2f}° cover as many).")
        return 0
    table = cli._table(title=f"Models hit by a {formation.kind} (BS{formation.ballistic_skill})")
    for column in ("models hit", "chance", "exact part", "numeric part"):
        table.add_column(column, justify="right")
    for count, (exact, numeric) in result.hits().items():
        table.add_row(str(count), _share(exact, numeric), cli._ratio(exact), f"{numeric:.9f}")
    console.print(table)
    if formation.kind in ("large blast", "large barrage"):
        joint = cli._table(title="Under the inner 3\" (full profile) and the outer ring only (AP worse by 1)")
        for column in ("inner", "outer ring", "chance"):
            joint.add_column(column, justify="right")
        for (inner, outer), share in result.joint_hits().items():
            joint.add_row(str(inner), str(outer), _share(*share))
        console.print(joint)
    chances = cli._table(title="Chance each model is hit")
    chances.add_column("model")
    chances.add_column("chance", justify="right")
    for base, share in zip(formation.bases, result.model_chances()):
        chances.add_row(base.name, _share(*share))
    console.print(chances)
    miss = result.miss()
    console.print(f"Centre beyond the table's edge (a miss): {_share(*miss)}. "
                  + ("Every chance is exact." if result.law.is_exact() else
                     f"Exact parts are exact; each numeric part is within {result.law.bound:.1e} of the truth."))
    return 0


def add_parser(verbs) -> None:
    """Register the `template` verb."""
    p = verbs.add_parser("template", help="models a 999.m41 blast, barrage or teardrop template hits in a formation")
    p.add_argument("formation", help="formation JSON file (bases, table, firer, aim, weapon), or - for standard input")
    p.add_argument("--json", action="store_true", help="machine output: exact and numeric parts, and the bound")
    p.add_argument("--plot", metavar="FILE.svg", help="draw the formation shaded by each model's chance (.svg, .png, "
                                                        ".pdf)")
    p.set_defaults(run=run)
