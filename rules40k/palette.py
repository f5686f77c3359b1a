"""Colours shared by every chart the project draws: ``rules40k calc --plot``, the review's shift plot
(rules40k/review/sweep.py) and the site's pictures (site/plots.py). No imports, so anything can import it."""

#: Dark red: the bars of ``rules40k calc --plot`` and of the site's outcome charts, and the first series elsewhere.
BAR = "#7b1f1f"
