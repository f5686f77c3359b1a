"""Warhammer 999.m41 (004), a fan-made ruleset on 4th-6th edition mechanics, revision 007
(spec/m41/annotations/layout.yaml).

Importing this registers every function. References follow the document's chapters and headings:
``shooting/to-wound``, ``vehicles/damage-chart``, ``usr/twin-linked``.
"""

from rules.m41 import (  # noqa: F401  (registers their rule functions)
    assault,
    battle,
    characters,
    missions,
    models,
    morale,
    movement,
    principles,
    psychic,
    reserves,
    revision006,
    shooting,
    terrain,
    transports,
    turn,
    unit_types,
    usr,
    vehicles,
    weapons,
)
