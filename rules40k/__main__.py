"""``python -m rules40k``: the same as the ``rules40k`` command, with Ctrl-C and SIGTERM handled from the first
moment (an interrupt while the command line loads is one line too)."""

import sys

try:
    from rules40k import interrupts

    interrupts.install()
    from rules40k.cli import main
except KeyboardInterrupt as stop:  # Python's own Ctrl-C before the handlers, or ours while the command line loads
    print("rules40k: interrupted", file=sys.stderr)
    sys.exit(143 if type(stop).__name__ == "Terminated" else 130)

sys.exit(main())
