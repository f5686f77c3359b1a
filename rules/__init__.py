"""rules40k rule functions: each decides what one numbered section of the rules says.

Import ``rules.core`` to register every Core Rules function with ``rules.registry``.
"""
