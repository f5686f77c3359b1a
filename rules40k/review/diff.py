"""Compare two snapshots of a ruleset (rules40k.review.snapshot): text, table cells, check verdicts,
findings, and the sections whose code and wording went different ways. Pure functions over plain data."""

from __future__ import annotations

import difflib
import re
from typing import Any

SIMILAR = 0.8  # how alike two texts must be for a section that changed its number to count as the same one


def normalise(text: str) -> str:
    return " ".join(str(text).split())


def word_diff(old: str, new: str) -> list[list[str]]:
    """The change from ``old`` to ``new`` word by word: runs of ["=", words], ["-", words], ["+", words]."""
    a, b = re.findall(r"\S+", str(old)), re.findall(r"\S+", str(new))
    out: list[list[str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(["=", " ".join(a[i1:i2])])
        if op in ("delete", "replace"):
            out.append(["-", " ".join(a[i1:i2])])
        if op in ("insert", "replace"):
            out.append(["+", " ".join(b[j1:j2])])
    return out


def similarity(old: str, new: str) -> float:
    a, b = normalise(old).split(), normalise(new).split()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return matcher.ratio() if matcher.real_quick_ratio() >= SIMILAR else 0.0


def diff_text(old: dict[str, dict], new: dict[str, dict]) -> dict[str, list[dict]]:
    """Sections added, removed, changed and renumbered, matched by content as well as by reference."""
    out: dict[str, list[dict]] = {"added": [], "removed": [], "changed": [], "renumbered": []}
    same = {ref for ref in old if ref in new and normalise(old[ref]["text"]) == normalise(new[ref]["text"])}
    old_left = [ref for ref in old if ref not in same]
    new_left = [ref for ref in new if ref not in same]
    by_text = {}
    for ref in new_left:
        by_text.setdefault(normalise(new[ref]["text"]), []).append(ref)
    moved: dict[str, str] = {}
    for ref in old_left:  # the same text under another reference
        candidates = [r for r in by_text.get(normalise(old[ref]["text"]), []) if r not in moved.values()]
        if candidates and normalise(old[ref]["text"]):
            moved[ref] = candidates[0]
    for ref in old_left:  # a similar text under a reference the old version did not have
        if ref in moved or ref in new:
            continue
        scored = [(similarity(old[ref]["text"], new[r]["text"]), r) for r in new_left
                  if r not in old and r not in moved.values()]
        best = max(scored, default=(0.0, ""))
        if best[0] >= SIMILAR:
            moved[ref] = best[1]
    taken = set(moved.values())
    for ref, to in moved.items():
        entry = {"old": ref, "new": to, "title": new[to]["title"]}
        if normalise(old[ref]["text"]) != normalise(new[to]["text"]):
            entry["diff"] = word_diff(old[ref]["text"], new[to]["text"])
        out["renumbered"].append(entry)
    for ref in old_left:
        if ref in moved:
            continue
        if ref in new and ref not in taken:
            out["changed"].append({"ref": ref, "title": new[ref]["title"],
                                   "diff": word_diff(old[ref]["text"], new[ref]["text"])})
        else:
            out["removed"].append({"ref": ref, "title": old[ref]["title"]})
    for ref in new_left:
        if ref in taken or (ref in old and ref not in moved):
            continue  # renumbered into, or reported as changed above
        out["added"].append({"ref": ref, "title": new[ref]["title"]})
    for key in out:
        out[key].sort(key=lambda e: e.get("ref") or e.get("old"))
    return out


def cell_label(inputs: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in inputs.items())


def diff_tables(old: dict[str, dict], new: dict[str, dict]) -> dict[str, Any]:
    """Per decision table, every input cell whose answer changed (and tables added or removed)."""
    changed = {}
    for name in sorted(set(old) & set(new)):
        before = {cell_label(i): (i, a) for i, a in old[name]["cells"]}
        after = {cell_label(i): (i, a) for i, a in new[name]["cells"]}
        cells = []
        for label in sorted(set(before) | set(after), key=lambda k: list(after).index(k) if k in after else -1):
            a = before.get(label, (None, "outside the domain"))[1]
            b = after.get(label, (None, "outside the domain"))[1]
            if a != b:
                inputs = (after.get(label) or before.get(label))[0]
                cells.append({"inputs": inputs, "label": label, "old": a, "new": b})
        if cells or old[name]["rows"] != new[name]["rows"]:
            changed[name] = {"refs": new[name]["refs"], "cells": cells, "changed": len(cells),
                             "rows_before": old[name]["rows"], "rows_after": new[name]["rows"], "total": len(after)}
    return {"changed": changed, "added": sorted(set(new) - set(old)), "removed": sorted(set(old) - set(new))}


def diff_checks(old: dict[str, dict], new: dict[str, dict]) -> dict[str, list[dict]]:
    """Checks whose verdict changed, and checks added or removed."""
    changed = [{"id": i, "refs": new[i]["refs"], "name": new[i]["name"], "old": old[i]["status"],
                "new": new[i]["status"]} for i in sorted(set(old) & set(new)) if old[i]["status"] != new[i]["status"]]
    added = [{"id": i, "refs": new[i]["refs"], "name": new[i]["name"], "new": new[i]["status"]}
             for i in sorted(set(new) - set(old))]
    removed = [{"id": i, "refs": old[i]["refs"], "name": old[i]["name"], "old": old[i]["status"]}
               for i in sorted(set(old) - set(new))]
    return {"changed": changed, "added": added, "removed": removed}


def diff_findings(old: dict[str, dict], new: dict[str, dict]) -> dict[str, list[dict]]:
    return {"appeared": [{"id": i, **new[i]} for i in sorted(set(new) - set(old))],
            "disappeared": [{"id": i, **old[i]} for i in sorted(set(old) - set(new))]}


def stale_code(old: dict, new: dict, text: dict, tables: dict, checks: dict) -> dict[str, list[dict]]:
    """Sections whose wording changed while their code did not, and sections whose behaviour changed with no
    new wording (the case players notice first)."""
    renamed = {e["new"]: e["old"] for e in text["renumbered"]}
    worded = {e["ref"] for e in text["changed"]} | {e["new"] for e in text["renumbered"] if "diff" in e}

    def code(snapshot: dict, ref: str) -> set[str]:
        return {f["source"] for f in snapshot.get("functions", {}).get(ref, [])}

    def local(ref: str) -> str:
        return ref.split(":", 1)[1] if ":" in ref else ref

    behaved: dict[str, list[str]] = {}
    for name, table in tables["changed"].items():
        if table["cells"]:
            for ref in table["refs"]:
                behaved.setdefault(local(ref), []).append(f"table {name}: {len(table['cells'])} cells")
    for entry in checks["changed"]:
        for ref in entry["refs"]:
            behaved.setdefault(local(ref), []).append(f"{entry['id']}: {entry['old']} → {entry['new']}")
    stale, silent = [], []
    for ref in sorted(worded):
        before = renamed.get(ref, ref)
        if code(old, before) and code(old, before) == code(new, ref):
            stale.append({"ref": ref, "title": new["sections"][ref]["title"],
                          "why": "the text changed; the functions that encode it did not"})
    for ref in sorted(behaved):
        if ref in new.get("sections", {}) and ref not in worded:
            silent.append({"ref": ref, "title": new["sections"][ref]["title"], "evidence": behaved[ref],
                           "code_changed": code(old, renamed.get(ref, ref)) != code(new, ref)})
    return {"text_changed_code_not": stale, "behaviour_changed_text_not": silent}


def review_snapshots(old: dict, new: dict) -> dict[str, Any]:
    """Everything that differs between two snapshots of one ruleset."""
    text = diff_text(old.get("sections", {}), new.get("sections", {}))
    tables = diff_tables(old.get("tables", {}), new.get("tables", {}))
    checks = diff_checks(old.get("checks", {}), new.get("checks", {})) if "checks" in old and "checks" in new \
        else {"changed": [], "added": [], "removed": [], "skipped": True}
    findings = diff_findings(old.get("findings", {}), new.get("findings", {}))
    return {"text": text, "tables": tables, "checks": checks, "findings": findings,
            "stale": stale_code(old, new, text, tables, checks)}


def counts(review: dict[str, Any]) -> dict[str, int]:
    """How much changed, part by part (all zero: nothing changed)."""
    text, tables, checks = review["text"], review["tables"], review["checks"]
    out = {
        "sections added": len(text["added"]), "sections removed": len(text["removed"]),
        "sections changed": len(text["changed"]), "sections renumbered": len(text["renumbered"]),
        "table cells changed": sum(t.get("changed", len(t["cells"])) for t in tables["changed"].values()),
        "tables added or removed": len(tables["added"]) + len(tables["removed"]),
        "verdicts changed": len(checks["changed"]), "checks added or removed": len(checks["added"]) + len(checks["removed"]),
        "findings appeared": len(review["findings"]["appeared"]),
        "findings disappeared": len(review["findings"]["disappeared"]),
        "stale sections": len(review["stale"]["text_changed_code_not"]),
        "silent behaviour changes": len(review["stale"]["behaviour_changed_text_not"]),
    }
    if review.get("outcomes") and review["outcomes"].get("applies", True):
        out["matchups moved"] = review["outcomes"]["counts"].get("changed", 0)
    return out
