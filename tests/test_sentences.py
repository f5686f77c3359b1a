"""Prose cut into sentences (rules40k/sentences.py): one rule for property names, finding summaries and the
glossary's definitions."""

from __future__ import annotations

import pytest

from rules40k.sentences import first_sentence, sentences


@pytest.mark.parametrize("doc, sentence", [
    ("05.02: a lower S never raises\n    expected losses. More text.",
     "05.02: a lower S never raises expected losses."),
    ("Exactly 1. (31 and more: none.)", "Exactly 1."),
    ("Ranges e.g. Normal..Other and 2.5 inches, whole", "Ranges e.g. Normal..Other and 2.5 inches, whole"),
    ("One line.\n\nA second paragraph.", "One line."),
    ("18.04 ELIGIBLE IF: on the battlefield. A TRANSPORT in reserves lets nobody out.",
     "18.04 ELIGIBLE IF: on the battlefield."),
    ("Read as printed, it need not end. In Resolve ...", "Read as printed, it need not end."),
    ("An S1 attack, e.g. a gun, wounds on 6. Then", "An S1 attack, e.g. a gun, wounds on 6."),
    ("A unit within range of an enemy AIRCRAFT. It cannot then move.", "A unit within range of an enemy AIRCRAFT."),
    ("See pg. 12 of the pack. Then score.", "See pg. 12 of the pack."),
    ("One sentence only", "One sentence only"),
    (None, ""),
])
def test_first_sentence_is_whole(doc, sentence):
    assert first_sentence(doc) == sentence


def test_sentences_split_where_a_new_one_starts():
    assert sentences("It hits. [LETHAL HITS] wounds. ‘Quoted’ no. 'Plain' yes? (Aside.) Last") == [
        "It hits.", "[LETHAL HITS] wounds. ‘Quoted’ no.", "'Plain' yes?", "(Aside.) Last"]
    assert sentences("Roll 2D6, i.e. two dice. Cf. the table, vs. the other.") == [
        "Roll 2D6, i.e. two dice.", "Cf. the table, vs. the other."]
    assert sentences("   ") == []
