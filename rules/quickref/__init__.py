"""The quick-reference sheet of an earlier edition, claim by claim: importing this registers every function.

Each claim (one statement a player could rely on) is an entry of spec/quickref/ with a slug of its own
(spec/quickref/annotations/layout.yaml); spec/quickref/annotations/concepts.yaml maps claims to the Core
Rules sections that decide the same thing, and how to compare them by computation.
"""

from rules.quickref import sequence  # noqa: F401,E402
from rules.quickref import movement  # noqa: F401,E402
from rules.quickref import transports  # noqa: F401,E402
from rules.quickref import shooting  # noqa: F401,E402
from rules.quickref import terrain  # noqa: F401,E402
from rules.quickref import charge  # noqa: F401,E402
from rules.quickref import fight  # noqa: F401,E402
from rules.quickref import abilities  # noqa: F401,E402
from rules.quickref import stratagems  # noqa: F401,E402
from rules.quickref import reference  # noqa: F401,E402
