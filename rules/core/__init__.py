"""The Core Rules, one module per chapter.

Importing the package registers nothing, so ``rules40k calc`` loads only the chapters the calculator uses;
``rules.registry.load("core")`` imports every module in ``MODULES`` to register every rule function.
"""

import pkgutil

#: Every module whose functions encode the Core Rules: each chapter here, and rules.dice (01.05 dice notation).
MODULES = ("rules.dice", *sorted(f"{__name__}.{module.name}" for module in pkgutil.iter_modules(__path__)))
