"""How a rule module's error quotes a value: kept out of the rule modules, since it is not a rule.

(``rules40k mutate`` breaks every function of a rule module; a message's wording is no rule to verify.)
"""

from __future__ import annotations

from typing import Any, Mapping


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as a one-line error quotes it: JSON kinds by name, anything else cut to ``limit`` characters.

    An error is one short line whatever the input (a 100 kB string, a list, a 1000-digit number).
    """
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, int) and value.bit_length() > 4 * limit:  # repr() itself fails past 4300 digits
        return f"a {'negative ' if value < 0 else ''}number of more than {limit} digits"
    return cut(repr(value), limit)


def cut(text: str, limit: int = 60) -> str:
    """``text`` unquoted, cut to ``limit`` characters (the last one "…") when longer: for a name inside a sentence."""
    short = text if len(text) <= limit else text[:limit - 1] + "…"
    return "".join(c if c.isprintable() else " " for c in short)  # one line, and no lone surrogate to print


def listed(names: Any, most: int = 6) -> str:
    """Names (keys, objectives, facts) as one short message clause: each cut, sorted as text, at most ``most``."""
    texts = sorted(shown(n, 40) for n in names)
    return "[" + ", ".join(texts[:most]) + (f", … ({len(texts)} in all)" if len(texts) > most else "") + "]"
