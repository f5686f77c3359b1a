"""The quick-reference sheet of an earlier edition, claim by claim: importing this registers every function.

Each claim (one statement a player could rely on) is an entry of spec/quickref/ with a slug of its own
(spec/quickref/annotations/layout.yaml); spec/quickref/annotations/concepts.yaml maps claims to the Core
Rules sections that decide the same thing, and how to compare them by computation.
"""
