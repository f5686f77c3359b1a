"""How the comparison machinery words the values it shows a reader."""

from rules40k import compare


def test_an_answer_of_several_parts_reads_in_words():
    """A function answering a tuple (a flag and a count, say) is shown part by part in the game's words, never as a
    Python list."""
    assert compare.value_words((False, True)) == "(no, yes)"
    assert compare.value_words([True, 3]) == "(yes, 3)"
