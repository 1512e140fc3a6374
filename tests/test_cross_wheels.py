"""``scripts/cross-wheels`` cross-compiles the native core with zig: an aarch64 wheel tagged
manylinux2014 and an x86_64 musllinux_1_2 wheel, each carrying a core built for that
machine (its ELF header's machine; a musl core asks for no glibc symbol).

A target whose Rust standard library is not installed (``rustup target add TARGET``) is
skipped with that reason. Each build compiles the core from nothing: 3-4 minutes on a
2-core machine, so the module is slow.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
ELF_MACHINES = {"x86_64": 62, "aarch64": 183}


def installed_targets() -> set[str]:
    if shutil.which("rustup") is None:
        return set()
    done = subprocess.run(["rustup", "target", "list", "--installed"], capture_output=True,
                          text=True, check=False)
    return set(done.stdout.split())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux wheels")
@pytest.mark.parametrize("target, tag", [
    ("aarch64-unknown-linux-gnu", "manylinux2014_aarch64.manylinux_2_17_aarch64"),
    ("x86_64-unknown-linux-musl", "musllinux_1_2_x86_64"),
])
def test_a_cross_built_wheel_has_its_tag_and_a_core_for_its_machine(target, tag, tmp_path):
    if shutil.which("cargo") is None:
        pytest.skip("no Rust toolchain here")
    if target not in installed_targets():
        pytest.skip(f"the Rust standard library for {target} is not installed "
                    f"(rustup target add {target})")
    subprocess.run([str(ROOT / "scripts" / "cross-wheels"), str(tmp_path), target],
                   cwd=ROOT, check=True, capture_output=True, timeout=1800)
    (wheel,) = tmp_path.glob("patience_cards-*.whl")
    assert wheel.name == f"patience_cards-0.1.0-cp310-abi3-{tag}.whl"
    core = zipfile.ZipFile(wheel).read("patience/_native.abi3.so")
    assert core[:4] == b"\x7fELF"
    machine = target.split("-")[0]
    assert int.from_bytes(core[18:20], "little") == ELF_MACHINES[machine]
    if target.endswith("-musl"):
        assert b"GLIBC_" not in core and b"ld-linux" not in core
    else:
        shown = subprocess.run([sys.executable, "-m", "auditwheel", "show", str(wheel)],
                               capture_output=True, text=True, check=True).stdout
        assert f'consistent with the following platform tag: "manylinux_2_17_{machine}"' in \
            " ".join(shown.split())
