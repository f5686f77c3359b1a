"""Colours shared by every chart the project draws: ``rules40k calc --plot``, the review's shift plot
(rules40k/review/sweep.py) and the site's pictures (site/plots.py). No imports, so anything can import it."""

#: Dark red: the bars of ``rules40k calc --plot`` and of the site's outcome charts, and the first series elsewhere.
BAR = "#7b1f1f"

#: One colour per ruleset when several are drawn side by side (``rules40k compare --plot``): BAR first, then a
#: blue, a green and an ochre that stay apart for the common colour-vision deficiencies.
SERIES = (BAR, "#1f5a8a", "#3d7a3d", "#a07010")
