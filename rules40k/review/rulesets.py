"""A review across two rulesets that encode the same concepts, through the derived one's concept map.

``review_rulesets("quickref", "core")``: each claim of the quick reference against the Core Rules
sections the map pairs it with. Verdicts: each claim's (rules40k.compare), grouped by the sheet's
chapters, with how much each agreement could tell. Text: a word diff where a claim's wording is close enough to
its sections' to compare (no similarity score: across two documents it is almost always 0), the claims the map
does not compare with the reason, and the Core Rules sections no claim reaches. Tables: for each claim that
differs, how many input cells differ of how many (every one counted) and a sample of them by name.
Outcomes: the calculator's sweep of the standard matchups under each ruleset's own attack rules (the one
engine, ``rules.engine``, with ``rules.<ruleset>.attacks``); where a ruleset has none, the review says the sweep
does not apply rather than reporting that nothing moved.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor
from typing import Any, Callable

from rules import spec
from rules40k import REPO_ROOT, SPEC_ROOT, compare  # noqa: F401  (tests point SPEC_ROOT here at a copy)
from rules40k.review import diff
from rules40k.review.versions import ReviewError, Version


def has_attack_rules(ruleset: str) -> bool:
    """Whether the ruleset calculates attacks with rules of its own (``calculator`` in spec/rulesets.yaml)."""
    return bool(spec.ruleset(ruleset).get("calculator"))


def _text(derived: str, base: str, entries: list[dict]) -> dict[str, Any]:
    claims, sections = spec.sections(derived), spec.sections(base)
    pairs, uncovered = [], []
    for entry in entries:
        claim = claims[entry["claim"]]
        if not entry.get("core"):
            reason = entry.get("not_covered") or {}
            uncovered.append({"ref": entry["claim"], "title": claim["title"],
                              "status": compare.NOT_COVERED.get(reason.get("because"), "not-encoded"),
                              "why": " ".join(str(reason.get("why", "")).split())})
            continue
        theirs = "\n".join(sections[r]["text"] for r in entry["core"])
        if diff.similarity(claim["text"], theirs):  # close enough for a word diff to say something
            pairs.append({"claim": entry["claim"], "title": claim["title"], "core": entry["core"],
                          "diff": diff.word_diff(theirs, claim["text"])})
    reached = {r for e in entries for r in e.get("core", [])}
    return {"pairs": pairs, "uncovered": uncovered,
            "unreached": [{"ref": r, "title": s["title"]} for r, s in sections.items() if r not in reached]}


def review_rulesets(derived: str, base: str, *, sweep: bool = True, executor: Executor | None = None,
                    progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
    """The review of ``derived`` (e.g. quickref) against ``base`` (core) through the derived one's concept map."""
    if derived == base:
        entries: list[dict] = []
    else:
        entries = compare.concept_map(derived) or compare.concept_map(base)
        if not entries:
            raise ReviewError(f"neither {derived} nor {base} has a concept map (spec/<ruleset>/annotations/concepts.yaml), "
                              "so they cannot be compared")
        if base != spec.DEFAULT_RULESET and derived != spec.DEFAULT_RULESET:
            raise ReviewError("a concept map pairs a ruleset with the Core Rules: name core as one side")
        if derived == spec.DEFAULT_RULESET:
            derived, base = base, derived  # the map belongs to the other side
    timings: dict[str, float] = {}
    start = time.perf_counter()
    verdicts = [compare.compare(entry, derived) for entry in entries]
    timings["comparisons"] = time.perf_counter() - start
    cells = {}
    for record in verdicts:
        if record["status"] == "differs":
            cells[record["refs"][0]] = {"refs": record["refs"], "total": record["cells"],
                                        "changed": record["differing"], "cells": [
                {"inputs": d["inputs"], "label": d["label"], "old": d[derived], "new": d["core"]}
                for d in record["differences"]]}
    report: dict[str, Any] = {
        "ruleset": f"{derived} → {base}", "old": f"ruleset {derived}", "new": f"ruleset {base}", "kind": "rulesets",
        "text": {"added": [], "removed": [], "changed": [], "renumbered": []},
        "concept_text": _text(derived, base, entries) if entries else {"pairs": [], "uncovered": [], "unreached": []},
        "tables": {"changed": cells, "added": [], "removed": []},
        "checks": {"changed": [], "added": [], "removed": []},
        "verdicts": [{"id": r["id"], "refs": r["refs"], "status": r["status"], "detail": r["detail"],
                      "title": spec.sections(derived)[spec.split_ref(r["refs"][0])[1]]["title"],
                      "topic": spec.sections(derived)[spec.split_ref(r["refs"][0])[1]]["chapter"]["title"],
                      "cells": r["cells"], "differing": r["differing"]} for r in verdicts],
        "findings": {"appeared": [], "disappeared": []},
        "stale": {"text_changed_code_not": [], "behaviour_changed_text_not": []},
    }
    if sweep and entries:
        missing = [name for name in (derived, base) if not has_attack_rules(name)]
        if missing:  # nothing to put in place of the Core Rules' attack rules: the sweep could only report 0
            report["outcomes"] = {"applies": False, "why": f"the {missing[0]} ruleset has no attack rules of its own, "
                                                            "so the two calculate every matchup alike"}
        else:
            from rules40k.review import outcomes

            start = time.perf_counter()
            here = Version("the working tree", "worktree", "worktree", REPO_ROOT)
            report["outcomes"] = outcomes(here, here, executor=executor, progress=progress, rulesets=(derived, base))
            report["outcomes"]["rulesets"] = [derived, base]
            timings["outcomes"] = time.perf_counter() - start
    report["counts"] = diff.counts(report)
    tally = {v: sum(1 for r in verdicts if r["status"] == v) for v in compare.VERDICTS}
    report["counts"].update({f"claims that {compare.LABELS[k]}" if k in compare.NO_DIFFERENCE + ("differs",)
                             else f"claims {compare.LABELS[k]}": n for k, n in tally.items()})
    report["unchanged"] = not any(v for k, v in report["counts"].items() if k != "claims that agree")
    report["timings"] = {k: round(v, 2) for k, v in timings.items()}
    return report
