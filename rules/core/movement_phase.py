"""Chapter 09 Movement phase: selecting every unit to move and the move types remain stationary, normal, advance and fall-back."""

from __future__ import annotations
