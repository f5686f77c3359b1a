"""A stateful test of terrain over a battle: terrain areas are placed, models are set up, move, shoot and turns
pass; after every step the visibility and cover rules of chapter 13 must still hold. A shrunk failure reads as a
game log (``note``).

Invariants, for every pair of models on the battlefield:

- with no hidden model involved, A sees B exactly when B sees A (06.01, 13.10, 13.11);
- a hidden model is never visible to an enemy model more than 15" away (13.09);
- an INFANTRY model within a terrain area has the benefit of cover against every enemy model (13.08);
- a model is hidden only while INFANTRY, in a terrain area holding a dense feature, and quiet this turn and last.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from properties import strategies as s
from properties import strategies_battlefield as sb
from rules import battlefield
from rules.battlefield import Battlefield
from rules.core import terrain

MAX_MODELS = 4
MAX_AREAS = 3


class TerrainBattle(RuleBasedStateMachine):
    """Players put terrain down, set up models (INFANTRY or not), move and shoot with them, and end turns."""

    @initialize()
    def empty_battlefield(self):
        self.field = Battlefield(40, 40)
        self.models: dict[str, dict] = {}
        self.turn = 1

    def _log(self, line: str) -> None:
        note(f"turn {self.turn}: {line}")

    @precondition(lambda self: len(self.field.areas) < MAX_AREAS)
    @rule(area=sb.terrain_areas(spread=28, min_features=1))
    def place_terrain(self, area):
        self.field = dataclasses.replace(self.field, areas=self.field.areas + (area,))
        categories = sorted(c.name.lower() for c in terrain.area_categories(area))
        self._log(f"a terrain area {area.outline} with {categories or 'no'} features is placed")

    @precondition(lambda self: len(self.models) < MAX_MODELS)
    @rule(owner=st.sampled_from([1, 2]), model=sb.bodies(spread=36, max_z=2), infantry=st.booleans(), data=st.data())
    def set_up(self, owner, model, infantry, data):
        if self.field.areas and data.draw(st.booleans(), label="in a terrain area"):
            (x0, y0), _, (x1, y1), _ = data.draw(st.sampled_from(self.field.areas), label="area").outline
            model = dataclasses.replace(model, x=(x0 + x1) / 2, y=(y0 + y1) / 2, z=0)
        name = f"m{len(self.models) + 1}"
        self.models[name] = {"body": dataclasses.replace(model, owner=owner, name=name), "owner": owner,
                             "keywords": ("INFANTRY",) if infantry else ("VEHICLE",), "shot": None}
        self._log(f"player {owner} sets up {'INFANTRY' if infantry else 'VEHICLE'} {name} at "
                  f"({float(model.x):.2f}, {float(model.y):.2f}, {float(model.z):.2f})")

    @precondition(lambda self: self.models)
    @rule(dx=s.inches(high=6), dy=s.inches(high=6), back=st.booleans(), data=st.data())
    def move(self, dx, dy, back, data):
        name = data.draw(st.sampled_from(sorted(self.models)), label="model")
        body = self.models[name]["body"]
        sign = -1 if back else 1
        x = min(Fraction(39), max(Fraction(1), Fraction(body.x) + sign * dx))
        y = min(Fraction(39), max(Fraction(1), Fraction(body.y) + sign * dy))
        self.models[name]["body"] = dataclasses.replace(body, x=x, y=y)
        self._log(f"{name} moves to ({float(x):.2f}, {float(y):.2f})")

    @precondition(lambda self: self.models)
    @rule(data=st.data())
    def shoot(self, data):
        name = data.draw(st.sampled_from(sorted(self.models)), label="model")
        self.models[name]["shot"] = self.turn
        self._log(f"{name}'s unit makes ranged attacks")

    @rule()
    def end_turn(self):
        self.turn += 1
        self._log("a new turn begins")

    # -- what must hold ---------------------------------------------------------------------------------------

    def _shot_recently(self, name: str) -> bool:
        shot = self.models[name]["shot"]
        return shot is not None and self.turn - shot <= 1

    def _hidden(self, name: str) -> bool:
        m = self.models[name]
        return terrain.model_hidden_on(self.field, m["body"], m["keywords"], self._shot_recently(name))

    def _sees(self, observer: str, target: str) -> bool:
        o, t = self.models[observer], self.models[target]
        return terrain.model_visible_on(self.field, o["body"], t["body"], target_keywords=t["keywords"],
                                        target_unit_shot=self._shot_recently(target),
                                        observer_is_enemy=o["owner"] != t["owner"])

    def _pairs(self):
        names = sorted(self.models)
        return [(a, b) for a in names for b in names if a != b]

    @invariant()
    def visibility_is_mutual_without_hidden_models(self):
        for a, b in self._pairs():
            if a < b and not self._hidden(a) and not self._hidden(b):
                assert self._sees(a, b) == self._sees(b, a), f"{a} and {b} do not see each other alike"

    @invariant()
    def hidden_models_unseen_beyond_detection_range(self):
        for a, b in self._pairs():
            far = not battlefield.within(self.models[a]["body"], self.models[b]["body"], terrain.DETECTION_RANGE)
            if self._hidden(b) and self.models[a]["owner"] != self.models[b]["owner"] and far:
                assert not self._sees(a, b), f"{b} is hidden, yet {a} sees it from beyond 15 inches"

    @invariant()
    def infantry_in_terrain_has_cover(self):
        for a, b in self._pairs():
            target = self.models[b]
            if "INFANTRY" in target["keywords"] and battlefield.areas_containing(self.field, target["body"]):
                assert terrain.unit_has_cover_on(self.field, self.models[a]["body"], [target["body"]],
                                                 target["keywords"]), f"{b} is INFANTRY in terrain without cover"

    @invariant()
    def hidden_only_when_quiet_infantry_in_dense_terrain(self):
        for name, m in getattr(self, "models", {}).items():
            if self._hidden(name):
                dense = any(battlefield.Category.DENSE in terrain.area_categories(area)
                            for area in battlefield.areas_containing(self.field, m["body"]))
                assert "INFANTRY" in m["keywords"] and dense and not self._shot_recently(name), name


#: A small, fixed budget: every step checks every pair of models, and sight lines are not free.
BATTLE_SETTINGS = settings(max_examples=25, stateful_step_count=12, deadline=None)

TestTerrainBattle = pytest.mark.refs("06.01", "13.07", "13.08", "13.09", "13.10", "13.11")(TerrainBattle.TestCase)
TestTerrainBattle.settings = BATTLE_SETTINGS


def test_the_battle_fails_when_hidden_models_are_seen_from_afar(monkeypatch):
    """With the hidden rule's range check left out, the machine finds a hidden model seen from beyond 15"."""
    monkeypatch.setattr(terrain, "hidden_model_visible_to",
                        lambda hidden, observer_is_enemy, within_detection_range: True)
    with pytest.raises((Exception, pytest.fail.Exception)):
        run_state_machine_as_test(TerrainBattle, settings=settings(
            BATTLE_SETTINGS, max_examples=200, derandomize=True, database=None, report_multiple_bugs=False,
            phases=[Phase.explicit, Phase.generate]))


def test_the_battle_fails_when_cover_needs_both_conditions(monkeypatch):
    """With 13.08's two conditions both required, INFANTRY in plain view within terrain loses its cover."""
    from rules.logic import And

    monkeypatch.setattr(terrain, "model_in_cover", lambda infantry_beasts_or_swarm, within_terrain_area,
                        not_fully_visible_due_to_terrain: And(infantry_beasts_or_swarm, within_terrain_area,
                                                              not_fully_visible_due_to_terrain))
    with pytest.raises((Exception, pytest.fail.Exception)):
        run_state_machine_as_test(TerrainBattle, settings=settings(
            BATTLE_SETTINGS, max_examples=200, derandomize=True, database=None, report_multiple_bugs=False,
            phases=[Phase.explicit, Phase.generate]))
