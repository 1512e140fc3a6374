"""The built wheel carries the shipped variants, the grammar, the type marker and the JSON
Schema of variant files, and (with a Rust toolchain) the native core.

One wheel is built for the module and both tests read it. ``pip wheel`` takes half a
minute or more (maturin compiles the native core), so the module is marked slow: CI runs it
with ``python -m pytest -m slow``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import attrs
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
LOADED = ROOT / "patience" / "_native.abi3.so"  # this process may have it mapped


@attrs.frozen
class Built:
    wheel: Path
    names: frozenset[str]
    loaded_before: os.stat_result | None  # the module in the source tree, before the build
    loaded_after: os.stat_result | None


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    out = tmp_path_factory.mktemp("wheel")
    before = LOADED.stat() if LOADED.exists() else None
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(out), str(ROOT)], check=True, capture_output=True)
    after = LOADED.stat() if LOADED.exists() else None
    (wheel,) = out.glob("patience_cards-*.whl")
    return Built(wheel, frozenset(zipfile.ZipFile(wheel).namelist()), before, after)


def test_wheel_contains_the_variant_files_and_the_grammar(built):
    shipped = {f"patience/variants/{p.name}" for p in (ROOT / "variants").glob("*.yaml")}
    assert "patience/variants/tabbycat.yaml" in shipped and len(shipped) >= 8
    assert shipped <= built.names
    assert {"patience/rules.lark", "patience/py.typed",
            "patience/variant.schema.json"} <= built.names
    assert {f"patience/web/static/{n}" for n in ("index.html", "app.js", "style.css")} <= \
        built.names


def test_the_wheel_carries_the_native_core_when_a_rust_toolchain_is_there(built):
    if shutil.which("cargo") is None or not (ROOT / "native" / "Cargo.toml").is_file():
        pytest.skip("no Rust toolchain here: the wheel is pure Python (tested above)")
    # building a wheel never writes over the module in the source tree: changing the pages
    # of a loaded extension crashes the processes that use it
    if built.loaded_before is not None:
        assert built.loaded_after is not None
        assert (built.loaded_after.st_ino, built.loaded_after.st_mtime_ns) == \
            (built.loaded_before.st_ino, built.loaded_before.st_mtime_ns)
    assert "-cp310-abi3-" in built.wheel.name  # one wheel for every CPython >= 3.10 here
    assert "patience/_native.abi3.so" in built.names
