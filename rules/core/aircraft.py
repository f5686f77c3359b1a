"""Chapter 23 Aircraft: deployment, movement, shooting and fighting restrictions."""

from __future__ import annotations
