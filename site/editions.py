"""The Edition comparison area: one page per concept (spec/editions.yaml), each ruleset's text, functions and computed
comparison with the Core Rules side by side, and a worked attack under every ruleset that has attack rules.

Nothing here decides a rule: the text is the ingested spec, the comparison is the concept map's own enumeration
(rules40k.compare), and the worked attack is ``rules40k compare`` (rules40k.compare_editions). A ruleset left out of
the build has no column; the area is built when the Core Rules and one other ruleset are.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from rules import safe_yaml, spec

EDITIONS_FILE = spec.SPEC_ROOT / "editions.yaml"
PREFIX = "editions/"
CONCEPT_KEYS = {"id", "title", "rulesets", "attack"}
SAMPLES = 3  # differing inputs shown per comparison (every one is counted)


class EditionsError(ValueError):
    """spec/editions.yaml does not say what the site needs: one sentence naming the entry."""


def concepts(path: Path = EDITIONS_FILE) -> list[dict]:
    """The concepts, validated: a slug id each, once; a title; each ruleset named a known one, with sections it has."""
    data = safe_yaml.read(path)
    if not isinstance(data, list):
        raise EditionsError(f"{path}: expected a list of concepts")
    seen: set[str] = set()
    for index, concept in enumerate(data, 1):
        where = f"{path}: entry {index}"
        if not isinstance(concept, dict) or not {"id", "title", "rulesets"} <= set(concept):
            raise EditionsError(f"{where} needs an id, a title and rulesets")
        unknown = set(concept) - CONCEPT_KEYS
        if unknown:
            raise EditionsError(f"{where}: unknown key {sorted(unknown)[0]!r} (expected {', '.join(sorted(CONCEPT_KEYS))})")
        if not isinstance(concept["id"], str) or not spec.SLUG_REF.match(concept["id"]) or "/" in concept["id"]:
            raise EditionsError(f"{where}: id {concept['id']!r} must be a lower-case slug")
        if concept["id"] in seen:
            raise EditionsError(f"{where}: id {concept['id']!r} appears twice")
        seen.add(concept["id"])
        rulesets = concept["rulesets"]
        if not isinstance(rulesets, dict) or "core" not in rulesets:
            raise EditionsError(f"{where} ({concept['id']}): rulesets must map ruleset names to their sections, the "
                                "Core Rules among them")
        for name, refs in rulesets.items():
            if name not in spec.rulesets():
                raise EditionsError(f"{where} ({concept['id']}): {name!r} is not a ruleset")
            if not isinstance(refs, list) or not refs:
                raise EditionsError(f"{where} ({concept['id']}): {name} needs a list of its sections")
            missing = [ref for ref in refs if str(ref) not in spec.sections(name)]
            if missing:
                raise EditionsError(f"{where} ({concept['id']}): {missing[0]!r} is not a section of {name}")
        if "attack" in concept and not isinstance(concept["attack"], dict):
            raise EditionsError(f"{where} ({concept['id']}): attack must be a scenario (a mapping)")
        for name, restated in ((concept.get("attack") or {}).get("editions") or {}).items():
            if not isinstance(restated, dict) and not (isinstance(restated, str) and restated.strip()):
                raise EditionsError(f"{where} ({concept['id']}): attack.editions.{name} must restate the scenario (a "
                                    "mapping) or say in a sentence why that ruleset cannot state it")
    return data


def page_path(concept: dict) -> str:
    return f"{PREFIX}{concept['id']}.md"


def built(books: list) -> bool:
    """Whether the area is built: the Core Rules and at least one other ruleset are."""
    names = {book.document for book in books}
    return "core" in names and len(names) > 1


def nav_entries(books: list) -> list[dict]:
    if not built(books):
        return []
    return [{"Edition comparison": [f"{PREFIX}index.md",
                                    *({concept["title"]: page_path(concept)} for concept in concepts())]}]


def pages(books: list, page_class: Any, escape: Any) -> dict[str, str]:
    """Every page of the area (none unless ``built``), by path under docs/."""
    if not built(books):
        return {}
    from rules40k import compare

    by_name = {book.document: book for book in books}
    maps = {name: compare.concept_map(name) for name in by_name if name != "core"}  # read once, not per section
    out = {f"{PREFIX}index.md": _index(books, concepts())}
    for concept in concepts():
        out[page_path(concept)] = _concept_page(concept, by_name, page_class, escape, maps)
    return out


def _index(books: list, entries: list[dict]) -> str:
    names = [book.short_title for book in books]
    lines = ["# Edition comparison", "",
             "Each page puts one idea of the game side by side in every ruleset built here (" + ", ".join(names) + "): "
             "the rule text as each document prints it, the functions that encode it, what the project computes about "
             "where the rulesets answer differently, and, where the idea changes an attack, the same attack calculated "
             "under each ruleset's own attack rules.", "",
             "| concept | rulesets |", "|---|---|"]
    for concept in entries:
        shown = [book.short_title for book in books if book.document in concept["rulesets"]]
        lines.append(f"| [{html.escape(concept['title'])}]({concept['id']}.md) | {', '.join(shown)} |")
    return "\n".join(lines) + "\n"


def _concept_page(concept: dict, books: dict, page_class: Any, escape: Any, maps: dict[str, list[dict]]) -> str:
    lines = [f"# {escape(concept['title'])}", ""]
    for name, refs in concept["rulesets"].items():
        book = books.get(name)
        if book is None:
            continue
        page = page_class(book, page_path(concept), f"edition comparison {concept['id']}")
        lines += [f"## {escape(book.short_title)}", ""]
        for ref in refs:
            section = book.sections[str(ref)]
            lines += [f"### {page.link(str(ref))}", ""]
            text = page.text(section.get("text") or "")
            lines += [f'!!! quote "As printed in {escape(book.source_title)}"', ""]
            lines += ["    " + line if line else "" for line in text.split("\n")]
            lines.append("")
            functions = book.functions.get(str(ref), [])
            if functions:
                lines.append("Encoded by " + ", ".join(f"`{f.qualname}`" for f in functions) + ".")
            else:
                lines.append(f"No function encodes it: {escape(book.rows[str(ref)]['reason'] or 'no reason recorded')}.")
            lines.append("")
            if name != "core":
                entry = next((e for e in maps.get(name, []) if e["claim"] == str(ref)), None)
                if entry is not None:
                    lines += [_comparison(entry, name, escape, book), ""]
    if "attack" in concept:
        lines += _attack(concept, [book for book in books.values()], escape)
    return "\n".join(lines) + "\n"


def _comparison(entry: dict, ruleset: str, escape: Any, book: Any = None) -> str:
    """The concept map's computed verdict for one claim, in a sentence, with a few differing inputs by name: the
    verdict `rules40k verify` recorded in this build's results, computed afresh only for a build without them."""
    from rules40k import compare

    recorded = {c.get("id"): c for c in (getattr(book, "results", None) or {}).get("checks", [])}
    verdict = recorded.get(f"comparison:{spec.qualify(ruleset, entry['claim'])}") or compare.compare(entry, ruleset)
    if "not_covered" in entry:
        return f"Against the Core Rules: {compare.LABELS[verdict['status']]} ({escape(verdict['detail'])})."
    if not verdict["differing"]:
        return (f"Against the Core Rules, computed on all {verdict['cells']:,} inputs of its domain: "
                f"**{compare.LABELS[verdict['status']]}**.")
    shown = "; ".join(f"{escape(c['label'])}: {escape(_answer(c[ruleset]))} here, {escape(_answer(c['core']))} under "
                      "the Core Rules" for c in verdict["differences"][:SAMPLES])
    return (f"Against the Core Rules, computed on all {verdict['cells']:,} inputs of its domain: **differs** on "
            f"{verdict['differing']:,} of them, e.g. {shown}.")


def _answer(value: Any) -> str:
    from rules40k import compare

    return compare.value_words(value) if value is not None else "no answer"


def _attack(concept: dict, books: list, escape: Any) -> list[str]:
    """The concept's worked attack under every ruleset built that has attack rules, as `rules40k compare` gives it."""
    from rules40k import compare_editions

    editions = concept["attack"].get("editions") or {}
    unstated = {name: why for name, why in editions.items() if isinstance(why, str)}  # a ruleset without the weapon
    names = [book.document for book in books if spec.ruleset(book.document).get("calculator")
             and book.document not in unstated]
    if len(names) < 2:
        return []
    attack = {**concept["attack"], "editions": {n: e for n, e in editions.items() if n in names}}  # those built
    answer = compare_editions.compare(attack, names, f"spec/editions.yaml ({concept['id']})")
    labels = {book.document: book.short_title for book in books}
    weapons = answer["results"][names[0]].scenario.weapons
    target = answer["results"][names[0]].scenario.models
    lines = ["## A worked attack", "",
             f"{', '.join(f'{w.count} × {escape(w.name)}' for w in weapons)} at "
             f"{', '.join(f'{m.count} × {escape(m.name)}' for m in target)}, calculated exactly under each ruleset's own "
             "attack rules (`rules40k compare`):", "",
             "| models destroyed | " + " | ".join(escape(labels[n]) for n in names) + " |",
             "|---|" + "---|" * len(names)]
    counts = sorted({k for result in answer["results"].values() for k in result.models_destroyed})
    for k in counts:
        lines.append(f"| {k} | " + " | ".join(_percent(answer["results"][n].models_destroyed.get(k, 0)) for n in names)
                     + " |")
    lines.append("| expected | " + " | ".join(f"{float(answer['results'][n].expected_models_destroyed):.2f}"
                                              for n in names) + " |")
    lines.append("")
    for name, why in unstated.items():
        if name in labels:
            lines += [f"{escape(labels[name])} does not calculate this attack: {escape(why.strip())}", ""]
    return lines


def _percent(p: Any) -> str:
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    return "<0.1%" if value < 0.05 else ">99.9%" if value > 99.95 else f"{value:.1f}%"
