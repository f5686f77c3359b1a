"""Hypothesis strategies for transports, attached units and strategic reserves (chapters 18-20).

Every strategy takes keyword-only arguments, so call sites read in the rules'
terms: ``keyword_sets(pool=("INFANTRY", "PSYKER"))``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from rules.core.attached_units import Attachment, Role
from rules.core.transports import TransportCapacity

#: Keywords the strategies draw from: common unit types and a few that rules single out.
KEYWORDS = ("INFANTRY", "BATTLELINE", "CHARACTER", "PSYKER", "FLY", "JUMP PACK", "TERMINATOR", "VEHICLE",
            "TRANSPORT", "GRENADES")


def keyword_sets(*, pool: tuple[str, ...] = KEYWORDS, min_size: int = 0,
                 max_size: int = 4) -> st.SearchStrategy[frozenset[str]]:
    """A model's or a component unit's keywords, drawn from ``pool``."""
    return st.frozensets(st.sampled_from(pool), min_size=min_size, max_size=max_size)


def capacities(*, max_models: int = 12) -> st.SearchStrategy[TransportCapacity]:
    """A TRANSPORT capacity as a datasheet might print it: a model count, allowed and excluded keywords, and
    keywords whose models take up two or three places."""
    return st.builds(
        TransportCapacity,
        models=st.integers(0, max_models),
        keywords=st.lists(st.sampled_from(("INFANTRY", "BEASTS")), max_size=1, unique=True).map(tuple),
        excluded=st.lists(st.sampled_from(("TERMINATOR", "MONSTER")), max_size=1, unique=True).map(tuple),
        space=st.lists(st.tuples(st.sampled_from(("JUMP PACK", "GRAVIS")), st.integers(2, 3)), max_size=2,
                       unique_by=lambda pair: pair[0]).map(tuple),
    )


def attachments(*, leaders: tuple[str, ...] = ("Captain", "Lieutenant", "Apothecary", "Chaplain"),
                bodyguards: tuple[str, ...] = ("Intercessors", "Hellblasters"),
                max_size: int = 5) -> st.SearchStrategy[list[Attachment]]:
    """Muster Armies choices, legal or not: leader/support units named from ``leaders`` leading ``bodyguards``."""
    one = st.builds(Attachment, unit=st.sampled_from(leaders), role=st.sampled_from((Role.LEADER, Role.SUPPORT)),
                    bodyguard=st.sampled_from(bodyguards))
    return st.lists(one, max_size=max_size)


def reserve_facts() -> st.SearchStrategy[dict[str, bool]]:
    """The facts 20.03 asks about one unit at the end of the third battle round (TRANSPORT facts only when
    embarked)."""
    names = ("in_reserves", "otherwise_stated", "made_ingress_move", "embarked", "transport_made_ingress_move",
             "repositioned", "transport_repositioned")

    def consistent(facts: dict[str, bool]) -> dict[str, bool]:
        if not facts["embarked"]:
            facts = {**facts, "transport_made_ingress_move": False, "transport_repositioned": False}
        return facts

    return st.fixed_dictionaries({name: st.booleans() for name in names}).map(consistent)
