"""Fuzzing what a user hands the tool: a damaged Core Rules document is never ingested, and a damaged annotation
file never reaches a check. Each fails with one sentence naming the file, exit status 2, and nothing written;
a damage that leaves the document equivalent (whitespace) still ingests to the committed spec."""

from __future__ import annotations

import contextlib
import re
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import spec
from rules40k import annotations, ingest, validate
from rules40k.cli import main

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "spec"
CORE = SPEC / "sources" / "core.txt"
TEXT = CORE.read_text(encoding="utf-8")
LINES = TEXT.split("\n")


def _sections() -> list[tuple[int, int, tuple[str, ...]]]:
    """Each numbered section printing as (first line, end line, references), 0-based and end exclusive: from its
    heading to the next block the ingest cuts."""
    layout = ingest.Layout.load(SPEC / "core" / "annotations" / "layout.yaml")
    blocks, _ = ingest.segment(ingest.read_document(CORE), layout, CORE)
    return [(block.start - 1, after.start - 1, block.refs)
            for block, after in zip(blocks, blocks[1:]) if block.kind == "section"]


SECTIONS = _sections()
REFS = sorted({ref for _, _, refs in SECTIONS for ref in refs})


def _run(argv: list[str]) -> tuple[int, str]:
    """``rules40k argv`` in-process: the exit status and what it wrote to stderr."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue().strip()


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else b"/"
            for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module", autouse=True)
def tracebacks_not_hidden():
    """An unexpected exception must fail the test with its traceback, not become a one-line internal error."""
    old = os.environ.get("RULES40K_DEBUG")
    os.environ["RULES40K_DEBUG"] = "1"
    yield
    if old is None:
        del os.environ["RULES40K_DEBUG"]
    else:
        os.environ["RULES40K_DEBUG"] = old


# --------------------------------------------------------------------------
# The Core Rules document
# --------------------------------------------------------------------------


def _heading_line(start: int, ref: str) -> int:
    """The line printing ``ref`` of the section whose heading starts at ``start`` (it may sit on the next line)."""
    return next(i for i in range(start, start + 4) if ref in LINES[i])


@st.composite
def damaged_documents(draw) -> tuple[str, list[str], bool]:
    """(what was done, the damaged lines, whether the result is equivalent to the document)."""
    how = draw(st.sampled_from(["delete heading", "delete section", "renumber heading", "duplicate section",
                                "truncate", "paste twice", "swap sections", "trailing whitespace"]))
    lines = list(LINES)
    start, end, refs = draw(st.sampled_from(SECTIONS))
    if how == "delete heading":
        del lines[start]
    elif how == "delete section":
        del lines[start:end]
    elif how == "renumber heading":
        ref = draw(st.sampled_from(refs))
        new = draw(st.sampled_from([r for r in REFS if r != ref] + ["24.39", "25.01", "99.99"]))
        at = _heading_line(start, ref)
        lines[at] = lines[at].replace(ref, new, 1)
        how += f" {ref} -> {new}"
    elif how == "duplicate section":
        lines[end:end] = LINES[start:end]
    elif how == "truncate":
        cut = draw(st.integers(0, len(LINES) - 1))
        lines = LINES[:cut]
        how += f" after line {cut}"
        return how, lines, not any(line.strip() for line in LINES[cut:])
    elif how == "paste twice":
        lines = LINES + LINES
    elif how == "swap sections":
        start2, end2, refs2 = draw(st.sampled_from(SECTIONS))
        assume(refs != refs2)  # two printings of one section (15.11) may trade places harmlessly
        (a, b, _), (c, d, _) = sorted([(start, end, refs), (start2, end2, refs2)])
        lines = LINES[:a] + LINES[c:d] + LINES[b:c] + LINES[a:b] + LINES[d:]
        how += f" {refs} and {refs2}"
    elif how == "trailing whitespace":
        at = draw(st.integers(0, len(LINES) - 1))
        lines[at] += draw(st.sampled_from([" ", "  ", "\t", " \t "]))
        return how, lines, True
    return f"{how} ({refs})", lines, False


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-documents")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damage=damaged_documents())
def test_a_damaged_core_document_is_refused_whole(damage, workdir):
    how, lines, equivalent = damage
    with tempfile.TemporaryDirectory(dir=workdir) as folder:
        folder = Path(folder)
        document = folder / "core-damaged.txt"
        document.write_text("\n".join(lines), encoding="utf-8")
        out = folder / "spec"
        (out / "core" / "annotations").mkdir(parents=True)
        for name in ("layout.yaml", "structure.yaml"):
            shutil.copyfile(SPEC / "core" / "annotations" / name, out / "core" / "annotations" / name)
        before = _tree(out)
        code, err = _run(["ingest", str(document), "--ruleset", "core", "--spec", str(out)])
        if equivalent:
            assert code == 0, f"{how}: {err}"
            assert _tree(out / "core" / "chapters") == _tree(SPEC / "core" / "chapters"), how
            return
        assert code == 2, f"{how}: exit {code}, {err!r}"
        assert len(err.split("\n")) == 1 and err.startswith("rules40k ingest: ") and str(document) in err, (how, err)
        assert _tree(out) == before, f"{how}: the ingest wrote into {out}"


# --------------------------------------------------------------------------
# The annotation files
# --------------------------------------------------------------------------

ANNOTATION_FILES = [path.relative_to(SPEC) for name in spec.rulesets()
                    for path in sorted((SPEC / name / "annotations").rglob("*.yaml"))]
REQUIRED = {"examples": annotations.EXAMPLE, "findings": annotations.FINDING,
            "interpretations": annotations.INTERPRETATION, "restorations": annotations.RESTORATION}
TOP_REQUIRED = {"structure.yaml": ("chapters", "appendix", "faqs", "first_line", "last_line"),
                "layout.yaml": ("document", "blocks", "chapters", "entries", "marker", "last_line",
                                "last_line_number")}


def _kind(relative: Path) -> str:
    return relative.parts[2].removesuffix(".yaml")


@st.composite
def damaged_annotations(draw) -> tuple[Path, str, str]:
    """(file, what was done, its damaged text): one annotation file broken in one way."""
    relative = draw(st.sampled_from(ANNOTATION_FILES))
    text = (SPEC / relative).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    how = draw(st.sampled_from(["syntax error", "wrong type", "missing key", "unknown reference", "unknown key"]))
    if how == "syntax error":
        lines = text.split("\n")
        at = draw(st.integers(0, len(lines)))
        return relative, f"{how} at line {at + 1}", "\n".join(lines[:at] + ["[unclosed: {"] + lines[at:])
    if isinstance(data, list):
        index = draw(st.integers(0, len(data) - 1))
        target, where = data[index], f"entry {index + 1}"
    else:
        target, where = data, "top level"
    kind = _kind(relative)
    if how == "missing key" and kind in REQUIRED:
        key = draw(st.sampled_from([k for k, (_, required) in REQUIRED[kind].items() if required]))
        del target[key]
    elif how == "missing key" and relative.name in TOP_REQUIRED and isinstance(data, dict):
        key = draw(st.sampled_from([k for k in TOP_REQUIRED[relative.name] if k in data]))
        del target[key]
    elif how == "unknown reference" and kind in ("examples", "restorations"):
        key, target["ref"] = "ref", draw(st.sampled_from(["99.99", "appendix/nowhere", "no/such-entry"]))
    elif how == "unknown reference" and kind in ("findings", "interpretations"):
        key, target["refs"][0] = "refs[0]", draw(st.sampled_from(["99.99", "core:99.99", "nosuchruleset:x"]))
    elif how == "unknown reference" and kind == "concepts":
        key, target["claim"] = "claim", "no/such-claim"
    elif how == "unknown reference" and kind == "status":
        key, target["inert"] = "inert", {"99.99": "a reason"}
    elif how == "unknown key":
        key, target["colour"] = "colour", "red"
    else:
        how = "wrong type"
        key = draw(st.sampled_from(sorted(k for k in target if k != "expect")))  # an example may expect anything
        target[key] = [1, 2]
    return relative, f"{how}: {key} of {where}", yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)


@pytest.fixture(scope="module")
def spec_copy(tmp_path_factory) -> Path:
    """A copy of spec/ that the annotation validation reads instead of the repository's."""
    root = tmp_path_factory.mktemp("fuzz-annotations") / "spec"
    shutil.copytree(SPEC, root)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(validate, "SPEC_ROOT", root)
        yield root


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damage=damaged_annotations())
def test_a_damaged_annotation_file_stops_coverage_and_verify(damage, spec_copy):
    relative, how, text = damage
    path = spec_copy / relative
    original = path.read_bytes()
    path.write_text(text, encoding="utf-8")
    try:
        output = spec_copy.parent / "results.json"
        for argv in (["coverage"], ["verify", "--ruleset", relative.parts[0], "--no-properties",
                                    "--output", str(output)]):
            code, err = _run(argv)
            assert code == 2, f"{relative}: {how}: rules40k {argv[0]} exit {code}, {err!r}"
            assert len(err.split("\n")) == 1 and err.startswith(f"rules40k {argv[0]}: {path}"), (how, err)
            assert not output.exists()
    finally:
        path.write_bytes(original)


# --------------------------------------------------------------------------
# Hostile data: code named in an annotation, YAML bombs. Run as `python -m rules40k.cli` in a copy of the
# project, so that what the copy's spec/ says is what every step of the command reads.
# --------------------------------------------------------------------------

PROBE = "rules40k_hostile_probe"  # a module beside the copy's packages: importing it leaves a mark
PROBE_SOURCE = """from pathlib import Path
Path(__file__).with_name("probe-imported").write_text("imported")


def run(**kwargs):
    Path(__file__).with_name("probe-ran").write_text("ran")
"""


@pytest.fixture
def project_copy(tmp_path_factory) -> Path:
    """A copy of the project's code and spec/ with an importable probe module beside them."""
    root = tmp_path_factory.mktemp("hostile") / "project"
    for name in ("rules", "rules40k", "properties", "spec"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
    (root / f"{PROBE}.py").write_text(PROBE_SOURCE, encoding="utf-8")
    return root


def _limit_memory() -> None:
    """At most 1 GB of address space for the command (a bomb that got through must not take the machine down)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _cli(root: Path, *argv: str, timeout: float = 300) -> tuple[int, str, float]:
    """``rules40k argv`` run from the copy ``root``: the exit status, stderr and the seconds it took."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("RULES40K_DEBUG", None)
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "rules40k.cli", *argv], cwd=root, env=env, capture_output=True,
                            text=True, timeout=timeout, preexec_fn=_limit_memory)
    return result.returncode, result.stderr.strip(), time.monotonic() - started


def _one_sentence(err: str, verb: str, path: Path, *words: str) -> None:
    assert len(err.split("\n")) == 1 and err.startswith(f"rules40k {verb}: {path}"), err
    assert "Traceback" not in err and all(word in err for word in words), err


def _marks(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(("probe-", "touched")))


def _line_of(path: Path, text: str) -> int:
    """The number of the first line of ``path`` holding ``text``."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if text in line)


@pytest.mark.parametrize("call,args,words", [
    ("os.system", "{command: touch {root}/touched}", "'os.system' is not a function of the rules package"),
    (f"{PROBE}.run", "{}", f"'{PROBE}.run' is not a function of the rules package"),
    ("rules.spec.load_yaml", "{path: /etc/hostname}", "'rules.spec.load_yaml' is neither a rule function"),
], ids=["os.system", "a module beside the code", "a rules module's helper"])
def test_an_example_may_call_only_rule_functions(project_copy, call, args, words):
    """`call: os.system` passed `coverage` and ran its command in `verify`: a call that is no rule function (nor
    one meant for examples) is one sentence naming the file, entry and line, and nothing of it is imported or run."""
    root = project_copy
    path = root / "spec" / "ninth" / "annotations" / "examples" / "zz-hostile.yaml"
    path.write_text("- id: hostile\n  ref: overwatch\n  name: Runs what the data says\n"
                    "  source: {kind: text, title: OVERWATCH, line: 2807}\n"
                    f"  call: {call}\n  args: {args.replace('{root}', str(root))}\n  expect: 0\n", encoding="utf-8")
    output = root / "results.json"
    for argv in (["coverage", "--ruleset", "ninth"],
                 ["verify", "--ruleset", "ninth", "--no-properties", "--output", str(output)]):
        code, err, _ = _cli(root, *argv)
        assert code == 2, (argv, code, err)
        _one_sentence(err, argv[0], path, "entry 1 (hostile), line 5: call: ", words)
        assert _marks(root) == [] and not output.exists()


def test_a_concept_map_may_compare_only_rule_functions(project_copy):
    """concepts.yaml's `compare:` goes through the same gate as an example's `call:`."""
    root = project_copy
    path = root / "spec" / "quickref" / "annotations" / "concepts.yaml"
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries[0]["compare"] = {"quickref": f"{PROBE}.run", "core": "os.system",
                             "inputs": {"command": {"values": [f"touch {root}/touched"]}}}
    path.write_text(yaml.safe_dump(entries, sort_keys=False), encoding="utf-8")
    line = _line_of(path, f"quickref: {PROBE}.run")
    output = root / "results.json"
    for argv in (["coverage", "--ruleset", "quickref"],
                 ["verify", "--ruleset", "quickref", "--no-properties", "--output", str(output)]):
        code, err, _ = _cli(root, *argv)
        assert code == 2, (argv, code, err)
        _one_sentence(err, argv[0], path, f"entry 1 ('turn-sequence'), line {line}: compare.quickref: ",
                      f"'{PROBE}.run' is not a function of the rules package")
        assert _marks(root) == [] and not output.exists()


def _bomb() -> str:
    """A "billion laughs" in one line: nine lists, each of nine aliases of the one before, 10^9 strings in all."""
    levels = ["&l0 [" + ", ".join(["lol"] * 9) + "]"]
    levels += [f"&l{n} [" + ", ".join([f"*l{n - 1}"] * 9) + "]" for n in range(1, 9)]
    return "[" + ", ".join(levels) + "]"


def test_a_yaml_bomb_game_is_refused_at_once(project_copy):
    """A 1.7 KB game file took 32 s and 3.1 GB before failing: its aliases are refused before any value is built,
    with the line of the alias that repeats too much."""
    root = project_copy
    game = root / "bomb.yaml"
    game.write_text("mission: take-and-hold\nplayers:\n  attacker:\n"
                    f"    secondaries: {_bomb()}\n  defender: {{secondaries: []}}\n", encoding="utf-8")
    code, err, seconds = _cli(root, "score", str(game), timeout=60)
    assert code == 2, (code, err)
    _one_sentence(err, "score", game, ": line 4, column ", ": not valid YAML or JSON (the aliases up to *l",
                  "repeat more than 100,000 values")
    assert seconds < 5, f"took {seconds:.1f} s"


def test_a_yaml_bomb_in_an_annotation_id_is_refused_at_once(project_copy):
    """The same bomb as an example's id got `verify` killed: one sentence with the file and line, before any
    check runs."""
    root = project_copy
    path = root / "spec" / "ninth" / "annotations" / "examples" / "overwatch.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("- id: overwatch-six-hits-whatever-the-skill", f"- id: {_bomb()}", 1),
                    encoding="utf-8")
    line = _line_of(path, "- id: [&l0")
    output = root / "results.json"
    for argv in (["verify", "--ruleset", "ninth", "--no-properties", "--output", str(output)],
                 ["coverage", "--ruleset", "ninth"]):
        code, err, seconds = _cli(root, *argv, timeout=120)
        assert code == 2, (argv, code, err)
        _one_sentence(err, argv[0], path, f": line {line}, column ", "is not valid YAML (the aliases up to *l")
        assert seconds < 10, f"{argv[0]} took {seconds:.1f} s"
        assert not output.exists()


# --------------------------------------------------------------------------
# Issue 21: damage every layout-driven ruleset's ingest let through, and the kept printings
# --------------------------------------------------------------------------

SEEDS = {name: SPEC / "sources" / f"{name}.txt" for name in ("core", "missionpack", "ninth")}


def _spec_for(folder: Path, name: str) -> Path:
    """A spec folder holding ``name``'s annotations (what its ingest reads) and nothing else."""
    out = folder / "spec"
    shutil.copytree(SPEC / name / "annotations", out / name / "annotations")
    shutil.copyfile(SPEC / "rulesets.yaml", out / "rulesets.yaml")
    return out


def _block_twice(text: str) -> tuple[str, int]:
    """The document with its first paragraph of 200 characters or more printed again right after itself, and the
    number of the line the repeat starts on."""
    lines = text.split("\n")
    at = next(n for n, line in enumerate(lines) if len(line) >= 200)
    return "\n".join(lines[:at + 1] + ["", lines[at]] + lines[at + 1:]), at + 3


@pytest.mark.parametrize("name", sorted(SEEDS))
@pytest.mark.parametrize("damage", ["bom", "crlf", "nul", "junk before the title", "block printed twice"])
def test_a_damaged_document_of_any_ruleset_is_refused_with_its_line(tmp_path, name, damage):
    """A BOM is named as one and a CRLF copy refused (the stored copy and its sha256 are the document's own bytes),
    a NUL byte, a line before the first line of text and a block printed twice are refused with the line, for every
    ruleset alike; nothing is written."""
    text = SEEDS[name].read_text(encoding="utf-8")
    words = {"bom": "line 1 starts with a byte-order mark (U+FEFF)",
             "crlf": "line 1 ends with a carriage return (CRLF line ends)", "nul": "line 5 holds a NUL byte",
             "junk before the title": "line 1"}.get(damage)
    if damage == "bom":
        text = "\ufeff" + text
    elif damage == "crlf":
        text = text.replace("\n", "\r\n")
    elif damage == "nul":
        lines = text.split("\n")
        lines[4] += "\0"
        text = "\n".join(lines)
    elif damage == "junk before the title":
        text = "Scanned by a careless user\n" + text
    else:
        text, line = _block_twice(text)
        words = f"line {line} repeats the line from line {line - 2} "
    document = tmp_path / "damaged.txt"
    document.write_bytes(text.encode("utf-8"))
    out = _spec_for(tmp_path, name)
    before = _tree(out)
    code, err = _run(["ingest", str(document), "--ruleset", name, "--spec", str(out)])
    assert code == 2, (damage, err)
    assert len(err.split("\n")) == 1 and err.startswith(f"rules40k ingest: {document}: ") and words in err, err
    assert _tree(out) == before


LAYOUT_RULESETS = ("missionpack", "ninth", "quickref")


def _pinned(name: str) -> tuple[list[int], int]:
    """The lines the layout pins: where each entry's block starts, and the document's last line."""
    layout = yaml.safe_load((SPEC / name / "annotations" / "layout.yaml").read_text(encoding="utf-8"))
    return [entry["line"] for entry in layout["entries"]], layout["last_line_number"]


@st.composite
def lines_deleted_or_added(draw) -> tuple[str, str, int, bool]:
    """(ruleset, damaged text, the line number damaged, whether a line was added rather than deleted)."""
    name = draw(st.sampled_from(LAYOUT_RULESETS))
    lines = (SPEC / "sources" / f"{name}.txt").read_text(encoding="utf-8").split("\n")
    _, last = _pinned(name)
    at = draw(st.integers(1, last))
    added = draw(st.booleans())
    if added:
        lines.insert(at - 1, draw(st.sampled_from(["", "A line of text the document does not have."])))
    else:
        del lines[at - 1]
    return name, "\n".join(lines), at, added


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damage=lines_deleted_or_added())
def test_a_line_deleted_or_added_anywhere_in_a_layout_document_is_refused(damage, workdir):
    """Issue 21: one body line or one entry heading deleted was ingested silently for the layout-driven rulesets.
    The layout pins where each block starts (``line``) and where the document ends (``last_line_number``), so the
    first block after the damage is found on another line: one sentence naming it, exit 2, nothing written."""
    name, text, at, added = damage
    starts, last = _pinned(name)
    with tempfile.TemporaryDirectory(dir=workdir) as folder:
        folder = Path(folder)
        document = folder / "damaged.txt"
        document.write_text(text, encoding="utf-8")
        out = _spec_for(folder, name)
        before = _tree(out)
        code, err = _run(["ingest", str(document), "--ruleset", name, "--spec", str(out)])
        assert code == 2, f"line {at} {'added' if added else 'deleted'}: exit {code}, {err!r}"
        assert len(err.split("\n")) == 1 and err.startswith("rules40k ingest: ") and "Traceback" not in err, err
        assert _tree(out) == before
    if (not added and at in starts + [last]) or (added and at <= starts[0]):
        return  # a heading or the last line deleted, a line before the first block: refused in words of their own
    after = next((line for line in starts if line >= at), last)  # the first pinned line the damage moves
    shifted = after + 1 if added else after - 1
    assert err.startswith(f"rules40k ingest: {document}: line {after if added else shifted}: "), err
    assert (f"next line reading it is line {shifted}" if added else f"on line {shifted}, not {after}") in err, err


CORE_PINS = yaml.safe_load((SPEC / "core" / "annotations" / "structure.yaml").read_text(encoding="utf-8"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(at=st.integers(1, CORE_PINS["last_line_number"]), added=st.booleans(),
       text=st.sampled_from(["", "A line of text the Core Rules do not have."]))
def test_a_line_deleted_or_added_anywhere_in_the_core_rules_is_refused(at, added, text, workdir):
    """Issue 21: 23 of 30 random body-line deletions of the Core Rules were ingested silently (its shape checks saw
    headings only). structure.yaml pins the line each section printing starts on and the document's last line: the
    first section after the damage is found a line off, one sentence naming it, exit 2, nothing written."""
    lines = CORE.read_text(encoding="utf-8").split("\n")
    if added:
        lines.insert(at - 1, text)
    else:
        del lines[at - 1]
    with tempfile.TemporaryDirectory(dir=workdir) as folder:
        folder = Path(folder)
        document = folder / "damaged.txt"
        document.write_text("\n".join(lines), encoding="utf-8")
        out = _spec_for(folder, "core")
        before = _tree(out)
        code, err = _run(["ingest", str(document), "--ruleset", "core", "--spec", str(out)])
        assert code == 2, f"line {at} {'added' if added else 'deleted'}: exit {code}, {err!r}"
        assert len(err.split("\n")) == 1 and err.startswith("rules40k ingest: ") and "Traceback" not in err, err
        assert _tree(out) == before
    starts = CORE_PINS["section_lines"]
    if starts[0] < at and at not in starts and at < CORE_PINS["last_line_number"] - 1:  # inside the body
        moved = next((line for line in starts if line > at), None)
        words = f"not {moved} as structure.yaml says" if moved else f"not {CORE_PINS['last_line_number']} as"
        assert words in err and ("line added" if added else "line missing") in err, err


WEB = SPEC / "sources" / "ninth-web.txt"
WEB_NAME = yaml.safe_load((SPEC / "sources" / "ninth-web.yaml").read_text(encoding="utf-8"))["original_name"]


@pytest.fixture
def kept_spec(tmp_path) -> Path:
    """A copy of spec/ (the evidence quoting the kept printing included), the copy validation reads."""
    out = tmp_path / "spec"
    shutil.copytree(SPEC, out)
    return out


@pytest.mark.parametrize("damage,words", [
    ("empty", "the document has no text"),
    ("truncated", "does not read what"),
    ("doubled", "twice"),  # the repeat of its paragraphs, or of its opening lines in a longer copy
    ("renamed", f"the evidence quotes this printing as '{WEB_NAME}'; keep the copy under that file name"),
])
def test_a_damaged_copy_of_a_kept_printing_is_refused(tmp_path, kept_spec, damage, words):
    """`--printing` accepted an empty, truncated or doubled copy of 003 (and `coverage` then failed elsewhere)."""
    text = WEB.read_text(encoding="utf-8")
    text = {"empty": "", "truncated": "\n".join(text.split("\n")[:300]), "doubled": text + "\n" + text,
            "renamed": text}[damage]
    folder = tmp_path / "in"
    folder.mkdir()
    document = folder / ("copy.txt" if damage == "renamed" else WEB_NAME)
    document.write_text(text, encoding="utf-8")
    before = _tree(kept_spec / "sources")
    code, err = _run(["ingest", str(document), "--ruleset", "ninth", "--printing", "web", "--spec", str(kept_spec)])
    assert code == 2, err
    assert len(err.split("\n")) == 1 and err.startswith(f"rules40k ingest: {document}: ") and words in err, err
    assert _tree(kept_spec / "sources") == before


def test_re_keeping_a_printing_keeps_its_title_and_a_long_name_is_refused(tmp_path, kept_spec):
    """Re-keeping without --title wiped the title; a 300-character printing name was a traceback."""
    folder = tmp_path / "in"
    folder.mkdir()
    document = folder / WEB_NAME
    document.write_text(WEB.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # another sha256, the same quotes
    provenance = kept_spec / "sources" / "ninth-web.yaml"
    title = yaml.safe_load(provenance.read_text(encoding="utf-8"))["title"]
    code, err = _run(["ingest", str(document), "--ruleset", "ninth", "--printing", "web", "--spec", str(kept_spec)])
    assert code == 0, err
    assert yaml.safe_load(provenance.read_text(encoding="utf-8"))["title"] == title and title
    code, err = _run(["ingest", str(document), "--ruleset", "ninth", "--printing", "x" * 300, "--spec",
                      str(kept_spec)])
    assert code == 2 and "at most 40 characters" in err and len(err) < 300, err


def _replace_first(old: str, new: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)
    return change


#: Issue 21's bad annotations that `coverage` let through (exit 0), each with the words of its one sentence.
OVERWATCH = Path("ninth/annotations/examples/overwatch.yaml")
SEQUENCE_FINDINGS = Path("missionpack/annotations/findings/sequence.yaml")
SEQUENCE_PROOF = "proof:missionpack-datasheet-repetition-limited-in-every-battle-size"
SEQUENCE_PROPERTY = "property:test_terrain_table_headed_army"
BAD_ANNOTATIONS = {
    "empty examples file": (OVERWATCH, lambda text: "", "the file is empty (or null)"),
    "null examples file": (OVERWATCH, lambda text: "null\n", "the file is empty (or null)"),
    "null findings file": (next(p.relative_to(SPEC) for p in sorted((SPEC / "core" / "annotations" / "findings")
                                                                    .glob("*.yaml"))),
                           lambda text: "~\n", "the file is empty (or null)"),
    "source line past the end": (OVERWATCH, lambda text: re.sub(r"line: \d+", "line: 999999", text, count=1),
                                 "source.line 999999 is past the end of the ninth document"),
    "call of no module": (OVERWATCH, lambda text: re.sub(r"call: [\w.]+", "call: rules.ninth.no_such.function",
                                                         text, count=1), "names no module of the rules package"),
    "layout document wrong type": (Path("missionpack/annotations/layout.yaml"),
                                   _replace_first("  publisher: Games Workshop", "  publisher: [1, 2]"),
                                   "document.publisher must be one line of text, not '[1, 2]'"),
    "layout document unknown key": (Path("ninth/annotations/layout.yaml"),
                                    _replace_first("  publisher: Games Workshop", "  publisher: Games Workshop\n"
                                                   "  colour: red"), "document: unknown key 'colour'"),
    # A finding's check must be a check that shows it: a proof the rules as written fail, or a property.
    "finding check names no proof": (SEQUENCE_FINDINGS, _replace_first(f'check: "{SEQUENCE_PROOF}"',
                                                                       'check: "proof:no-such-proof"'),
                                     f"line {_line_of(SPEC / SEQUENCE_FINDINGS, SEQUENCE_PROOF)}: check 'proof:no-such-proof' "
                                     "names no registered proof"),
    "finding check names a proof that holds": (SEQUENCE_FINDINGS, _replace_first(
        f'check: "{SEQUENCE_PROOF}"', 'check: "proof:d3-in-range-and-monotone"'),
        "check 'proof:d3-in-range-and-monotone' is a proof expected to hold"),
    "finding check names no property": (SEQUENCE_FINDINGS, _replace_first(
        f'check: "{SEQUENCE_PROPERTY}"', 'check: "property:test_no_such_property"'),
        f"line {_line_of(SPEC / SEQUENCE_FINDINGS, SEQUENCE_PROPERTY)}: check "
        "'property:test_no_such_property' names no refs-marked property"),
    "finding check names a test that is no property": (SEQUENCE_FINDINGS, _replace_first(
        f'check: "{SEQUENCE_PROPERTY}"', 'check: "property:test_every_finding_names_a_check_that_exists"'),
        "names no refs-marked property"),
    "finding check of another kind": (SEQUENCE_FINDINGS, _replace_first(
        f'check: "{SEQUENCE_PROOF}"', 'check: "table:missionpack:points-limit"'),
        "check 'table:missionpack:points-limit' must name a proof (proof:ID) or a property (property:NAME)"),
    # Where each block starts, pinned so a line deleted or added is noticed: a whole number, in order, present.
    "layout entry line not a number": (Path("ninth/annotations/layout.yaml"),
                                       _replace_first("- at: OVERWATCH\n  line: 2805", "- at: OVERWATCH\n  line: true"),
                                       "entries item 90: 'line' must be a line number (a whole number from 1), not 'True'"),
    "layout entry line out of order": (Path("ninth/annotations/layout.yaml"),
                                       _replace_first("- at: OVERWATCH\n  line: 2805", "- at: OVERWATCH\n  line: 1936"),
                                       "entries item 90: 'line' 1936 does not come after the previous entry's (2798)"),
    "layout entry without line": (Path("ninth/annotations/layout.yaml"),
                                  _replace_first("- at: OVERWATCH\n  line: 2805\n", "- at: OVERWATCH\n"),
                                  "entries item 90 ('OVERWATCH') lacks 'line'"),
    "layout last line number wrong type": (Path("quickref/annotations/layout.yaml"),
                                           _replace_first("last_line_number: 654", "last_line_number: '654'"),
                                           "'last_line_number' must be the line number of 'last_line'"),
    "core layout document wrong type": (Path("core/annotations/layout.yaml"),
                                        _replace_first("  publisher: Games Workshop", "  publisher: 7"),
                                        "document.publisher must be one line of text, not '7'"),
}


@pytest.mark.parametrize("relative,change,words", BAD_ANNOTATIONS.values(), ids=BAD_ANNOTATIONS.keys())
def test_each_kind_of_bad_annotation_stops_coverage(spec_copy, relative, change, words):
    path = spec_copy / relative
    original = path.read_bytes()
    path.write_text(change(original.decode("utf-8")), encoding="utf-8")
    try:
        code, err = _run(["coverage", "--ruleset", relative.parts[0]])
        assert code == 2, f"{relative}: exit {code}, {err!r}"
        assert len(err.split("\n")) == 1 and err.startswith(f"rules40k coverage: {path}") and words in err, err
    finally:
        path.write_bytes(original)
