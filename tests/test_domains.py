"""The pinned domains (spec/<ruleset>/annotations/domains.yaml): a decision table or proof that covers less than
the rules allow fails its check, and a malformed pin file is one sentence naming the file and line."""

from __future__ import annotations

import dataclasses
import shutil

import pytest
import z3

from properties import proofs
from rules import spec
from rules.core import attack_sequence, charge_phase, command_phase
from rules40k import REPO_ROOT, annotations, checks, cli, domains, validate
from rules40k.review import rulesets as ruleset_reviews


def _proofs_of(ruleset: str) -> list[proofs.Proof]:
    return [p for _, p in sorted(proofs.load_all().items()) if spec.ruleset_of(p.refs) == ruleset]


def _with_input(table, name: str, **change):
    """A copy of ``table`` with one input's domain changed."""
    inputs = tuple(dataclasses.replace(v, **change) if v.name == name else v for v in table.inputs)
    return dataclasses.replace(table, inputs=inputs)


def _narrowed(proof: proofs.Proof, name: str, value: int) -> proofs.Proof:
    """A copy of ``proof`` whose preconditions also exclude ``name == value``."""
    build = proof.build

    def narrower():
        pre, goal, symbols = build()
        return pre + [symbols[name] != value], goal, symbols
    return dataclasses.replace(proof, build=narrower)


# (a) What is there now ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(spec.rulesets()))
def test_every_table_and_proof_covers_its_pins(ruleset):
    pinned = domains.pins(ruleset)
    for table in checks.tables(ruleset):
        assert domains.table_domain_problems(table, pinned) == [], table.name
    used: dict[str, set[str]] = {}
    for proof in _proofs_of(ruleset):
        assert domains.proof_domain_problems(proof, pinned) == [], proof.id
        for name in proof.build()[2]:
            used.setdefault(name, set()).add(proof.id)
    # No pin goes stale: each pinned name is a symbol of a proof, and each exception's proof uses that name.
    assert set(pinned.proofs) <= set(used), set(pinned.proofs) - set(used)
    for name, listed in pinned.exceptions.items():
        assert set(listed) <= used[name], (name, set(listed) - used[name])


# (b) A narrowed (or widened) integer Var ---------------------------------------------------------------


def test_a_narrowed_var_fails_with_the_rule_it_breaks():
    narrowed = _with_input(attack_sequence.HIT_ROLL, "roll", high=5)
    assert domains.table_domain_problems(narrowed, domains.pins("core")) == [
        "Var roll covers 1..5 but the rules allow 1..6 (05.01: one D6 (01.05: 1 to 6))"]
    record = checks.run_table(narrowed, "core")  # the check `rules40k verify` and `rules40k mutate` run
    assert record["status"] == "failed" and "Var roll covers 1..5 but the rules allow 1..6" in record["detail"]
    assert checks.run_table(attack_sequence.HIT_ROLL, "core")["status"] == "passed"


def test_a_widened_var_and_a_var_without_a_pin_fail():
    pinned = domains.pins("core")
    wider = _with_input(attack_sequence.HIT_ROLL, "skill", low=1)
    assert domains.table_domain_problems(wider, pinned)[0].startswith("Var skill covers 1..7, beyond the pinned 2..7")
    unpinned = dataclasses.replace(attack_sequence.HIT_ROLL, name="hit-roll-copy")
    assert domains.table_domain_problems(unpinned, pinned) == [
        f"Var {name} has no pin in domains.yaml: say what the rules allow for it"
        for name in ("roll", "modifier", "skill")]


def test_the_tables_assume_must_keep_the_pinned_values_and_drop_the_others():
    pinned = domains.pins("core")
    table = attack_sequence.SAVE_CHECK  # insv pinned to 0 and 2..6; its assume drops 1
    assert domains.table_domain_problems(dataclasses.replace(table, assume=None), pinned) == [
        "Var insv includes 1, which the pin leaves out (02.02: not all models have an InSv (0 stands for none); "
        "one that does has a dice result, 2+ to 6+)"]
    tighter = dataclasses.replace(table, assume=lambda insv, **_: z3.And(insv != 1, insv != 6))
    assert domains.table_domain_problems(tighter, pinned)[0].startswith(
        "the table's assume excludes insv = 6, which the rules allow")


# (c) An enum Var -------------------------------------------------------------------------------------


def test_an_enum_var_short_of_its_last_member_fails():
    pinned = domains.pins("core")
    table = command_phase.COMMAND_PHASE_TRIGGERS  # no pin: Trigger's first to last member
    last = list(command_phase.Trigger)[-1]
    short = _with_input(table, "trigger", high=command_phase.Trigger(last.value - 1))
    problems = domains.table_domain_problems(short, pinned)
    assert len(problems) == 1 and problems[0].startswith("Var trigger covers START_OF_PHASE..")
    assert f"but the rules allow START_OF_PHASE..{last.name} (Trigger's first to last member)" in problems[0]
    steps = charge_phase.CHARGE_STEPS  # pinned to START..END (DONE has no next step)
    short = _with_input(steps, "step", high=charge_phase.ChargeStep.CHARGE)
    assert domains.table_domain_problems(short, pinned)[0].startswith(
        "Var step covers START..CHARGE but the rules allow START..END (11.01-11.03")


# (d) A proof whose preconditions are narrowed ---------------------------------------------------------


def test_a_proof_with_narrowed_preconditions_fails(monkeypatch):
    pinned = domains.pins("core")
    proof = proofs.load_all()["hit-unmodified-one-fails"]
    assert domains.proof_domain_problems(_narrowed(proof, "skill", 7), pinned)[0].startswith(
        "the preconditions exclude skill = 7, which the rules allow (02.04: BS/WS is a dice result")
    # Through the check `rules40k verify` runs: failed, with the phrase, and the record's other fields kept.
    monkeypatch.setitem(proofs.PROOFS, proof.id, _narrowed(proof, "skill", 2))
    record, = checks.run_proofs([proof.id])
    assert record["status"] == "failed" and record["verdict"] == "proved" and record["name"] == proof.statement
    assert record["detail"].startswith("the preconditions exclude skill = 2, which the rules allow")


def test_an_exception_is_held_to_its_own_range():
    pinned = domains.pins("core")
    proof = proofs.load_all()["hit-roll-monotone"]  # roll 1..5: it compares roll with roll + 1
    assert domains.proof_domain_problems(proof, pinned) == []
    assert domains.proof_domain_problems(_narrowed(proof, "roll", 1), pinned) == [
        "the preconditions exclude roll = 1, which the rules allow (the proof compares roll with roll + 1, the "
        "next D6 result, so roll stops at 5)"]


# (e) A malformed domains.yaml -------------------------------------------------------------------------


@pytest.mark.parametrize("text, line, phrase", [
    ("tables:\n  hit-rol:\n    roll: {covers: [1, 6], why: d6}\n", 3,
     "tables: 'hit-rol' is not a decision table of the core ruleset"),
    ("tables:\n  hit-roll:\n    roll: {covers: [6, 1], why: d6}\n", 3,
     "tables.hit-roll.roll.covers has the range [6, 1], whose low end is above its high end"),
    ("tables:\n  hit-roll:\n    roll: {covers: [1, 6]}\n", 3, "tables.hit-roll.roll needs a why"),
    ("proofs:\n  roll: {covers: \"1-6\", why: d6}\n", 2,
     "proofs.roll.covers must be [low, high] (whole numbers) or a list of such ranges, not '1-6'"),
    ("tables:\n  hit-roll:\n    roll: {covers: [1, true], why: d6}\n", 3, "must be [low, high] (whole numbers)"),
    ("tables:\n  hit-roll: [roll]\n", 2, "tables.hit-roll must be a mapping of input names to pins"),
    ("tables:\n  hit-roll:\n    dice: {covers: [1, 6], why: d6}\n", 3,
     "tables.hit-roll: 'dice' is not an input of that table (roll, modifier, skill)"),
    ("tables:\n  visible:\n    line_of_sight: {covers: [0, 1], why: x}\n", 3, "is a bool input, which needs no pin"),
    ("tables:\n  charge-phase-steps:\n    step: {covers: [START, LAST], why: x}\n", 3,
     "must be [low, high] (members of ChargeStep (START, CHARGE, END, DONE))"),
    ("proofs:\n  roll:\n    covers: [1, 6]\n    why: d6\n    except:\n      no-such-proof: {why: x}\n", 6,
     "proofs.roll.except: 'no-such-proof' is not a proof of the core ruleset"),
    ("proofs:\n  roll: {covers: [[1, 3], [3, 6]], why: d6}\n", 2, "ascending order, apart from each other"),
    ("proofs:\n  roll: {covers: [0, 5000], why: d6}\n", 2, "covers more than 1000 values"),
    ("proofs:\n  roll: {covers: [1, 6], why: d6, note: x}\n", 2, "unknown key 'note' in proofs.roll"),
    ("pins:\n  roll: {covers: [1, 6], why: d6}\n", 2, "unknown key 'pins'; expected tables, proofs"),
])
def test_a_bad_domains_file_is_one_sentence_with_its_file_and_line(tmp_path, text, line, phrase):
    folder = annotations.annotations_dir("core", tmp_path)
    folder.mkdir(parents=True)
    (folder / "domains.yaml").write_text(text)
    with pytest.raises(annotations.AnnotationError) as caught:
        domains.pins("core", tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{folder / 'domains.yaml'}, line {line}: ") and phrase in message
    assert "\n" not in message


def test_an_absent_file_pins_nothing_and_the_check_asks_for_pins(tmp_path):
    pinned = domains.pins("core", tmp_path)
    assert pinned.tables == {} and pinned.proofs == {}
    assert domains.table_domain_problems(attack_sequence.HIT_ROLL, pinned)[0] == (
        "Var roll has no pin in domains.yaml: say what the rules allow for it")


def test_the_command_line_stops_at_a_bad_domains_file(tmp_path, monkeypatch, capsys):
    root = tmp_path / "spec"
    shutil.copytree(REPO_ROOT / "spec", root)
    monkeypatch.setattr(validate, "SPEC_ROOT", root)
    monkeypatch.setattr(ruleset_reviews, "SPEC_ROOT", root)
    path = annotations.annotations_dir("core", root) / "domains.yaml"
    text = path.read_text(encoding="utf-8")
    old = '    roll: {covers: [1, 6], why: "05.01: one D6 (01.05: 1 to 6)"}\n'
    assert old in text
    path.write_text(text.replace(old, old.replace("[1, 6]", "[6, 1]")), encoding="utf-8")
    assert cli.main(["coverage"]) == 2
    err = capsys.readouterr().err.strip()
    line = text[:text.index(old)].count("\n") + 1
    assert err == (f"rules40k coverage: {path}, line {line}: tables.hit-roll.roll.covers has the range [6, 1], "
                   "whose low end is above its high end")
