"""The built site as a person uses it, in Debian's headless Chromium: opened from a file and over HTTP, links that
land on pages (never a folder listing), search that puts the right page first, the dark-mode toggle, a keyword's
hover definition and a code link, the 404 page, and screenshots of a section page at desktop and phone widths
(build/screenshots/, looked at by people). No request may leave the machine. The fixtures (`browser`,
`browser_page`, `site_server`) are in tests/conftest.py; Chromium missing is a failure saying how to install it.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from rules40k import browser as chromium
from rules40k import cli, page_weight
from rules40k_site import not_found

REPO_ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
SECTION = "core/05.02.html"


def is_page(page) -> bool:
    """A rendered site page (Material's article with a heading), not a folder listing or an error page."""
    return page.evaluate("""() => !document.title.startsWith("Index of")
        && document.querySelector("article.md-content__inner h1") !== null""")


def local_file(site: Path, url: str) -> Path | None:
    """The file of the site a file:// URL names (None outside the site)."""
    parsed = urlparse(url)
    path = Path(unquote(parsed.path))
    return path if parsed.scheme == "file" and path.is_relative_to(site) else None


def search(page, query: str, timeout: float = 15.0) -> list[str]:
    """Type ``query`` into the search box as a person does (keyboard events: Material searches on each key) and
    return the first results' addresses once they have stopped changing."""
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # a narrow screen shows the search button instead
        page.locator("label.md-header__button[for=__search]").click()
    box.click()
    box.press("Control+A")
    box.press("Backspace")
    page.keyboard.type(query)
    results, last, deadline = [], None, time.monotonic() + timeout
    while time.monotonic() < deadline:
        results = page.eval_on_selector_all(".md-search-result__item > a.md-search-result__link",
                                            "links => links.slice(0, 5).map(a => a.href)")
        if results and results == last:
            return results
        last = results
        page.wait_for_timeout(300)
    raise AssertionError(f"search {query!r}: no stable results within {timeout} s (last: {results})")


def page_of(url: str) -> str:
    """The site path of a result or link address: its last two path parts, without query or fragment."""
    return "/".join(urlparse(url).path.split("/")[-2:])


# --- from a file: pages, links, search ----------------------------------------------------------------------

def test_index_from_a_file_leads_to_a_section_through_its_links(browser_page):
    """The README's `open build/site/index.html`: every link of the home page is a page (an .html file that
    exists), and clicking home -> Core Rules -> chapter 05 -> 05.02 lands on each page in turn."""
    page = browser_page.open("index.html")
    assert is_page(page)
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    local = [href for href in hrefs if href.startswith("file:")]
    assert len(local) >= 8, local
    for href in local:
        path = local_file(browser_page.site, href.split("#")[0])
        assert path is not None and path.suffix == ".html" and path.is_file(), href
    for link in ("article a[href$='core/index.html']", "article a[href$='05/index.html']",
                 "article a[href$='05.02.html']"):
        page.locator(link).first.click()
        page.wait_for_load_state()
        assert is_page(page), page.url
    assert page.url.endswith("core/05.02.html")
    assert "05.02" in page.locator("article h1").inner_text()
    assert browser_page.errors == []


def test_twenty_random_links_land_on_real_pages(browser_page):
    """A walk of 20 random steps from index.html over file://, each following a link of the page reached (nav,
    content, footer) to another page: every one lands on a rendered page, never a folder listing; and every local
    link of every page on the way names a file that exists (a page, or data such as index.json), not a folder."""
    rng = random.Random(12)
    page = browser_page.open("index.html")
    visited = []
    for _ in range(20):
        hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        local = sorted({h.split("#")[0] for h in hrefs if h.startswith("file:")})
        for href in local:
            path = local_file(browser_page.site, href)
            assert path is not None and path.is_file(), f"{page.url} links to {href}: not a file of the site"
        pages = [href for href in local if href.endswith(".html") and href != page.url.split("#")[0]]
        assert pages, f"{page.url}: no link to another page"
        target = rng.choice(pages)
        page.goto(target, wait_until="domcontentloaded")
        assert is_page(page), f"{target}: a folder listing or an empty page, reached from {visited[-1:] or 'index'}"
        visited.append(target)
    assert len(set(visited)) >= 10, visited  # a walk, not a loop between two pages
    assert browser_page.errors == []


@pytest.mark.parametrize(("query", "first"), [
    ("Lethal Hits", "core/24.23.html"),  # a bracketed name: [LETHAL HITS], not [LETHAL
    ("[LETHAL HITS]", "core/24.23.html"),  # as printed
    ("05.02", "core/05.02.html"),  # a section number
    ("wound_threshold", "core/05.02.html"),  # a function that encodes 05.02 (one of its page's search tags)
    ("Engagement Range", "core/03.04.html"),  # a glossary term: the section defining it (a search tag) before its users
    ("Active Player", "core/01.03.html"),
])
def test_search_from_a_file_puts_the_right_page_first(browser_page, query, first):
    page = browser_page.open(SECTION)
    assert page_of(search(page, query)[0]) == first


def test_search_for_a_hyphenated_name_finds_its_core_section(browser_page):
    page = browser_page.open(SECTION)
    assert page_of(search(page, "Battle-shock")[0]) == "core/01.07.html"  # the rule itself, before 08.03's test


# --- over HTTP ----------------------------------------------------------------------------------------------

def test_over_http_pages_and_search_work(browser_page, site_server):
    page = browser_page.open("index.html", base=site_server)
    assert is_page(page)
    page.locator("article a[href$='core/index.html']").first.click()
    page.wait_for_load_state()
    assert is_page(page) and page.url == site_server + "core/index.html"
    results = search(page, "Lethal Hits")
    assert results[0].startswith(site_server) and page_of(results[0]) == "core/24.23.html"
    assert any(url.endswith("search/search_index.json") for url in browser_page.requests)
    assert browser_page.errors == []


def test_no_request_leaves_the_machine(browser_page, site_server):
    """Every file a page, its search worker and its iframes load, from a file and over HTTP, is local: no fonts,
    scripts or images from an outside host."""
    for base in (None, site_server):
        page = browser_page.open(SECTION, base=base)
        search(page, "Lethal Hits")
        browser_page.open("index.html", base=base)
        page.wait_for_load_state("networkidle")
    assert browser_page.requests, "no request recorded: the recording is broken"
    assert any(url.startswith("file:") for url in browser_page.requests)
    assert any(url.startswith(site_server) for url in browser_page.requests)
    assert browser_page.outside() == []
    assert all(url.startswith(("file:", site_server, "data:", "blob:", "about:")) for url in browser_page.requests)


def test_site_serve_serves_the_site(built):
    """`rules40k site --serve` (generate.serve) in its own process: pages, a missing page answered with the site's
    404 page, and Ctrl-C ends it with status 0."""
    with socket.socket() as probe:  # a free port (serve takes a fixed one, as --port does)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = ("import sys; from pathlib import Path; from rules40k_site import generate; "
            "sys.exit(generate.serve(Path(sys.argv[1]), int(sys.argv[2])))")
    process = subprocess.Popen([sys.executable, "-c", code, str(built / "site"), str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline()
        root = f"http://127.0.0.1:{port}/"
        assert line.startswith("Serving") and root in line, line
        with urllib.request.urlopen(root + SECTION, timeout=10) as response:
            assert response.status == 200
            assert response.read() == (built / "site" / SECTION).read_bytes()
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(root + "core/no/such/page.html", timeout=10)
        assert missing.value.code == 404
        assert missing.value.read() == (built / "site" / "404.html").read_bytes()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# --- the 404 page ---------------------------------------------------------------------------------------------

def _styled_with_home_link(page) -> str:
    """The 404 page has Material's styles (its header is sticky, not the browser's default static); returns the
    address its header logo links to (the site's home page)."""
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
    return page.eval_on_selector("a.md-header__button.md-logo", "a => a.href")


def test_404_page_works_from_a_file(browser_page):
    page = browser_page.open("404.html")
    home = _styled_with_home_link(page)
    assert home == browser_page.url("index.html")
    assert page_of(search(page, "Lethal Hits")[0]) == "core/24.23.html"
    assert browser_page.errors == []


def test_404_page_works_served_for_a_deep_missing_address(browser_page, site_server):
    response = browser_page.page.goto(site_server + "core/no/such/page.html")
    assert response.status == 404
    page = browser_page.page
    assert _styled_with_home_link(page) == site_server + "index.html"
    assert page_of(search(page, "05.02")[0]) == "core/05.02.html"
    assert browser_page.errors == []


def test_404_page_has_no_root_absolute_link(built):
    text = (built / "site" / "404.html").read_text(encoding="utf-8")
    assert re.findall(r'\s(?:href|src)="/[^"]*"', text) == []
    assert '"base": "."' in text


def test_404_links_are_made_relative_under_a_site_url_with_a_path(tmp_path):
    """A site published at https://example.org/rules40k/: Material's 404 page names everything under
    /rules40k/; afterwards every link is relative, Material's base follows the document's, and over HTTP a
    <base> at /rules40k/ is set first thing in <head>."""
    (tmp_path / "404.html").write_text(
        '<html><head><link rel="icon" href="/rules40k/assets/favicon.png">'
        '<script>__md_scope=new URL("/rules40k/",location),__md_get=1</script></head><body>'
        '<a href="/rules40k/">home</a> <a href="/rules40k/core/05.02.html">05.02</a> <a href="https://x.org/">out</a>'
        '<script id="__config" type="application/json">{"base": "/rules40k/", '
        '"search": "/rules40k/assets/javascripts/workers/search.js"}</script>'
        '<script src="/rules40k/assets/javascripts/bundle.js"></script></body></html>', encoding="utf-8")
    not_found.relative_links(tmp_path)
    text = (tmp_path / "404.html").read_text(encoding="utf-8")
    assert re.findall(r'\s(?:href|src)="([^"]*)"', text) == [
        "assets/favicon.png", "index.html", "core/05.02.html", "https://x.org/", "assets/javascripts/bundle.js"]
    assert text.startswith('<html><head>\n    <script>if(location.protocol!=="file:"){var b=document.createElement'
                           '("base");b.href="/rules40k/";')
    assert '__md_scope=new URL(".",document.baseURI)' in text
    assert '{"base": ".", "search": "assets/javascripts/workers/search.js"}</script><script>!function(c)' in text
    not_found.relative_links(tmp_path)  # a second pass changes nothing
    assert (tmp_path / "404.html").read_text(encoding="utf-8") == text


# --- dark mode, keyword tooltip, code link --------------------------------------------------------------------

def _scheme_and_background(page) -> tuple[str, float]:
    """Material's colour scheme and the page background's luminance (0 black .. 1 white)."""
    scheme, colour = page.evaluate("""() => [document.body.getAttribute("data-md-color-scheme"),
        getComputedStyle(document.body).backgroundColor]""")
    red, green, blue = (int(part) for part in colour[colour.index("(") + 1:].rstrip(")").split(",")[:3])
    return scheme, (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


def test_dark_mode_toggle_switches_and_is_remembered(browser_page):
    page = browser_page.open(SECTION, dark=False)
    scheme, light = _scheme_and_background(page)
    assert scheme == "default" and light > 0.8
    page.locator("form[data-md-component=palette] label:visible").first.click()
    scheme, dark = _scheme_and_background(page)
    assert scheme == "slate" and dark < 0.2
    browser_page.open("core/index.html")  # the choice is kept (localStorage) from page to page
    assert _scheme_and_background(page)[0] == "slate"
    page.locator("form[data-md-component=palette] label:visible").first.click()
    assert _scheme_and_background(page)[0] == "default"
    assert browser_page.errors == []


def test_system_dark_preference_opens_dark(browser_page):
    page = browser_page.open(SECTION, dark=True)
    scheme, luminance = _scheme_and_background(page)
    assert scheme == "slate" and luminance < 0.2


def keyword_link(site: Path) -> tuple[str, str] | None:
    """The first Core Rules section page (in order) whose rule text links a keyword to a chapter 24 section with a
    title (the hover definition), found in the built HTML: (page, link's href as written)."""
    link = re.compile(r'<a [^>]*href="([^"]*24\.\d\d\.html[^"]*)"[^>]*title="[^"]+"|'
                      r'<a [^>]*title="[^"]+"[^>]*href="([^"]*24\.\d\d\.html[^"]*)"')
    for path in sorted((site / "core").glob("[0-2][0-9].[0-9][0-9].html")):
        for block in re.findall(r'<blockquote class="rule-text">(.*?)</blockquote>', path.read_text(encoding="utf-8"),
                                re.S):
            found = link.search(block)
            if found:
                return path.relative_to(site).as_posix(), found.group(1) or found.group(2)
    return None


def test_keyword_in_rule_text_has_a_hover_definition(browser_page, built):
    """A keyword in a section's rule text links to its defining section, and hovering it shows its definition in
    Material's tooltip (the link's title)."""
    found = keyword_link(built / "site")
    assert found, "no Core Rules section's rule text links a keyword to its chapter 24 section with a title"
    path, href = found
    page = browser_page.open(path)
    link = page.locator(f".rule-text a[href='{href}']").first
    title = link.get_attribute("title")
    assert title and len(title) > 10, title
    assert local_file(browser_page.site, link.evaluate("a => a.href").split("#")[0]).is_file()
    link.hover()
    tooltip = page.locator(".md-tooltip2--active, .md-tooltip--active").first
    tooltip.wait_for(state="visible", timeout=5000)
    assert " ".join(title.split())[:30] in " ".join(tooltip.inner_text().split())
    assert browser_page.errors == []


def test_code_link_opens_the_code_page_at_its_line(browser_page):
    """A section page links to the line of the code that encodes it; following it shows that line on screen."""
    page = browser_page.open(SECTION)
    link = page.locator("article a[href*='#__span-0-']").first
    href = link.evaluate("a => a.href")
    line_id = href.split("#", 1)[1]
    link.click()
    page.wait_for_load_state()
    assert page.url.split("#")[0] == href.split("#")[0] and "/code/" in page.url
    target = page.locator(f"[id='{line_id}']")
    assert target.count() == 1
    box = target.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"], box
    assert browser_page.errors == []


# --- screenshots ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", [1400, 400])
def test_section_page_screenshots_and_fits_the_screen(browser_page, width):
    """build/screenshots/core-05.02-<width>-<light|dark>.png for people to look at; at either width the page is
    no wider than the screen (long code lines and tables scroll inside their box)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for dark in (False, True):
        page = browser_page.open(SECTION, width=width, height=1000, dark=dark)
        page.evaluate("localStorage.clear()")  # Material keeps the last scheme shown; follow the system's instead
        page.reload()
        page.wait_for_load_state("networkidle")
        assert _scheme_and_background(page)[0] == ("slate" if dark else "default")
        path = SCREENSHOTS / f"core-05.02-{width}-{'dark' if dark else 'light'}.png"
        page.screenshot(path=str(path), full_page=False)
        assert path.stat().st_size > 10_000
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{SECTION} at {width} px is {overflow} px wider than the screen"
    assert browser_page.errors == []


@pytest.mark.parametrize("width", [1400, 400])
def test_section_page_content_stays_in_its_article(browser_page, width):
    """Nothing of a section page's content escapes its article (unbalanced HTML in a page pushes what follows out
    of it, beside the text or below the footer), and on a phone its heading and rule text get the screen's
    width."""
    page = browser_page.open(SECTION, width=width)
    stray = page.evaluate("""() => [...document.body.querySelectorAll(
            "p, h1, h2, h3, hr, table, details, blockquote, figure, .footnote")]
        .filter(e => !e.closest("article, .md-header, .md-sidebar, .md-footer, .md-search, .md-dialog"))
        .map(e => e.tagName + "." + e.className + ": " + e.textContent.trim().slice(0, 40))""")
    assert stray == [], f"{SECTION}: {stray[:3]} ... sit outside the article"
    if width < 600:
        for part in ("article h1", "article .rule-text"):
            box = page.locator(part).first.bounding_box()
            assert box and box["width"] >= 0.8 * width, (width, part, box)


# --- page weight and Chromium setup ---------------------------------------------------------------------------

def in_a_thread(function, *args):
    """Run ``function`` in another thread: a second Playwright (the command's own) cannot start in the thread where
    the test's browser runs its event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


def test_site_weight_measures_the_built_site(built, capsys):
    """`rules40k site-weight --json`: the HTML figures agree with the files on disk, the first visit counts the
    page, the search index and the theme's assets, and the exit status says whether both targets are met."""
    site = built / "site"
    status = in_a_thread(cli.main, ["site-weight", "--site", str(site), "--page", SECTION, "--json"])
    report = json.loads(capsys.readouterr().out)
    sizes = sorted(os.path.getsize(p) for p in site.rglob("*.html"))
    assert report["html"]["all"]["pages"] == len(sizes)
    assert report["html"]["all"]["max"] == sizes[-1]
    assert sum(row["pages"] for row in report["html"]["areas"].values()) == len(sizes)
    visit = report["first_visit"]
    loaded = {r["path"]: r["bytes"] for r in visit["responses"]}
    assert loaded["/" + SECTION] == (site / SECTION).stat().st_size
    assert loaded["/search/search_index.json"] == (site / "search" / "search_index.json").stat().st_size
    assert any(path.endswith(".css") for path in loaded) and any(path.endswith(".js") for path in loaded)
    assert visit["bytes"] == sum(loaded.values())
    import statistics

    from rules40k import page_weight

    median, first_visit = report["targets"]
    assert median["bytes"] == int(statistics.median(sizes)) == report["html"]["all"]["median"]
    assert median["limit"] == page_weight.MEDIAN_TARGET and median["met"] == (median["bytes"] < median["limit"])
    assert first_visit["bytes"] == visit["bytes"] and first_visit["limit"] == page_weight.FIRST_VISIT_TARGET
    assert first_visit["met"] == (first_visit["bytes"] <= first_visit["limit"])
    assert status == (0 if median["met"] and first_visit["met"] else 1)


def test_page_weight_summary_of_hand_made_sizes():
    assert page_weight.summary([]) == {"pages": 0, "median": 0, "p90": 0, "max": 0}
    assert page_weight.summary([5, 1, 3]) == {"pages": 3, "median": 3, "p90": 5, "max": 5}
    sizes = list(range(1, 21))  # nearest rank: the 18th of 20
    assert page_weight.summary(sizes) == {"pages": 20, "median": 10, "p90": 18, "max": 20}
    assert page_weight.area("core/05.02.html", ["core"]) == "core"
    assert page_weight.area("index.html", ["core"]) == "home"
    assert page_weight.area("code/rules/core/x.html", ["core"]) == "code"


def test_site_weight_of_a_missing_site_is_one_sentence(tmp_path, capsys):
    assert cli.main(["site-weight", "--site", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rules40k site-weight: ") and "no built site" in err and "\n" not in err


def test_browser_setup_without_chromium_and_root_is_one_sentence(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(chromium, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(chromium.shutil, "which", lambda name: "/usr/bin/apt-get")
    assert cli.main(["browser-setup"]) == 2
    err = capsys.readouterr().err.strip()
    assert "not installed at" in err and "needs root" in err and "\n" not in err
    with pytest.raises(chromium.BrowserError, match="rules40k browser-setup"):
        chromium.start()  # what the browser fixture turns into a failure, not a skip


def test_browser_setup_with_chromium_says_it_starts(capsys):
    assert in_a_thread(cli.main, ["browser-setup"]) == 0
    assert "starts headless" in capsys.readouterr().out


def _fake_apt_get(folder: Path, chromium_path: Path, fail: bool = False) -> Path:
    """An apt-get that logs its arguments and environment and "installs" chromium as a link to the real one."""
    script = folder / "apt-get"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$DEBIAN_FRONTEND $*" >> "{folder}/apt.log"\n'
        + ('[ "$1" = install ] && { echo "E: Unable to locate package chromium" >&2; exit 100; }\n' if fail else
           f'[ "$1" = install ] && ln -s "{chromium.CHROMIUM}" "{chromium_path}"\n')
        + "exit 0\n", encoding="utf-8")
    script.chmod(0o755)
    return script


def test_browser_setup_as_root_installs_debian_chromium(monkeypatch, tmp_path):
    """On a machine without Chromium, as root: apt-get update, then apt-get install chromium, non-interactive;
    then Chromium is started once to prove it runs."""
    target = tmp_path / "chromium"
    apt = _fake_apt_get(tmp_path, target)
    monkeypatch.setattr(chromium.shutil, "which", lambda name: str(apt) if name == "apt-get" else None)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(chromium, "CHROMIUM", target)
    message = in_a_thread(chromium.setup)
    assert "(installed)" in message and "starts headless" in message
    assert (tmp_path / "apt.log").read_text().splitlines() == [
        "noninteractive update", "noninteractive install -y --no-install-recommends chromium"]


def test_browser_setup_when_apt_get_fails_is_one_sentence(monkeypatch, tmp_path, capsys):
    apt = _fake_apt_get(tmp_path, tmp_path / "chromium", fail=True)
    monkeypatch.setattr(chromium.shutil, "which", lambda name: str(apt) if name == "apt-get" else None)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(chromium, "CHROMIUM", tmp_path / "chromium")
    assert cli.main(["browser-setup"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("rules40k browser-setup: `install -y --no-install-recommends chromium` failed (exit 100): "
                   "E: Unable to locate package chromium")
