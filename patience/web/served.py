"""The variants a server serves, each compiled on its first use.

Compiling a variant (its predicate tables above all) takes most of a second, and a server
serves every shipped variant: compiling them all before listening kept ``patience serve``
silent for 10-25 s. Here the server listens at once: the list of variants needs only their
definitions (id, name, family, description: a tenth of the time), read when the list is
first asked for; a variant compiles when a request first needs it (under a lock, so two
requests compile it once); and :meth:`ServedVariants.warm` reads the definitions and
compiles the page's default in the background. It compiles no more than that: a thread
compiling the rest would hold Python's lock for half a minute, and every move asked for
meanwhile took two to three times as long (measured in the browser test of a move).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from patience.definition import Definition
from patience.variant import Variant, find_definition, find_variant, resolve, shipped_variants


class ServedVariants(Mapping[str, Variant]):
    """Served variants by key: a mapping whose values compile on first access.

    Keys are the variants' ids; a named file whose id a shipped variant has is served as
    ``id-2``, ``id-3``… The files named on the command line are compiled at once (a broken
    file stops the server before it listens, with the file's located error)."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self._paths: dict[str, Path] = {}
        self._definitions: dict[str, Definition] = {}
        self._compiled: dict[str, Variant] = {}
        self._lock = threading.RLock()
        for name in shipped_variants():
            self._paths[name] = resolve(name)
        default = None
        for name in names:
            variant = find_variant(name)  # compiled now: errors before the server listens
            path = resolve(name)
            key = next((k for k, p in self._paths.items() if p == path), None)
            if key is None:
                key, number = variant.id, 1
                while key in self._paths:
                    number += 1
                    key = f"{variant.id}-{number}"
                self._paths[key] = path
            self._definitions[key] = variant.definition
            self._compiled[key] = variant
            default = default or key
        if default is None:
            default = "tabbycat" if "tabbycat" in self._paths else next(iter(self._paths))
        #: the key of the page's default variant: the first named, else Tabby Cat
        self.default: str = default

    def definition(self, key: str) -> Definition:
        """The variant's definition (KeyError for a key not served), without compiling
        (read on first use: call from a worker thread, never the event loop)."""
        found = self._definitions.get(key)
        if found is None:
            path = self._paths[key]
            with self._lock:
                found = self._definitions.get(key)
                if found is None:
                    found = self._definitions[key] = find_definition(path)
        return found

    def __getitem__(self, key: str) -> Variant:
        found = self._compiled.get(key)
        if found is not None:
            return found
        path = self._paths[key]  # KeyError for a key not served, as a mapping does
        with self._lock:
            found = self._compiled.get(key)
            if found is None:
                found = self._compiled[key] = find_variant(path)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def __contains__(self, key: object) -> bool:
        return key in self._paths

    def compiled(self) -> int:
        """How many of the served variants are compiled so far."""
        return len(self._compiled)

    def warm(self) -> threading.Thread:
        """Compile the default variant and read every served variant's definition, in a
        background thread; the thread, already started. A request that needs one sooner
        reads or compiles it then; the other variants compile on first use."""

        def run() -> None:
            self[self.default]
            for key in self._paths:
                self.definition(key)

        thread = threading.Thread(target=run, name="patience-compile", daemon=True)
        thread.start()
        return thread


__all__ = ["ServedVariants"]
