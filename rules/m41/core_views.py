"""The Core Rules' answers to the questions 999.m41's rules answer, for ``rules40k review m41 core``.

Each function here takes the same named inputs as the ``rules.m41`` function it is compared with
(spec/m41/annotations/concepts.yaml) and answers by calling the real Core Rules functions of ``rules.core``: it only
translates 999.m41's inputs into the Core Rules' terms and never restates a Core Rules decision itself. The two
games measure some things differently; each translation is stated in the docstring, and the map's note repeats it:

- a Ballistic Skill of 1-5 is the Core Rules' BS (7 - BS)+, the number the printed chart itself puts under it; a BS
  past 5 is the best the Core Rules allow (2+, ``modified_skill``);
- a to-hit penalty (999.m41's "-1 to hit" is a penalty of 1) is a hit-roll modifier of the opposite sign;
- a negative AP (999.m41's armour rend) is the Core Rules' AP of the same number; an AP of 1-6 (which cancels a save
  outright) or "-" (7) has no Core Rules counterpart and is AP 0 there.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from rules.core import attack_sequence, core_abilities, movement_phase, moving
from rules.core.attack_sequence import Hit, Save
from rules.quickref.core_views import placed_pair

D6_FACES = range(1, 7)
NO_SAVE = 7  # the Core Rules' Sv of a model with no armour save, and the roll 999.m41 writes for "cannot be saved"
NO_INVULNERABLE = 0  # the Core Rules' InSv of a model without one
TOP_OF_CHART = 7  # a BS of n is the Core Rules' (7 - n)+ on 999.m41's chart


def _core_ap(ap: Any) -> Any:
    """999.m41's AP as the Core Rules' AP: a rend (-1 to -3) is that modifier; a piercing AP or "-" is 0."""
    return ap if ap < 0 else 0


def hit_scored(unmodified_roll: Any, ballistic_skill: Any, penalty: Any = 0) -> Any:
    """05.01: whether a hit roll hits (a critical hit is a hit), for a model whose BS the chart prints as
    (7 - BS)+, past 5 the best skill allowed (2+), the penalty a hit-roll modifier of the opposite sign, capped."""
    skill = attack_sequence.modified_skill(TOP_OF_CHART - ballistic_skill, 0, 0)
    modifier = attack_sequence.capped_roll_modifier(-penalty)
    return attack_sequence.hit_roll(unmodified_roll, modifier, skill) != Hit.FAIL


def to_wound_needed(strength: Any, toughness: Any) -> Any:
    """05.02: the wound roll an attack needs from its Strength against the target's Toughness."""
    return attack_sequence.wound_threshold(strength, toughness)


def _lowest_saving_roll(ap: Any, save: Any, invulnerable_save: Any) -> int:
    """The lowest D6 that stops the attack under 05.03-05.04, NO_SAVE when none does."""
    return next((roll for roll in D6_FACES
                 if attack_sequence.save_check(roll, ap, save, invulnerable_save) == Save.FAILS), NO_SAVE)


def armour_save_needed(save: Any, ap: Any) -> Any:
    """05.03-05.04: the lowest roll a save against the Sv characteristic needs (no invulnerable save), NO_SAVE if
    none will do; a piercing AP or "-" is AP 0 (see the module's translations)."""
    return _lowest_saving_roll(_core_ap(ap), save, NO_INVULNERABLE)


def invulnerable_save_needed(invulnerable_save: Any, ap: Any) -> Any:
    """05.03-05.04: the lowest roll an invulnerable save needs, for a model with no armour save (Sv 7)."""
    return _lowest_saving_roll(_core_ap(ap), NO_SAVE, invulnerable_save)


def chance_wound_is_saved(saves: Sequence[int]) -> Fraction:
    """05.03-05.04: the chance one save roll stops a wound (AP 0) for a model whose saves are ``saves``: its armour
    save first, then its invulnerable save if it has one (the Core Rules roll once, against whichever is better)."""
    save = saves[0]
    invulnerable = saves[1] if len(saves) > 1 else NO_INVULNERABLE
    stopped = sum(1 for roll in D6_FACES if attack_sequence.save_check(roll, 0, save, invulnerable) == Save.FAILS)
    return Fraction(stopped, len(D6_FACES))


def feel_no_pain_saves(roll: Any, feel_no_pain: Any) -> Any:
    """24.12: whether Feel No Pain X+ keeps a wound from being lost (the Core Rules ask nothing of the attack)."""
    return not core_abilities.wound_is_lost(roll, feel_no_pain)


def split_level_coherent(vertical_gap: Any, horizontal_distance: Any) -> Any:
    """03.03: whether a unit of two models is in coherency, placed ``horizontal_distance`` apart at their bases'
    closest points and ``vertical_gap`` apart in height (no Core Rules ability widens it)."""
    return moving.in_coherency(list(placed_pair(horizontal_distance, vertical_gap)))


def may_end_move_at(on_a_friendly_model: Any, touching_an_enemy_model: Any, launching_an_assault: Any) -> Any:
    """03.01, 09.05: whether a move may end there, a model touching an enemy being within its engagement range and
    one on a friendly model not clear of models: a Normal move must end unengaged; a Charge move (launching an
    assault) is none of the moves 09.05-09.07 limit, so only 03.01 applies to it."""
    after_moving = launching_an_assault or movement_phase.after_moving_conditions_met(movement_phase.Move.NORMAL,
                                                                                      touching_an_enemy_model)
    return moving.move_can_end(True, True, not on_a_friendly_model, after_moving)


def rapid_fire_shots(shots: Any, within_half_range: Any, rapid_fire_x: Any) -> Any:
    """24.30: a [RAPID FIRE X] weapon's attacks: its A (999.m41's number of shots), and X more when the target is
    within half range (the Core Rules' X need not equal A, which 999.m41's doubling assumes)."""
    return shots + core_abilities.rapid_fire_extra_attacks(rapid_fire_x, within_half_range)
