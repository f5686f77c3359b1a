"""The earlier edition's battle round and Command phase: each player's turn is the phases in their printed order
(seven in the reprint, six on the web page, which has no Morale phase), out-of-phase rules, and the Battle-forged
CP bonus at the start of the Command phase (the reprint only).
"""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import If, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")


class Phase(enum.IntEnum):
    COMMAND = 1
    MOVEMENT = 2
    PSYCHIC = 3
    SHOOTING = 4
    CHARGE = 5
    FIGHT = 6
    MORALE = 7


class Printing(enum.IntEnum):
    REPRINT = enum.auto()  # the mission pack's reprint (002), the primary printing
    WEB = enum.auto()  # the web page (003)


END_OF_TURN = 0  # what follows the last phase of a turn

PHASES = {
    Printing.REPRINT: (Phase.COMMAND, Phase.MOVEMENT, Phase.PSYCHIC, Phase.SHOOTING, Phase.CHARGE, Phase.FIGHT,
                       Phase.MORALE),
    Printing.WEB: (Phase.COMMAND, Phase.MOVEMENT, Phase.PSYCHIC, Phase.SHOOTING, Phase.CHARGE, Phase.FIGHT),
}
# Where the Fight phase's own summary says to go once all units have fought (both printings: "progress to the
# Morale phase").
FIGHT_PHASE_PROGRESSES_TO = Phase.MORALE
BATTLE_FORGED_CP_BONUS = {Printing.REPRINT: 1, Printing.WEB: 0}


@rule("battle-round", "glossary/battle-round")
def next_phase(phase: Phase, printing: Printing = Printing.REPRINT) -> Any:
    """The phase after this one in a turn, in the printed order (END_OF_TURN after the last). Interpretation:
    reprint-is-the-primary-printing (the web page lists six phases and no Morale phase)."""
    order = PHASES[Printing(printing)]
    result: Any = END_OF_TURN
    for before, after in reversed(list(zip(order, order[1:]))):
        result = If(phase == before, after, result)
    return result


@rule("battle-round", "glossary/battle-round")
def turn_order(first_player: Any) -> tuple[Any, Any]:
    """Each battle round both players take a turn, the same player (the mission says which) always first."""
    return first_player, 3 - first_player


@rule("battle-round", "glossary/active-player")
def active_player(turn_player: Any) -> Any:
    """The active player is the player whose turn is taking place."""
    return turn_player


@rule("battle-round/out-of-phase-rules")
def phase_rules_apply(acting_as_if_it_were: Phase, rule_phase: Phase) -> Any:
    """A unit acting 'as if it were' a phase uses the rules normally used in that phase."""
    return acting_as_if_it_were == rule_phase


@rule("battle-round/out-of-phase-rules")
def stratagem_usable(stratagem_phase: Phase, current_phase: Phase, printing: Printing = Printing.REPRINT) -> Any:
    """A Stratagem for a specific phase can be used only in that very phase, never for a unit acting 'as if it
    were' that phase in another (the reprint; the web page prints no such exception and leaves the phase's rules
    to apply). Interpretation: reprint-is-the-primary-printing."""
    return Or(stratagem_phase == current_phase, printing == Printing.WEB)


@rule("command-phase", "glossary/battle-forged-cp-bonus", "glossary/cp")
def cp_after_battle_forged_bonus(cp: Any, battle_forged: Any, printing: Printing = Printing.REPRINT) -> Any:
    """At the start of the Command phase, before anything else, a Battle-forged army gains 1CP (the reprint; the
    web page has no such bonus). Interpretation: reprint-is-the-primary-printing."""
    bonus = If(printing == Printing.REPRINT, BATTLE_FORGED_CP_BONUS[Printing.REPRINT],
               BATTLE_FORGED_CP_BONUS[Printing.WEB])
    return cp + If(battle_forged, bonus, 0)
