"""The earlier edition's Basic Rules, one ruleset in two printings: the reprint that closes the mission pack and the
web-page Basic Rules (spec/ninth/annotations/layout.yaml).

Importing this registers every function. References follow the heading path: ``movement-phase/advance``,
``making-attacks/wound-roll``, ``glossary/d3``; the ones the mission pack cited first keep their slugs
(``objective-markers``, ``performing-actions``, ``stratagems/command-re-roll``).
"""

from rules.ninth import (  # noqa: F401,E402  (registers their rule functions)
    actions,
    attacks,
    battle_round,
    charge,
    concepts,
    datasheets,
    fight,
    glossary,
    making_attacks,
    morale,
    movement,
    objective_markers,
    overwatch,
    psychic,
    rare_rules,
    shooting,
    strategic_reserves,
    stratagems,
)
