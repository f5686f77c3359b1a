"""``rules40k site-weight``: how heavy the built site is, measured, against the issue's targets.

Two numbers are measured, never estimated: the HTML size of every page (median, 90th percentile and maximum, per
ruleset area and overall) and the bytes a first visit to a section page loads, counted by the HTTP server that
serves the site to headless Chromium from a cold cache: every response the page, its frames and its search
worker ask for until the network has been idle for half a second (the search index included). The targets: the
median page under 60 KB of HTML, and a first visit of at most 1 MB (1 KB = 1,000 bytes, 1 MB = 1,000,000 bytes;
sizes as served, uncompressed; what gzip would make of them is shown beside).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import math
import statistics
import threading
import time
from pathlib import Path, PurePosixPath

from rules import spec
from rules.messages import shown

MEDIAN_TARGET = 60_000  # bytes of HTML, the median page
FIRST_VISIT_TARGET = 1_000_000  # bytes a first visit to a section page loads
DEFAULT_PAGE = "core/05.02.html"


class WeightError(Exception):
    """The site to weigh is missing or incomplete; one sentence."""


def html_sizes(site: Path) -> dict[str, int]:
    """Every HTML page of the site (relative path -> bytes)."""
    return {path.relative_to(site).as_posix(): path.stat().st_size for path in sorted(site.rglob("*.html"))}


def area(path: str, rulesets: list[str]) -> str:
    """The area a page belongs to: its ruleset, ``code``, ``reviews``, or ``home`` for the top-level pages."""
    first = path.split("/", 1)[0] if "/" in path else "home"
    return first if first in rulesets or first in ("code", "reviews", "home") else "other"


def summary(sizes: list[int]) -> dict:
    """Count, median, 90th percentile (nearest rank) and maximum of some page sizes."""
    ordered = sorted(sizes)
    if not ordered:
        return {"pages": 0, "median": 0, "p90": 0, "max": 0}
    return {"pages": len(ordered), "median": int(statistics.median(ordered)),
            "p90": ordered[math.ceil(0.9 * len(ordered)) - 1], "max": ordered[-1]}


def html_weights(site: Path) -> dict:
    """The summary per area (rulesets first, in spec/rulesets.yaml's order) and over all pages, with the largest."""
    sizes = html_sizes(site)
    rulesets = list(spec.rulesets())
    groups: dict[str, list[int]] = {}
    for path, size in sizes.items():
        groups.setdefault(area(path, rulesets), []).append(size)
    order = [*rulesets, "code", "reviews", "home", "other"]
    areas = {name: summary(groups[name]) for name in order if name in groups}
    largest = max(sizes, key=lambda p: (sizes[p], p)) if sizes else None
    return {"areas": areas, "all": {**summary(list(sizes.values())), "largest": largest}}


class _CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site and records every response's path and body bytes (headers are left out)."""

    log: list[tuple[str, int]]

    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        self.log.append((self.path, len(data)))

    def send_error(self, code, message=None, explain=None):
        self.log.append((self.path, 0))
        super().send_error(code, message, explain)

    def log_message(self, format, *args):  # quiet: the table is the output
        pass


def first_visit(site: Path, page: str = DEFAULT_PAGE, settle: float = 0.5, timeout: float = 30.0) -> dict:
    """Bytes the first visit to ``page`` loads in headless Chromium from a cold cache, served over HTTP from
    127.0.0.1: each response, until no request is pending and none came for ``settle`` seconds."""
    from rules40k import browser as chromium

    log: list[tuple[str, int]] = []
    handler = functools.partial(type("Counting", (_CountingHandler,), {"log": log}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    driver, instance = chromium.start()
    try:
        context = instance.new_context(viewport={"width": 1400, "height": 1000})  # a fresh profile: cold cache
        tab = context.new_page()
        url = f"http://127.0.0.1:{server.server_address[1]}/{page}"
        response = tab.goto(url, wait_until="load", timeout=timeout * 1000)
        if response is None or response.status != 200:
            raise WeightError(f"{site / page}: the page does not load (HTTP {response.status if response else '?'})")
        tab.wait_for_load_state("networkidle", timeout=timeout * 1000)
        deadline = time.monotonic() + timeout
        seen = -1
        while len(log) != seen and time.monotonic() < deadline:  # the worker's index can come after "idle"
            seen = len(log)
            time.sleep(settle)
        context.close()
    finally:
        chromium.stop(driver, instance)
        server.shutdown()
        server.server_close()
    responses = []
    for path, size in sorted(log):
        local = site / path.split("?", 1)[0].lstrip("/")
        zipped = len(gzip.compress(local.read_bytes(), mtime=0)) if size and local.is_file() else size
        responses.append({"path": path.split("?", 1)[0], "bytes": size, "gzip": zipped})
    return {"page": page, "bytes": sum(r["bytes"] for r in responses),
            "gzip": sum(r["gzip"] for r in responses), "responses": responses}


def check_page(site: Path, page: str) -> None:
    """``page`` is an HTML page of the built site, named from its root (core/05.02.html): the server serves only the
    site, so a path outside it (/etc/passwd, ../x) would be measured as a 404, and a path too long for the file
    system is no page either."""
    inside = not PurePosixPath(page).is_absolute() and ".." not in PurePosixPath(page).parts
    try:
        found = inside and page.endswith(".html") and len(page) <= 255 and (site / page).is_file()
    except OSError:  # a name too long for the file system
        found = False
    if not found:
        raise WeightError(f"--page {shown(page)}: not an HTML page of the built site in {site}, named from its root "
                          f"(such as {DEFAULT_PAGE})")


def measure(site: Path, page: str = DEFAULT_PAGE) -> dict:
    """Both measurements and the verdict of each target."""
    if not (site / "index.html").is_file():
        raise WeightError(f"{site}: no built site here (no index.html); run rules40k site first")
    check_page(site, page)
    html = html_weights(site)
    visit = first_visit(site, page)
    targets = [
        {"what": "median HTML page", "bytes": html["all"]["median"], "limit": MEDIAN_TARGET, "below": True},
        {"what": f"first visit to {page}", "bytes": visit["bytes"], "limit": FIRST_VISIT_TARGET, "below": False},
    ]
    for target in targets:  # the median must be under its target; the first visit may reach its own
        target["met"] = target["bytes"] < target["limit"] if target["below"] else target["bytes"] <= target["limit"]
    return {"html": html, "first_visit": visit, "targets": targets}


def kb(size: int) -> str:
    return f"{size / 1000:,.1f} KB"


def report_text(report: dict) -> str:
    lines = [f"{'HTML pages':<12} {'pages':>6} {'median':>11} {'90th pct':>11} {'max':>11}"]
    for name, row in [*report["html"]["areas"].items(), ("all", report["html"]["all"])]:
        lines.append(f"{name:<12} {row['pages']:>6} {kb(row['median']):>11} {kb(row['p90']):>11} {kb(row['max']):>11}")
    lines.append(f"largest page: {report['html']['all']['largest']}")
    visit = report["first_visit"]
    lines.append("")
    lines.append(f"First visit to {visit['page']} (cold cache, Chromium over HTTP): {visit['bytes']:,} bytes "
                 f"({kb(visit['bytes'])}; {kb(visit['gzip'])} if gzipped) in {len(visit['responses'])} responses")
    for response in sorted(visit["responses"], key=lambda r: (-r["bytes"], r["path"])):
        lines.append(f"  {kb(response['bytes']):>11}  {response['path']}")
    lines.append("")
    for target in report["targets"]:
        sign = "<" if target["below"] else "<="
        verdict = "met" if target["met"] else "MISSED"
        lines.append(f"target {target['what']} {sign} {kb(target['limit'])}: {kb(target['bytes'])} {verdict}")
    return "\n".join(lines)


def command(site: Path, page: str = DEFAULT_PAGE, as_json: bool = False) -> int:
    """Print the weights; exit status 1 when a target is missed."""
    report = measure(Path(site), page)
    print(json.dumps(report, indent=2) if as_json else report_text(report))
    return 0 if all(target["met"] for target in report["targets"]) else 1
