"""Reading YAML so that every value remembers where it was written.

pyyaml's composer gives nodes with marks; this module turns them into a small tree of
:class:`Mapping`, :class:`Sequence` and :class:`Scalar` items, each with an
:class:`Origin`, rejecting duplicate keys on the way (pyyaml accepts them silently). The
variant loader validates that tree, and any error points at file, line and column, down to
a character inside an expression string.
"""

from __future__ import annotations

import bisect
import re
from importlib import resources
from pathlib import Path

import attrs
import yaml

from patience.errors import Location, VariantError
from patience.limits import MAX_INTEGER, MAX_INTEGER_TEXT, MAX_VARIANT_FILE_BYTES, MAX_YAML_DEPTH


def variants_directory() -> Path:
    """The shipped variant files: inside the installed package, or the repository's."""
    packaged = resources.files("patience").joinpath("variants")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "variants"


@attrs.frozen
class SourceText:
    """A file's text with its line starts, to turn offsets into lines and columns."""

    path: str
    text: str
    line_starts: tuple[int, ...]
    #: each line's text once cut out (a file with thousands of errors on one long line)
    lines: dict[int, str] = attrs.field(factory=dict, eq=False, repr=False)

    @classmethod
    def of(cls, path: str, text: str) -> SourceText:
        starts = [0] + [match.end() for match in re.finditer("\n", text)]
        return cls(path, text, tuple(starts))

    def location(self, index: int, width: int = 1) -> Location:
        line = bisect.bisect_right(self.line_starts, index) - 1
        start = self.line_starts[line]
        source_line = self.lines.get(line)
        if source_line is None:
            end = self.text.find("\n", start)
            source_line = self.text[start:] if end < 0 else self.text[start:end]
            self.lines[line] = source_line
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

    @property
    def integer(self) -> int:
        """The value of an "int" scalar, read as YAML 1.1 reads it (checked when read)."""
        return yaml_integer(self.value)


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


_COLLECTION_TAGS = ("tag:yaml.org,2002:seq", "tag:yaml.org,2002:map")

# The whole numbers of YAML 1.1, exactly as pyyaml's resolver finds them: binary, octal
# (a leading 0), decimal, hexadecimal and base 60 (1:30 is 90), with signs and underscores.
_YAML_INTEGER = re.compile(r"""[-+]?(?:0b[01_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+
                               |[1-9][0-9_]*(?::[0-5]?[0-9])+)""", re.ASCII | re.VERBOSE)
_YAML_BOOLEAN = re.compile(r"y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE"
                           r"|on|On|ON|off|Off|OFF")


def yaml_integer(text: str) -> int:
    """The value of a YAML 1.1 whole number (``010`` is 8, ``0_7`` is 7, ``1:00`` is 60).

    Raises ValueError for text that is not one, or longer than ``MAX_INTEGER_TEXT``, or
    beyond ``MAX_INTEGER`` in size.

    >>> [yaml_integer(t) for t in ("12", "-0x1F", "010", "0_7", "0b101", "1:00", "+1_000")]
    [12, -31, 8, 7, 5, 60, 1000]
    """
    if len(text) > MAX_INTEGER_TEXT:
        digits = text.lstrip("+-").replace("_", "")
        if digits.isascii() and digits.isdigit():
            raise ValueError(f"{_shorten(text)} is too large: {_LARGEST}")
        raise ValueError(f"{_shorten(text)!r} is not a whole number")
    if not _YAML_INTEGER.fullmatch(text):
        raise ValueError(f"{text!r} is not a whole number")
    digits = text.replace("_", "")
    sign = -1 if digits[0] == "-" else 1
    digits = digits.lstrip("+-")
    try:
        if digits.startswith(("0b", "0x")):
            value = int(digits, 0)
        elif ":" in digits:
            value = 0
            for part in digits.split(":"):
                value = value * 60 + int(part)
        elif digits.startswith("0"):
            value = int(digits, 8)
        else:
            value = int(digits)
    except ValueError:  # '0b_', '0x_': digits that are all underscores
        raise ValueError(f"{text!r} is not a whole number") from None
    if value > MAX_INTEGER:
        raise ValueError(f"{text} is too large: {_LARGEST}")
    return sign * value


_LARGEST = f"a whole number is at most 2^63 - 1 ({MAX_INTEGER:_}) either side of 0"


def _shorten(text: str, width: int = 24) -> str:
    return text if len(text) <= width else text[:width] + "…"


def read_variant_file(path: str | Path) -> str:
    """A variant file's text, refusing files over ``MAX_VARIANT_FILE_BYTES`` before reading
    them whole, and text that is not UTF-8.

    Raises OSError when the file cannot be read, VariantError for the rest.
    """
    with open(path, "rb") as stream:
        data = stream.read(MAX_VARIANT_FILE_BYTES + 1)
    if len(data) > MAX_VARIANT_FILE_BYTES:
        raise VariantError(_too_large(), Location(str(path), 1, 1), code="file-too-large")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise VariantError(f"the file is not UTF-8 text (byte {error.start + 1} is "
                           f"{data[error.start]:#04x})", Location(str(path), 1, 1),
                           code="not-utf8") from None


def _too_large() -> str:
    return (f"the file is larger than {MAX_VARIANT_FILE_BYTES:_} bytes, the most a variant "
            "file may hold")


class _Refused(yaml.MarkedYAMLError):  # type: ignore[misc]  # pyyaml has no types here
    """Valid YAML that variant files do not allow (aliases, too deep nesting)."""

    def __init__(self, problem: str, mark: yaml.Mark, code: str) -> None:
        super().__init__(None, None, problem, mark)
        self.code = code


class _Refusals:
    """A composer that refuses aliases and anchors (an alias is a copy of a whole subtree: a
    few bytes can stand for billions of nodes) and nesting deeper than ``MAX_YAML_DEPTH``;
    mixed into both loaders below."""

    depth = 0

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        event = self.peek_event()  # type: ignore[attr-defined]
        if isinstance(event, yaml.AliasEvent):
            raise _Refused("a variant file cannot use YAML aliases (*name): write the value "
                           "out", event.start_mark, "yaml-alias")
        if getattr(event, "anchor", None) is not None:
            raise _Refused("a variant file cannot use YAML anchors (&name)",
                           event.start_mark, "yaml-alias")
        nests = isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent))
        if nests:
            self.depth += 1
            if self.depth > MAX_YAML_DEPTH:
                raise _Refused(f"lists and mappings nest more than {MAX_YAML_DEPTH} deep "
                               "here", event.start_mark, "yaml-too-deep")
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            if nests:
                self.depth -= 1


class _Loader(_Refusals, yaml.SafeLoader):  # type: ignore[misc]  # pyyaml has no types here
    """pyyaml's safe loader, all Python, with the refusals: the reference, used for every
    file but the shipped ones, and for every message about an error."""


try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # pyyaml built without libyaml
    _ShippedLoader = None
else:
    _Bases = (_Refusals, yaml.composer.Composer, _CParser, yaml.resolver.Resolver)

    class _ShippedLoader(*_Bases):  # type: ignore[misc,no-redef]
        """libyaml's scanner and parser (about 8 times faster) under pyyaml's composer with
        the refusals, for the shipped variant files only: on them it composes exactly the
        nodes ``_Loader`` does (``tests/test_yaml_loaders.py`` checks every one). It is not
        used for other files because libyaml accepts some text pyyaml refuses (tabs in
        places, a lone ``!``), and a file must read the same whatever is installed."""

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)


def _compose(text: str, shipped: bool) -> yaml.Node | None:
    if shipped and _ShippedLoader is not None:
        try:
            return yaml.compose(text, Loader=_ShippedLoader)
        except yaml.YAMLError:
            pass  # read again by the reference loader, for its message
    return yaml.compose(text, Loader=_Loader)


def read_yaml(path: str, text: str, *, shipped: bool = False) -> Item:
    """Parse YAML text into located items; raise VariantError with a location on errors.
    ``shipped``: the text is a shipped variant file's (read with libyaml's parser)."""
    if len(text) > MAX_VARIANT_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) \
            > MAX_VARIANT_FILE_BYTES:
        raise VariantError(_too_large(), Location(path, 1, 1), code="file-too-large")
    source = SourceText.of(path, text)
    try:
        node = _compose(text, shipped)
    except _Refused as error:
        mark = error.problem_mark
        raise VariantError(str(error.problem),
                           source.location(mark.index) if mark is not None else None,
                           code=error.code) from None
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
        raise VariantError(f"not valid YAML: {problem}", location, code="yaml") from None
    except yaml.YAMLError as error:
        raise VariantError(f"not valid YAML: {error}", source.location(0),
                           code="yaml") from None
    if node is None:
        raise VariantError("the file is empty", source.location(0), code="empty-file")
    return _convert(node, source)


def _origin(node: yaml.Node, source: SourceText) -> Origin:
    style = getattr(node, "style", None) or None  # plain: None (pyyaml), '' (libyaml)
    return Origin(source, node.start_mark.index, node.end_mark.index,
                  style if isinstance(node, yaml.ScalarNode) else None)


def _convert(node: yaml.Node, source: SourceText) -> Item:
    """The located item of a node (nesting is bounded by the loader: this recursion is)."""
    origin = _origin(node, source)
    if isinstance(node, yaml.ScalarNode):
        tag = _TAGS.get(node.tag)
        if tag is None:
            raise VariantError(f"unsupported YAML tag {node.tag!r}", origin.location(),
                               code="yaml-tag")
        if tag == "int":
            try:
                yaml_integer(node.value)
            except ValueError as error:
                raise VariantError(f"{error} (quote it if it is meant as text)",
                                   origin.location(), code="number-too-large") from None
        elif tag == "bool" and not _YAML_BOOLEAN.fullmatch(node.value):
            raise VariantError(f"{_shorten(node.value)!r} is not true or false",
                               origin.location(), code="yaml-boolean")
        return Scalar(node.value, tag, origin)
    if node.tag not in _COLLECTION_TAGS:
        raise VariantError(f"unsupported YAML tag {node.tag!r}", origin.location(),
                           code="yaml-tag")
    if isinstance(node, yaml.SequenceNode):
        return Sequence(tuple(_convert(item, source) for item in node.value), origin)
    if isinstance(node, yaml.MappingNode):
        items: dict[str, Item] = {}
        keys: dict[str, Origin] = {}
        for key_node, value_node in node.value:
            key_origin = _origin(key_node, source)
            is_merge_key = key_node.tag == "tag:yaml.org,2002:merge"
            if not isinstance(key_node, yaml.ScalarNode) or is_merge_key:
                raise VariantError("keys must be plain names", key_origin.location(),
                                   code="key-not-a-name")
            key = key_node.value
            if key in items:
                first = keys[key].location()
                raise VariantError(
                    f"duplicate key {_shorten(key)!r} (first written at line {first.line})",
                    key_origin.location(), code="duplicate-key")
            items[key] = _convert(value_node, source)
            keys[key] = key_origin
        return Mapping(items, keys, origin)
    raise VariantError("unsupported YAML node", origin.location(), code="yaml-tag")
