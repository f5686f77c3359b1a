"""Hypothesis properties of chapter 19 (Attached units) and mixed keywords, each paired with a broken rule.

The stateful test fights over one attached unit (a PSYKER leader with a bodyguard squad): models die to
attacks or other rules, some come back (revived), and invariants watch the unit's keywords, whether the
leader's ability still applies and how often rules for a destroyed unit trigger. A shrunk failure prints as
the game log (``note``).
"""

from __future__ import annotations

import pytest
from hypothesis import Phase as HypothesisPhase
from hypothesis import given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from properties.mutation import fails
from properties import strategies_transports as ts
from rules.core import attached_units
from rules.core.attached_units import Role, Scope, Source
from rules.state import UnitState

LEADER_KEYWORDS = frozenset({"INFANTRY", "CHARACTER", "PSYKER"})
BODYGUARD_KEYWORDS = frozenset({"INFANTRY", "BATTLELINE"})


class AttachedUnitFight(RuleBasedStateMachine):
    """One attached unit under fire: bodyguard and leader models are destroyed, some revived."""

    @initialize(bodyguards=st.integers(1, 5), leaders=st.integers(1, 2))
    def muster(self, bodyguards, leaders):
        self.bodyguards, self.leaders = bodyguards, leaders
        self.bodyguard_dead = self.leader_dead = 0
        self.attack_resolving = False
        self.leader_killed_in_this_attack = False
        self.triggers = 0
        note(f"Muster: a leader unit of {leaders} PSYKER model(s) leads {bodyguards} bodyguard model(s)")

    def _left(self) -> tuple[int, int]:
        return self.bodyguards - self.bodyguard_dead, self.leaders - self.leader_dead

    def _destroyed_one(self) -> None:
        models_left = sum(self._left())
        # Every model here started the battle in the unit, so "started the battle" models left = models left.
        if attached_units.destroyed_rules_trigger(True, models_left, True, models_left):
            self.triggers += 1
            note(f"  rules for a destroyed unit trigger ({self.triggers})")

    @precondition(lambda self: sum(self._left()) > 0)
    @rule(by_attack=st.booleans())
    def destroy_bodyguard_model(self, by_attack):
        if self._left()[0] == 0:
            return
        self.bodyguard_dead += 1
        note(f"A bodyguard model is destroyed{' by an attack' if by_attack and self.attack_resolving else ''}")
        self._destroyed_one()

    @precondition(lambda self: sum(self._left()) > 0)
    @rule()
    def destroy_leader_model(self):
        if self._left()[1] == 0:
            return
        self.leader_dead += 1
        if self.attack_resolving and self._left()[1] == 0:
            self.leader_killed_in_this_attack = True
        note(f"A leader model is destroyed{' by an attack' if self.attack_resolving else ''}")
        self._destroyed_one()

    @precondition(lambda self: not self.attack_resolving and sum(self._left()) > 0)
    @rule()
    def start_attacks(self):
        self.attack_resolving = True
        self.leader_killed_in_this_attack = False
        note("An enemy unit starts resolving its attacks")

    @rule()
    def finish_attacks(self):
        if not self.attack_resolving:  # nothing to finish (also keeps the fight going once the unit is gone)
            return
        self.attack_resolving = False
        self.leader_killed_in_this_attack = False
        note("The enemy unit has resolved all its attacks")

    @precondition(lambda self: sum(self._left()) > 0 and (self.bodyguard_dead or self.leader_dead))
    @rule(leader=st.booleans())
    def revive(self, leader):
        if leader and self.leader_dead:
            self.leader_dead -= 1
            note("A leader model is revived")
        elif not leader and self.bodyguard_dead:
            self.bodyguard_dead -= 1
            note("A bodyguard model is revived")

    @invariant()
    def destroyed_rules_trigger_once_when_the_whole_unit_is_gone(self):
        destroyed = sum(self._left()) == 0
        assert self.triggers == (1 if destroyed else 0), f"triggered {self.triggers} times, destroyed: {destroyed}"

    @invariant()
    def unit_has_psyker_exactly_while_the_leader_is_part_of_it(self):
        bodyguards, leaders = self._left()
        keywords = attached_units.unit_keywords([BODYGUARD_KEYWORDS] * bodyguards + [LEADER_KEYWORDS] * leaders)
        assert ("PSYKER" in keywords) == (leaders > 0)
        assert keywords <= BODYGUARD_KEYWORDS | LEADER_KEYWORDS

    @invariant()
    def leader_ability_lasts_while_the_leader_or_the_attack_that_killed_it(self):
        bodyguards, leaders = self._left()
        applies = attached_units.ability_applies(
            affects_single_model=False, model_is_that_model=False, source=Source.LEADER_OR_SUPPORT,
            source_alive=leaders > 0, attack_resolving=self.leader_killed_in_this_attack)
        assert bool(applies) == (leaders > 0 or self.leader_killed_in_this_attack)


def _run_fight(max_examples: int | None = None):
    """Fight it out; with ``max_examples`` (for the mutant runs) more fights, without shrinking or saving."""
    if max_examples:
        chosen = settings(max_examples=max_examples, stateful_step_count=30, database=None,
                          phases=[HypothesisPhase.generate])
    else:
        chosen = settings(stateful_step_count=25)
    run_state_machine_as_test(AttachedUnitFight, settings=chosen)




@pytest.mark.refs("19.02", "19.03", "19.04")
def test_attached_unit_fights_trigger_once_and_keep_keywords_and_abilities_right():
    """19.02-19.04: however an attached unit's models die or are revived, rules for a destroyed unit trigger once,
    when its last model goes; it is a PSYKER unit exactly while the PSYKER leader is part of it; and the leader's
    ability lasts while a leader model lives or until the attack that killed the last one is resolved."""
    _run_fight()


@pytest.mark.parametrize("attribute,mutant", [
    ("destroyed_rules_trigger", lambda attached, models_left, started, started_left: started),
    ("unit_keywords", lambda model_keywords: frozenset.intersection(*map(frozenset, model_keywords))
     if model_keywords else frozenset()),
    ("ability_applies", lambda affects_single_model, model_is_that_model, source, source_alive, attack_resolving,
     **_: source_alive),
], ids=["trigger-per-model", "keywords-intersected", "ability-ends-mid-attack"])
def test_attached_unit_fight_catches_a_broken_rule(monkeypatch, attribute, mutant):
    monkeypatch.setattr(attached_units, attribute, mutant)
    assert fails(lambda: _run_fight(max_examples=300))


# -- 19.03 / appendix: keywords ------------------------------------------------------------------------


@pytest.mark.refs("19.03", "appendix/mixed-keywords-in-units")
@given(st.lists(ts.keyword_sets(min_size=1), min_size=1, max_size=5), st.sampled_from(ts.KEYWORDS))
def test_unit_keywords_are_the_union_and_models_keep_their_own(models, wanted):
    """19.03/appendix: a unit has every keyword any of its models has; a rule for units with a keyword affects
    all its models, a rule for models with it only those that have it themselves."""
    keywords = attached_units.unit_keywords(models)
    note(f"{models} -> {sorted(keywords)}")
    assert keywords == frozenset().union(*models)
    for own in models:
        assert attached_units.keyword_rule_applies(Scope.UNITS, wanted, own, keywords) == (wanted in keywords)
        assert attached_units.keyword_rule_applies(Scope.MODELS, wanted, own, keywords) == (wanted in own)


def test_unit_keywords_property_catches_a_broken_rule(monkeypatch):
    """Letting every model gain the unit's keywords breaks it."""
    monkeypatch.setattr(attached_units, "keyword_rule_applies",
                        lambda scope, wanted, model_keywords, unit_keywords: wanted in unit_keywords)
    assert fails(test_unit_keywords_are_the_union_and_models_keep_their_own)


@pytest.mark.refs("19.01", "19.03")
@given(ts.keyword_sets(min_size=1), st.lists(ts.keyword_sets(min_size=1), min_size=1, max_size=2),
       st.integers(1, 10), st.lists(st.integers(1, 3), min_size=2, max_size=2))
def test_forming_an_attached_unit_adds_models_and_keywords(bodyguard_keywords, attached_keywords, size, sizes):
    """19.01/19.03: an attached unit is one unit with all its components' models and all their keywords."""
    bodyguard = UnitState("Squad", 1, bodyguard_keywords, models=size, starting_strength=size)
    attached = [UnitState(f"Hero{i}", 1, k, models=sizes[i], starting_strength=sizes[i])
                for i, k in enumerate(attached_keywords)]
    unit = attached_units.form_attached_unit(bodyguard, attached)
    assert unit.models == unit.starting_strength == size + sum(sizes[:len(attached)])
    assert unit.keywords == bodyguard_keywords.union(*attached_keywords)


def test_forming_property_catches_a_broken_rule(monkeypatch):
    """Keeping only the bodyguard unit's keywords breaks it."""
    monkeypatch.setattr(attached_units, "unit_keywords", lambda model_keywords: frozenset(model_keywords[0]))
    assert fails(test_forming_an_attached_unit_adds_models_and_keywords)


# -- 19.01: who leads whom ---------------------------------------------------------------------------


def _check_attachments(choices):
    can_lead = {(a.unit, a.bodyguard) for a in choices}
    problems = attached_units.attachment_problems(choices, can_lead)
    units = [a.unit for a in choices]
    slots = [(a.bodyguard, a.role) for a in choices]
    legal = len(set(units)) == len(units) and len(set(slots)) == len(slots)
    note(f"{choices} -> {problems}")
    assert (problems == []) == legal


@pytest.mark.refs("19.01")
@given(ts.attachments())
def test_attachment_problems_find_exactly_the_broken_choices(choices):
    """19.01: Muster Armies choices are legal exactly when each leader/support unit leads one bodyguard unit and each
    bodyguard unit has at most one leader unit and one support unit."""
    _check_attachments(choices)


def test_attachment_property_catches_a_broken_rule(monkeypatch):
    """Letting a bodyguard unit take two units of the same role breaks it."""
    monkeypatch.setattr(attached_units, "may_lead",
                        lambda role, muster, can_lead, leading, leaders, supports, more=False: leaders + supports < 2)
    many = settings(max_examples=500, database=None, phases=[HypothesisPhase.generate])
    assert fails(many(given(ts.attachments())(_check_attachments)))


@pytest.mark.refs("19.04")
@given(st.booleans(), st.booleans(), st.sampled_from(list(Source)), st.booleans(), st.booleans(), st.booleans(),
       st.booleans(), st.booleans())
def test_single_model_abilities_never_spread(single, is_that_model, source, alive, resolving, leading, bodyguard, start):
    """19.04: an ability that affects a single specified model applies to that model alone, whatever else holds."""
    if resolving and alive:
        return
    applies = attached_units.ability_applies(single, is_that_model, source, alive, resolving, leading, bodyguard, start)
    if single:
        assert bool(applies) == is_that_model


def test_single_model_property_catches_a_broken_rule(monkeypatch):
    """Treating every ability as unit-wide breaks it."""
    table = attached_units.ATTACHED_ABILITY
    from dataclasses import replace

    monkeypatch.setattr(attached_units, "ATTACHED_ABILITY", replace(table, rows=table.rows[1:]))
    assert fails(test_single_model_abilities_never_spread)


def test_role_values_match_the_tables():
    """The Role codes example data uses (0 bodyguard, 1 leader, 2 support) stay fixed."""
    assert (Role.BODYGUARD, Role.LEADER, Role.SUPPORT) == (0, 1, 2)
