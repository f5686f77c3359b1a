"""The rule registry: ``@rule("05.02")`` joins a function to the section it encodes.

References are validated when the decorator runs (at import), so a typo or a
renumbered section fails loudly instead of leaving a section silently
unencoded. Functions without the decorator are private helpers.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from rules import spec

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
        return function

    return decorate


def ruleset_rule(ruleset: str) -> Callable[..., Callable[[F], F]]:
    """``@rule`` bound to one ruleset, so a ruleset's modules write ``@rule("secondary/linebreaker")``."""
    def bound(*refs: str) -> Callable[[F], F]:
        return rule(*refs, ruleset=ruleset)

    return bound


def functions_for(ref: str, document: str = "core") -> list[RuleFunction]:
    return list(_REGISTRY.get((document, ref), []))


def all_rules(document: str = "core") -> dict[str, list[RuleFunction]]:
    return {ref: list(v) for (doc, ref), v in sorted(_REGISTRY.items()) if doc == document}


def load(document: str = "core") -> dict[str, list[RuleFunction]]:
    """Import every rule module of a ruleset so all its functions are registered: the package ``rules.<ruleset>``
    and the modules its ``MODULES`` names (a package that imports every module itself needs no list;
    ``rules.core`` keeps one so importing one chapter does not import them all)."""
    import importlib

    package = importlib.import_module(f"rules.{document}")
    for name in getattr(package, "MODULES", ()):
        importlib.import_module(name)
    return all_rules(document)
