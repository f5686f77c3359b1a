"""The 404 page, made to work both opened from a file and served at any depth.

Material writes 404.html with root-absolute links (``/assets/...``, ``/index.html``: the path of ``site_url``),
because a server shows that page for any missing address, however deep. From a file:// copy those links point at
the disk's root. After MkDocs, ``relative_links`` makes every link relative to the site's root folder (where
404.html sits, so a file:// copy works) and adds, first in <head>, a script that over HTTP sets a ``<base>`` at
the site's root, so a 404 served for ``/core/no/such/page.html`` still finds its styles, scripts and links.
Material reads its own root from the page's ``__config`` and the ``__md_scope`` script; both are made to follow
the document's base. ``Handler`` is the HTTP handler of ``rules40k site --serve``: it answers a missing file
with that page, as a static host does.
"""

from __future__ import annotations

import html
import http.server
import json
import re
from pathlib import Path

PAGE = "404.html"
_SCOPE = re.compile(r'__md_scope=new URL\("([^"]*)",location\)')
_RELATIVE_SCOPE = '__md_scope=new URL(".",document.baseURI)'
_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)


class NotFoundError(Exception):
    """MkDocs wrote a 404 page this module does not recognise (a theme update): one sentence."""


def relative_links(site: Path) -> None:
    """Rewrite site/404.html (if there is one) so its links are relative to the site's root folder."""
    path = site / PAGE
    if not path.is_file():
        return
    page = path.read_text(encoding="utf-8")
    if _RELATIVE_SCOPE in page:  # done already
        return
    scope = _SCOPE.search(page)
    config = _CONFIG.search(page)
    if scope is None or config is None:
        raise NotFoundError(f"{path}: Material's __md_scope script or __config block is missing; "
                            "the 404 page cannot be made relative")
    root = scope.group(1)  # the path of site_url, e.g. "/" (already relative: nothing to do)
    if not root.startswith("/"):
        return
    prefix = re.escape(html.escape(root, quote=True))
    page = re.sub(rf'((?:href|src)="){prefix}(?=")', r"\1index.html", page)  # the root itself
    page = re.sub(rf'((?:href|src)="){prefix}', r"\1", page)
    config = _CONFIG.search(page)  # found again: the links above moved it
    data = json.loads(config.group(2))
    data["base"] = "."
    if str(data.get("search", "")).startswith(root):
        data["search"] = data["search"][len(root):]
    page = page[:config.start()] + config.group(1) + json.dumps(data) + config.group(3) + (
        # Material resolves its base against location; make it the document's base (the site root, both ways).
        '<script>!function(c){var d=JSON.parse(c.textContent);d.base=new URL(".",document.baseURI).href;'
        'c.textContent=JSON.stringify(d)}(document.getElementById("__config"))</script>'
    ) + page[config.end():]
    page = _SCOPE.sub(_RELATIVE_SCOPE, page, count=1)
    base = json.dumps(root).replace("</", "<\\/")
    page = page.replace("<head>", '<head>\n    <script>if(location.protocol!=="file:"){var b=document.createElement'
                        f'("base");b.href={base};document.head.appendChild(b)}}</script>', 1)
    path.write_text(page, encoding="utf-8")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site's files; a missing one is answered with the site's own 404 page (status 404), as a static
    host (GitHub Pages, Netlify) does, instead of Python's bare error page."""

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / PAGE
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
