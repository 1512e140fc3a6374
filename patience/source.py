"""Reading YAML so that every value remembers where it was written.

pyyaml's composer gives nodes with marks; this module turns them into a small tree of
:class:`Mapping`, :class:`Sequence` and :class:`Scalar` items, each with an
:class:`Origin`, rejecting duplicate keys on the way (pyyaml accepts them silently). The
variant loader validates that tree, and any error points at file, line and column, down to
a character inside an expression string.
"""

from __future__ import annotations

import bisect

import attrs
import yaml

from patience.errors import Location, VariantError


@attrs.frozen
class SourceText:
    """A file's text with its line starts, to turn offsets into lines and columns."""

    path: str
    text: str
    line_starts: tuple[int, ...]

    @classmethod
    def of(cls, path: str, text: str) -> SourceText:
        starts = [0] + [i + 1 for i, char in enumerate(text) if char == "\n"]
        return cls(path, text, tuple(starts))

    def location(self, index: int, width: int = 1) -> Location:
        line = bisect.bisect_right(self.line_starts, index) - 1
        start = self.line_starts[line]
        end = self.text.find("\n", start)
        source_line = self.text[start:] if end < 0 else self.text[start:end]
        return Location(self.path, line + 1, index - start + 1, max(1, width), source_line)


@attrs.frozen
class Origin:
    """Where a value was written: the file and the value's start and end offsets."""

    source: SourceText
    start: int
    end: int
    style: str | None = None  # the scalar style: None (plain), "'", '"', "|", ">"

    def location(self) -> Location:
        end = self.source.text.find("\n", self.start)
        end = self.end if end < 0 else min(self.end, end)
        return self.source.location(self.start, end - self.start)

    def location_of_span(self, value: str, span: tuple[int, int]) -> Location:
        """The location of characters ``span`` of the scalar ``value`` read from here."""
        offsets = self._offsets(value)
        start = offsets[min(span[0], len(offsets) - 1)]
        last = offsets[min(max(span[1] - 1, span[0]), len(offsets) - 1)]
        same_line = "\n" not in self.source.text[start:last]
        return self.source.location(start, last - start + 1 if same_line else 1)

    def _offsets(self, value: str) -> list[int]:
        """For each character of the value, its offset in the file (best effort)."""
        text = self.source.text
        j = self.start
        if self.style in ("'", '"'):
            j += 1
        elif self.style in ("|", ">"):
            newline = text.find("\n", j)
            j = newline + 1 if newline >= 0 else j
        offsets = []
        for char in value:
            while j < self.end and text[j] != char and text[j] in " \t\r\n\\'\"":
                if char in " \n" and text[j] in "\r\n":
                    break
                j += 1
            offsets.append(j)
            if j < self.end and (text[j] == char or char in " \n"):
                j += 1
        offsets.append(j)
        return offsets


@attrs.frozen
class Scalar:
    value: str
    tag: str  # "str", "int", "float", "bool", "null"
    origin: Origin


@attrs.frozen
class Sequence:
    items: tuple[Item, ...]
    origin: Origin


@attrs.frozen
class Mapping:
    """A YAML mapping with string keys, in file order; ``keys`` keeps each key's origin."""

    items: dict[str, Item]
    keys: dict[str, Origin]
    origin: Origin


Item = Scalar | Sequence | Mapping  # a runtime alias: PEP 604 unions work from Python 3.10

_TAGS = {
    "tag:yaml.org,2002:str": "str", "tag:yaml.org,2002:int": "int",
    "tag:yaml.org,2002:float": "float", "tag:yaml.org,2002:bool": "bool",
    "tag:yaml.org,2002:null": "null",
}


def read_yaml(path: str, text: str) -> Item:
    """Parse YAML text into located items; raise VariantError with a location on errors."""
    source = SourceText.of(path, text)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "not valid YAML"
        location = source.location(mark.index) if mark is not None else None
        context = error.context_mark
        if context is not None and mark is not None and context.index != mark.index \
                and error.context:
            where = source.location(context.index)
            problem += f" ({error.context} at line {where.line}, column {where.column})"
        if "mapping values are not allowed" in problem:
            problem += " (a value that contains ': ' must be quoted, e.g. \"all a, b in …: …\")"
        raise VariantError(f"not valid YAML: {problem}", location) from None
    except yaml.YAMLError as error:
        raise VariantError(f"not valid YAML: {error}", source.location(0)) from None
    if node is None:
        raise VariantError("the file is empty", source.location(0))
    return _convert(node, source)


def _origin(node: yaml.Node, source: SourceText) -> Origin:
    style = getattr(node, "style", None)
    return Origin(source, node.start_mark.index, node.end_mark.index,
                  style if isinstance(node, yaml.ScalarNode) else None)


def _convert(node: yaml.Node, source: SourceText) -> Item:
    origin = _origin(node, source)
    if isinstance(node, yaml.ScalarNode):
        tag = _TAGS.get(node.tag)
        if tag is None:
            raise VariantError(f"unsupported YAML tag {node.tag!r}", origin.location())
        return Scalar(node.value, tag, origin)
    if isinstance(node, yaml.SequenceNode):
        return Sequence(tuple(_convert(item, source) for item in node.value), origin)
    if isinstance(node, yaml.MappingNode):
        items: dict[str, Item] = {}
        keys: dict[str, Origin] = {}
        for key_node, value_node in node.value:
            key_origin = _origin(key_node, source)
            is_merge_key = key_node.tag == "tag:yaml.org,2002:merge"
            if not isinstance(key_node, yaml.ScalarNode) or is_merge_key:
                raise VariantError("keys must be plain names", key_origin.location())
            key = key_node.value
            if key in items:
                first = keys[key].location()
                raise VariantError(
                    f"duplicate key {key!r} (first written at line {first.line})",
                    key_origin.location())
            items[key] = _convert(value_node, source)
            keys[key] = key_origin
        return Mapping(items, keys, origin)
    raise VariantError("unsupported YAML node", origin.location())
