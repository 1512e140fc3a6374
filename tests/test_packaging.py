"""The built wheel carries the shipped variants, the grammar, the type marker and the JSON
Schema of variant files."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_contains_the_variant_files_and_the_grammar(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("patience-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"patience/variants/{p.name}" for p in (ROOT / "variants").glob("*.yaml")}
    assert "patience/variants/tabbycat.yaml" in shipped and len(shipped) >= 8
    assert shipped <= names
    assert {"patience/rules.lark", "patience/py.typed", "patience/variant.schema.json"} <= names
    assert {f"patience/web/static/{n}" for n in ("index.html", "app.js", "style.css")} <= names


def test_the_wheel_carries_the_native_core_when_a_rust_toolchain_is_there(tmp_path):
    import shutil

    import pytest

    if shutil.which("cargo") is None or not (ROOT / "native" / "Cargo.toml").is_file():
        pytest.skip("no Rust toolchain here: the wheel is pure Python (tested above)")
    loaded = ROOT / "patience" / "_native.abi3.so"  # this process may have it mapped
    before = loaded.stat() if loaded.exists() else None
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    # building a wheel never writes over the module in the source tree: changing the pages
    # of a loaded extension crashes the processes that use it
    if before is not None:
        after = loaded.stat()
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    (wheel,) = tmp_path.glob("patience-*.whl")
    assert "-cp310-abi3-" in wheel.name  # one wheel for every CPython >= 3.10 here
    assert "patience/_native.abi3.so" in zipfile.ZipFile(wheel).namelist()
