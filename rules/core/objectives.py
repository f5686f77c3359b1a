"""Chapter 14 Objectives: level of control and secured objectives."""

from __future__ import annotations
