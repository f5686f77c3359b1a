"""The Core Rules, one module per chapter; importing this registers every rule function."""

from rules import dice  # noqa: F401  (01.05 dice notation)
from rules.core import (  # noqa: F401
    attached_units,
    attack_sequence,
    core_abilities,
    core_concepts,
    datasheets,
    making_attacks,
    monsters_and_vehicles,
    moving,
    other_concepts,
    other_rules,
    shooting_phase,
    stratagems,
    terrain,
)
