"""Chapter 11 Charge phase: declaring charges, the charge roll and the charge move."""

from __future__ import annotations
