"""The Core Rules, one module per chapter; importing this registers every rule function."""

from rules import dice  # noqa: F401  (01.05 dice notation)
from rules.core import attack_sequence, core_concepts, datasheets, moving  # noqa: F401
