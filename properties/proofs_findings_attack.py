"""Findings in the attack sequence: properties the rules as written fail (expect="disproved").

Each is paired with a record in spec/core/annotations/findings/ and an
interpretation the code follows instead.
"""

from __future__ import annotations

import dataclasses

import z3

from properties.proofs import Built, proof
from rules.core import attack_sequence


def printed_order_wound_table():
    """05.02's Strength-vs-Toughness rows matched first-to-last as printed (LESS read as plain S < T)."""
    table = attack_sequence.WOUND_THRESHOLD
    rows = tuple(dataclasses.replace(row, when=lambda strength, toughness: strength < toughness)
                 if row.label.startswith("Strength is LESS") else row for row in table.rows)
    return dataclasses.replace(table, name="strength-vs-toughness-as-printed", rows=rows)


@proof("wound-table-as-printed-shadows-half", ("05.02",),
       "Matched first-to-last in the printed order, the table gives 6+ whenever Strength is at most half the Toughness.",
       expect="disproved")
def _half_row() -> Built:
    s, t = z3.Ints("strength toughness")
    literal = printed_order_wound_table()
    pre = [s >= 1, t >= 1, s <= 30, t <= 30, 2 * s <= t]
    return pre, literal(strength=s, toughness=t) == 6, {"strength": s, "toughness": t}
