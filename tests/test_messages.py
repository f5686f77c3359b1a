"""rules.messages: how an error quotes a value, so that every error stays one short, printable line."""

from __future__ import annotations

from rules import messages


def test_json_kinds_are_named_as_json_names_them():
    assert [messages.shown(v) for v in (None, True, False)] == ["null", "true", "false"]
    assert messages.shown([1, 2]) == messages.shown((1,)) == "a list"
    assert messages.shown({"a": 1}) == "an object"


def test_text_up_to_the_limit_is_shown_whole_and_longer_text_is_cut_to_the_limit():
    assert messages.shown("x" * 58) == repr("x" * 58)  # 60 characters with its quotes: whole
    cut = messages.shown("x" * 59)  # 61 with its quotes: one too many
    assert len(cut) == 60 and cut.endswith("…") and cut.startswith("'xxx")
    assert messages.cut("abcdef", 6) == "abcdef"
    assert messages.cut("abcdefg", 6) == "abcde…"
    assert messages.cut("ab", 1) == "…"


def test_a_line_break_or_a_lone_surrogate_becomes_a_space():
    assert messages.cut("a\nb\ud800c") == "a b c"


def test_a_number_too_long_to_print_is_named_by_its_size():
    # Past four bits a digit (a lower bound: a decimal digit holds log2(10) > 3.3 bits), the number has more
    # digits than the limit, and printing it can fail outright (Python refuses more than 4300 digits).
    wide = 2 ** 240  # 241 bits: more than 4 x 60
    assert messages.shown(wide) == "a number of more than 60 digits"
    assert messages.shown(-wide) == "a negative number of more than 60 digits"
    assert messages.shown(wide - 1) == messages.cut(repr(wide - 1), 60)  # 240 bits: printed, then cut
    assert messages.shown(-5) == "-5"
    assert messages.shown(10 ** 5000) == "a number of more than 60 digits"
    assert messages.shown(2 ** 40, limit=10) == "a number of more than 10 digits"
    assert messages.shown(2 ** 40 - 1, limit=10) == "109951162…"


def test_a_list_of_names_is_sorted_each_cut_and_at_most_six_shown():
    assert messages.listed(["b", "a"]) == "['a', 'b']"
    assert messages.listed([str(i) for i in range(6)]) == "['0', '1', '2', '3', '4', '5']"
    seven = messages.listed([str(i) for i in range(7)])
    assert seven == "['0', '1', '2', '3', '4', '5', … (7 in all)]"
    assert messages.listed(["y" * 50]) == f"['{'y' * 38}…]"  # 52 with its quotes, cut to 40
    assert messages.listed(["a", "b", "c"], most=2) == "['a', 'b', … (3 in all)]"
    assert messages.listed([]) == "[]"
