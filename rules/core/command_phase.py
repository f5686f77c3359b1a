"""Chapter 08 Command phase: core CP, the battle-shock step and the steps around them."""

from __future__ import annotations
