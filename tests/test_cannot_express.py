"""docs/authoring.md's 'What the language cannot express yet' stays true: each of its
```yaml cannot``` blocks, laid over tabbycat.yaml, is refused by the loader with the message
its '# refused:' line shows (the start of the message: key lists grow)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from patience.errors import VariantError
from patience.variant import load_variant_text

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
SECTION = TEXT.split("## What the language cannot express yet", 1)[1].split("\n## ", 1)[0]
BLOCKS = [re.sub(r"(?m)^  ", "", block) for block in
          re.findall(r"```yaml cannot\n(.*?)```", SECTION, flags=re.DOTALL)]


def test_the_section_lists_what_cannot_be_written():
    assert len(BLOCKS) >= 6
    assert SECTION.count("\n* **") == len(BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.split(":", 1)[0])
def test_each_item_is_refused_by_the_loader(block):
    refused = re.search(r"# refused: (.+)", block)
    assert refused is not None, block
    header = "extends: tabbycat\nid: probe\nname: Probe\ndescription: A fragment.\n"
    with pytest.raises(VariantError) as caught:
        load_variant_text(header + block, str(ROOT / "docs" / "examples" / "probe.yaml"))
    messages = [e.message for e in getattr(caught.value, "errors", [caught.value])]
    assert any(message.startswith(refused.group(1).strip()) for message in messages), messages
