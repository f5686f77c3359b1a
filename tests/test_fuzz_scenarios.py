"""`rules40k calc` against damaged scenarios: one sentence and exit 2 for every bad input, never a traceback.

Valid scenarios (the examples) are damaged at any place: a value of another JSON type, a huge,
negative or zero number, a huge string, unicode digits, deep nesting, a dropped required key, an
unknown key, bad ability strings and dice expressions. Each damaged file runs through
``cli.main`` in-process. Where the damage surely breaks the schema the exit must be 2; where the
scenario may still be valid, 0 (with exact output, quickly) or 2 are both fine, but never anything
else. Weapon counts are cut to 1 first, so a still-valid scenario calculates in milliseconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from rules40k import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DEEP = "<deep>"  # stands for nesting too deep for the json module; written into the text after dumps
DEEP_TEXT = "[" * 100_000 + "]" * 100_000

#: Keys an object of each kind cannot do without (rules/scenario.py), by where the object sits.
REQUIRED = {"top": {"weapons", "target"}, "target": {"models"},
            "weapon": {"name", "count", "A", "skill", "S", "AP", "D"}, "model": {"name", "count", "T", "Sv", "W"}}
#: Keys whose value may be a whole number or a dice expression, and keys that may be null.
DICE_KEYS = {"A", "D"}
NULLABLE = {"InSv", "FNP"}
#: Int keys for which 0, or -1, is in range (every other int key rejects them).
ZERO_OK = {"AP", "hit_modifier", "wound_modifier", "attacker_moved_inches"}
NEGATIVE_OK = {"AP", "hit_modifier", "wound_modifier"}

OTHER_TYPES = [None, True, False, 1.5, 2.0, "", "text", [], ["INFANTRY"], [1], {}, {"a": 1}, 3]
NUMBERS = [0, -1, -7, 7, 61, 101, 1001, 10**6, -(10**6), 10**30, 2**64, -(10**30)]
HUGE_STRINGS = ["x" * 101, "X" * 100_000, "9" * 5000, "D6+" + "9" * 5000]
UNICODE_DIGITS = ["٣", "３", "²", "D٦", "1٣", "D6+٣"]
BAD_DICE = ["D6-5", "D3-1", "D6-1", "40D6", "999D6", "7D6", "0D6", "2D7", "D", "-D6", "D6+99999999", "D6+61",
            "6D6+25", "D6 +", "3.5", "D6/2", "1000", "61", "0"]
BAD_ABILITIES = ["ANTI-INFANTRY 0+", "ANTI-INFANTRY 1+", "ANTI-INFANTRY 7+", "ANTI-INFANTRY 9+", "RAPID FIRE 0",
                 "RAPID FIRE 21", "RAPID FIRE 999999", "SUSTAINED HITS 99999", "MELTA 10000000000", "BLAST 0",
                 "CLEAVE 21", "SUSTAINED HITS 4D6", "RAPID FIRE D3", "FEEL NO PAIN 1+", "FOO BAR", "LETHAL HITS 1",
                 "", "[", "RAPID FIRE ٣", "ANTI-INFANTRY ٣+", "RAPıD FIRE 1", "X" * 101, "RAPID FIRE 2+", "BLAST 2+",
                 "SUSTAINED HITS D3+"]
GOOD_ABILITIES = ["SUSTAINED HITS D3", "TORRENT", "LETHAL HITS", "DEVASTATING WOUNDS", "ANTI-INFANTRY 2+",
                  "RAPID FIRE 2", "MELTA 1", "BLAST", "TWIN-LINKED"]
UNKNOWN_KEYS = ["Ap", "hit_modifer", "x" * 200, "٣", "line\nbreak", ""]


def _small(data: dict) -> dict:
    """One model per weapon entry: a damaged scenario that is still valid calculates in milliseconds."""
    for weapon in data["weapons"]:
        weapon["count"] = 1
    return data


BASES = [_small(json.loads((EXAMPLES / name).read_text()))
         for name in ("intercessors.json", "bench-attached-unit.json")]


def _paths(value, path=()):
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


def _get(data, path):
    for key in path:
        data = data[key]
    return data


def _kind(value) -> str:
    return "null" if value is None else type(value).__name__  # bool is its own kind, not an int


def _object_kind(path) -> str | None:
    """Which schema object sits at ``path`` (None for context and choices, which need no key)."""
    return {(): "top", ("target",): "target"}.get(tuple(path)) or (
        "weapon" if len(path) == 2 and path[0] == "weapons" else
        "model" if len(path) == 3 and path[:2] == ("target", "models") else None)


def _wrong_kind(path, old, new) -> bool:
    """No place of the schema takes ``new`` where ``old`` was: a different JSON type, but for A/D and null."""
    key = path[-1] if path else None
    if _kind(old) == _kind(new):
        return False
    if key in DICE_KEYS and {_kind(old), _kind(new)} <= {"int", "str"}:
        return False
    return not (key in NULLABLE and new is None)


@st.composite
def damaged(draw):
    """(file text, whether the damage surely breaks the schema, what was done)."""
    data = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    paths = list(_paths(data))
    way = draw(st.sampled_from(["type", "number", "huge", "unicode", "dice", "nest", "drop", "unknown", "ability",
                                "good"]))
    if way in {"type", "number", "huge", "unicode", "dice", "nest"}:
        path = draw(st.sampled_from([p for p in paths if p] if way == "dice" else paths))
        if way == "dice":  # a dice expression belongs at A or D; elsewhere it is just a string
            path = draw(st.sampled_from([p for p in paths if p and p[-1] in DICE_KEYS] + [path]))
        old = _get(data, path)
        key = path[-1] if path else None
        new = draw(st.sampled_from({"type": OTHER_TYPES, "number": NUMBERS, "huge": HUGE_STRINGS,
                                    "unicode": UNICODE_DIGITS, "dice": BAD_DICE,
                                    "nest": [DEEP, [[[["INFANTRY"]]]], [[]] * 3]}[way]))
        if way == "number":
            out_of_range = new <= -7 or new >= 101 or (new == 0 and key not in ZERO_OK) or (
                new < 0 and key not in NEGATIVE_OK)
            sure = _wrong_kind(path, old, new) or (isinstance(old, int) and out_of_range)
        elif way == "unicode":
            sure = _wrong_kind(path, old, new) or key in DICE_KEYS or (len(path) > 1 and path[-2] == "abilities")
        elif way == "dice":
            sure = _wrong_kind(path, old, new) or key in DICE_KEYS
        elif way == "type":
            sure = _wrong_kind(path, old, new)
        else:  # a string over 100 characters fits nowhere; nothing in the schema is a list of lists
            sure = True
        if path:
            _get(data, path[:-1])[key] = new
        else:
            data = new
        what = f"{way}: {'.'.join(map(str, path))} = {str(new)[:40]!r}"
    elif way in {"drop", "unknown"}:
        path = draw(st.sampled_from([p for p in paths if isinstance(_get(data, p), dict) and _get(data, p)]))
        target = _get(data, path)
        if way == "drop":
            key = draw(st.sampled_from(sorted(target)))
            del target[key]
            sure = key in REQUIRED.get(_object_kind(path), set())
        else:
            key = draw(st.sampled_from(UNKNOWN_KEYS))
            target[key] = draw(st.sampled_from([1, "x", None, []]))
            sure = True
        what = f"{way}: {'.'.join(map(str, path))}[{key[:40]!r}]"
    else:  # add an ability string to a weapon or the target, bad or good
        holder = draw(st.sampled_from([*data["weapons"], data["target"]]))
        good = [" Stealth ", "STEALTH"] if holder is data["target"] else GOOD_ABILITIES  # the target reads STEALTH
        text = draw(st.sampled_from(BAD_ABILITIES if way == "ability" else good))
        holder.setdefault("abilities", []).append(text)
        sure = way == "ability"
        what = f"{way}: {text[:40]!r}"
    text = json.dumps(data, ensure_ascii=draw(st.booleans())).replace(json.dumps(DEEP), DEEP_TEXT)
    return text, sure, what


def run_calc(text: str | bytes, *options: str) -> tuple[int, str, str, Path, float]:
    """Write ``text`` to a temporary file, run ``rules40k calc FILE --json --plot OUT.png``; report what came out.

    Returns (exit status, stdout, stderr, the file's path, seconds), and checks that a failure wrote nothing.
    """
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scenario.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        plot = Path(folder) / "out.png"
        out, err = io.StringIO(), io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(["calc", str(path), "--json", "--plot", str(plot), *options])
            except SystemExit as stop:  # the one exception allowed to leave main
                status = stop.code
        seconds = time.perf_counter() - start
        written = sorted(p.name for p in Path(folder).iterdir())
        assert written == (["out.png", "scenario.json"] if status == 0 else ["scenario.json"]), (status, written)
        return status, out.getvalue(), err.getvalue(), path, seconds


def _assert_one_sentence(status: int, out: str, err: str, path: Path) -> None:
    assert status == 2, err
    assert out == ""
    assert err.startswith(f"rules40k calc: {path}: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert len(err) < 450 + len(str(path)), err  # a huge value is never echoed whole (the 15 context keys fit)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(damaged())
def test_damaged_scenarios_give_one_sentence_or_an_answer(case):
    text, sure, what = case
    note(what)
    status, out, err, path, seconds = run_calc(text)
    assert status in (0, 2), err  # anything else (1, 70, a traceback) breaks the promise
    if sure or status != 0:
        _assert_one_sentence(status, out, err, path)
        return
    answer = json.loads(out)
    assert sum(Fraction(p) for p in answer["models_destroyed"].values()) == 1
    assert err == "" and seconds < 10, (err, seconds)


def _intercessors(**changes) -> str:
    data = json.loads((EXAMPLES / "intercessors.json").read_text())
    for dotted, value in changes.items():
        keys = [int(k) if k.isdigit() else k for k in dotted.split(".")]
        _get(data, keys[:-1])[keys[-1]] = value
    return json.dumps(data)


#: The failures a user's fuzzing found (tracebacks, endless runs, impossible values accepted), each now one sentence.
REGRESSIONS = {
    "role-list": (_intercessors(**{"target.models.0.role": []}), "target.models[0].role must be one of"),
    "shooting-type-object": (_intercessors(**{"context.shooting_type": {}}), "context.shooting_type must be one of"),
    "choice-list": (_intercessors(choices={"lethal_hits": []}), "choices.lethal_hits must be one of"),
    "A-D6-5": (_intercessors(**{"weapons.0.A": "D6-5"}), "weapons[0].A 'D6-5' can roll 0 or less"),
    "A-D3-1": (_intercessors(**{"weapons.0.A": "D3-1"}), "weapons[0].A 'D3-1' can roll 0 or less"),
    "D-40D6": (_intercessors(**{"weapons.0.D": "40D6"}), "weapons[0].D '40D6' rolls more than 6 dice"),
    "5000-digits": (_intercessors().replace('"A": 2', '"A": ' + "9" * 5000), "a number of more than 4300 digits"),
    "deep-nesting": (_intercessors().replace('"A": 2', '"A": ' + DEEP_TEXT), "nested too deeply"),
    "arabic-digit": (_intercessors(**{"weapons.0.A": "٣"}), "weapons[0].A: '٣' is not a dice expression"),
    "fullwidth-digit": (_intercessors(**{"weapons.0.D": "３"}), "weapons[0].D: '３' is not a dice expression"),
    "unicode-ability": (_intercessors(**{"weapons.0.abilities": ["RAPID FIRE ٣"]}), "not an ability form"),
    "A-1000": (_intercessors(**{"weapons.0.A": 1000}), "weapons[0].A must be from 1 to 60, not 1000"),
    "D-1000": (_intercessors(**{"weapons.0.D": 1000}), "weapons[0].D must be from 1 to 60, not 1000"),
    "A-999D6": (_intercessors(**{"weapons.0.A": "999D6"}), "rolls more than 6 dice"),
    "D-D6+99999999": (_intercessors(**{"weapons.0.D": "D6+99999999"}), "adds a number out of -6 to 60"),
    "sustained-99999": (_intercessors(**{"weapons.0.abilities": ["SUSTAINED HITS 99999"]}),
                        "SUSTAINED HITS X must be from 1 to 20, not 99999"),
    "rapid-fire-999999": (_intercessors(**{"weapons.0.abilities": ["RAPID FIRE 999999"]}),
                          "RAPID FIRE X must be from 1 to 20"),
    "melta-10000000000": (_intercessors(**{"weapons.0.abilities": ["MELTA 10000000000"]}), "too large"),
    "anti-0": (_intercessors(**{"weapons.0.abilities": ["ANTI-INFANTRY 0+"]}), "X from 2 to 6, not 0"),
    "anti-1": (_intercessors(**{"weapons.0.abilities": ["ANTI-INFANTRY 1+"]}), "X from 2 to 6, not 1"),
    "anti-7": (_intercessors(**{"weapons.0.abilities": ["ANTI-INFANTRY 7+"]}), "X from 2 to 6, not 7"),
    "anti-9": (_intercessors(**{"weapons.0.abilities": ["ANTI-INFANTRY 9+"]}), "X from 2 to 6, not 9"),
    "rapid-fire-0": (_intercessors(**{"weapons.0.abilities": ["RAPID FIRE 0"]}), "RAPID FIRE X must be from 1 to 20"),
    "target-foo-bar": (_intercessors(**{"target.abilities": ["FOO BAR"]}), "which the calculator does not read"),
    "100kB-ability": (_intercessors(**{"weapons.0.abilities": ["RAPID FIRE " + "1" * 100_000]}),
                      "must be at most 100 characters, not 100011"),
    "attack-cap": (_intercessors(**{"weapons.0.count": 17, "weapons.0.A": 60}),
                   "weapons can roll up to 1037 attack dice in all"),  # 17 x (60 + RAPID FIRE 1)
    "undecodable": (b'{"weapons": "\xff"}', "is not UTF-8 text"),
    # Issue 21: forms chapter 24 does not print, abilities no weapon has, and choices no defender can make.
    "rapid-fire-2+": (_intercessors(**{"weapons.0.abilities": ["RAPID FIRE 2+"]}),
                      "weapons[0].abilities[0]: 'RAPID FIRE 2+': RAPID FIRE takes the form [RAPID FIRE X], without '+'"),
    "blast-2+": (_intercessors(**{"weapons.0.abilities": ["BLAST 2+"]}), "BLAST takes the form [BLAST X], without '+'"),
    "sustained-d3+": (_intercessors(**{"weapons.0.abilities": ["SUSTAINED HITS D3+"]}), "without '+'"),
    "stealth-weapon": (_intercessors(**{"weapons.0.abilities": ["STEALTH"]}),
                       "weapons[0].abilities[0]: STEALTH is a unit's or model's ability, not a weapon's"),
    "fnp-weapon": (_intercessors(**{"weapons.0.abilities": ["FEEL NO PAIN 5+"]}),
                   "FEEL NO PAIN is a unit's or model's ability, not a weapon's"),
    **{f"melee-{name.lower().replace(' ', '-')}": (
        _intercessors(**{"weapons.0.melee": True, "weapons.0.abilities": [name]}),
        f"weapons[0].abilities[0]: [{name.split(' 1')[0]}] only acts when a weapon shoots, and this weapon is melee")
       for name in ("RAPID FIRE 1", "INDIRECT FIRE", "PISTOL", "HEAVY", "ASSAULT", "MELTA 1")},
    "empty-keyword": (_intercessors(**{"target.keywords": ["INFANTRY", ""]}),
                      "target.keywords[1] must be a non-empty string"),
    "allocation-twice": (_intercessors(choices={"allocation_order": ["Intercessor", "Intercessor"]}),
                         "choices.allocation_order names 'Intercessor' twice"),
    "lone-surrogate": (_intercessors(**{"weapons.0.name": "bolt\udc80rifle"}),
                       "weapons[0].name holds a lone surrogate ('bolt\\udc80rifle'), which is not a character"),

    "not-an-object": ("[]", "scenario must be an object, not a list"),
    # A plain key of 60 characters beside the 14 context keys it could have been: its name is cut, not echoed whole.
    "long-context-key": (_intercessors(context={"k" * 60: 1}),
                         f"context.{'k' * 29}… is not a known key (expected one of attacker_charged"),
    # Any other key is quoted (repr), and cut to the same 30 characters.
    "long-quoted-context-key": (_intercessors(context={"x y" * 20: 1}),
                                f"context.{repr('x y' * 20)[:29]}… is not a known key"),
}


@pytest.mark.parametrize("text,message", REGRESSIONS.values(), ids=REGRESSIONS.keys())
def test_regressions(text, message):
    status, out, err, path, _ = run_calc(text)
    _assert_one_sentence(status, out, err, path)
    assert message in err, err


@pytest.mark.parametrize("name,message", [("missing.json", "cannot be read (No such file or directory)"),
                                          (".", "cannot be read (Is a directory)")])
def test_unreadable_files(tmp_path, capsys, name, message):
    path = tmp_path / name
    assert cli.main(["calc", str(path), "--plot", str(tmp_path / "out.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"rules40k calc: {path}: {message}\n"
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize("options", [(), ("--explain",)])
def test_a_name_with_dollar_signs_is_plotted_as_written(options):
    """A weapon named like a mathtext formula ("$\\frac{1}{$") was a traceback with --plot: a legal name gets its
    answer and its plot."""
    status, out, err, _, _ = run_calc(_intercessors(**{"weapons.0.name": "$\\frac{1}{$", "weapons.0.count": 1}),
                                      *options)
    assert status == 0 and err == "", err
