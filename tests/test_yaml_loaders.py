"""The shipped variant files are read by libyaml's parser under our composer
(``source._ShippedLoader``); every other file by the all-Python reference (``_Loader``).
On every shipped file both must compose the same nodes; other files never see libyaml."""

from __future__ import annotations

import pytest
import yaml

from patience import source
from patience.errors import VariantError
from patience.variant import find_definition, variants_directory

pytestmark = pytest.mark.skipif(source._ShippedLoader is None, reason="pyyaml without libyaml")

SHIPPED = sorted(variants_directory().glob("*.yaml"))


def nodes(text: str, loader: type) -> list[tuple]:
    """Every node of the document, in order: type, tag, offsets, quoting, scalar value."""
    out: list[tuple] = []

    def visit(node: yaml.Node) -> None:
        out.append((type(node).__name__, node.tag, node.start_mark.index, node.end_mark.index,
                    getattr(node, "style", None) or None,
                    node.value if isinstance(node, yaml.ScalarNode) else None))
        if not isinstance(node, yaml.ScalarNode):
            for entry in node.value:
                for sub in entry if isinstance(entry, tuple) else (entry,):
                    visit(sub)

    visit(yaml.compose(text, Loader=loader))
    return out


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_both_loaders_compose_every_shipped_file_alike(path):
    text = path.read_text(encoding="utf-8")
    assert nodes(text, source._ShippedLoader) == nodes(text, source._Loader)


def test_only_the_shipped_files_are_read_with_libyaml(tmp_path, monkeypatch):
    assert find_definition("tabbycat").id == "tabbycat"
    used = []
    real = source._compose
    monkeypatch.setattr(source, "_compose", lambda text, shipped: used.append(shipped)
                        or real(text, shipped))
    copy = tmp_path / "copy.yaml"
    copy.write_text(SHIPPED[0].read_text(encoding="utf-8"), encoding="utf-8")
    source.read_yaml(str(copy), copy.read_text(encoding="utf-8"))
    assert used == [False]
    from patience.definition import _is_shipped

    assert _is_shipped(SHIPPED[0]) and not _is_shipped(copy)


# text libyaml reads and pyyaml refuses: a file that is not shipped gets pyyaml's refusal
LIBYAML_ONLY = "a: true?\n  \t}\n"


def test_a_file_not_shipped_is_read_by_the_reference_loader():
    assert yaml.compose(LIBYAML_ONLY, Loader=source._ShippedLoader) is not None
    with pytest.raises(VariantError, match="not valid YAML"):
        source.read_yaml("mine.yaml", LIBYAML_ONLY)


@pytest.mark.parametrize("text, message", [
    ("a: *x\n", "cannot use YAML aliases"),
    ("a: &x 1\n", "cannot use YAML anchors"),
    ("a: " + "[" * 70 + "]" * 70 + "\n", "nest more than"),
    ("a: b: c\n", "mapping values are not allowed"),
    ("a: [1, 2\n", "not valid YAML"),
])
def test_a_shipped_file_with_an_error_gets_the_reference_message(text, message):
    with pytest.raises(VariantError) as fast:
        source.read_yaml("x.yaml", text, shipped=True)
    with pytest.raises(VariantError) as reference:
        source.read_yaml("x.yaml", text)
    assert message in str(fast.value) and str(fast.value) == str(reference.value)
