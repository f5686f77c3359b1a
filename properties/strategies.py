"""Public hypothesis strategies for rule inputs: dice expressions, placed models, units, profiles.

Every strategy takes keyword-only arguments, so call sites read as the rule's
terms: ``placed_models(base_mm="50.8", spread=12)``.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from rules.model import Placed, PlacedUnit

#: Common round base sizes in millimetres (including 50.8 mm = exactly 2 inches).
BASE_SIZES = ("25", "28.5", "32", "40", "50", "50.8", "60", "100")


def inches(*, low: int = 0, high: int = 24, denominator: int = 8) -> st.SearchStrategy[Fraction]:
    """Distances on the tabletop, exact to 1/denominator of an inch."""
    return st.integers(low * denominator, high * denominator).map(lambda n: Fraction(n, denominator))


def placed_models(*, spread: int = 12, height: int = 0, base_mm: str | None = None,
                  owner: int = 1) -> st.SearchStrategy[Placed]:
    """A model somewhere in a ``spread``-inch square, at most ``height`` inches up."""
    bases = st.just(base_mm) if base_mm is not None else st.sampled_from(BASE_SIZES)
    return st.builds(Placed, x=inches(high=spread), y=inches(high=spread), base_mm=bases,
                     z=inches(high=height) if height else st.just(Fraction(0)), owner=st.just(owner))


def units(*, min_size: int = 1, max_size: int = 6, spread: int = 12, height: int = 0,
          owner: int = 1) -> st.SearchStrategy[PlacedUnit]:
    """A unit of placed models belonging to ``owner``."""
    return st.lists(placed_models(spread=spread, height=height, owner=owner), min_size=min_size,
                    max_size=max_size).map(lambda ms: PlacedUnit(tuple(ms), owner=owner))


def dice_expressions(*, max_dice: int = 4, max_bonus: int = 6) -> st.SearchStrategy[str]:
    """Dice expressions as datasheets print them: "D3", "2D6+1", "4"."""
    count = st.integers(0, max_dice)
    sides = st.sampled_from(["D3", "D6"])
    bonus = st.integers(0, max_bonus)

    def show(c: int, s: str, b: int) -> str:
        if c == 0:
            return str(b)
        dice = f"{'' if c == 1 else c}{s}"
        return dice if b == 0 else f"{dice}+{b}"

    return st.builds(show, count, sides, bonus)


def leaderships(*, min_size: int = 1, max_size: int = 4) -> st.SearchStrategy[list[int]]:
    """The Ld values (2+ to 12+) of a unit's models."""
    return st.lists(st.integers(2, 12), min_size=min_size, max_size=max_size)
