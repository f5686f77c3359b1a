"""Chapter 07 The battle round: the order of the start of the round, player turns, and the end of the round."""

from __future__ import annotations
