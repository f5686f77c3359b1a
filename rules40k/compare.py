"""Compare one ruleset's claims with another's by computation, through a concept map.

``spec/<ruleset>/annotations/concepts.yaml`` says, for each claim of a derived ruleset (the quick
reference), which sections of the other ruleset (the Core Rules) decide the same thing, and how to
compare them: two callables over named inputs and the finite domain of each input (each side is given the
inputs it takes: an input only one side reads is one the other side's rule ignores). Both are evaluated on
every input of the domain. The claim **differs** when they answer differently somewhere (every differing input is
counted, a few are kept to show). Where they never do, the verdict says how much that proves: **agrees** on
enough distinct inputs, **agrees on few cases** when the domain holds fewer than ``MIN_CASES``, and **cannot
tell** when both sides are the same code (the same function, or the Core Rules' side running a copy of the
claim's function that an interpretation quoting the claim's own document put there). A claim the map does not
compare says why: **absent from the Core Rules**, **left to the app** (the Core Rules cite a source they do not
print), or **printed alike, not encoded** (a gap in the Core Rules' encoding, to be closed). Nothing is
classified by hand.
"""

from __future__ import annotations

import enum
import itertools
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

from rules import registry, spec
from rules40k import SPEC_ROOT
from rules40k.annotations import AnnotationError, _load, line_of, shown

#: Every verdict: the three kinds of agreement, a difference, then the three reasons a claim is not compared.
VERDICTS = ("agrees", "agrees-on-few", "cannot-tell", "differs", "absent-from-core", "left-to-app", "not-encoded")
NO_DIFFERENCE = ("agrees", "agrees-on-few", "cannot-tell")
#: A map's ``not_covered.because`` and the verdict it gives.
NOT_COVERED = {"absent": "absent-from-core", "app": "left-to-app", "unencoded": "not-encoded"}
#: The verdicts in words, for people (a tally's label).
LABELS = {"agrees": "agree", "agrees-on-few": "agree on fewer than 3 cases", "cannot-tell": "cannot tell (same code)",
          "differs": "differ", "absent-from-core": "absent from the Core Rules", "left-to-app": "left to the app",
          "not-encoded": "printed alike, not encoded"}
ENTRY_KEYS = ("claim", "core", "compare", "not_covered", "note")
MAX_CELLS = 250_000  # a domain larger than this is a mistake in the map, not something to enumerate
MIN_CASES = 3  # fewer distinct inputs than this: a coincidence cannot be told from agreement
SAMPLE = 12  # differing inputs kept to show; every one is counted
TRACED_CELLS = 64  # cells whose Core Rules' side is traced for the rule functions it runs


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

        def fail(problem: str, *trail: str) -> AnnotationError:
            line = line_of(path, (index - 1, *trail), key=True)
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
            sides = []
            for side in (ruleset, "core"):
                if not isinstance(compare[side], str) or "." not in compare[side]:
                    raise fail(f"compare.{side} must name a function (module.function), not {shown(compare[side])}",
                               "compare")
                try:  # a rule function or an adapter's, never code of the data's choosing
                    sides.append(registry.named_function(compare[side]))
                except registry.RegistryError as error:
                    raise fail(f"compare.{side}: {error}", "compare", side) from None
            domain = _domain(compare["inputs"], where)
            unread = [name for name in domain if not any(_takes(function, name) for function in sides)]
            if unread:
                raise fail(f"input {shown(unread[0])} is read by neither function", "compare", "inputs", unread[0])
        else:
            reason = entry["not_covered"]
            if not (isinstance(reason, dict) and sorted(reason) == ["because", "why"]
                    and reason["because"] in NOT_COVERED and isinstance(reason["why"], str) and reason["why"].strip()):
                raise fail("'not_covered' needs 'because' (absent: not in the Core Rules; app: left to the app; "
                           "unencoded: printed alike but not encoded) and 'why' (the reason)", "not_covered")
    return entries


def _takes(function: Callable, name: str) -> bool:
    code = function.__code__
    named = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return name in named or bool(code.co_flags & 0x08)  # 0x08: the function takes **keywords


def _domain(inputs: Any, where: str) -> dict[str, list[Any]]:
    """Each input's values: ``[low, high]`` (whole numbers, inclusive), ``bool``, ``{values: [...]}``, or
    ``{enum: rules.module.Enumeration}`` (every member, or those ``values`` names), so inputs are shown by name."""
    if not isinstance(inputs, dict) or not inputs:
        raise AnnotationError(f"{where}: 'inputs' must map each input to its values")
    out: dict[str, list[Any]] = {}
    for name, values in inputs.items():
        if values == "bool":
            out[name] = [False, True]
        elif isinstance(values, list) and len(values) == 2 and all(isinstance(v, int) for v in values) \
                and values[0] <= values[1]:
            out[name] = list(range(values[0], values[1] + 1))
        elif isinstance(values, dict) and "enum" in values and set(values) <= {"enum", "values"}:
            try:
                members = registry.named_enum(values["enum"])
            except registry.RegistryError as error:
                raise AnnotationError(f"{where}: input {shown(name)}: {error}") from None
            wanted = values.get("values", [m.name for m in members])
            if not isinstance(wanted, list) or not wanted or not all(w in members.__members__ for w in wanted):
                raise AnnotationError(f"{where}: input {shown(name)}: 'values' must list members of "
                                      f"{values['enum']} ({', '.join(members.__members__)})")
            out[name] = [members[w] for w in wanted]
        elif isinstance(values, dict) and set(values) == {"values"} and isinstance(values["values"], list) \
                and values["values"]:
            out[name] = list(values["values"])
        else:
            raise AnnotationError(f"{where}: input {shown(name)} must be [low, high], 'bool', {{values: [...]}} "
                                  "or {enum: rules.module.Enumeration}")
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


def value_words(value: Any) -> str:
    """An input's value in the game's words: an enumeration member by name, a yes/no for a flag."""
    if isinstance(value, enum.Enum):
        return value.name.replace("_", " ").lower()
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):  # an answer of several parts: each in words, in order
        return "(" + ", ".join(value_words(v) for v in value) + ")"
    return str(value)


def cell_words(inputs: dict[str, Any]) -> str:
    """``stratagem fire overwatch, moment end of phase``: each input's name and its value in words."""
    return ", ".join(f"{name.replace('_', ' ')} {value_words(value)}" for name, value in inputs.items())


def _called(function: Callable, inputs: dict[str, Any]) -> Any:
    return function(**{k: v for k, v in inputs.items() if _takes(function, k)})


def differing_cells(entry: dict, ruleset: str) -> Iterable[dict]:
    """Every input of the comparison's domain where the two functions answer differently, with both answers."""
    from rules40k.checks import plain, resolve

    spec_ = entry["compare"]
    mine, theirs = resolve(spec_[ruleset]), resolve(spec_["core"])
    for inputs in cells(_domain(spec_["inputs"], f"concepts.yaml ({entry['claim']})")):
        a, b = plain(_called(mine, inputs)), plain(_called(theirs, inputs))
        if a != b:
            yield {"inputs": inputs, "label": cell_words(inputs), ruleset: a, "core": b}


def _code(function: Callable) -> tuple:
    """A function's code without its name and docstring: two functions with equal code decide alike."""
    code = function.__code__
    return code.co_code, tuple(c for c in code.co_consts if c is not function.__doc__), code.co_names


def _rule_functions_run(function: Callable, domain: dict[str, list[Any]]) -> list[Callable]:
    """The registered rule functions ``function`` runs on the first cells of the domain. A profile hook already
    set (a mutation baseline recording what its checks call) keeps seeing every call and is put back after."""
    run: set[Any] = set()
    outer = sys.getprofile()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            run.add(frame.f_code)
        if outer is not None:
            outer(frame, event, arg)

    for inputs in itertools.islice(cells(domain), TRACED_CELLS):
        sys.setprofile(profile)
        try:
            _called(function, inputs)
        finally:
            sys.setprofile(outer)
    return [f for f in registry.rule_functions() if f.__code__ in run]


def _borrowed_from(ruleset: str) -> dict[str, str]:
    """Core Rules interpretations whose chosen reading quotes ``ruleset``'s own document, by id: code that rests
    on one answers as the derived document does because it was taken from it."""
    from rules40k import annotations

    source = spec.ruleset(ruleset).get("source")
    return {i["id"]: i.get("chosen", "") for i in annotations.interpretations(spec.DEFAULT_RULESET)
            if any(e.get("document") == source for e in i.get("evidence", []))}


def same_code(entry: dict, ruleset: str) -> str | None:
    """Why the comparison's two sides cannot disagree, or None: the map names one function for both, or the Core
    Rules' side runs a rule function with the claim's very code that rests on a reading taken from the claim's
    document (the modifier cap: the sheet's Clamp against 05.01's, which interpretation roll-modifier-cap copied
    from the sheet)."""
    from rules40k.checks import resolve

    spec_ = entry["compare"]
    mine, theirs = resolve(spec_[ruleset]), resolve(spec_["core"])
    if mine is theirs:
        return f"both sides are {spec_[ruleset]}"
    borrowed = _borrowed_from(ruleset)
    for function in _rule_functions_run(theirs, _domain(spec_["inputs"], entry["claim"])):
        readings = re.findall(r"Interpretation:\s*([a-z0-9-]+)", function.__doc__ or "")
        copied = [r for r in readings if r in borrowed]
        if copied and _code(function) == _code(mine):
            return (f"the Core Rules' side runs {function.__module__}.{function.__qualname__}, the same code as the "
                    f"claim's, resting on interpretation {copied[0]}, whose evidence is this {ruleset} document")
    return None


def compare(entry: dict, ruleset: str) -> dict:
    """One claim's verdict: for a difference, how many inputs differ of how many and a sample of them (inputs,
    the claim's answer, the other ruleset's answer); for no difference, how much the comparison could tell."""
    claim = entry["claim"]
    refs = [spec.qualify(ruleset, claim), *entry.get("core", [])]
    record = {"id": f"comparison:{spec.qualify(ruleset, claim)}", "kind": "comparison", "ruleset": ruleset,
              "refs": refs, "name": f"{spec.sections(ruleset)[claim]['title']}: the claim against the Core Rules"}
    if "not_covered" in entry:
        status = NOT_COVERED[entry["not_covered"]["because"]]
        return {**record, "status": status, "detail": " ".join(entry["not_covered"]["why"].split()),
                "cells": 0, "differing": 0, "differences": []}
    spec_ = entry["compare"]
    domain = _domain(spec_["inputs"], f"concepts.yaml ({claim})")
    count = 1
    for values in domain.values():
        count *= len(values)
    sample, differing = [], 0
    for cell in differing_cells(entry, ruleset):
        differing += 1
        if len(sample) < SAMPLE:
            sample.append(cell)
    if differing:
        first = sample[0]
        status = "differs"
        detail = (f"{differing} of {count} inputs differ, e.g. {first['label']}: {ruleset} {first[ruleset]!r}, "
                  f"core {first['core']!r}")
    elif (why := same_code(entry, ruleset)) is not None:
        status, detail = "cannot-tell", f"same code on both sides, cannot tell: {why}"
    elif count < MIN_CASES:
        status = "agrees-on-few"
        detail = (f"agrees on {'one case' if count == 1 else f'{count} cases'} only "
                  f"({'; '.join(cell_words(c) for c in cells(domain))}): too few to tell agreement from coincidence")
    else:
        status, detail = "agrees", f"same answer on all {count} inputs"
    return {**record, "status": status, "detail": detail, "cells": count, "differing": differing,
            "differences": sample, "compared": [spec_[ruleset], spec_["core"]]}


def compare_ruleset(ruleset: str) -> list[dict]:
    """Every mapped claim of a ruleset, classified."""
    return [compare(entry, ruleset) for entry in concept_map(ruleset)]
