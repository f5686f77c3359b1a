"""The annotated rulebook site: Markdown pages generated from the spec, the ledger and the check results."""
