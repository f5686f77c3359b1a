"""Chapter 18 Transports: capacity, embarking, disembark modes and emergency disembarking."""

from __future__ import annotations
