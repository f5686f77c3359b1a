"""Compare one ruleset's claims with another's by computation, through a concept map.

``spec/<ruleset>/annotations/concepts.yaml`` says, for each claim of a derived ruleset (the quick
reference), which sections of the other ruleset (the Core Rules) decide the same thing, and how to
compare them: two callables over the same named inputs and the finite domain of each input. The two
are evaluated on every input of the domain: the claim **agrees** when they give the same answer
everywhere, **differs** otherwise (every differing cell is listed, with both answers), and a claim the
other ruleset does not decide is **not covered** with the map's reason. Nothing is classified by hand.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Iterable

from rules import registry, spec
from rules40k import SPEC_ROOT
from rules40k.annotations import AnnotationError, _load, line_of, shown

VERDICTS = ("agrees", "differs", "not-covered")
ENTRY_KEYS = ("claim", "core", "compare", "not_covered", "note")
MAX_CELLS = 250_000  # a domain larger than this is a mistake in the map, not something to enumerate


def concept_map(ruleset: str, root: Path = SPEC_ROOT) -> list[dict]:
    """The ruleset's concept map, validated: each entry names a claim of ``ruleset`` and either a comparison or a
    reason it is not covered."""
    path = root / ruleset / "annotations" / "concepts.yaml"
    if not path.exists():
        return []
    entries = _load(path, list)
    claims = spec.sections(ruleset, root)
    core = spec.sections(spec.DEFAULT_RULESET, root)
    seen: set[str] = set()
    for index, entry in enumerate(entries, 1):
        where = f"{path}: entry {index}"
        if not isinstance(entry, dict) or not isinstance(entry.get("claim"), str):
            raise AnnotationError(f"{where} needs a 'claim' (a reference of {ruleset})")
        claim = entry["claim"]
        where += f" ({shown(claim)})"

        def fail(problem: str, key: str) -> AnnotationError:
            line = line_of(path, (index - 1, key))
            return AnnotationError(f"{where}{f', line {line}' if line else ''}: {problem}")

        unknown = [key for key in entry if key not in ENTRY_KEYS]
        if unknown:
            raise fail(f"unknown key {shown(unknown[0])}; expected {', '.join(ENTRY_KEYS)}", unknown[0])
        if not isinstance(entry.get("note", ""), str):
            raise fail(f"'note' must be a string, not {shown(entry['note'])}", "note")
        if claim not in claims:
            raise fail(f"{shown(claim)} is not an entry of {ruleset}", "claim")
        if claim in seen:
            raise fail(f"{shown(claim)} is mapped twice", "claim")
        seen.add(claim)
        other = entry.get("core") or []
        if not isinstance(other, list) or not all(isinstance(r, str) for r in other):
            raise fail("'core' must be a list of Core Rules references", "core")
        unknown = [r for r in other if r not in core]
        if unknown:
            raise fail(f"{shown(unknown)} are not Core Rules sections", "core")
        if ("compare" in entry) == ("not_covered" in entry):
            raise fail("needs exactly one of 'compare' or 'not_covered'", "claim")
        if "compare" in entry:
            compare = entry["compare"]
            if not isinstance(compare, dict) or sorted(compare) != sorted((ruleset, "core", "inputs")):
                raise fail(f"'compare' needs exactly '{ruleset}', 'core' and 'inputs'", "compare")
            for side in (ruleset, "core"):
                if not isinstance(compare[side], str) or "." not in compare[side]:
                    raise fail(f"compare.{side} must name a function (module.function), not {shown(compare[side])}",
                               "compare")
                try:  # a rule function or an adapter's, never code of the data's choosing
                    registry.named_function(compare[side])
                except registry.RegistryError as error:
                    line = line_of(path, (index - 1, "compare", side))
                    raise AnnotationError(f"{where}{f', line {line}' if line else ''}: compare.{side}: {error}") \
                        from None
            _domain(compare["inputs"], where)
        elif not (isinstance(entry["not_covered"], str) and entry["not_covered"].strip()):
            raise fail("'not_covered' needs the reason", "not_covered")
    return entries


def _domain(inputs: Any, where: str) -> dict[str, list[Any]]:
    """Each input's values: ``[low, high]`` (whole numbers, inclusive), ``bool``, or ``{values: [...]}``."""
    if not isinstance(inputs, dict) or not inputs:
        raise AnnotationError(f"{where}: 'inputs' must map each input to its values")
    out: dict[str, list[Any]] = {}
    for name, values in inputs.items():
        if values == "bool":
            out[name] = [False, True]
        elif isinstance(values, list) and len(values) == 2 and all(isinstance(v, int) for v in values) \
                and values[0] <= values[1]:
            out[name] = list(range(values[0], values[1] + 1))
        elif isinstance(values, dict) and isinstance(values.get("values"), list) and values["values"]:
            out[name] = list(values["values"])
        else:
            raise AnnotationError(f"{where}: input {shown(name)} must be [low, high], 'bool' or {{values: [...]}}")
    size = 1
    for values in out.values():
        size *= len(values)
    if size > MAX_CELLS:
        raise AnnotationError(f"{where}: the inputs make {size} cells, more than {MAX_CELLS}")
    return out


def cells(inputs: dict[str, list[Any]]) -> Iterable[dict[str, Any]]:
    names = list(inputs)
    for combo in itertools.product(*(inputs[n] for n in names)):
        yield dict(zip(names, combo))


def compare(entry: dict, ruleset: str) -> dict:
    """One claim's verdict, with every differing cell (inputs, the claim's answer, the other ruleset's answer)."""
    from rules40k.checks import plain, resolve

    claim = entry["claim"]
    refs = [spec.qualify(ruleset, claim), *entry.get("core", [])]
    record = {"id": f"comparison:{spec.qualify(ruleset, claim)}", "kind": "comparison", "ruleset": ruleset,
              "refs": refs, "name": f"{spec.sections(ruleset)[claim]['title']}: the claim against the Core Rules"}
    if "not_covered" in entry:
        return {**record, "status": "not-covered", "detail": " ".join(entry["not_covered"].split()),
                "cells": 0, "differences": []}
    spec_ = entry["compare"]
    mine, theirs = resolve(spec_[ruleset]), resolve(spec_["core"])
    domain = _domain(spec_["inputs"], f"concepts.yaml ({claim})")
    differences, count = [], 0
    for inputs in cells(domain):
        count += 1
        a, b = plain(mine(**inputs)), plain(theirs(**inputs))
        if a != b:
            differences.append({"inputs": inputs, ruleset: a, "core": b})
    status = "differs" if differences else "agrees"
    detail = (f"same answer on all {count} inputs" if not differences else
              f"{len(differences)} of {count} inputs differ, e.g. {differences[0]['inputs']}: "
              f"{ruleset} {differences[0][ruleset]!r}, core {differences[0]['core']!r}")
    return {**record, "status": status, "detail": detail, "cells": count, "differences": differences[:200],
            "compared": [spec_[ruleset], spec_["core"]]}


def compare_ruleset(ruleset: str) -> list[dict]:
    """Every mapped claim of a ruleset, classified."""
    return [compare(entry, ruleset) for entry in concept_map(ruleset)]
