"""Build the native search core (``native/``, Rust + PyO3) into the package, when it can.

Hatchling runs this hook for every wheel and editable install (``pip install -e .``). It asks
maturin to build the crate in ``native/`` and puts the extension module it makes at
``patience/_native.abi3.so``: in the wheel (for CPython ≥ 3.10's stable ABI; on Linux linked
by zig for glibc 2.17 and tagged manylinux2014, see :func:`portable_options`), or, for an
editable install, beside the sources. Without a Rust toolchain, or with
``PATIENCE_PURE_PYTHON=1`` in the environment, it builds nothing and says so, on the terminal
too: the package then runs on its pure-Python kernel, the reference the native core is
tested against. ``PATIENCE_REQUIRE_NATIVE=1`` (CI sets it) turns a failed native build into a
failed install instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "patience/_native.abi3.so"


def replace_file(target: Path, data: bytes) -> None:
    """Put ``data`` at ``target`` by a rename, never by writing over the file: a Python
    process that has the old module loaded has it mapped, and changing those pages under
    it crashes that process (a new file and a rename leave its mapping intact)."""
    if target.is_file() and target.read_bytes() == data:
        return
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, target)


def zig_command(folder: Path) -> str | None:
    """A folder to put first on PATH so that maturin's ``--zig`` finds ``zig``: none needed
    when ``zig`` is on PATH; a ``zig`` script in ``folder`` running the ``ziglang`` package
    (a build requirement on the platforms it has wheels for) with this Python; None when
    there is no zig at all."""
    if shutil.which("zig") is not None:
        return ""
    if importlib.util.find_spec("ziglang") is None:
        return None
    script = folder / "zig"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ziglang "$@"\n')
    script.chmod(0o755)
    return str(folder)


def portable_options(version: str, zig: str | None) -> list[str]:
    """maturin's options for a wheel that runs on the machines people have: on Linux, tagged
    manylinux2014 (glibc 2.17), linked against glibc 2.17's symbols by zig, whatever glibc
    the build machine has. An editable install runs only here: built as it is.
    ``PATIENCE_NATIVE_TARGET`` names another Rust target (``aarch64-unknown-linux-gnu``,
    ``x86_64-unknown-linux-musl`` …: cross-compiled by zig when that target's standard
    library is installed, ``rustup target add``)."""
    if version == "editable" or not sys.platform.startswith("linux"):
        return []
    target = os.environ.get("PATIENCE_NATIVE_TARGET", "")
    options = ["--target", target] if target else []
    musl = target.endswith("-musl")
    if zig is None:
        if target:
            raise RuntimeError("patience: PATIENCE_NATIVE_TARGET needs zig (pip install "
                               "ziglang) to cross-compile the native core")
        return options  # tagged for this machine's glibc (maturin's default)
    return [*options, "--zig", "--compatibility", "musllinux_1_2" if musl else "manylinux2014"]


def tell_the_terminal(message: str) -> None:
    """Write ``message`` to the terminal pip runs in: pip shows a build's own output only
    with ``-v`` (or when the build fails), so a warning printed there would go unseen."""
    try:
        with open("/dev/tty", "w", encoding="utf-8") as terminal:
            terminal.write(f"WARNING: {message}\n")
    except OSError:
        pass  # no terminal (CI, a pipe): the build log has it


class NativeCoreHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "native-core"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        crate = root / "native" / "Cargo.toml"
        if not crate.is_file():
            return
        if os.environ.get("PATIENCE_PURE_PYTHON"):
            self._skip("PATIENCE_PURE_PYTHON is set")
            return
        if shutil.which("cargo") is None:
            self._skip("no Rust toolchain (cargo) on PATH")
            return
        maturin = shutil.which("maturin")  # a build requirement: pip puts it on PATH
        if maturin is None:
            self._skip("maturin is not on PATH")
            return
        with tempfile.TemporaryDirectory() as out:
            zig = zig_command(Path(out))
            command = [maturin, "build", "--release", "--manifest-path", str(crate),
                       "--out", out, *portable_options(version, zig)]
            environment = dict(os.environ)
            if zig:
                environment["PATH"] = zig + os.pathsep + environment.get("PATH", "")
            self.app.display_info("patience: building the native core: " + " ".join(command))
            done = subprocess.run(command, check=False, cwd=root, env=environment)
            wheels = list(Path(out).glob("*.whl"))
            if done.returncode != 0 or not wheels:
                self._skip(f"maturin failed (exit status {done.returncode})")
                return
            built = wheels[0]
            with zipfile.ZipFile(built) as wheel:
                modules = [n for n in wheel.namelist() if n.endswith((".so", ".pyd"))]
                if not modules:
                    self._skip("maturin's wheel holds no extension module")
                    return
                data = wheel.read(modules[0])
            module = MODULE if modules[0].endswith(".so") else "patience/_native.pyd"
        if version == "editable":  # beside the sources: what an editable install imports
            replace_file(root / module, data)
            return
        # a wheel: the module goes into the wheel only, the source tree is left as it is
        self._built = tempfile.mkdtemp(prefix="patience-native-")
        staged = Path(self._built) / Path(module).name
        staged.write_bytes(data)
        build_data["force_include"][str(staged)] = module
        build_data["pure_python"] = False
        # the wheel's tag is maturin's: e.g. cp310-abi3-manylinux_2_34_x86_64
        build_data["tag"] = "-".join(built.stem.split("-")[-3:])

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_built", None):
            shutil.rmtree(self._built, ignore_errors=True)

    def _skip(self, reason: str) -> None:
        if os.environ.get("PATIENCE_REQUIRE_NATIVE"):
            raise RuntimeError(f"patience: the native core was not built: {reason}")
        message = (f"patience: the native core was not built ({reason}); installing the "
                   "pure-Python kernel and solver, 10-20 times slower")
        self.app.display_warning(message)
        tell_the_terminal(message)
