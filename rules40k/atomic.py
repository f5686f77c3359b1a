"""Atomic output: a file the tool writes holds either its old content or its complete new content.

The bytes go to a unique temporary name in the target's own folder (``tempfile.mkstemp``, so the final
``os.replace`` is a rename within one filesystem), then replace the target in one step. On any failure,
Ctrl-C included, the temporary file is removed; a Ctrl-C or SIGTERM that arrived while the content was made
(``rules40k.interrupts``) stops the replacement even if a library caught its exception. A target whose folder does
not exist, or that exists and is not a regular file (``/dev/full``: root's rename would replace the device), is an
``OutputError`` (one sentence): the tool never creates a user's folders silently, nor replaces what is not a file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

from rules40k import interrupts


class OutputError(ValueError):
    """An output path that cannot be written; the message is one sentence naming it."""


def _shape(path: Path) -> None:
    """The mistakes visible without writing: a folder as the target, or anything else that is not a regular file
    (a device such as /dev/full, a named pipe, a socket, a link to one: replacing it would put a file in its
    place), a folder that is missing or a file; a path the system cannot even look up (a name too long)."""
    try:
        path.lstat()
    except FileNotFoundError:
        pass
    except OSError as error:  # ENAMETOOLONG, ELOOP, EACCES...: Path.is_dir would raise it
        raise OutputError(f"{path}: cannot be written ({error.strerror})") from None
    if path.is_dir():
        raise OutputError(f"{path}: is a folder, not a file")
    if path.exists() and not path.is_file():
        raise OutputError(f"{path}: is not a regular file (a device, a pipe or a socket); name a file to write")
    if not path.parent.exists():
        raise OutputError(f"{path}: its folder {path.parent} does not exist")
    if not path.parent.is_dir():
        raise OutputError(f"{path}: {path.parent} is a file, not a folder")


def _temporary(path: Path) -> Path:
    try:
        # The name cut: a target's own name may be as long as the system allows, the temporary one is longer still.
        descriptor, name = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise OutputError(f"{path}: cannot be written ({error.strerror})") from None
    os.close(descriptor)
    return Path(name)


def check_target(path: str | os.PathLike) -> Path:
    """The output path, checked before the work that produces it: by shape, then by creating (and removing)
    a temporary file beside it, the one test of writability that also holds for root and odd filesystems."""
    path = Path(path)
    _shape(path)
    _temporary(path).unlink()
    return path


def _umask() -> int:
    """The process's umask (reading it means setting it, so it is set straight back)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _mode(path: Path) -> int:
    """The target's permissions, or those a plain ``open(path, "w")`` would give (mkstemp's are 0600)."""
    if path.exists():
        return path.stat().st_mode & 0o777
    return 0o666 & ~_umask()


def temporary_folder(prefix: str, parent: Path) -> Path:
    """A new folder in ``parent`` with a unique name and the permissions of a plain mkdir (mkdtemp's are 0700),
    for a folder that is renamed into place when it is complete."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    folder.chmod(0o777 & ~_umask())
    return folder


@contextlib.contextmanager
def replacing(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path beside ``path`` for a writer that wants a file name (matplotlib's savefig);
    it replaces ``path`` when the block ends without an error and is removed otherwise."""
    path = Path(path)
    _shape(path)
    tmp = _temporary(path)
    try:
        try:
            os.chmod(tmp, _mode(path))
            yield tmp
            interrupts.check()  # an interrupt a library swallowed while the content was made replaces nothing
            os.replace(tmp, path)
        except OSError as error:
            raise OutputError(f"{path}: cannot be written ({error.strerror or error})") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    with replacing(path) as tmp:
        tmp.write_bytes(data)


def write_figure(figure, path: str | os.PathLike) -> None:
    """A matplotlib figure saved in place of ``path``, whole or not at all, in the format its suffix names (SVG if it
    has none); an .svg without its date, so a rebuild is byte-identical. The figure is closed either way."""
    import matplotlib.pyplot as plt

    path = Path(path)
    try:
        with replacing(path) as tmp:
            figure.savefig(tmp, format=path.suffix.lstrip(".") or "svg",
                           metadata={"Date": None} if path.suffix == ".svg" else None)
    finally:
        plt.close(figure)


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` as it is (``\\n`` line ends on every platform: the outputs are compared byte for byte)."""
    write_bytes(path, text.encode(encoding))


#: The name prefix of what ``put_in_place`` moves aside; a later run removes any a killed run left.
OLD_PREFIX = ".old-"


def put_in_place(moves: list[tuple[Path, Path]]) -> None:
    """Rename each new file or folder onto its target, all of them or none: a signal is held off until the last
    rename (and one that came earlier stops them all before the first), a rename that fails puts back those before
    it, and the previous targets, moved aside first, are deleted only at the end."""
    import secrets
    import shutil

    done: list[tuple[Path, Path, Path | None]] = []  # (new, target, where the previous target went)
    try:
        with interrupts.signals_held():
            interrupts.check()
            try:
                for new, target in moves:
                    aside = None
                    if target.exists() or target.is_symlink():
                        aside = target.with_name(f"{OLD_PREFIX}{secrets.token_hex(4)}-{target.name}")
                        target.rename(aside)
                    done.append((new, target, aside))
                    new.rename(target)
            except BaseException:
                for new, target, aside in reversed(done):
                    if not new.exists() and target.exists():
                        target.rename(new)
                    if aside is not None:
                        aside.rename(target)
                raise
    except OSError as error:
        raise OutputError(f"{error.filename}: cannot be put in place ({error.strerror or error})") from None
    finally:
        for _, _, aside in done:
            if aside is not None and aside.is_dir() and not aside.is_symlink():
                shutil.rmtree(aside)
            elif aside is not None and (aside.exists() or aside.is_symlink()):
                aside.unlink()
