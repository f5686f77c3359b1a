"""How the comparison machinery words the values it shows a reader."""

from rules40k import compare


def test_an_answer_of_several_parts_reads_in_words():
    """A function answering a tuple (a flag and a count, say) is shown part by part in the game's words, never as a
    Python list."""
    assert compare.value_words((False, True)) == "(no, yes)"
    assert compare.value_words([True, 3]) == "(yes, 3)"


def test_tracing_a_comparison_keeps_a_profile_hook_already_set():
    """A mutation baseline records the rule functions its checks call with a profile hook; a comparison traces its
    own side with another. The baseline's hook must see the calls made under the comparison's and be back after
    it: before, the comparison set no hook at all, and every check after the first comparison was recorded as
    calling nothing."""
    import sys

    from rules.m41 import weapons
    from rules40k import compare

    seen = set()

    def hook(frame, event, arg):
        if event == "call":
            seen.add(frame.f_code)

    sys.setprofile(hook)
    try:
        found = compare._rule_functions_run(weapons.save_holds, {"roll": [1, 4], "needed": [3]})
        after = sys.getprofile()
        weapons.save_chance(4)
    finally:
        sys.setprofile(None)
    assert after is hook
    assert weapons.save_holds.__code__ in seen and weapons.save_chance.__code__ in seen
    assert [f.__name__ for f in found] == ["save_holds"]
