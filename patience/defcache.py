"""A variant's definition kept on disk, so that a command does not read and check its
file again (docs/architecture.md, "Start-up").

An entry is keyed by what the definition is made from: the file's path and text, and the
program that reads it (the size and modification time of every module of the package, and
the Python version). Its parents (``extends``) are written in the entry with the sha256 of
their text, and read and checked again before it is used. The entry is a header, the
sha256 of its body, and the body; a body is read back only by an unpickler that makes
nothing but the package's own classes. Anything wrong with an entry — too large, a bad
header or checksum, a parent changed, a class of another program, an error while reading
it — and it is not used: the definition is made again and the entry written over (a file
there without our header is another program's: it is left as it is, and not used). Entries
are written to a temporary file renamed into place, so two processes writing at once
leave one whole entry. A cache folder that cannot be written costs only the time saved.

The folder is ``platformdirs.user_cache_dir("patience")/definitions``, or
``$PATIENCE_CACHE_DIR/definitions``; ``PATIENCE_CACHE_DIR=off`` turns the cache off. It
holds at most ``MAX_ENTRIES`` entries (the oldest are removed when one is written).
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from patience.source import read_variant_file

if TYPE_CHECKING:
    from patience.definition import Definition

HEADER = b"patience-definition-cache 1\n"
#: the largest entry read: the largest shipped definition is about 60 kB
MAX_ENTRY_BYTES = 4 * 1024 * 1024
#: the most entries kept; the oldest are removed beyond it
MAX_ENTRIES = 256
_PACKAGE = Path(__file__).resolve().parent


def folder() -> Path | None:
    """The cache folder, or None when the cache is off."""
    override = os.environ.get("PATIENCE_CACHE_DIR")
    if override == "off":
        return None
    if override:
        return Path(override) / "definitions"
    import platformdirs

    return Path(platformdirs.user_cache_dir("patience", appauthor=False)) / "definitions"


@functools.cache
def _program() -> bytes:
    """The program that reads variant files: Python's version and each module's size and
    modification time (a changed or reinstalled package makes new keys)."""
    parts = [sys.version]
    for module in sorted(_PACKAGE.rglob("*.py")):
        stat = module.stat()
        parts.append(f"{module.relative_to(_PACKAGE)}:{stat.st_size}:{stat.st_mtime_ns}")
    return "\n".join(parts).encode()


def _key(path: Path, text: str) -> str:
    digest = hashlib.sha256(_program())
    digest.update(b"\0" + str(path.resolve()).encode() + b"\0" + text.encode())
    return digest.hexdigest()


class _Unpickler(pickle.Unpickler):
    """Makes only the package's own classes: an entry cannot run another program's code."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "patience" or module.startswith("patience."):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a class of patience")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _read(entry: Path) -> tuple[Definition | None, bool]:
    """The definition in ``entry`` (None when it is missing or cannot be trusted), and
    whether the entry may be written: it is missing or one of ours (our header)."""
    try:
        with open(entry, "rb") as stream:
            data = stream.read(MAX_ENTRY_BYTES + 1)
    except FileNotFoundError:
        return None, True
    except OSError:
        return None, False
    if not data.startswith(HEADER):
        return None, False                      # not ours: left as it is
    checksum, _, body = data[len(HEADER):].partition(b"\n")
    if len(data) > MAX_ENTRY_BYTES or hashlib.sha256(body).hexdigest().encode() != checksum:
        return None, True
    try:
        parents, definition = _Unpickler(io.BytesIO(body)).load()
        for parent, digest in parents:
            if _digest(read_variant_file(parent)) != digest:
                return None, True               # a parent changed since
    except Exception:  # noqa: BLE001 — a damaged entry is made again, never trusted
        return None, True
    from patience.definition import Definition

    return (definition if isinstance(definition, Definition) else None), True


def _write(entry: Path, parents: list[Path], definition: Definition) -> None:
    try:
        body = pickle.dumps(([(str(p), _digest(read_variant_file(p))) for p in parents],
                             definition), protocol=pickle.HIGHEST_PROTOCOL)
        data = HEADER + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
        if len(data) > MAX_ENTRY_BYTES:
            return
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, entry)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        _prune(entry.parent)
    except Exception:  # noqa: BLE001 — the cache is only a cache
        return


def _prune(directory: Path) -> None:
    """Remove the oldest entries beyond ``MAX_ENTRIES`` (only files with our header)."""
    entries = sorted(directory.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns)
    for old in entries[:-MAX_ENTRIES]:
        with open(old, "rb") as stream:
            ours = stream.read(len(HEADER)) == HEADER
        if ours:
            old.unlink(missing_ok=True)


def cached_definition(path: Path, text: str,
                      load: Callable[[Callable[[Path], None]], Definition]) -> Definition:
    """The definition of the file at ``path`` with ``text``: from the cache, or made by
    ``load(record)`` (which calls ``record`` with each parent file it reads) and kept."""
    directory = folder()
    if directory is None:
        return load(lambda parent: None)
    entry = directory / f"{_key(path, text)}.pickle"
    found, writable = _read(entry)
    if found is not None:
        return found
    parents: list[Path] = []
    definition = load(parents.append)
    if writable:
        _write(entry, parents, definition)
    return definition
