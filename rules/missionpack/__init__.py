"""The mission pack "Tactical Deployment": one module per part of the pack; importing this registers every function.

References are the pack's own slugs (spec/missionpack/annotations/layout.yaml): ``sequence/18-determine-victor``,
``secondary/linebreaker``, ``mission/seize-ground/primary``, ``terrain/trait/dense-cover``.
"""

from rules.missionpack import battle_sizes, missions, scoring, secondaries, sequence, terrain  # noqa: F401,E402  (registers their rule functions)
