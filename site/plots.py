"""Pictures and odds tables for the site, computed at build time from the rule functions themselves.

Nothing here restates a rule. The wound table's cells are what ``wound_threshold`` returns; the odds are
``hit_roll``, ``wound_roll`` and ``save_check`` run on every face of a D6 (``rules.dice``); a worked example's
outcome chart comes from the example's own call (the exact calculator) or from its own function run on every
possible set of rolls; the mission pack's chart comes from its scoring functions, its caps and the example
game replayed through its ledger. Each picture goes on the page of the section whose function it draws,
found in the registry rather than named here.

Images are SVG written by matplotlib with a fixed hash salt, no date and text kept as text (no embedded
fonts): rebuilds are byte-identical and the files stay small. They carry their own light background, so
they read the same in the light and dark schemes; tables are HTML, so Material styles them for both.
"""

from __future__ import annotations

import html
import inspect
import io
import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

from rules import dice, spec
from rules40k.palette import BAR  # the colour `rules40k calc --plot` draws its bars in

#: matplotlib settings of every picture: fixed ids, text as text, one small sans-serif face, a white box.
SVG_STYLE = {
    "svg.hashsalt": "rules40k-site",
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "figure.facecolor": "#ffffff",
    "axes.facecolor": "#ffffff",
    "savefig.facecolor": "#ffffff",
    "axes.edgecolor": "#555555",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "text.color": "#222222",
    "axes.labelcolor": "#222222",
    "xtick.color": "#333333",
    "ytick.color": "#333333",
    "path.simplify": True,
}
HIGHLIGHT = "#e08e0b"  # the bar of the outcome the book prints
SIDES = 16  # the wound table runs from 1 to this Strength and Toughness
MARKERS = 6  # objective markers tried when looking for a primary objective's best award
PLOT_FOLDER = "plots"  # under a ruleset's area: core/plots/wound-table.svg


# ---------------------------------------------------------------------------
# Exact chances of one D6 roll, from the real functions (added up and re-rolled by the calculator's own helpers,
# in its GMP rationals, and handed back as Fractions)


def face_chances(outcome: Callable[[int], Any]) -> dict[Any, Fraction]:
    """What one D6 roll does: ``outcome(face)`` for every face of ``dice.d6()``, with its chance."""
    from rules.calculator import _add, _fractions

    out: dict = {}
    for face, p in dice.d6().items():
        _add(out, outcome(face), p)
    return _fractions(out)


def rerolled(outcome: Callable[[int], Any], again: Callable[[Any], Any]) -> dict[Any, Fraction]:
    """The same roll re-rolled once when ``again(result)`` says so, as the calculator re-rolls a [TWIN-LINKED]
    wound roll (``calculator.rerolled``: the second result stands)."""
    from rules.calculator import _fractions, rerolled as calculator_rerolled

    return _fractions(calculator_rerolled(face_chances(outcome), again))


def wound_table(sides: int = SIDES) -> tuple[tuple[int, ...], ...]:
    """``table[s - 1][t - 1]``: the wound roll Strength s needs against Toughness t, from ``wound_threshold``."""
    from rules.core import attack_sequence

    return tuple(tuple(int(attack_sequence.wound_threshold(s, t)) for t in range(1, sides + 1))
                 for s in range(1, sides + 1))


def hit_odds() -> list[dict]:
    """Chance one hit roll hits (critical or not), for BS/WS 2+ to 6+: by capped modifier, re-rolled once with
    Command Re-roll (where 15.02 allows a hit roll to be), and the chance of a critical hit."""
    from rules.core import attack_sequence, stratagems
    from rules.core.attack_sequence import Hit

    rows = []
    reroll = bool(stratagems.command_re_roll_allowed(stratagems.Roll.HIT))
    for skill in range(2, 7):
        def roll(modifier: int) -> Callable[[int], Any]:
            return lambda face: attack_sequence.hit_roll(face, attack_sequence.capped_roll_modifier(modifier), skill)
        hits = lambda result: result != Hit.FAIL  # noqa: E731
        rows.append({
            "needed": skill,
            "modifiers": {m: dice.probability(face_chances(roll(m)), hits) for m in (-1, 0, 1)},
            "rerolled": dice.probability(rerolled(roll(0), lambda r: r == Hit.FAIL), hits) if reroll else None,
            "critical": dice.probability(face_chances(roll(0)), lambda r: r == Hit.CRITICAL_HIT),
        })
    return rows


ANTI_EXAMPLE = "ANTI-INFANTRY 4+"


def wound_odds() -> list[dict]:
    """Chance one wound roll wounds, for each band of 05.02's table: by capped modifier, with [TWIN-LINKED]'s
    re-roll, with an [ANTI-X 4+] that applies, and the chance of a critical wound."""
    from rules.core import attack_sequence, core_abilities
    from rules.core.attack_sequence import Wound

    anti = core_abilities.parse_ability(ANTI_EXAMPLE)
    anti_critical = core_abilities.critical_wound_threshold(anti, (anti.keyword,))
    plain_critical = core_abilities.critical_wound_threshold(None, ())  # no [ANTI]: what a wound roll has
    wounds = lambda result: result != Wound.FAIL  # noqa: E731
    rows = []
    for row in attack_sequence.WOUND_THRESHOLD.rows:
        required = row.then

        def roll(modifier: int, critical: int = plain_critical) -> Callable[[int], Any]:
            return lambda face: attack_sequence.wound_roll(face, attack_sequence.capped_roll_modifier(modifier),
                                                           required, critical)
        twin = rerolled(roll(0), lambda r: core_abilities.twin_linked_rerolls(r == Wound.FAIL))
        rows.append({
            "band": row.label.rpartition(":")[0].strip(),
            "needed": required,
            "modifiers": {m: dice.probability(face_chances(roll(m)), wounds) for m in (-1, 0, 1)},
            "twin_linked": dice.probability(twin, wounds),
            "anti": dice.probability(face_chances(roll(0, anti_critical)), wounds),
            "critical": dice.probability(face_chances(roll(0)), lambda r: r == Wound.CRITICAL_WOUND),
        })
    return rows


SAVE_ROWS = ((2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (2, 4), (3, 5), (7, 4))  # (Sv, InSv); Sv 7: none, InSv 0: none
AP_COLUMNS = (0, -1, -2, -3, -4)


def save_odds() -> list[dict]:
    """Chance one save roll stops the attack, for each Sv (and a few InSv) against AP 0 to -4."""
    from rules.core import attack_sequence
    from rules.core.attack_sequence import Save

    return [{"sv": sv, "insv": insv,
             "ap": {ap: dice.probability(face_chances(lambda face: attack_sequence.save_check(face, ap, sv, insv)),
                                         lambda r: r == Save.FAILS) for ap in AP_COLUMNS}}
            for sv, insv in SAVE_ROWS]


def feel_no_pain_odds() -> list[dict]:
    """Chance each wound is not lost, for no Feel No Pain and Feel No Pain 6+ to 4+ (24.12's own chance)."""
    from rules.core import core_abilities

    return [{"fnp": fnp, "ignored": 1 - core_abilities.chance_wound_is_lost(fnp)} for fnp in (None, 6, 5, 4)]


# ---------------------------------------------------------------------------
# Worked examples: the whole distribution their one printed outcome comes from


CALCULATOR_CALL = "rules.calculator.outcome"
SAVE_ROLLS_CALL = "rules.core.attack_sequence.resolve_save_rolls"


def outcome_examples(examples: list[dict]) -> list[dict]:
    """The worked examples an outcome chart is drawn for: the calculator's and the save rolls' ones."""
    return [e for e in examples if e["call"] in (CALCULATOR_CALL, SAVE_ROLLS_CALL)]


class ExampleRefused(Exception):
    """An example's own call refused its input: its check shows that error, and it has no chart."""


def _call(example: dict) -> Any:
    """What the example's own call returns (``checks.call_example``); ExampleRefused when the call refuses its
    input with the ValueError every rule function raises for that (ScenarioError, DiceError, TooLarge, ...)."""
    from rules40k import checks

    try:
        return checks.call_example(example)
    except ValueError as error:
        raise ExampleRefused(f"{example['id']}: {type(error).__name__}: {error}") from error


def example_outcome(example: dict) -> dict:
    """The panels of an example's chart, each ``(title, {value: chance}, highlighted value or None)``.

    A calculator example shows its call's own distributions. A save-rolls example runs its function (with
    the example's groups, order, AP and damage) on every set of as many save rolls, each weighted by its
    chance, and marks the number of models the printed rolls destroy. Raises ExampleRefused when the example's
    call refuses its input.
    """
    from rules.calculator import _add, _fractions

    if example["call"] == CALCULATOR_CALL:
        result = _call(example)
        return {"panels": [("Models destroyed", dict(result["models_destroyed"]), None),
                           ("Wounds lost", dict(result["wounds_lost"]), None)],
                "expected": [("models destroyed", result["expected_models_destroyed"]),
                             ("wounds lost", result["expected_wounds_lost"])]}
    if example["call"] == SAVE_ROLLS_CALL:
        args = example.get("args") or {}
        count = len(args["save_rolls"])
        dist: dict = {}
        for rolls in itertools.combinations_with_replacement(range(1, 7), count):
            ways = math.factorial(count) // math.prod(math.factorial(rolls.count(face)) for face in set(rolls))
            destroyed = _call({**example, "args": {**args, "save_rolls": list(rolls)}})
            _add(dist, len(destroyed), Fraction(ways, 6 ** count))
        dist = _fractions(dict(sorted(dist.items())))
        printed = len(_call(example))
        title = f"Models destroyed by {count} save roll{'' if count == 1 else 's'}"
        return {"panels": [(title, dist, printed)], "expected": [("models destroyed", dice.expected(dist))]}
    raise ValueError(f"no outcome chart for examples calling {example['call']!r}")


# ---------------------------------------------------------------------------
# Mission pack: scoring over a game


EXAMPLE_GAME = "examples/game-take-the-high-ground.yaml"


def primary_maximum() -> dict:
    """The most each primary objective awards in each battle round (its function's best over 0 to MARKERS
    objective markers held by either player, once per player's Command phase), and what the ledger counts of
    those awards under the primary cap (``discounted_award``), round by round."""
    from rules.missionpack import scoring

    out = {}
    for name in sorted(scoring.PRIMARIES):
        item = scoring.PRIMARIES[name]
        awarded, counted, so_far = [], [], 0
        for battle_round in range(1, scoring.BATTLE_ROUNDS + 1):
            best = max(int(item.score(battle_round=battle_round, controlled=mine, opponent_controlled=theirs))
                       for mine in range(MARKERS + 1) for theirs in range(MARKERS + 1))
            kept = int(scoring.discounted_award(so_far, best, scoring.PRIMARY_CAP))
            so_far += kept
            awarded.append(best)
            counted.append(kept)
        out.setdefault((tuple(awarded), tuple(counted)), []).append(item.title)
    # Primaries that score alike are drawn as one line, named together.
    objectives = {" and ".join(titles): {"awarded": list(a), "counted": list(c)} for (a, c), titles in out.items()}
    return {"objectives": objectives, "cap": scoring.PRIMARY_CAP, "rounds": scoring.BATTLE_ROUNDS}


def example_game() -> dict:
    """The example game's scoring sheet (``scoring_sheet`` of ``read_game``, as `rules40k score` reads a game): per
    player, the primary and the secondaries' points in each row of the sheet (battle rounds, then End Game), and
    the total. A game file the ledger refuses, or that cannot be read, is a SiteError naming the file."""
    import yaml

    from rules.missionpack import scoring
    from rules40k_site.generate import SiteError

    path = spec.SPEC_ROOT.parent / EXAMPLE_GAME
    try:
        record = spec.load_yaml(path)
        game = scoring.read_game(record, str(path))  # its errors name the file, as `rules40k score` does
        sheet = scoring.scoring_sheet(game)
    except scoring.ScoringError as error:
        message = str(error)
        raise SiteError(message if message.startswith(str(path)) else f"{path}: {message}") from None
    except yaml.YAMLError as error:
        raise SiteError(f"{path}: not valid YAML ({getattr(error, 'problem', None) or error})") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SiteError(f"{path}: cannot be read ({getattr(error, 'strerror', None) or error})") from None
    players = {}
    for player in scoring.PLAYERS:
        primary = next(iter(sheet[player]["objective_totals"]))  # the sheet's first column is the primary
        rows = sheet[player]["rounds"]
        players[player] = {
            "primary": [rows[row][primary] for row in scoring.SHEET_ROWS],
            "secondaries": [sum(v for k, v in rows[row].items() if k != primary) for row in scoring.SHEET_ROWS],
            "battle_ready": sheet[player]["battle_ready_score"],
            "total": sheet[player]["total"],
        }
    return {"mission": sheet["mission"], "rows": list(scoring.SHEET_ROWS), "players": players,
            "result": sheet["result"], "events": len(game.events)}


# ---------------------------------------------------------------------------
# Drawing


def _new_figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def svg_text(draw: Callable[[], Any]) -> str:
    """Run ``draw()`` (which returns a matplotlib Figure) under SVG_STYLE and return the SVG, with no date."""
    import matplotlib

    with matplotlib.rc_context(SVG_STYLE):
        figure = draw()
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return compact(buffer.getvalue())


_NO_ROTATION = re.compile(r' transform="rotate\(-?0 [-0-9.]+ [-0-9.]+\)"')
_TAG = re.compile(r"<[^>]*>")  # a tag: text and attribute values have their ">" escaped, so it ends the tag
_ATTRIBUTE_VALUE = re.compile(r'"[^"]*"')
_LONG_NUMBER = re.compile(r"(?<=\d\.\d\d)\d+")
_STYLE = re.compile(r' style="([^"]*)"')


def compact(svg: str) -> str:
    """matplotlib's SVG made smaller without changing what it draws: no-op rotations dropped, numbers in attribute
    values (coordinates) cut to two decimals (a hundredth of a point; text is left as written), and an inline
    style used three or more times made a CSS class."""
    svg = _NO_ROTATION.sub("", svg)
    svg = _TAG.sub(lambda tag: _ATTRIBUTE_VALUE.sub(lambda value: _LONG_NUMBER.sub("", value.group(0)), tag.group(0)),
                   svg)
    counts: dict[str, int] = {}
    for match in _STYLE.finditer(svg):
        counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    shared = {style: f"s{index}" for index, style in enumerate(s for s, n in counts.items() if n >= 3)}
    if not shared or "</style>" not in svg:  # nothing shared, or no <style> to hold it (matplotlib always writes one)
        return svg
    svg = _STYLE.sub(lambda m: f' class="{shared[m.group(1)]}"' if m.group(1) in shared else m.group(0), svg)
    rules = "".join(f".{name}{{{style}}}" for style, name in shared.items())
    head, marker, tail = svg.partition("</style>")
    return head + rules + marker + tail


def draw_wound_table(table: tuple[tuple[int, ...], ...]):
    """The wound table as a heatmap: Strength down, Toughness across, each cell the roll needed."""
    sides = len(table)
    return draw_roll_heatmap(table, list(range(1, sides + 1)), list(range(1, sides + 1)), "Strength of the attack",
                             "Toughness of the target", "wound roll needed", "wound-s{row}-t{column}")


def draw_roll_heatmap(table, rows: list, columns: list, row_label: str, column_label: str, legend: str, gid: str):
    """A printed chart as a heatmap: ``table[i][j]`` is the D6 roll needed (2 to 6) for row ``rows[i]`` against
    column ``columns[j]``, printed in its cell; ``gid`` names each cell's text (``{row}``, ``{column}``)."""
    from matplotlib.colors import BoundaryNorm, ListedColormap

    figure = _new_figure(5.6, 5.4)
    axes = figure.add_subplot()
    # 2+ (easiest) to 6+ (hardest), dark to light (ColorBrewer YlGnBu): ordered by lightness, so it reads
    # without colour vision too, and the numbers are printed in the cells.
    colours = ["#253494", "#2c7fb8", "#41b6c4", "#a1dab4", "#ffffcc"]
    cmap, norm = ListedColormap(colours), BoundaryNorm([1.5, 2.5, 3.5, 4.5, 5.5, 6.5], len(colours))
    axes.imshow(table, cmap=cmap, norm=norm, extent=(0.5, len(columns) + 0.5, len(rows) + 0.5, 0.5),
                interpolation="nearest")
    for i, (row, cells) in enumerate(zip(rows, table), 1):
        for j, (column, needed) in enumerate(zip(columns, cells), 1):
            axes.text(j, i, f"{needed}+", ha="center", va="center", fontsize=7,
                      color="#ffffff" if needed in (2, 3) else "#111111", gid=gid.format(row=row, column=column))
    axes.set_xticks(range(1, len(columns) + 1), [str(c) for c in columns])
    axes.set_yticks(range(1, len(rows) + 1), [str(r) for r in rows])
    axes.tick_params(length=0, labelsize=7.5)
    axes.xaxis.set_label_position("top")
    axes.xaxis.tick_top()
    axes.set_xlabel(column_label)
    axes.set_ylabel(row_label)
    for side in axes.spines.values():
        side.set_visible(False)
    handles = [_patch(c, f"{n}+") for n, c in zip(range(2, 7), colours)]
    axes.legend(handles=handles, title=legend, loc="upper center", bbox_to_anchor=(0.5, -0.02),
                ncol=5, frameon=False, fontsize=8, title_fontsize=8)
    figure.subplots_adjust(left=0.1, right=0.98, top=0.9, bottom=0.12)  # fixed: tight_layout would draw it twice
    return figure


def _patch(colour: str, label: str):
    from matplotlib.patches import Patch

    return Patch(facecolor=colour, edgecolor="none", label=label)


def _percent(p: Fraction) -> str:
    value = float(p) * 100
    return f"{value:.0f}%" if abs(value - round(value)) < 0.05 else f"{value:.1f}%"


def draw_outcome(outcome: dict):
    """Bar charts of an example's distributions (one panel each), the printed outcome's bar highlighted."""
    panels = outcome["panels"]
    figure = _new_figure(3.2 * len(panels) + 0.4, 2.5)
    for index, (title, dist, printed) in enumerate(panels, 1):
        axes = figure.add_subplot(1, len(panels), index)
        values = list(range(min(dist), max(dist) + 1))
        chances = [dist.get(v, Fraction(0)) for v in values]
        colours = [HIGHLIGHT if v == printed else BAR for v in values]
        bars = axes.bar(values, [float(p) for p in chances], color=colours, width=0.7)
        for bar, p in zip(bars, chances):
            if p:
                axes.annotate(_percent(p), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                              ha="center", va="bottom", fontsize=7, xytext=(0, 1), textcoords="offset points")
        axes.set_xticks(values)
        axes.set_ylim(0, max(float(p) for p in chances) * 1.18)
        axes.set_yticks([])
        axes.spines["left"].set_visible(False)
        axes.set_title(title, loc="left")
        if printed is not None:
            axes.set_xlabel("orange: what the example's own rolls give", fontsize=7.5)
    figure.tight_layout()
    return figure


def draw_scoring(maximum: dict, game: dict):
    """Two panels: the most a primary objective can score by battle round (awarded, and counted under the
    cap); the example game's points by row of the scoring sheet, each player's primary and secondaries."""
    figure = _new_figure(9.0, 3.3)
    left, right = figure.add_subplot(1, 2, 1), figure.add_subplot(1, 2, 2)
    rounds = list(range(1, maximum["rounds"] + 1))
    styles = itertools.cycle([(BAR, "o"), ("#1f4e7b", "s")])
    for title, data in maximum["objectives"].items():
        colour, marker = next(styles)
        left.plot(rounds, list(itertools.accumulate(data["awarded"])), color=colour, linestyle=":", marker=marker,
                  markersize=3, label=f"{title}: awarded")
        left.plot(rounds, list(itertools.accumulate(data["counted"])), color=colour, marker=marker, markersize=4,
                  label=f"{title}: counted")
    left.axhline(maximum["cap"], color="#777777", linewidth=0.8, linestyle="--")
    left.annotate(f"cap {maximum['cap']}", (1, maximum["cap"]), xytext=(0, 3), textcoords="offset points",
                  fontsize=7, color="#555555")
    left.set_xticks(rounds)
    left.set_xlabel("battle round")
    left.set_ylabel("victory points so far")
    left.set_title("Most a primary objective can score", loc="left")
    left.legend(fontsize=7, frameon=False, loc="lower right")

    rows = game["rows"]
    x = list(range(len(rows)))
    for (player, data), colour in zip(game["players"].items(), (BAR, "#1f4e7b")):
        right.plot(x, list(itertools.accumulate(data["primary"])), color=colour, marker="o", markersize=4,
                   label=f"{player}: primary")
        right.plot(x, list(itertools.accumulate(data["secondaries"])), color=colour, linestyle="--", marker="^",
                   markersize=4, label=f"{player}: secondaries")
    right.set_xticks(x, [r if r != "End Game" else "end" for r in rows])
    right.set_xlabel("battle round (scoring sheet row)")
    right.set_title(f"Example game: {game['mission']}", loc="left")
    right.legend(fontsize=7, frameon=False, loc="upper left")
    figure.subplots_adjust(left=0.065, right=0.99, bottom=0.14, top=0.91, wspace=0.16)  # fixed, drawn once
    return figure


# ---------------------------------------------------------------------------
# What each page shows


@dataclass(frozen=True)
class Picture:
    """One SVG image: where it is written, the pages it appears on, its alt text and caption (Markdown)."""

    path: str  # under docs/, e.g. core/plots/wound-table.svg
    refs: tuple[str, ...]  # the section pages it goes on; "" is the ruleset's home
    alt: str
    caption: str
    width: int  # CSS pixels
    draw: Callable[[], Any]
    call: str = ""  # a worked example's call, for its chart
    panels: tuple[str, ...] = ()  # the chart's panel titles


@dataclass(frozen=True)
class OddsTable:
    ref: str
    html: str


def _home_of(book, function: Callable) -> str | None:
    """The first section (in the book's order) whose registered functions include ``function``."""
    return _homes(book).get(inspect.unwrap(function))


_MEMO: list[tuple[Any, str, Any]] = []  # (book, what, value) for the last few books (a Book is not hashable)


def _memo(book, what: str, make: Callable[[], Any]) -> Any:
    """``make()`` once per book and ``what``: every section page of a build asks the same questions."""
    for known, name, value in _MEMO:
        if known is book and name == what:
            return value
    value = make()
    _MEMO[:] = [*_MEMO[-15:], (book, what, value)]
    return value


def _homes(book) -> dict:
    """Each registered function of a book, unwrapped, with the first section (in the book's order) it encodes."""
    def make() -> dict:
        homes: dict = {}
        for ref in book.sections:
            for f in book.functions.get(ref, []):
                homes.setdefault(inspect.unwrap(f.function), ref)
        return homes
    return _memo(book, "homes", make)


def _md(text: str) -> str:
    from rules40k_site.generate import escape

    return escape(text)


def _md_with_code(text: str) -> str:
    """Plain text as Markdown, its `code` spans kept as code."""
    from rules40k_site.generate import code_span

    return "".join(code_span(part) if index % 2 else _md(part) for index, part in enumerate(text.split("`")))


def pictures(book) -> list[Picture]:
    """Every picture of a ruleset's area, with the pages it goes on (nothing is drawn here); worked out once per
    book, since every section page asks."""
    return list(_memo(book, "pictures", lambda: _pictures(book)))


def _pictures(book) -> tuple[Picture, ...]:
    from rules.core import attack_sequence
    from rules.missionpack import scoring

    document = book.document
    wound_ref = _home_of(book, attack_sequence.wound_threshold)
    primary_ref = _home_of(book, scoring.take_and_hold)
    sheet_ref = _home_of(book, scoring.scoring_sheet)
    folder = f"{document}/{PLOT_FOLDER}"
    out: list[Picture] = []
    if wound_ref:
        table = wound_table()
        bands = "; ".join(f"{r['needed']}+ where {r['band'][0].lower()}{r['band'][1:].lower()}"
                          for r in wound_odds())
        out.append(Picture(
            f"{folder}/wound-table.svg", (wound_ref,),
            f"Heatmap of the wound roll needed for Strength 1 to {len(table)} (rows) against Toughness 1 to "
            f"{len(table)} (columns): {bands}.",
            f"The wound roll each Strength needs against each Toughness, as `wound_threshold` returns it "
            f"(Strength and Toughness 1 to {len(table)}).",
            640, lambda: draw_wound_table(table)))
    out += _m41_charts(book, folder)
    for example in outcome_examples(book.examples):
        example_id, ref = example["id"], example["ref"]
        try:
            outcome = example_outcome(example)
        except ExampleRefused:  # an example that cannot run shows its error in its check, not a chart
            continue
        summary = "; ".join(f"{title}: " + ", ".join(f"{k} with {_percent(p)}" for k, p in dist.items())
                            for title, dist, _ in outcome["panels"])
        printed = next((p for _, _, p in outcome["panels"] if p is not None), None)
        expected = ", ".join(f"{float(v):.2f} {what}" for what, v in outcome["expected"])
        caption = (f"`{example_id}`: on average {expected}"
                   + (f"; the example's own rolls destroy {printed} (orange)." if printed is not None else "."))
        out.append(Picture(f"{folder}/example-{example_id}.svg", (ref,),
                           f"Bar chart of the outcomes of example {example_id}: {summary}.", caption,
                           320 * len(outcome["panels"]) + 40, lambda o=outcome: draw_outcome(o),
                           example["call"], tuple(title for title, _, _ in outcome["panels"])))
    if primary_ref:
        maximum, game = primary_maximum(), example_game()
        lines = "; ".join(f"{title} awards at most " + ", ".join(map(str, d["awarded"])) + " in rounds 1 to "
                          f"{maximum['rounds']}, of which the ledger counts " + ", ".join(map(str, d["counted"]))
                          for title, d in maximum["objectives"].items())
        totals = "; ".join(f"{player} {d['total']}" for player, d in game["players"].items())
        out.append(Picture(
            f"{folder}/scoring-over-a-game.svg", tuple(r for r in ("", sheet_ref) if r is not None),
            f"Two line charts. Left: {lines} (cap {maximum['cap']}). Right: the example game "
            f"{game['mission']}, victory points so far by scoring sheet row for each player's primary and "
            f"secondaries; totals {totals}; {game['result']}.",
            f"Left: the most a primary objective can score in each battle round, from its scoring function, and "
            f"what the ledger counts under the {maximum['cap']}-point cap. Right: the example game "
            f"`{EXAMPLE_GAME}` replayed through the ledger (`rules40k score`): totals {totals} "
            f"(with Battle Ready), {game['result'].lower()}.",
            760, lambda: draw_scoring(maximum, game)))
    return tuple(out)


M41_SIDE = 10  # 999.m41's characteristics run from 1 to 10


def m41_chart(function: Callable, side: int = M41_SIDE) -> tuple[tuple[int, ...], ...]:
    """``table[a - 1][b - 1]``: the roll ``function(a, b)`` needs, for a and b from 1 to ``side``."""
    return tuple(tuple(int(function(a, b)) for b in range(1, side + 1)) for a in range(1, side + 1))


def _m41_charts(book, folder: str) -> list[Picture]:
    """999.m41's two printed roll charts as heatmaps like the Core Rules' wound table, each from its own function:
    the S−T to-wound chart (``shooting.to_wound_needed``) and the WS-against-WS to-hit chart
    (``assault.to_hit_needed``)."""
    if book.document != "m41":
        return []
    from rules.m41 import assault, shooting

    out = []
    for function, name, rows, columns, legend, what in (
            (shooting.to_wound_needed, "to-wound-chart", "Strength of the attack", "Toughness of the target",
             "wound roll needed", "to-wound roll each Strength needs against each Toughness"),
            (assault.to_hit_needed, "ws-chart", "Weapon Skill of the attacker", "Weapon Skill of the defender",
             "to-hit roll needed", "to-hit roll in close combat each attacker's Weapon Skill needs against each "
             "defender's")):
        ref = _home_of(book, function)
        if not ref:
            continue
        table = m41_chart(function)
        counts = {n: sum(row.count(n) for row in table) for n in range(2, 7)}
        spread = "; ".join(f"{n}+ in {c} cells" for n, c in counts.items() if c)
        out.append(Picture(
            f"{folder}/{name}.svg", (ref,),
            f"Heatmap of the {what}, 1 to {M41_SIDE} on both axes ({rows.lower()} down, {columns.lower()} across): "
            f"{spread}.",
            f"The {what}, as `{function.__name__}` returns it (1 to {M41_SIDE} on both axes).",
            640, lambda table=table, rows=rows, columns=columns, legend=legend, name=name: draw_roll_heatmap(
                table, list(range(1, M41_SIDE + 1)), list(range(1, M41_SIDE + 1)), rows, columns, legend,
                name + "-{row}-{column}")))
    return out


def odds_tables(book) -> list[OddsTable]:
    """The odds tables of a ruleset's area, each on the page of the section whose function it runs."""
    from rules.core import attack_sequence, core_abilities

    functions = (attack_sequence.hit_roll, attack_sequence.wound_roll, attack_sequence.save_check,
                 core_abilities.chance_wound_is_lost)
    return list(_odds_tables(tuple(_home_of(book, f) for f in functions)))


@lru_cache(maxsize=None)
def _odds_tables(refs: tuple[str | None, ...]) -> tuple[OddsTable, ...]:
    makers = (_hit_table, _wound_table_html, _save_table, _feel_no_pain_table)
    return tuple(OddsTable(ref, make()) for ref, make in zip(refs, makers) if ref)


def _cell(p: Fraction | None) -> str:
    if p is None:
        return "<td>–</td>"
    return f'<td title="exactly {p.numerator}/{p.denominator}">{_percent(p)}</td>'


def _html_table(caption: str, header: list[str], rows: list[list[str]]) -> str:
    """One HTML table with a caption and column headers; the first cell of each row heads the row."""
    head = "".join(f'<th scope="col">{h}</th>' for h in header)
    body = "".join("<tr>" + f'<th scope="row">{row[0]}</th>' + "".join(row[1:]) + "</tr>" for row in rows)
    return (f'<table><caption>{caption}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def _hit_table() -> str:
    rows = hit_odds()
    return _html_table(
        "Chance one hit roll hits, from <code>hit_roll</code> on each face of a D6 (modifiers capped at ±1; an "
        "unmodified 6 always hits, an unmodified 1 never does)",
        ["BS/WS", "−1", "no modifier", "+1", "a failed roll re-rolled (Command Re-roll)", "critical hit"],
        [[f"{r['needed']}+", *(_cell(r["modifiers"][m]) for m in (-1, 0, 1)), _cell(r["rerolled"]),
          _cell(r["critical"])] for r in rows])


def _wound_table_html() -> str:
    rows = wound_odds()
    critical = {r["critical"] for r in rows}
    note = (f"; a critical wound comes {_percent(critical.pop())} of the time without [ANTI]"
            if len(critical) == 1 else "")
    return _html_table(
        "Chance one wound roll wounds, from <code>wound_roll</code> on each face of a D6, for each band of "
        f"Strength against Toughness{note}. [TWIN-LINKED] re-rolls a failed wound roll; "
        f"[{html.escape(ANTI_EXAMPLE)}] against an INFANTRY target makes a 4+ a critical wound",
        ["needed", "Strength against Toughness", "−1", "no modifier", "+1", "[TWIN-LINKED]",
         f"[{html.escape(ANTI_EXAMPLE)}]"],
        [[f"{r['needed']}+", f"<td>{html.escape(_band(r['band']))}</td>",
          *(_cell(r["modifiers"][m]) for m in (-1, 0, 1)), _cell(r["twin_linked"]), _cell(r["anti"])]
         for r in rows])


def _band(label: str) -> str:
    """The book's row label without the words every row repeats: "TWICE (or more than twice)"."""
    return label.removeprefix("Strength is ").removesuffix(" the Toughness")


def _save_table() -> str:
    def label(sv: int, insv: int) -> str:
        armour = f"Sv {sv}+" if sv <= 6 else "no Sv"
        return armour + (f", InSv {insv}+" if insv else "")

    return _html_table(
        "Chance one save roll stops the attack, from <code>save_check</code> on each face of a D6 (an "
        "invulnerable save ignores AP; an unmodified 1 always fails)",
        ["Save", *(f"AP {ap}" if ap else "AP 0" for ap in AP_COLUMNS)],
        [[label(r["sv"], r["insv"]), *(_cell(r["ap"][ap]) for ap in AP_COLUMNS)] for r in save_odds()])


def _feel_no_pain_table() -> str:
    return _html_table(
        "Chance each wound is not lost, from <code>chance_wound_is_lost</code>",
        ["Feel No Pain", "wound not lost"],
        [["none" if r["fnp"] is None else f"{r['fnp']}+", _cell(r["ignored"])] for r in feel_no_pain_odds()])


# ---------------------------------------------------------------------------
# Hooks for the generator


def images(books) -> dict[str, str]:
    """Every picture of every ruleset built, as SVG text by its path under docs/."""
    return {picture.path: svg_text(picture.draw) for book in books for picture in pictures(book)}


def _figure(page, picture: Picture, side_by_side: bool = False) -> str:
    """A picture as a Markdown figure: the image (alt text, width, loaded when scrolled to) and its caption;
    small ones side by side, as many as the column holds."""
    import posixpath

    src = posixpath.relpath(picture.path, posixpath.dirname(page.path) or ".")
    alt = _md(picture.alt).replace("\n", " ")
    style = (' style="display: inline-flex; flex-direction: column; vertical-align: top; margin: 0.5em 0.4em"'
             if side_by_side else "")
    return (f'<figure class="r40k-plot"{style} markdown="span">\n'
            f'![{alt}]({src}){{ width="{picture.width}" loading="lazy" }}\n'
            f"<figcaption>{_caption_html(picture.caption)}</figcaption>\n</figure>")


def _caption_html(text: str) -> str:
    """A caption's `code` spans as <code>, the rest escaped (a figcaption is raw HTML)."""
    parts = text.split("`")
    return "".join(f"<code>{html.escape(part)}</code>" if index % 2 else html.escape(part)
                   for index, part in enumerate(parts))


def section_blocks(page, ref: str) -> list[str]:
    """The figure blocks of a section page: its odds tables, then its pictures (Markdown, one block each)."""
    blocks = [t.html for t in odds_tables(page.book) if t.ref == ref]
    shown = [p for p in pictures(page.book) if ref in p.refs]
    examples = [p for p in shown if p.call]
    blocks += [_figure(page, p) for p in shown if p not in examples]
    if examples:
        title = f"Outcome distribution{'s' if len(examples) > 1 else ''} of the worked example" \
                f"{'s' if len(examples) > 1 else ''} below"
        calls = {p.call for p in examples}
        how = [text for call, text in ((CALCULATOR_CALL, "the exact calculator's distributions (what `rules40k calc` "
                                        "prints)"),
                                       (SAVE_ROLLS_CALL, "the example's own `resolve_save_rolls` run on every possible "
                                        "set of as many save rolls, each weighed by its chance"))
               if call in calls]
        intro = (f"Every outcome of {'each' if len(examples) > 1 else 'the'} worked example with its exact chance: "
                 + ", or ".join(how) + ".")
        body = "\n\n".join([_md_with_code(intro),
                             *(_figure(page, p, side_by_side=len(p.panels) == 1) for p in examples)])
        marker = "???+" if len(examples) <= 2 else "???"
        blocks.append(f'{marker} example "{title}"\n\n' + "\n".join(f"    {line}" if line else ""
                                                                     for line in body.split("\n")))
    return blocks


def home_blocks(page) -> list[str]:
    """The figure blocks of a ruleset's home page."""
    return [_figure(page, p) for p in pictures(page.book) if "" in p.refs]
