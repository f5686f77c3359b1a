"""Debian's Chromium, driven headless through playwright: found, installed (``rules40k browser-setup``) and
launched the same way by the browser tests and by ``rules40k site-weight``. Never a browser download: playwright
drives the system's /usr/bin/chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

#: Debian's Chromium (package ``chromium``); playwright's own browser builds are never downloaded.
CHROMIUM = Path("/usr/bin/chromium")

#: No sandbox (CI runs as root in a container), no GPU, and none of the background requests Chromium makes to
#: Google's hosts on its own: a test that records requests sees only the page's.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-default-apps"]

SETUP_HINT = "run `rules40k browser-setup` (as root it installs Debian's chromium package)"


class BrowserError(Exception):
    """Chromium or playwright is missing or does not start; one sentence saying what to do."""


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BrowserError("the Python package playwright is not installed: pip install -e \".[browser]\"") from None
    return sync_playwright


def missing() -> str | None:
    """Why Chromium cannot be driven here (one sentence), or None when playwright and /usr/bin/chromium are there."""
    try:
        _playwright()
    except BrowserError as error:
        return str(error)
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return f"Chromium is not installed at {CHROMIUM}: {SETUP_HINT}"
    return None


def start():
    """Start playwright and launch headless Chromium; returns (playwright, browser). Stop both with ``stop``."""
    problem = missing()
    if problem:
        raise BrowserError(problem)
    driver = _playwright()().start()
    try:
        return driver, driver.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
    except Exception as error:
        driver.stop()
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise BrowserError(f"Chromium at {CHROMIUM} does not start headless: {first[:120]}") from None


def stop(driver, browser) -> None:
    browser.close()
    driver.stop()


def _install() -> None:
    """``apt-get install chromium`` as root, or one sentence saying why it cannot be done here."""
    apt = shutil.which("apt-get")
    if apt is None:
        raise BrowserError(f"Chromium is not installed at {CHROMIUM} and there is no apt-get to install it: "
                           "install Debian's chromium package (or a Chromium at that path)")
    if os.geteuid() != 0:
        raise BrowserError(f"Chromium is not installed at {CHROMIUM} and installing it needs root: "
                           "sudo apt-get install -y chromium (or run rules40k browser-setup as root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in ([apt, "update"], [apt, "install", "-y", "--no-install-recommends", "chromium"]):
        result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise BrowserError(f"`{' '.join(command[1:])}` failed (exit {result.returncode}): {last[:120]}")


def setup() -> str:
    """Make sure the browser tests can run: playwright importable, /usr/bin/chromium present (installed with
    apt-get when root), and Chromium starting headless. Returns what was done, for the command to print."""
    _playwright()
    installed = False
    if missing():
        _install()
        installed = True
        if missing():
            raise BrowserError(f"apt-get installed chromium but {CHROMIUM} is still missing")
    driver, browser = start()
    try:
        version = browser.version
    finally:
        stop(driver, browser)
    return f"Chromium {version} at {CHROMIUM} ({'installed' if installed else 'already installed'}) starts headless"
