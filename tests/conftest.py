"""Shared fixtures: throw-away spec roots to ingest into, a truncated document, folder snapshots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules import spec

REPO_ROOT = Path(__file__).resolve().parent.parent
SPEC = REPO_ROOT / "spec"
CORE_TXT = SPEC / "sources" / "core.txt"
ANNOTATIONS = SPEC / "core" / "annotations"


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every file and folder under ``root`` (hidden ones too) with its bytes and mtime."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        if path.is_dir():
            out[key + "/"] = ("dir",)
        else:
            out[key] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


@pytest.fixture(scope="session")
def snapshot():
    """A function: every file and folder under a root (hidden ones too) with bytes and mtime."""
    return _snapshot


@pytest.fixture
def spec_root(tmp_path: Path) -> Path:
    """An empty spec root holding only a copy of the hand-written core annotations."""
    root = tmp_path / "spec"
    shutil.copytree(ANNOTATIONS, root / "core" / "annotations")
    return root


@pytest.fixture
def truncated_document(tmp_path: Path) -> Path:
    """The first 60% of the lines of the Core Rules."""
    lines = CORE_TXT.read_text(encoding="utf-8").split("\n")
    path = tmp_path / "truncated.txt"
    path.write_text("\n".join(lines[: int(len(lines) * 0.6)]), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------------------------
# Two workers (pyproject's addopts: -n 2 --dist loadfile). Each test file is a unit of work, so a module-scoped
# fixture is made once; but the properties and the site's test files are ONE unit, run in collection order on one
# worker: there the properties run first and ``built`` reuses their records, so the site is built once per run.
# ---------------------------------------------------------------------------------------------------------------

SITE_UNIT = "the properties and the site's tests"


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or the site unit (properties/, tests/test_site*.py)."""
    path = nodeid.split("::")[0]
    return SITE_UNIT if path.startswith(("properties/", "tests/test_site")) else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, with the site unit as one file; the largest unit (the site unit) goes out first."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SiteUnitFirst(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return SiteUnitFirst(config, log)


def pytest_runtest_setup(item):
    """A test that reads ``built`` outside the site unit would build the whole site again on the other worker,
    running every property a second time: it fails before that, saying where its file belongs."""
    if "built" in item.fixturenames and unit_of(item.nodeid) != SITE_UNIT:
        pytest.fail(f"{item.nodeid} uses the built site, so its file must be named tests/test_site*.py "
                    "(tests/conftest.py, unit_of)", pytrace=False)


def pytest_configure(config):
    """One observer records the outcome of every refs-marked property as the suite runs it (properties/ first), so
    ``built`` reuses those outcomes instead of running the properties again. Registered for the whole session:
    only this file's own hooks are limited to tests/."""
    from rules40k import property_runner

    if not config.pluginmanager.has_plugin("rules40k-property-observer"):
        config.pluginmanager.register(property_runner.Observer(), "rules40k-property-observer")


@pytest.fixture(scope="session")
def built(tmp_path_factory, request) -> Path:
    """The real site, built once for every test file that reads it, the way `rules40k site` builds it: checks
    first, then the reviews (rules40k.cli.stage_reviews), then pages, then MkDocs. Returns the build folder (results.json, docs/, site/).

    The suite runs properties/ first (pyproject's testpaths); where this session has already run every property
    the checks include, their outcomes are taken from that run (the observer pytest_configure registers) rather than run again."""
    from rules40k import checks, cli
    from rules40k_site import generate

    build = tmp_path_factory.mktemp("site")
    observer = request.config.pluginmanager.get_plugin("rules40k-property-observer")
    planned = [item.nodeid for item in checks.plan(None, properties=True) if item.kind == "property"]
    records = observer.complete_for(planned) if observer is not None else None
    if records is None:
        results = checks.run_all()
    else:
        results = checks.assemble(list(spec.rulesets()), checks.run_all(properties=False)["checks"] + records)
    with generate.staged_build(build) as stage:  # as cmd_site: results and reviews staged, then pages and site
        checks.write_results(results, stage / "results.json")
        cli.stage_reviews(stage, None)
        site = generate.build(build, stage=stage)
    assert site == build / "site"
    return build


# ---------------------------------------------------------------------------------------------------------------
# Headless Chromium on the built site (owned by tests/test_site_browser.py; any tests/test_site_*.py may use it)
#
#   def test_something(browser_page):
#       page = browser_page.open("core/05.02.html")             # file:// (the default), a Playwright Page
#       page = browser_page.open("core/05.02.html", base=site_server, width=400, dark=True)  # over HTTP
#       browser_page.requests, browser_page.errors              # every URL asked for; JavaScript errors
#
# Debian's Chromium (/usr/bin/chromium) through playwright, never a downloaded browser. When it is missing the
# tests FAIL with one sentence saying how to install it (`rules40k browser-setup`), they do not skip.
# ---------------------------------------------------------------------------------------------------------------

import re as _re

#: An address outside this machine: any http(s)/ws(s)/ftp URL not on 127.0.0.1 or localhost.
OUTSIDE = _re.compile(r"^(?:https?|wss?|ftp)://(?!(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?(?:/|$))", _re.I)


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (a Playwright Browser), one per test file: Playwright's sync API keeps an asyncio loop
    running in this thread while it lives, so asyncio.run() in a later test file (Dask) would fail; it starts
    in about a second."""
    from rules40k import browser as chromium

    problem = chromium.missing()  # a failure saying how to install it, never a skip
    if problem:
        pytest.fail(f"headless Chromium is needed for the browser tests: {problem}", pytrace=False)
    try:
        driver, instance = chromium.start()
    except chromium.BrowserError as error:
        pytest.fail(f"headless Chromium did not start: {error}", pytrace=False)
    yield instance
    chromium.stop(driver, instance)


class SitePage:
    """A fresh page in its own browser context (cold cache, empty localStorage) on the built site. Records every
    URL the page, its frames and workers ask for (``requests``) and every uncaught JavaScript error (``errors``);
    a request to an outside host is recorded and aborted, so a test never reaches the network."""

    def __init__(self, browser, site: Path) -> None:
        self.site = site
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.route(OUTSIDE, lambda route: route.abort())
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def url(self, path: str = "index.html", base: str | None = None) -> str:
        """The address of a built page: file:// by default, or under ``base`` (e.g. the ``site_server`` URL)."""
        root = base or self.site.as_uri() + "/"
        return root.rstrip("/") + "/" + path.lstrip("/")

    def open(self, path: str = "index.html", base: str | None = None, width: int | None = None,
             height: int = 1000, dark: bool | None = None):
        """Go to a built page by its path relative to the site (``core/05.02.html``) and return the Page;
        ``width`` sets the viewport, ``dark`` emulates the system's dark (True) or light (False) preference."""
        if width:
            self.page.set_viewport_size({"width": width, "height": height})
        if dark is not None:
            self.page.emulate_media(color_scheme="dark" if dark else "light")
        self.page.goto(self.url(path, base))
        return self.page

    def outside(self) -> list[str]:
        """The requests that left this machine (aborted, but asked for)."""
        return [url for url in self.requests if OUTSIDE.match(url)]

    def __getattr__(self, name):  # browser_page.locator(...) and the like reach the Page
        return getattr(self.page, name)


@pytest.fixture
def browser_page(browser, built):
    """A fresh page on the built site; see SitePage (``.open(path)``, ``.page``, ``.requests``, ``.errors``)."""
    page = SitePage(browser, built / "site")
    yield page
    page.context.close()


@pytest.fixture(scope="session")
def site_server(built):
    """The built site over HTTP on a free port of 127.0.0.1 (as `rules40k site --serve` serves it, a missing
    file answered with the site's 404 page); returns its root URL, ``http://127.0.0.1:PORT/``."""
    import functools
    import http.server
    import threading

    from rules40k_site import not_found

    class Quiet(not_found.Handler):
        def log_message(self, format, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built / "site")))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
