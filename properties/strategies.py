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


# -- Attack scenarios for the exact calculator (rules/scenario.py's JSON schema) -------------------

#: Weapon abilities the scenario strategies draw from, as datasheets print them (chapter 24).
WEAPON_ABILITIES = ("SUSTAINED HITS 1", "LETHAL HITS", "DEVASTATING WOUNDS", "ANTI-INFANTRY 4+", "TWIN-LINKED",
                    "LANCE", "TORRENT", "MELTA 1", "RAPID FIRE 1", "BLAST")

#: Keywords a target unit can carry (INFANTRY matters to [ANTI-INFANTRY 4+]).
TARGET_KEYWORDS = ("INFANTRY", "MONSTER", "VEHICLE", "BEASTS")

_DICE_MAXIMUM = {"D3": 3, "D6": 6}


def _most(value: int | str) -> int:
    return _DICE_MAXIMUM.get(value, value) if isinstance(value, str) else value


@st.composite
def _weapon(draw, name, min_count, max_count, attacks, skills, strengths, aps, damages, abilities,
            max_abilities, max_attacks, blast_allowance, melee):
    chosen = draw(st.lists(st.sampled_from(abilities), unique=True, max_size=max_abilities)) if abilities else []
    a = draw(st.sampled_from(attacks))
    per_model = _most(a) + ("RAPID FIRE 1" in chosen) + (blast_allowance if "BLAST" in chosen else 0)
    most = max(min_count, min(max_count, max_attacks // per_model)) if max_attacks else max_count
    weapon = {"name": name, "count": draw(st.integers(min_count, most)), "A": a,
              "skill": draw(st.integers(*skills)), "S": draw(st.integers(*strengths)),
              "AP": draw(st.integers(*aps)), "D": draw(st.sampled_from(damages)), "abilities": chosen}
    if melee:
        weapon["melee"] = True
    return weapon


def weapon_profiles(*, name: str = "weapon", min_count: int = 1, max_count: int = 5,
                    attacks: tuple = (1, 2, 3, 4, "D3", "D6"), skills: tuple[int, int] = (2, 6),
                    strengths: tuple[int, int] = (1, 12), aps: tuple[int, int] = (-3, 0),
                    damages: tuple = (1, 2, 3, "D3"), abilities: tuple[str, ...] = WEAPON_ABILITIES,
                    max_abilities: int = 2, max_attacks: int | None = 8, blast_allowance: int = 3,
                    melee: bool = False) -> st.SearchStrategy[dict]:
    """A weapon entry of a scenario: ``count`` models each with A attacks at BS/WS ``skill``, S, AP, D, abilities.

    ``max_attacks`` bounds count times the most attacks one model can make (A's
    maximum, plus 1 for [RAPID FIRE 1], plus ``blast_allowance`` for [BLAST]), so
    the exact calculator stays quick (a few ms a scenario; at 12 some take seconds):
    an A of D6 then comes with one model. ``None`` lifts the bound.
    """
    return _weapon(name, min_count, max_count, attacks, skills, strengths, aps, damages, abilities,
                   max_abilities, max_attacks, blast_allowance, melee)


def model_profiles(*, name: str = "Trooper", min_count: int = 1, max_count: int = 5,
                   toughness: tuple[int, int] = (2, 8), saves: tuple[int, int] = (2, 7),
                   wounds: tuple[int, int] = (1, 4), invulnerable: bool = True, feel_no_pain: bool = True,
                   character: bool = False, role: str = "bodyguard") -> st.SearchStrategy[dict]:
    """A model entry of a target unit: count, T, Sv (7 = none), W, maybe InSv 4+-6+ and FNP 4+-6+.

    With ``character`` the entry is a single CHARACTER model; ``role`` is its place
    in an attached unit (19.02): bodyguard, leader or support.
    """
    count = st.just(1) if character else st.integers(min_count, max_count)
    optional = {}
    if invulnerable:
        optional["InSv"] = st.integers(4, 6)
    if feel_no_pain:
        optional["FNP"] = st.integers(4, 6)
    return st.fixed_dictionaries(
        {"name": st.just(name), "count": count, "T": st.integers(*toughness), "Sv": st.integers(*saves),
         "W": st.integers(*wounds), "character": st.just(character), "role": st.just(role)},
        optional=optional)


@st.composite
def _target(draw, max_groups, min_groups, character, attached, same_toughness, keywords, group):
    groups = draw(st.lists(group, min_size=min_groups, max_size=max_groups,
                           unique_by=lambda m: (m["W"], m["Sv"], m.get("InSv"))))
    models = [{**m, "name": f"Models {chr(65 + i)}"} for i, m in enumerate(groups)]
    with_character = draw(st.booleans()) if character is None else character
    if with_character:
        role = draw(st.sampled_from(["leader", "support"])) if attached else "bodyguard"
        models.append(draw(model_profiles(name="Character", character=True, role=role, wounds=(2, 5))))
    if same_toughness:
        toughness = draw(st.integers(2, 8))
        models = [{**m, "T": toughness} for m in models]
    return {"keywords": draw(st.lists(st.sampled_from(keywords), unique=True, max_size=2)), "models": models}


def target_units(*, max_groups: int = 3, min_groups: int = 1, character: bool | None = None,
                 attached: bool = False, same_toughness: bool = True, keywords: tuple[str, ...] = TARGET_KEYWORDS,
                 max_count: int = 5, wounds: tuple[int, int] = (1, 4)) -> st.SearchStrategy[dict]:
    """A target unit: keywords plus 1-``max_groups`` groups of models (distinct W, Sv, InSv), maybe a CHARACTER.

    ``character=None`` draws whether there is one; with ``attached`` it is the
    unit's leader or support model (19.02). ``same_toughness`` gives every model one T.
    """
    group = model_profiles(max_count=max_count, wounds=wounds)
    return _target(max_groups, min_groups, character, attached, same_toughness, keywords, group)


def attack_contexts(*, modifiers: bool = True) -> st.SearchStrategy[dict]:
    """The "context" of a scenario: half range ([RAPID FIRE], [MELTA]), a charge ([LANCE]), hit/wound modifiers."""
    fields = {"target_within_half_range": st.booleans(), "attacker_charged": st.booleans()}
    if modifiers:
        fields["hit_modifier"] = st.integers(-1, 1)
        fields["wound_modifier"] = st.integers(-1, 1)
    return st.fixed_dictionaries(fields)


def scenarios(*, min_weapons: int = 1, max_weapons: int = 2, weapons: st.SearchStrategy[dict] | None = None,
              targets: st.SearchStrategy[dict] | None = None,
              contexts: st.SearchStrategy[dict] | None = None) -> st.SearchStrategy[dict]:
    """Valid scenario dicts (accepted by ``rules.scenario.read_scenario``), small enough to calculate quickly."""
    weapon = weapons if weapons is not None else weapon_profiles()
    return st.fixed_dictionaries({
        "weapons": st.lists(weapon, min_size=min_weapons, max_size=max_weapons).map(
            lambda ws: [{**w, "name": f"{w['name']} {i + 1}"} for i, w in enumerate(ws)]),
        "target": targets if targets is not None else target_units(),
        "context": contexts if contexts is not None else attack_contexts(),
    })
