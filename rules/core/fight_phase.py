"""Chapter 12 Fight phase: pile-in moves, the fight step's alternation, fight types and consolidation."""

from __future__ import annotations
