"""The rules40k command line and the tooling that sits on top of rules/, properties/ and site/."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SPEC_ROOT = REPO_ROOT / "spec"
BUILD_ROOT = REPO_ROOT / "build"
