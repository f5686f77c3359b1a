"""Chapter 20 Strategic reserves: placing units, repositioned units, arriving and the ingress move."""

from __future__ import annotations
