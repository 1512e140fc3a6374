"""The docs run: every example, command and error message shown in docs/ is checked here.

Conventions in ``docs/*.md`` (each is stated at the top of ``docs/language.md`` too):

* A fenced block marked ```` ```yaml ```` whose text has an ``id:`` key is a complete variant
  file: it must load (``extends`` names are resolved from ``docs/examples/``), and where
  ``docs/examples/`` has a file of the same id, the block must be that file, character for
  character. A block marked ```` ```yaml outline ```` only shows a file's shape: not run.
* A fenced block marked ```` ```yaml check ```` is a fragment laid over the shipped
  ``tabbycat.yaml`` (the test adds ``extends: tabbycat`` and an id, name and description).
  Its comment lines ``# error: MESSAGE`` are the messages the loader must give, exactly and
  in order; a fragment without them must load cleanly.
* In a fenced block marked ```` ```console ```` or ```` ```sh ````, each line starting with
  ``$ patience `` is a command, run from the repository root through click's CliRunner
  against ``patience.cli.main:main``. The lines after it, up to the next ``$`` line or the end
  of the block, are its output (stdout and stderr together, as a terminal shows them); a line
  holding only ``...`` stands for any number of lines. A command shown without output is
  only run. The command must exit 0, unless its line ends with the comment
  ``# exit status N``. A search's progress lines (written after a second, so only on a busy
  machine) are left out, as ``--quiet`` does.
* Every ``docs/examples/*.yaml`` loads and passes ``patience check``; every
  ``docs/examples/broken/*.yaml`` fails it with exit status 1.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import patience
from patience.cli.main import main
from patience.errors import VariantError
from patience.variant import load_variant_text

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
MARKDOWN = sorted(DOCS.glob("*.md"))

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
_EXIT = re.compile(r"\s+#\s*exit status (\d+)\s*$")


def blocks(*kinds: str) -> list[tuple[str, int, str, str]]:
    """(file name, line, info string, text) of every fenced block whose first word is a kind."""
    found = []
    for path in MARKDOWN:
        text = path.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            info = match.group(1).strip()
            if info.split(" ", 1)[0] in kinds:
                line = text.count("\n", 0, match.start()) + 1
                found.append((path.name, line, info, match.group(2)))
    return found


def block_id(block: tuple[str, int, str, str]) -> str:
    return f"{block[0]}:{block[1]}"


# --- (a) the example files -------------------------------------------------------------

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))
BROKEN_FILES = sorted((EXAMPLES / "broken").glob("*.yaml"))


def test_the_examples_exist():
    assert EXAMPLE_FILES and BROKEN_FILES and MARKDOWN


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_example_file_loads_and_checks(path, monkeypatch):
    variant = patience.find_variant(str(path))
    assert variant.deal(1).has_moves()
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["check", str(path.relative_to(ROOT))])
    assert result.exit_code == 0, result.output
    assert ": ok: " in result.output


@pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.name)
def test_broken_example_fails_check(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["check", str(path.relative_to(ROOT))])
    assert result.exit_code == 1, result.output


# --- (b) complete variants shown in the docs -------------------------------------------

FULL_VARIANTS = [b for b in blocks("yaml") if b[2] == "yaml"
                 and re.search(r"^id:", b[3], re.MULTILINE)]


def test_the_docs_show_full_variants():
    assert len(FULL_VARIANTS) >= 2


@pytest.mark.parametrize("block", FULL_VARIANTS, ids=block_id)
def test_variant_shown_in_docs_loads(block):
    _, _, _, text = block
    variant = load_variant_text(text, str(EXAMPLES / "shown-in-docs.yaml"))
    assert variant.deal(1).has_moves()
    files = {patience.find_variant(str(path)).id: path for path in EXAMPLE_FILES}
    if variant.id in files:
        assert text == files[variant.id].read_text(encoding="utf-8"), \
            f"the block differs from {files[variant.id].relative_to(ROOT)}"


# --- (c) commands shown in the docs ----------------------------------------------------


def commands(text: str) -> list[tuple[str, list[str] | None]]:
    """(command line, expected output lines or None) for each '$ patience' line."""
    found: list[tuple[str, list[str] | None]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("$ "):
            if current is not None:
                found[-1] = (found[-1][0], current or None)
            if line.startswith("$ patience "):
                found.append((line[2:], []))
                current = []
            else:
                current = None
        elif current is not None:
            current.append(line.rstrip())
    if current is not None and found:
        found[-1] = (found[-1][0], current or None)
    return found


COMMANDS = [(f"{name}:{line}", command, output)
            for name, line, _, text in blocks("console", "sh")
            for command, output in commands(text)]


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where an expected '...' line matches any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def test_the_docs_show_commands():
    assert len(COMMANDS) >= 5


@pytest.mark.parametrize("where, command, output", COMMANDS,
                         ids=[f"{w} {c}" for w, c, _ in COMMANDS])
def test_command_shown_in_docs(where, command, output, monkeypatch):
    monkeypatch.chdir(ROOT)
    # a search's progress lines appear after a second, so on a busy machine only: the docs
    # show what a quick machine prints (--quiet's output)
    monkeypatch.setattr("patience.cli.progress.SHOW_AFTER", float("inf"))
    status = 0
    exit_comment = _EXIT.search(command)
    if exit_comment:
        status = int(exit_comment.group(1))
        command = command[: exit_comment.start()]
    args = shlex.split(command, comments=True)
    assert args[0] == "patience"
    result = CliRunner().invoke(main, args[1:])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{where}: {command} raised {result.exception!r}"
    assert result.exit_code == status, f"{where}: {command}\n{result.output}"
    if output is not None:
        actual = [line.rstrip() for line in result.output.rstrip("\n").splitlines()]
        assert matches(output, actual), (
            f"{where}: {command}\n--- shown:\n" + "\n".join(output)
            + "\n--- actual:\n" + "\n".join(actual))


# --- (d) rule fragments and the errors the docs say they give ---------------------------

CHECKS = blocks("yaml")
CHECKS = [b for b in CHECKS if b[2].split()[1:2] == ["check"]]


def test_the_docs_show_rule_errors():
    assert sum("# error:" in b[3] for b in CHECKS) >= 10


@pytest.mark.parametrize("block", CHECKS, ids=block_id)
def test_fragment_gives_the_error_shown(block):
    _, _, _, text = block
    expected = [line.split("# error:", 1)[1].strip() for line in text.splitlines()
                if line.lstrip().startswith("# error:")]
    fragment = yaml.safe_load(text) or {}
    assert isinstance(fragment, dict)
    header = "extends: tabbycat\nid: probe\nname: Probe\ndescription: A fragment from the docs.\n"
    try:
        load_variant_text(header + text, str(EXAMPLES / "probe.yaml"))
    except VariantError as error:
        messages = [e.message for e in getattr(error, "errors", [error])]
    else:
        messages = []
    assert messages == expected


# --- (e) links between the documents -------------------------------------------------------

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
LINKED_FILES = [ROOT / "README.md", ROOT / "bench" / "README.md", *MARKDOWN]


def anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in headings}


def test_the_docs_link_to_each_other():
    assert (DOCS / "rules.md").is_file()  # the rules reference the docstrings cite
    links = 0
    for path in LINKED_FILES:
        for target in _LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            where = f"{path.relative_to(ROOT)} links to {target}"
            assert linked.exists(), f"{where}: no such file"
            if anchor and linked.suffix == ".md":
                assert anchor in anchors(linked), f"{where}: no such heading"
            links += 1
    assert links >= 20
