"""rules40k rule functions: each decides what one numbered section of the rules says.

Call ``rules.registry.load("core")`` to register every Core Rules function with ``rules.registry``.
"""
