"""Prose cut into sentences, one way everywhere: a property's name, a finding's summary in a table row and the
glossary's definitions are all "the first sentence", and must agree on where one ends."""

from __future__ import annotations

import inspect
import re

#: A full stop (or ! or ?) that ends a sentence: followed by a space and what starts one (a capital, a bracketed
#: ability, a quote or a parenthesis), or by the end of the text; not the stop of "e.g.", "i.e.", "cf.", "vs." or
#: "pg.", nor one inside a number ("05.02").
SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bcf)(?<!\bvs)(?<!\bpg)[.!?](?=\s+[A-Z\[\"“'(]|\s*$)")


def sentences(text: str) -> list[str]:
    """The sentences of one paragraph, whitespace joined."""
    text = " ".join(str(text).split())
    out, start = [], 0
    for end in SENTENCE_END.finditer(text):
        out.append(text[start:end.end()].strip())
        start = end.end()
    out.append(text[start:].strip())
    return [s for s in out if s]


def first_sentence(doc: str | None) -> str:
    """The first sentence of a docstring or summary, whole: its first paragraph up to the first stop that ends a
    sentence, lines joined; the whole paragraph if no stop ends it."""
    paragraph = " ".join(inspect.cleandoc(str(doc or "")).split("\n\n")[0].split())
    found = sentences(paragraph)
    return found[0] if found else ""
