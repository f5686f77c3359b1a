"""``python -m rules40k``: the same as the ``rules40k`` command."""

import sys

from rules40k.cli import main

sys.exit(main())
