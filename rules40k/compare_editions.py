"""The same attack under several rulesets' attack rules, side by side: ``rules40k compare``.

Each ruleset reads the scenario and runs it through the one engine with its own attack rules (``rules.calculator``);
nothing here decides a rule. Where the editions describe a weapon or a context differently (a weapon *type* in one,
an *ability* in another), the scenario says so under ``editions``: for a ruleset named there, each top-level key given
replaces the scenario's own (``"editions": {"ninth": {"weapons": [...]}}``), so the attack stays the same and only its
description changes. The first ruleset listed is the baseline every difference is measured from.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

EDITIONS_KEY = "editions"
#: The scenario keys an edition may restate (everything a scenario has).
RESTATABLE = ("weapons", "target", "context", "choices")


class CompareError(ValueError):
    """A compare request that cannot be answered: one sentence naming the place."""


def rulesets_with_calculators() -> list[str]:
    from rules import spec

    return [name for name in spec.rulesets() if spec.ruleset(name).get("calculator")]


def parse_rulesets(text: str) -> list[str]:
    """``core,ninth``: two or more distinct rulesets that have attack rules, in the order given."""
    names = [part.strip() for part in text.split(",")]
    known = rulesets_with_calculators()
    if any(not name for name in names):
        raise CompareError(f"--rulesets {text!r}: an empty name (write them joined by commas: core,quickref)")
    for name in names:
        if name not in known:
            raise CompareError(f"--rulesets: {name!r} is not a ruleset with attack rules (these have: "
                               f"{', '.join(known)})")
    if len(set(names)) != len(names):
        raise CompareError(f"--rulesets {text!r} names a ruleset twice")
    if len(names) < 2:
        raise CompareError(f"--rulesets {text!r}: name at least two rulesets to compare")
    return names


def scenario_for(data: Any, ruleset: str, rulesets: list[str]) -> Any:
    """The scenario as ``ruleset`` reads it: its own keys, with those its ``editions`` entry restates replaced."""
    if not isinstance(data, Mapping) or EDITIONS_KEY not in data:
        return data
    editions = data[EDITIONS_KEY]
    if not isinstance(editions, Mapping):
        raise CompareError(f"{EDITIONS_KEY} must map ruleset names to the scenario keys they restate")
    for name, restated in editions.items():
        if name not in rulesets:
            raise CompareError(f"{EDITIONS_KEY}.{name}: not one of the rulesets compared ({', '.join(rulesets)})")
        if not isinstance(restated, Mapping):
            raise CompareError(f"{EDITIONS_KEY}.{name} must be a mapping of scenario keys ({', '.join(RESTATABLE)})")
        for key in restated:
            if key not in RESTATABLE:
                raise CompareError(f"{EDITIONS_KEY}.{name}.{key}: not a scenario key an edition can restate "
                                   f"({', '.join(RESTATABLE)})")
    own = {key: value for key, value in data.items() if key != EDITIONS_KEY}
    return {**own, **(editions.get(ruleset) or {})}


def compare(data: Any, rulesets: list[str], source: str = "scenario") -> dict:
    """Each ruleset's exact result for the scenario, and each one's difference from the first (the baseline)."""
    from rules import calculator, scenario

    results = {}
    for name in rulesets:
        try:
            read = calculator.scenario_reader(name)(scenario_for(data, name, rulesets), source)
            results[name] = calculator.calculate(read, ruleset=name)
        except CompareError as error:
            raise CompareError(f"{source}: {error}") from None
        except (scenario.ScenarioError, ValueError) as error:
            message = str(error)
            raise CompareError(f"{message if message.startswith(source) else f'{source}: {message}'} (under "
                               f"{name})") from None
    baseline = rulesets[0]
    return {"baseline": baseline, "rulesets": rulesets, "results": results,
            "differences": {name: differences(results[baseline], results[name]) for name in rulesets[1:]}}


def differences(base, other) -> dict:
    """What moves from ``base`` to ``other``: each count's chance of exactly that many models destroyed (other minus
    base), the expected models destroyed and wounds lost, and the largest gap between the two distributions."""
    counts = sorted(set(base.models_destroyed) | set(other.models_destroyed))
    by_count = {k: other.models_destroyed.get(k, Fraction(0)) - base.models_destroyed.get(k, Fraction(0))
                for k in counts}
    return {"models_destroyed": by_count,
            "expected_models_destroyed": other.expected_models_destroyed - base.expected_models_destroyed,
            "expected_wounds_lost": other.expected_wounds_lost - base.expected_wounds_lost,
            "largest_gap": max((abs(v) for v in by_count.values()), default=Fraction(0))}


def as_json(answer: dict, ratio) -> dict:
    """The machine output: every chance an exact "p/q" string (``ratio`` writes one)."""
    return {
        "baseline": answer["baseline"],
        "rulesets": {name: {"models_destroyed": {str(k): ratio(p) for k, p in result.models_destroyed.items()},
                            "expected_models_destroyed": ratio(result.expected_models_destroyed),
                            "wounds_lost": {str(k): ratio(p) for k, p in result.wounds_lost.items()},
                            "expected_wounds_lost": ratio(result.expected_wounds_lost)}
                     for name, result in answer["results"].items()},
        "differences": {name: {"models_destroyed": {str(k): ratio(v) for k, v in diff["models_destroyed"].items()},
                               "expected_models_destroyed": ratio(diff["expected_models_destroyed"]),
                               "expected_wounds_lost": ratio(diff["expected_wounds_lost"]),
                               "largest_gap": ratio(diff["largest_gap"])}
                        for name, diff in answer["differences"].items()},
    }


def plot(answer: dict, path, labels: Mapping[str, str]) -> None:
    """Models destroyed under each ruleset as grouped bars, and each ruleset's difference from the baseline."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from rules40k import atomic
    from rules40k.palette import SERIES

    names = answer["rulesets"]
    counts = sorted({k for result in answer["results"].values() for k in result.models_destroyed})
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    width = 0.8 / len(names)
    for index, name in enumerate(names):
        law = answer["results"][name].models_destroyed
        left.bar([k + (index - (len(names) - 1) / 2) * width for k in counts],
                 [float(law.get(k, 0)) for k in counts], width, label=labels[name], color=SERIES[index % len(SERIES)])
    left.set_title("Models destroyed")
    left.set_xlabel("models destroyed")
    left.set_ylabel("probability")
    left.set_xticks(counts)
    left.legend()
    others = names[1:]
    width = 0.8 / len(others)
    for index, name in enumerate(others, 1):
        diff = answer["differences"][name]["models_destroyed"]
        right.bar([k + (index - 1 - (len(others) - 1) / 2) * width for k in counts],
                  [float(diff.get(k, 0)) for k in counts], width, label=f"{labels[name]} − {labels[names[0]]}",
                  color=SERIES[index % len(SERIES)])
    right.axhline(0, color="#444444", linewidth=0.8)
    right.set_title(f"Difference from {labels[names[0]]}")
    right.set_xlabel("models destroyed")
    right.set_ylabel("change in probability")
    right.set_xticks(counts)
    right.legend()
    weapons = answer["results"][names[0]].scenario.weapons
    figure.suptitle(", ".join(w.name for w in weapons)[:90], parse_math=False)
    figure.tight_layout()
    atomic.write_figure(figure, path)
