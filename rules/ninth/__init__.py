"""The earlier edition's Basic Rules, as the mission pack reprints them: the sections the pack leans on.

Importing this registers every function. References are slugs of the reprinted headings
(spec/ninth/annotations/layout.yaml): ``objective-markers``, ``performing-actions``, ``stratagems/command-re-roll``.
"""

from rules.ninth import actions, attacks, making_attacks, objective_markers, overwatch, shooting, strategic_reserves, stratagems  # noqa: F401,E402  (registers their rule functions)
