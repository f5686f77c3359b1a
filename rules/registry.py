"""The rule registry: ``@rule("05.02")`` joins a function to the section it encodes.

References are validated when the decorator runs (at import), so a typo or a
renumbered section fails loudly instead of leaving a section silently
unencoded. Functions without the decorator are private helpers; the few of them that examples and concept maps
call are listed in FOR_EXAMPLES.

``named_function`` is the only way a dotted path written in data (an example's ``call``, a concept
map's ``compare``) becomes a function: data may name what is registered or listed here, never code of its choosing.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from rules import spec
from rules.messages import shown

F = TypeVar("F", bound=Callable)


class RegistryError(ValueError):
    """A @rule reference that is malformed, unknown or registered twice."""


@dataclass(frozen=True)
class RuleFunction:
    ref: str
    document: str
    function: Callable
    qualname: str
    file: str
    line: int

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.function) or ""


_REGISTRY: dict[tuple[str, str], list[RuleFunction]] = {}
_RULE_FUNCTIONS: set[Callable] = set()  # every function registered by @rule, whatever its sections

#: Modules each public function of which examples and concept maps may call, though none encodes a section: adapters
#: that ask another ruleset's question in a claim's terms (each function of rules.quickref.core_views answers as
#: the Core Rules do, through their registered functions).
ADAPTER_MODULES = frozenset({"rules.quickref.core_views", "rules.ninth.core_views", "rules.m41.core_views"})

#: The other functions examples and concept maps may call though they encode no section (by where they are defined):
#: lookups such as a mission's secondary, the calculator's front door for example data, and a claim's question put
#: in the terms of the rule that answers it. With the registered rule functions and ADAPTER_MODULES, this is all
#: that data may name.
FOR_EXAMPLES = frozenset({
    "rules.calculator.outcome",
    "rules.m41.vehicle_attacks.outcome",
    "rules.m41.blast_attacks.outcome",
    "rules.core.battle_round.begin_battle",
    "rules.missionpack.missions.base_of_operations_choices",
    "rules.missionpack.missions.base_of_operations_placement",
    "rules.missionpack.missions.headquarters_candidates",
    "rules.missionpack.missions.primary_award",
    "rules.missionpack.missions.secondary_of",
    "rules.missionpack.secondaries.action",
    "rules.missionpack.terrain.common_feature_has",
    "rules.quickref.fight.consolidates_at",
    "rules.quickref.fight.consolidation_as_printed_at",
    "rules.quickref.fight.consolidation_at",
    "rules.quickref.movement.models_destroyed_by_test",
    "rules.quickref.movement.must_climb",
    "rules.quickref.reference.line_in_coherency",
    "rules.quickref.sequence.battle_shocked_after_next_battle_shock_step",
    "rules.quickref.sequence.level_of_control_of",
    "rules.quickref.sequence.phase_comes_before",
    "rules.quickref.sequence.resolved_before_battle_shock",
    "rules.quickref.sequence.takes_battle_shock_test_with",
    "rules.quickref.shooting.attack_gets_through",
    "rules.quickref.shooting.cover_bonus_for",
    "rules.quickref.shooting.cover_changes_the_attack",
    "rules.quickref.shooting.roll_succeeds",
    "rules.quickref.stratagems.tank_shock_extremes",
    "rules.quickref.terrain.must_climb_as_normal",
})


def _source_location(function: Callable) -> tuple[str, int]:
    """Where a function is defined: from its code object (its first line, a decorator's if it has one, as
    ``inspect.getsourcelines`` says, without tokenizing the source at every import)."""
    target = inspect.unwrap(function)
    code = getattr(target, "__code__", None)
    if code is not None:
        file, line = code.co_filename, code.co_firstlineno
    else:
        file = inspect.getsourcefile(target) or "<unknown>"
        try:
            line = inspect.getsourcelines(target)[1]
        except (OSError, TypeError):
            line = 0
    root = spec.SPEC_ROOT.parent
    try:
        file = str(Path(file).resolve().relative_to(root))
    except ValueError:
        pass
    return file, line


def rule(*refs: str, document: str = "core", ruleset: str | None = None) -> Callable[[F], F]:
    """Register the decorated function as encoding each of ``refs`` (local references of ``ruleset``)."""
    document = ruleset or document
    if not refs:
        raise RegistryError("@rule needs at least one reference")

    def decorate(function: F) -> F:
        qualname = f"{function.__module__}.{function.__qualname__}"
        file, line = _source_location(function)
        for ref in refs:
            if not spec.is_well_formed(ref):
                raise RegistryError(f"{qualname} ({file}:{line}): malformed reference {ref!r}; "
                                    "expected NN.NN, appendix/<slug> or a slug path such as secondary/linebreaker")
            if ref not in spec.known_refs(document):
                raise RegistryError(f"{qualname} ({file}:{line}): reference {ref!r} is not a section "
                                    f"of the {document!r} spec")
            entries = _REGISTRY.setdefault((document, ref), [])
            if any(e.qualname == qualname for e in entries):
                raise RegistryError(f"{qualname} ({file}:{line}): registered twice for {ref}")
            entries.append(RuleFunction(ref, document, function, qualname, file, line))
        _RULE_FUNCTIONS.add(function)
        return function

    return decorate


def ruleset_rule(ruleset: str) -> Callable[..., Callable[[F], F]]:
    """``@rule`` bound to one ruleset, so a ruleset's modules write ``@rule("secondary/linebreaker")``."""
    def bound(*refs: str) -> Callable[[F], F]:
        return rule(*refs, ruleset=ruleset)

    return bound


_PART = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # no leading underscore: a private name is never called from data
_PACKAGE = Path(__file__).resolve().parent  # rules/


def named_function(path: str) -> Callable:
    """The function a dotted path written in data names (``rules.core.moving.in_coherency``), if data may call it:
    a function registered with ``@rule``, one listed in FOR_EXAMPLES, or a public function defined in one of
    ADAPTER_MODULES. Anything else is a RegistryError saying why. A path outside the rules package, or one naming
    no module file in it, is refused before anything is imported; otherwise only that module of this project is
    imported (importing it registers its functions) before its attribute is checked."""
    module_name, function = _named_attribute(path, "function")
    if inspect.isfunction(function):
        defined = function.__module__
        if (function in _RULE_FUNCTIONS or f"{defined}.{function.__qualname__}" in FOR_EXAMPLES
                or (defined == module_name and module_name in ADAPTER_MODULES)):
            return function
    raise RegistryError(f"{shown(path)} is neither a rule function (@rule) nor one meant for examples "
                        "(rules.registry.FOR_EXAMPLES, ADAPTER_MODULES): data may not call it")


def _named_attribute(path: str, what: str) -> tuple[str, object]:
    """The module and attribute a dotted path written in data names: a path outside the rules package, or one
    naming no module file in it, is refused before anything is imported."""
    parts = path.split(".") if isinstance(path, str) else []
    if len(parts) < 3 or parts[0] != "rules" or not all(_PART.fullmatch(part) for part in parts):
        article = "an" if what[0] in "aeiou" else "a"
        raise RegistryError(f"{shown(path)} is not {article} {what} of the rules package (rules.<module>.<{what}>)")
    module_name, attribute = ".".join(parts[:-1]), parts[-1]
    where = _PACKAGE.joinpath(*parts[1:-1])
    if not (where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()):
        raise RegistryError(f"{shown(path)} names no module of the rules package ({module_name} does not exist)")
    found = getattr(importlib.import_module(module_name), attribute, None)
    if found is None:
        raise RegistryError(f"{shown(path)} names nothing: {module_name} has no {shown(attribute)}")
    return module_name, found


def named_enum(path: str) -> type[enum.IntEnum]:
    """The enumeration a dotted path written in data names (``rules.quickref.stratagems.Stratagem``), so data can
    give an input's values by name: an IntEnum defined in that module of the rules package, nothing else."""
    module_name, found = _named_attribute(path, "enumeration")
    if isinstance(found, type) and issubclass(found, enum.IntEnum) and found.__module__ == module_name:
        return found
    raise RegistryError(f"{shown(path)} is not an enumeration (IntEnum) defined in {module_name}")


def rule_functions() -> list[Callable]:
    """Every function registered with ``@rule`` so far, whatever its ruleset."""
    return list(_RULE_FUNCTIONS)


def functions_for(ref: str, document: str = "core") -> list[RuleFunction]:
    return list(_REGISTRY.get((document, ref), []))


def all_rules(document: str = "core") -> dict[str, list[RuleFunction]]:
    return {ref: list(v) for (doc, ref), v in sorted(_REGISTRY.items()) if doc == document}


def load(document: str = "core") -> dict[str, list[RuleFunction]]:
    """Import every rule module of a ruleset so all its functions are registered: the package ``rules.<ruleset>``
    and the modules its ``MODULES`` names (a package that imports every module itself needs no list;
    ``rules.core`` keeps one so importing one chapter does not import them all)."""
    package = importlib.import_module(f"rules.{document}")
    for name in getattr(package, "MODULES", ()):
        importlib.import_module(name)
    return all_rules(document)
