"""Chapter 21 Flying and surging: surge moves and flying models."""

from __future__ import annotations
