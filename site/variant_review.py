"""The page of a review of an in-tree version against its ruleset (``rules40k review m41@006 m41@007 --save``):
note by note, the quoted note with its attribution, what became of it (rebuilt, too vague and why, no rule change),
the decision-table cells that changed as a before/after table, the checks whose verdict changed, the calculator's
outcomes that moved (with the plot of the whole), and each intent check's verdict in both versions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

STATUS_WORDS = {"reconstructed": "rebuilt from the note", "too-vague": "too vague to rebuild",
                "no-rule-change": "no rule change", "not-rebuilt": "not rebuilt"}
MAX_ROWS = 40


def _number(value: str) -> str:
    return f"{float(Fraction(value)):.3g}"


def _outcome(outcome: dict, escape: Callable[[str], str]) -> str:
    if "error" in outcome:
        return escape(f"refused: {outcome['error']}")
    text = f"{_number(outcome['value'])} {outcome['measure']}"
    if "destroyed" in outcome:
        text += f", destroyed {float(Fraction(outcome['destroyed'])):.1%}"
        text += f", {_number(outcome['damage results suffered'])} damage results"
    return escape(text)


def _cell(inputs: dict, label: str) -> str:
    if set(inputs) == {"strength", "toughness"}:
        return f"S{inputs['strength']} against T{inputs['toughness']}"
    return label


def _answer(value: Any, inputs: dict) -> str:
    return f"{value}+" if set(inputs) == {"strength", "toughness"} and isinstance(value, int) else str(value)


def _intents(found: dict, data: dict, escape: Callable[[str], str]) -> list[dict]:
    out = []
    for name, sides in found.get("intents", {}).items():
        for side in ("old", "new"):
            verdict = sides[side]
            case = verdict["counterexample"]
            out.append({"name": name, "version": escape(data[side]), "verdict": verdict["verdict"],
                        "claim": escape(verdict["claim"]),
                        "counterexample": escape(", ".join(f"{k}: {v}" for k, v in case.items())) if case else ""})
    return out


def _changes(found: dict, data: dict, escape: Callable[[str], str]) -> dict:
    tables = []
    for name, table in found.get("tables", {}).items():
        tables.append({"name": name, "changed": table["changed"], "total": table["total"],
                       "more": max(0, len(table["cells"]) - MAX_ROWS),
                       "cells": [{"cell": _cell(c["inputs"], c["label"]), "old": _answer(c["old"], c["inputs"]),
                                  "new": _answer(c["new"], c["inputs"])} for c in table["cells"][:MAX_ROWS]]})
    outcomes = found.get("outcomes") or {}
    moved = [{"matchup": escape(m["matchup"]), "old": _outcome(m["old"], escape), "new": _outcome(m["new"], escape)}
             for m in outcomes.get("moved", [])[:MAX_ROWS]] if outcomes.get("applies") else []
    return {"tables": tables, "checks": [{"id": c["id"], "old": c["old"], "new": c["new"],
                                          "name": escape(c.get("name", ""))} for c in found.get("checks", [])],
            "intents": _intents(found, data, escape), "moved": moved,
            "matchups": outcomes.get("matchups", 0) if outcomes.get("applies") else 0,
            "not_called": outcomes.get("overrides_not_called", []),
            "sweep_why": escape(outcomes.get("why", "")) if not outcomes.get("applies") else ""}


def context(data: dict, link: Callable[[str], str], escape: Callable[[str], str], plot: str | None) -> dict:
    """What the template shows; the review decided everything, nothing is computed here but the wording."""
    entries = []
    for entry in data["entries"]:
        entries.append({"id": entry["id"], "note": link(entry["note"]), "quote": escape(entry["quote"]),
                        "status": entry["status"], "status_words": STATUS_WORDS[entry["status"]],
                        "why": escape(entry.get("why", "")), "overrides": list(entry.get("overrides", {}).items()),
                        **_changes(entry, data, escape)})
    return {"title": f"Review: {data['old']} → {data['new']}", "heading": escape(data["title"]),
            "source": escape(data["source"]), "old": escape(data["old"]), "new": escape(data["new"]),
            "counts": [(STATUS_WORDS[k], v) for k, v in data["counts"].items()], "entries": entries,
            "whole": _changes(data["whole"], data, escape), "plot": plot}
