"""The built wheel carries the shipped variants, the grammar, the type marker, the JSON
Schema of variant files and the license, and (with a Rust toolchain) the native core, linked
for glibc 2.17 and tagged manylinux2014 (zig, from the ziglang build requirement), so that
it installs and runs the native core on a machine without Rust.

One wheel is built for the module and the tests read it. ``pip wheel`` takes one to four
minutes (maturin compiles the native core from nothing), so the module is marked slow: CI
runs it with ``python -m pytest -m slow``.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
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


def needs_the_native_core() -> None:
    if shutil.which("cargo") is None or not (ROOT / "native" / "Cargo.toml").is_file():
        pytest.skip("no Rust toolchain here: the wheel is pure Python")
    if not sys.platform.startswith("linux"):
        pytest.skip("manylinux wheels are Linux's")


def test_the_wheel_carries_the_license(built):
    assert "patience_cards-0.1.0.dist-info/licenses/LICENSE" in built.names


def test_the_wheel_is_tagged_manylinux2014_and_auditwheel_finds_it_clean(built):
    needs_the_native_core()
    machine = platform.machine()
    assert built.wheel.name.endswith(
        f"-cp310-abi3-manylinux2014_{machine}.manylinux_2_17_{machine}.whl"), built.wheel.name
    shown = subprocess.run([sys.executable, "-m", "auditwheel", "show", str(built.wheel)],
                           capture_output=True, text=True, check=True).stdout
    assert f'is consistent with the following platform tag: "manylinux_2_17_{machine}"' in \
        " ".join(shown.split())


def without_rust(environment: dict[str, str]) -> dict[str, str]:
    """``environment`` with no cargo on PATH and no PYTHONPATH (a user's machine)."""
    path = [d for d in environment.get("PATH", "").split(os.pathsep)
            if d and not (Path(d) / "cargo").exists()]
    clean = {k: v for k, v in environment.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**clean, "PATH": os.pathsep.join(path)}


def test_the_wheel_runs_the_native_core_in_a_fresh_venv_without_rust(built, tmp_path):
    needs_the_native_core()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    environment = without_rust(dict(os.environ))
    environment["PATH"] = os.pathsep.join([str(venv / "bin"), environment["PATH"]])
    assert shutil.which("cargo", path=environment["PATH"]) is None
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                    f"{built.wheel}[deals]"], check=True, env=environment, cwd=tmp_path,
                   capture_output=True)
    patience = str(venv / "bin" / "patience")
    version = subprocess.run([patience, "--version"], capture_output=True, text=True,
                             check=True, env=environment, cwd=tmp_path).stdout
    assert "patience, version 0.1.0" in version and "native core" in version
    done = subprocess.run([patience, "solve", "freecell", "--seed", "ms:11982", "--json"],
                          capture_output=True, text=True, env=environment, cwd=tmp_path,
                          timeout=300, check=True)
    result = json.loads(done.stdout)
    assert (result["verdict"], result["engine"]) == ("unwinnable", "native")


def test_a_build_without_rust_says_so_on_the_terminal_without_pip_v(tmp_path):
    """pip shows a build's own output only with -v: the hook writes its warning to the
    terminal. ``script`` gives pip one."""
    if shutil.which("script") is None:
        pytest.skip("needs util-linux's script for a terminal")
    command = " ".join(shlex.quote(a) for a in [
        sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "out"),
        str(ROOT)])
    done = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True,
                          text=True, env=without_rust(dict(os.environ)), timeout=600,
                          check=False)
    assert done.returncode == 0, done.stdout
    assert ("WARNING: patience: the native core was not built (no Rust toolchain (cargo) on "
            "PATH); installing the pure-Python kernel and solver, 10-20 times slower") in \
        done.stdout
    assert len(list((tmp_path / "out").glob("patience_cards-*-py3-none-any.whl"))) == 1
