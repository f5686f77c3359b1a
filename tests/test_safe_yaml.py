"""rules.safe_yaml: the one YAML reader keeps the promises its docstring makes for every file rules40k reads
(duplicate keys, numbers too long for int(), aliases that repeat too much or forever, load_head's cut), and
every refusal is a MarkedYAMLError whose place and problem read as one sentence."""

from __future__ import annotations

import pytest
import yaml

from rules import safe_yaml


def refusal(read, text: str) -> yaml.MarkedYAMLError:
    """The error ``read(text)`` refuses the text with (it must refuse it)."""
    with pytest.raises(yaml.MarkedYAMLError) as refused:
        read(text)
    return refused.value


def head(text: str) -> object:
    """load_head with the list a game's scoring moments are read from, cut after three items."""
    return safe_yaml.load_head(text, "events", 3)


READERS = pytest.mark.parametrize("read", [safe_yaml.load, head], ids=["load", "load_head"])


@READERS
def test_a_plain_document_is_its_value(read):
    assert read("a: 1\nb: {c: [x, 2.5, true]}\n") == {"a": 1, "b": {"c": ["x", 2.5, True]}}
    assert read("") is None


@READERS
def test_a_key_written_twice_is_refused_where_it_is_written_again(read):
    text = "a: 1\nb: {c: 1, c: 2}\n"
    error = refusal(read, text)
    assert safe_yaml.problem(error) == "found the key 'c' twice"
    assert safe_yaml.place(error) == f" line 2, column {text.splitlines()[1].rindex('c') + 1}"


@READERS
def test_a_whole_number_longer_than_int_reads_is_refused_at_its_place(read):
    big = 10 ** 99 + 7  # a hundred digits: far from the limit, read exactly
    assert read(f"n: {big}\n") == {"n": big}
    error = refusal(read, "a: 1\nn: " + "7" * 5000 + "\n")
    assert safe_yaml.problem(error) == "a number of 5,000 characters is too long to read"
    assert safe_yaml.place(error) == " line 2, column 4"


@READERS
def test_an_alias_may_repeat_a_value(read):
    assert read("a: &pin {x: 1, y: [2]}\nb: *pin\n") == {"a": {"x": 1, "y": [2]}, "b": {"x": 1, "y": [2]}}


@READERS
def test_an_alias_inside_the_value_it_names_is_refused_at_the_alias(read):
    line = "y: &loop [1, {z: *loop}]"
    error = refusal(read, f"x: 1\n{line}\n")
    assert isinstance(error, safe_yaml.AliasError)
    assert safe_yaml.problem(error) == ("the alias *loop is inside the value &loop it names, which would make that "
                                        "value endless")
    assert safe_yaml.place(error) == f" line 2, column {line.index('*loop') + 1}"


@READERS
def test_an_alias_of_no_anchor_is_refused(read):
    error = refusal(read, "a: &one 1\nb: *two\n")
    assert safe_yaml.place(error) == " line 2, column 4"


def test_a_long_anchor_name_is_quoted_short():
    """A message quotes at most 40 characters of an anchor's name: a longer one keeps its first 39 and an ellipsis."""
    forty, forty_one = "a" * 40, "b" * 41
    assert f"*{forty} is inside the value &{forty} it" in safe_yaml.problem(
        refusal(safe_yaml.load, f"x: &{forty} [*{forty}]\n"))
    shown = "b" * 39 + "…"
    assert f"*{shown} is inside the value &{shown} it" in safe_yaml.problem(
        refusal(safe_yaml.load, f"x: &{forty_one} [*{forty_one}]\n"))


def repeating(scalar_aliases: int) -> str:
    """A document whose aliases repeat 99 times a list of 999 numbers (1,000 values each: the list and its
    items), then ``scalar_aliases`` times one number, each alias on a line of its own from line 4."""
    return ("a: &list [" + ", ".join(["0"] * 999) + "]\nc: &one 0\nb:\n" + "- *list\n" * 99
            + "- *one\n" * scalar_aliases)


@READERS
def test_aliases_may_repeat_a_hundred_thousand_values_and_no_more(read):
    """99 x 1,000 + 1,000 = 100,000 repeated values are read; one more alias of one value is refused, at it."""
    value = read(repeating(1000))
    assert len(value["a"]) == 999 and value["c"] == 0
    assert len(value["b"]) == 1099 and value["b"][0] == value["a"] and value["b"][-1] == 0
    error = refusal(read, repeating(1001))
    assert isinstance(error, safe_yaml.AliasError)
    assert safe_yaml.problem(error) == ("the aliases up to *one repeat more than 100,000 values, more than one "
                                        "document may (a YAML bomb?)")
    assert safe_yaml.place(error) == f" line {3 + 99 + 1001}, column 3"


def test_a_billion_laughs_is_refused_before_it_is_built():
    laughs = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"{b}: &{b} [{', '.join([f'*{a}'] * 10)}]\n" for a, b in zip("abcdefgh", "bcdefghi"))
    for read in (safe_yaml.load, safe_yaml.compose, head):
        assert isinstance(refusal(read, laughs), safe_yaml.AliasError)


def test_compose_gives_the_line_of_a_value():
    node = safe_yaml.compose("a: 1\nb:\n  - x\n")
    assert node.value[1][1].start_mark.line + 1 == 3


# -- load_head: load, with the list under one key cut ----------------------------------------------------------


@pytest.mark.parametrize("text", [
    "a: 1\nevents: [1, 2, 3, 4, 5]\nb: [x]\n",
    '{"events": [[1], {"x": [2]}, 3, 4, 5, 6], "b": 2}',
    "events:\n- &one {x: 1}\n- *one\n- *one\n- [1, 2]\n- *one\n- 6\nlater: 1\n",
    "events: []\nb: 1\n",
    "events: [1, 2, 3]\nb: 1\n",  # exactly three: nothing is cut, the keys after it are read
    "b: [1, 2, 3, 4, 5]\nevents: [1, 2, 3, 4, 5]\n",  # another key's list is whole
    "events: {a: 1, b: 2, c: 3, d: 4}\nb: 1\n",  # a mapping under the key is no list: whole
    "- events\n- [1, 2, 3, 4, 5]\n",
    "x: {events: [1, 2, 3, 4, 5]}\nevents: [1, 2, 3, 4, 5]\n",
    "x: [events, [1, 2, 3, 4, 5]]\n",
])
def test_load_head_is_load_with_the_list_cut(text):
    """Up to the cut the value is the one `load` builds; the list holds its first items and reading stops there."""
    whole = safe_yaml.load(text)
    cut = head(text)
    if isinstance(whole, dict) and isinstance(whole.get("events"), list) and len(whole["events"]) > 3:
        keys = list(whole)
        assert list(cut) == keys[:keys.index("events") + 1]
        assert cut["events"] == whole["events"][:3]
        assert {k: v for k, v in cut.items() if k != "events"} == {k: whole[k] for k in list(cut)[:-1]}
    else:
        assert cut == whole


def test_load_head_reads_nothing_past_the_cut():
    """What follows the first item past the cut is never parsed: even text that is no YAML at all."""
    assert head("events: [1, 2, 3, 4, 5\n: : ]]\n") == {"events": [1, 2, 3]}
    assert safe_yaml.load_head("events:\n- 1\n- 2\n- {\n", "events", 2) == {"events": [1, 2]}
    assert safe_yaml.load_head("a: 0\nevents: [[1], [2, 3]]\n", "events", 1) == {"a": 0, "events": [[1]]}


def test_load_head_refuses_what_load_refuses_where_nothing_is_cut():
    """A list that is a key, not a value, under a key-like scalar is not the list under the key: load_head reads
    on and refuses the document where load does (here the last line, not the list)."""
    text = "x: events\n? [1, 2, 3, 4, 5]\n: 1\nbad: [\n"
    whole, cut = refusal(safe_yaml.load, text), refusal(head, text)
    assert (safe_yaml.place(cut), safe_yaml.problem(cut)) == (safe_yaml.place(whole), safe_yaml.problem(whole))
    assert safe_yaml.place(whole) == " line 5, column 1"


def test_load_head_keeps_the_loaders_refusals():
    for text in ("a: 1\na: 2\nevents: []\n", "events: [1, 2, 3]\nevents: []\n",
                 "x: &a [1, *a]\nevents: []\n"):
        with pytest.raises(yaml.YAMLError):
            safe_yaml.load_head(text, "events", 5)


# -- place and problem: the parts of a reader's sentence ---------------------------------------------------------


def test_place_and_problem_of_an_error_without_a_place():
    bare = yaml.YAMLError("the stream is broken")
    assert safe_yaml.place(bare) == ""
    assert safe_yaml.problem(bare) == "the stream is broken"


def test_problem_leaves_out_the_context_lines():
    error = refusal(safe_yaml.load, "a:\n  b: 1\n  b: 2\n")
    assert safe_yaml.problem(error) == "found the key 'b' twice"
    assert safe_yaml.place(error) == " line 3, column 3"
    assert "\n" not in safe_yaml.problem(error) + safe_yaml.place(error)
