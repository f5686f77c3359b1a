"""Chapter 16 Actions: starting and completing actions."""

from __future__ import annotations
