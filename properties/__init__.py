"""Verification of the rule functions: hypothesis strategies and properties, and z3 proofs."""
