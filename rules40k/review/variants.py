"""In-tree versions of a ruleset: ``m41@006`` is 999.m41 with revision 006's rules put in place of 007's.

A variant is hand-written data, spec/<ruleset>/versions/<version>.yaml: one entry per change its revision notes
describe, quoting the note, with a status and, for a change rebuilt in rules/<ruleset>/, the module attributes
it replaces (``overrides``). The ruleset as encoded is its current revision (``m41@007``). The review of a
variant against its ruleset (``rules40k review m41@006 m41@007``) takes each entry alone and then all of them:
the table cells that changed, the checks whose verdict changed, the intent checks and the calculator's outcomes
(rules40k/review/variant_probe.py does the work in a fresh process).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rules import safe_yaml, spec
from rules.messages import shown
from rules40k import REPO_ROOT
from rules40k.review.versions import ReviewError

VERSIONS_FOLDER = "versions"
STATUSES = ("reconstructed", "too-vague", "no-rule-change", "not-rebuilt")
CURRENT = {"m41": "007"}  # the revision each ruleset with variants is encoded at
NOTES_PREFIX = {"m41": "front/revision-"}
PROBE = Path(__file__).resolve().parent / "variant_probe.py"
PROBE_TIMEOUT = 600.0
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")


class VariantError(ReviewError):
    """A versions file that cannot be read, or a variant that does not exist; one sentence naming the place."""


def normalise(text: str) -> str:
    return " ".join(str(text).split())


def sentences(text: str) -> list[str]:
    """A note's sentences: split after each full stop (the notes end sentences with "." and nothing else), a
    chapter heading the ingest left in front ("————— Missions —————") not counted."""
    text = re.sub(r"^—+[^—]*—+\s*", "", normalise(text))
    return [s for s in re.split(r"(?<=\.)\s+", text) if s]


def folder(ruleset: str, root: Path = REPO_ROOT) -> Path:
    return root / "spec" / ruleset / VERSIONS_FOLDER


def known() -> list[str]:
    """Every version name the review accepts with "@": each ruleset's current revision and its variants."""
    names = []
    for ruleset, current in CURRENT.items():
        names.append(f"{ruleset}@{current}")
        names += [f"{ruleset}@{p.stem}" for p in sorted(folder(ruleset).glob("*.yaml"))]
    return names


def parse(text: str) -> tuple[str, str]:
    """(ruleset, version) of "ruleset@version", refusing a name that is not known."""
    ruleset, _, version = text.partition("@")
    if text not in known():
        raise VariantError(f"{shown(text)} is not a known version of a ruleset: the known ones are "
                           f"{', '.join(known())}")
    return ruleset, version


def _problem(path: Path, where: str, what: str) -> VariantError:
    return VariantError(f"{path}: {where}: {what}")


def _text(path: Path, where: str, value: Any, pattern: re.Pattern | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _problem(path, where, "must be a non-empty text")
    if pattern is not None and not pattern.match(value):
        raise _problem(path, where, f"{shown(value)} is not of the form {pattern.pattern}")
    return value


def load(ruleset: str, version: str, root: Path = REPO_ROOT) -> dict:
    """The versions file of a variant, checked field by field (each problem one sentence naming the entry and
    field): every quote a part of its note's text, every reconstructed entry with overrides, the others with why."""
    path = folder(ruleset, root) / f"{version}.yaml"
    try:
        data = safe_yaml.load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise VariantError(f"{path}: cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise VariantError(f"{path}: is not UTF-8 text") from None
    except Exception as error:  # noqa: BLE001 - any YAML error (or refused alias) is one sentence
        first = (safe_yaml.problem(error).strip().splitlines() or ["not YAML"])[0]
        raise VariantError(f"{path}:{safe_yaml.place(error)} is not valid YAML ({first})") from None
    if not isinstance(data, dict):
        raise _problem(path, "the file", "must be a mapping with ruleset, version, title, source and entries")
    allowed = {"ruleset", "version", "title", "source", "entries"}
    if set(data) != allowed:
        extra, missing = sorted(set(data) - allowed), sorted(allowed - set(data))
        raise _problem(path, "the file", f"has unknown keys {extra}" if extra else f"lacks {missing}")
    if data["ruleset"] != ruleset or str(data["version"]) != version:
        raise _problem(path, "ruleset/version", f"must be {ruleset} and {version!r}, as the file's place says")
    _text(path, "title", data["title"])
    _text(path, "source", data["source"])
    if not isinstance(data["entries"], list) or not data["entries"]:
        raise _problem(path, "entries", "must be a non-empty list")
    notes = {ref: normalise(s.get("text", "")) for ref, s in spec.sections(ruleset).items()
             if ref.startswith(NOTES_PREFIX[ruleset])}
    seen: set[str] = set()
    entries = []
    for index, entry in enumerate(data["entries"]):
        where = f"entries[{index}]"
        if not isinstance(entry, dict):
            raise _problem(path, where, "must be a mapping")
        if isinstance(entry.get("id"), str):
            where += f" ({entry['id']})"
        fields = {"id", "note", "quote", "status", "why", "overrides", "intent"}
        unknown = sorted(set(entry) - fields)
        if unknown:
            raise _problem(path, where, f"has unknown fields {unknown} (allowed: {sorted(fields)})")
        ident = _text(path, f"{where}.id", entry.get("id"), _SLUG)
        if ident in seen:
            raise _problem(path, f"{where}.id", f"{ident!r} is used twice")
        seen.add(ident)
        note = _text(path, f"{where}.note", entry.get("note"))
        if note not in notes:
            raise _problem(path, f"{where}.note", f"{shown(note)} is not a revision note section of {ruleset}")
        quote = normalise(_text(path, f"{where}.quote", entry.get("quote")))
        if quote not in notes[note]:
            raise _problem(path, f"{where}.quote", f"is not part of the text of {note}")
        status = entry.get("status")
        if status not in STATUSES:
            raise _problem(path, f"{where}.status", f"must be one of {', '.join(STATUSES)}")
        overrides = entry.get("overrides")
        if status == "reconstructed":
            if not isinstance(overrides, dict) or not overrides:
                raise _problem(path, f"{where}.overrides", "a reconstructed entry must name what it replaces")
            for place, source in overrides.items():
                _text(path, f"{where}.overrides", place, _DOTTED)
                _text(path, f"{where}.overrides[{place}]", source, _DOTTED)
        elif overrides is not None:
            raise _problem(path, f"{where}.overrides", f"only a reconstructed entry replaces rules, not a {status} one")
        if status != "reconstructed" or "why" in entry:
            _text(path, f"{where}.why", entry.get("why"))
        intent = entry.get("intent")
        if intent is not None:
            from rules40k.review import intents_m41

            if intent not in intents_m41.INTENTS:
                raise _problem(path, f"{where}.intent", f"{shown(intent)} is not one of "
                                                        f"{', '.join(intents_m41.INTENTS)}")
        entries.append({"id": ident, "note": note, "quote": quote, "status": status,
                        "why": normalise(entry.get("why", "")), "overrides": dict(overrides or {}),
                        "intent": intent})
    return {"ruleset": ruleset, "version": version, "title": data["title"], "source": data["source"],
            "entries": entries, "path": str(path)}


def unquoted(variant: dict) -> list[tuple[str, str]]:
    """(note, sentence) for every sentence of the ruleset's revision notes that no entry quotes."""
    ruleset = variant["ruleset"]
    quotes: dict[str, list[str]] = {}
    for entry in variant["entries"]:
        quotes.setdefault(entry["note"], []).append(entry["quote"])
    missing = []
    for ref, section in spec.sections(ruleset).items():
        if not ref.startswith(NOTES_PREFIX[ruleset]):
            continue
        for sentence in sentences(section.get("text", "")):
            if not any(sentence in quote for quote in quotes.get(ref, [])):
                missing.append((ref, sentence))
    return missing


def probe(variant: dict, sweep: bool = True, timeout: float = PROBE_TIMEOUT) -> dict:
    """What each entry's overrides (alone, then together) change, from a fresh process (variant_probe.py)."""
    with tempfile.TemporaryDirectory(prefix="variant-") as scratch:
        job, out = Path(scratch) / "job.json", Path(scratch) / "out.json"
        job.write_text(json.dumps({"ruleset": variant["ruleset"], "entries": variant["entries"], "sweep": sweep}),
                       encoding="utf-8")
        try:
            done = subprocess.run([sys.executable, str(PROBE), str(job), str(out)], cwd=REPO_ROOT,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise ReviewError(f"the review of {variant['ruleset']}@{variant['version']} did not finish within "
                              f"{timeout:g} s") from None
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise ReviewError(f"the review of {variant['ruleset']}@{variant['version']} failed: {last[:300]}")
        return json.loads(out.read_text(encoding="utf-8"))


def _flip(change: dict) -> dict:
    """A probe result seen from the other side (the variant new, the ruleset as encoded old)."""
    flipped = json.loads(json.dumps(change))
    for table in flipped.get("tables", {}).values():
        for cell in table["cells"]:
            cell["old"], cell["new"] = cell["new"], cell["old"]
        table["rows_before"], table["rows_after"] = table["rows_after"], table["rows_before"]
    for check in flipped.get("checks", []):
        check["old"], check["new"] = check["new"], check["old"]
    for intent in flipped.get("intents", {}).values():
        intent["old"], intent["new"] = intent["new"], intent["old"]
    outcomes = flipped.get("outcomes")
    if outcomes and outcomes.get("moved"):
        for row in outcomes["moved"]:
            row["old"], row["new"] = row["new"], row["old"]
    return flipped


def review_variants(old_text: str, new_text: str, sweep: bool = True) -> dict:
    """``rules40k review RULESET@A RULESET@B``: one variant against its ruleset as encoded, note by note."""
    (old_ruleset, old_version), (new_ruleset, new_version) = parse(old_text), parse(new_text)
    if old_ruleset != new_ruleset:
        raise VariantError(f"{old_text} and {new_text} are versions of different rulesets")
    ruleset, current = old_ruleset, CURRENT[old_ruleset]
    if (old_version == current) == (new_version == current):
        raise VariantError(f"compare a variant of {ruleset} with {ruleset}@{current} (the ruleset as encoded): "
                           f"{old_text} against {new_text} is not such a pair")
    variant = load(ruleset, new_version if old_version == current else old_version)
    found = probe(variant, sweep=sweep)
    forward = old_version != current  # the variant is the old side
    entries = []
    for entry in variant["entries"]:
        change = found["entries"].get(entry["id"], {})
        entries.append({**entry, **(change if forward else _flip(change))})
    whole = found["whole"] if forward else _flip(found["whole"])
    return {"kind": "variants", "ruleset": ruleset, "old": old_text, "new": new_text, "title": variant["title"],
            "source": variant["source"], "entries": entries, "whole": whole, "timings": found.get("timings", {}),
            "counts": {status: sum(1 for e in entries if e["status"] == status) for status in STATUSES}}


STATUS_WORDS = {"reconstructed": "rebuilt", "too-vague": "too vague to rebuild", "no-rule-change": "no rule change",
                "not-rebuilt": "not rebuilt"}


def _cell_words(table: str, cell: dict) -> str:
    """One changed cell in the game's terms: the to-wound chart as "S4 against T8: 5+ -> 6+"."""
    inputs = cell["inputs"]
    if set(inputs) == {"strength", "toughness"}:
        return f"S{inputs['strength']} against T{inputs['toughness']}: {cell['old']}+ -> {cell['new']}+"
    return f"{cell['label']}: {cell['old']} -> {cell['new']}"


def outcome_words(outcome: dict) -> str:
    """A sweep outcome in the game's terms, to three figures (the JSON keeps it exact)."""
    from fractions import Fraction

    if "error" in outcome:
        return f"refused ({outcome['error']})"
    words = f"{float(Fraction(outcome['value'])):.3g} {outcome['measure']}"
    if "destroyed" in outcome:
        words += (f", destroyed {float(Fraction(outcome['destroyed'])):.1%}, "
                  f"{float(Fraction(outcome['damage results suffered'])):.3g} damage results, "
                  f"{float(Fraction(outcome['damaged sub-results'])):.3g} damaged sub-results")
    return words


def lines(report: dict) -> list[str]:
    """The review of a variant as text, note by note: the quote, what became of it, the cells, verdicts, intents."""
    out = [f"{report['old']} -> {report['new']}: {report['title']}", f"Source: {report['source']}",
           ", ".join(f"{count} {STATUS_WORDS[status]}" for status, count in report["counts"].items()), ""]

    def changes(found: dict, indent: str = "    ") -> list[str]:
        text = []
        for table, change in found.get("tables", {}).items():
            text.append(f"{indent}{change['changed']} of {change['total']} cells of {table} changed:")
            text += [f"{indent}  {_cell_words(table, cell)}" for cell in change["cells"]]
        for check in found.get("checks", []):
            text.append(f"{indent}check {check['id']}: {check['old']} -> {check['new']}")
        for name, sides in found.get("intents", {}).items():
            for side in ("old", "new"):
                verdict = sides[side]
                shown_case = "" if verdict["counterexample"] is None else f" (counterexample: {verdict['counterexample']})"
                text.append(f"{indent}intent {name} in {report[side]}: {verdict['verdict']}{shown_case}")
        outcomes = found.get("outcomes") or {}
        if outcomes.get("applies"):
            text.append(f"{indent}{len(outcomes['moved'])} of {outcomes['matchups']} matchups moved")
            text += [f"{indent}  {row['matchup']}: {outcome_words(row['old'])} -> {outcome_words(row['new'])}"
                     for row in outcomes["moved"]]
            if outcomes.get("overrides_not_called"):
                text.append(f"{indent}(the calculator never calls {', '.join(outcomes['overrides_not_called'])})")
        return text

    for entry in report["entries"]:
        out.append(f"[{entry['note']}] {entry['id']}: {STATUS_WORDS[entry['status']]}")
        out.append(f"    \"{entry['quote']}\"")
        if entry["why"]:
            out.append(f"    why: {entry['why']}")
        out += changes(entry)
    out += ["", "All notes together:"] + changes(report["whole"])
    outcomes = report["whole"].get("outcomes") or {}
    if not outcomes.get("applies", True):
        out.append(f"    outcomes: {outcomes.get('why', '')}")
    return out


#: The variant reviews the site's Errata reviews area shows: (old, new, file stem under reviews/).
SITE_REVIEWS = (("m41@006", "m41@007", "m41-006-m41-007"),)


def save_for_site(folder: Path, rulesets: list[str] | None = None) -> list[Path]:
    """Write each site variant review of these rulesets (None: all) as reviews/<stem>.json with its plot .svg."""
    from rules40k.checks import write_results
    from rules40k.review import sweep as sweeps

    written = []
    for old, new, stem in SITE_REVIEWS:
        if rulesets is not None and old.partition("@")[0] not in rulesets:
            continue
        report = review_variants(old, new)
        (folder / "reviews").mkdir(parents=True, exist_ok=True)
        target = folder / "reviews" / f"{stem}.json"
        write_results(report, target)
        if report["whole"]["outcomes"].get("applies"):
            sweeps.plot_shift(report["whole"]["outcomes"]["plot"], target.with_suffix(".svg"),
                              title=f"{old} → {new}: expected models destroyed over the m41 sweep")
        written.append(target)
    return written
