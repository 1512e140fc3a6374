"""Hostile user data (issue #10): saves, statistics files and study databases.

Whatever is found where a save, a statistics file or a results database should be — junk
bytes, JSON nested 100,000 deep, integers of thousands of digits, nulls and wrong types,
unknown versions, another program's SQLite file, a FIFO, a device, a directory, a
read-only folder — patience says what is wrong in one line (a PatienceError, or a clean
exit status 0/1/2 from the CLI), in bounded time, and leaves the file byte for byte as it
was. A game is never lost: a save that cannot go where it should goes to a fallback file.

Explicit regression tests first, then hypothesis fuzzing over file contents.
"""

from __future__ import annotations

import errno
import functools
import itertools
import json
import os
import sqlite3
import tempfile
import threading
import time
from concurrent.futures import Executor, Future
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience import Game, find_variant
from patience.cards import parse_cards
from patience.cli.main import main
from patience.errors import PatienceError
from patience.play import saves
from patience.play.session import Session
from patience.studies.database import (
    APPLICATION_ID,
    SCHEMA,
    SCHEMA_BEFORE_3,
    SCHEMA_VERSION,
    DealRanges,
    DealResult,
    ResultsDatabase,
    RunKey,
    StudyError,
    StudyStopped,
)
from patience.studies.runner import (
    DEAL_WINDOW,
    Study,
    Workers,
    parse_deals,
    pending_chunks,
)

STANDIN = "test_studies_standins:standin_solve"
WON_BUT_ONE = {"c1": "KSQSJSTS9S8S7S6S5S4S3S2SAS", "f1": "KCQCJCTC9C8C7C6C5C4C3C2CAC",
               "f2": "KDQDJDTD9D8D7D6D5D4D3D2DAD", "f3": "KHQHJHTH9H8H7H6H5H4H3H2HAH"}
FUZZ = settings(max_examples=40, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
#: the longest any single hostile read, open or parse may take, in seconds (generous: the
#: machine is shared)
BOUND = 5.0

HOSTILE_SAVES = {
    "100,000 brackets": "[" * 100_000,
    "an integer over 4,300 digits": '{"format": "patience-save", "version": '
                                    + "9" * 5000 + "}",
    "redo holding null": None,  # filled in from a real save below
    "not UTF-8": b"\xff\xfe{\x00",
    "NaN": '{"format": "patience-save", "version": NaN}',
    "a duplicate key": '{"format": "patience-save", "format": "patience-save"}',
    "a list": "[1, 2, 3]",
    "version 99": '{"format": "patience-save", "version": 99}',
    "version true": '{"format": "patience-save", "version": true}',
}


@pytest.fixture(autouse=True)
def data_directory(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(_made(tmp_path / "tmp")))
    return folder


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def position(name: str, **piles: str) -> Game:
    variant = find_variant(name)
    split = lambda codes: " ".join(codes[i:i + 2] for i in range(0, len(codes), 2))
    return Game(variant, [parse_cards(split(piles.get(p, ""))) for p in variant.pile_names], [])


@functools.cache
def good_save() -> dict:
    session = Session(find_variant("tabbycat").deal(1), record_stats=False)
    session.apply("d")
    session.apply("u")
    return {**session.to_save(), "format": saves.SAVE_FORMAT, "version": saves.SAVE_VERSION}


def hostile(name: str) -> bytes:
    content = HOSTILE_SAVES[name]
    if content is None:
        content = json.dumps({**good_save(), "redo": [None]})
    return content if isinstance(content, bytes) else content.encode()


def timed(function, *args, **kwargs):
    """``function(*args)`` in a thread that must end within BOUND seconds (a FIFO opened
    for reading would block it forever)."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(BOUND)
    assert not thread.is_alive(), f"{function.__name__} did not return within {BOUND} s"
    assert time.monotonic() - started < BOUND
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def one_line_error(text: str) -> str:
    """The ``error: …`` line of a CLI run, checked to be the only error and one line."""
    errors = [line for line in text.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, text
    assert "Traceback" not in text
    return errors[0]


@pytest.fixture
def unwritable(monkeypatch):
    """Make folders refuse new files: chmod 555 (not enough for root), and tempfile.mkstemp
    failing with EACCES there (which is how every write of ours starts)."""
    blocked: list[Path] = []
    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):
        if dir is not None and Path(dir).resolve() in blocked:
            raise PermissionError(errno.EACCES, "Permission denied", str(dir))
        return real(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)

    def block(folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        blocked.append(folder.resolve())
        folder.chmod(0o555)
        return folder

    yield block
    for folder in blocked:
        folder.chmod(0o755)


# -- saves: explicit regressions --------------------------------------------------------


@pytest.mark.parametrize("name", list(HOSTILE_SAVES))
def test_a_hostile_save_is_one_line_on_resume_and_left_untouched(data_directory, name):
    content = hostile(name)
    path = _made(data_directory) / "save.json"
    path.write_bytes(content)
    result = timed(CliRunner().invoke, main, ["play", "--resume", "--plain"])
    assert result.exit_code == 2, result.output
    line = one_line_error(result.output)
    assert str(path) in line and "left untouched" in line
    assert path.read_bytes() == content


def played_beside_a_kept_save(data_directory: Path, content: bytes) -> tuple[str, Path]:
    """A new game of Tabby Cat played (one deal) and quit with ``content`` as the variant's
    own save: the save is never replaced, and the game goes to a fallback file, which the
    note and the message name. The output, and that file."""
    path = _made(data_directory / "saves") / "tabbycat.json"  # this variant's own save
    path.write_bytes(content)
    result = CliRunner().invoke(main, ["play", "tabbycat", "--seed", "3", "--plain"],
                                input="d\nq\n")
    assert result.exit_code == 0, result.output
    assert "note: the saved game" in result.output and "saved to a new file" in result.output
    assert "deals left 11" in result.output  # the game was played
    assert path.read_bytes() == content  # never replaced
    (fallback,) = [p for p in data_directory.iterdir() if p.is_file()]
    assert f"the game was saved to {fallback} instead" in result.output
    return result.output, fallback


@pytest.mark.parametrize("name", ["100,000 brackets", "an integer over 4,300 digits",
                                  "redo holding null"])
def test_a_new_game_with_a_hostile_save_plays_and_goes_to_a_fallback_file(data_directory,
                                                                          name):
    content = hostile(name)
    path = data_directory / "saves" / "tabbycat.json"
    _, fallback = played_beside_a_kept_save(data_directory, content)
    # and it resumes from there
    resumed = CliRunner().invoke(main, ["play", "--resume", "--save-file", str(fallback),
                                        "--plain"], input="u\nq\n")
    assert resumed.exit_code == 0, resumed.output
    assert "undid d" in resumed.output
    assert f"saved to {fallback}; resume with 'patience play --resume --save-file" \
        in resumed.output
    assert path.read_bytes() == content


@pytest.mark.parametrize("name", ["100,000 brackets", "an integer over 4,300 digits",
                                  "a duplicate key", "version 99"])
def test_a_hostile_statistics_file_never_loses_the_win_or_the_game(data_directory, name):
    content = hostile(name).replace(b"patience-save", b"patience-stats")
    path = _made(data_directory) / "stats.json"
    path.write_bytes(content)
    session = Session(position("tabbycat", **WON_BUT_ONE))
    reply = timed(session.apply, "c1:13-f")
    assert "You won!" in reply.text and "statistics not recorded" in reply.text
    assert str(path) in reply.text and "\n" not in reply.text
    assert session.apply("u").changed  # the game goes on
    assert "You won!" in session.apply("c1:13-f").text
    assert "statistics file" in session.apply("stats").text
    assert session.save().startswith("saved to")  # the unrecorded win is kept
    assert path.read_bytes() == content


@pytest.mark.parametrize("record, words", [
    ({"games": "1", "wins": 0, "streak": 0, "best_streak": 0}, "variants['tabbycat'].games"),
    ({"games": True, "wins": 0, "streak": 0, "best_streak": 0}, "not a whole number"),
    ({"games": -1, "wins": 0, "streak": 0, "best_streak": 0}, "-1"),
    ({"games": 1, "wins": 2, "streak": 0, "best_streak": 0}, "wins <= games"),
    ({"games": 1, "wins": 0, "streak": 0}, "no variants['tabbycat'].best_streak"),
    ({"games": 1, "wins": 0, "streak": 0, "best_streak": 0, "x": 1}, "does not know"),
    (None, "not an object"),
])
def test_every_statistics_field_is_checked(data_directory, record, words):
    path = _made(data_directory) / "stats.json"
    path.write_text(json.dumps({"format": "patience-stats", "version": 1,
                                "variants": {"tabbycat": record}}))
    before = path.read_bytes()
    with pytest.raises(saves.SaveError, match="statistics file") as caught:
        saves.record_result("tabbycat", True)
    assert words in str(caught.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize("field, value, words", [
    ("moves", [None], "'moves' is [None]"),
    ("moves", "d", "a list of moves"),
    ("redo", [1], "'redo'"),
    ("deal_number", -1, "a deal number"),
    ("deal_number", 2**64, "a deal number"),
    ("deal_number", 1.5, "a deal number"),
    ("label", "\x1b[2J", "printable"),
    ("variant", "", "a variant name"),
    ("recorded", "yes", "true or false"),
    ("start", None, "a position"),
    ("moves", ["d"] * (saves.MAX_MOVES + 1), "too long"),
    ("variant_path", "relative/manx.yaml", "absolute path"),
    ("surprise", 1, "does not know ('surprise')"),
    ("proven", 0, "'proven' is 0, not a positions budget from 1 to 10,000,000"),
    ("proven", 10_000_001, "not a positions budget"),
    ("proven", 2**64, "not a positions budget"),
    ("proven", "1000000", "not a positions budget"),
    ("proven", True, "not a positions budget"),
    ("proven", 1e6, "not a positions budget"),
])
def test_every_save_field_is_checked(data_directory, field, value, words):
    path = _made(data_directory) / "save.json"
    path.write_text(json.dumps({**good_save(), field: value}))
    before = path.read_bytes()
    with pytest.raises(saves.SaveError) as caught:
        saves.read_save()
    assert words in str(caught.value) and str(path) in str(caught.value)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == before


def test_a_save_missing_a_field_says_which(data_directory):
    path = _made(data_directory) / "save.json"
    path.write_text(json.dumps({k: v for k, v in good_save().items() if k != "start"}))
    with pytest.raises(saves.SaveError, match=r"incomplete \(no 'start'\)"):
        saves.read_save()


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _oversized(path: Path) -> None:
    with open(path, "wb") as file:
        file.truncate(saves.MAX_FILE_BYTES + 1)  # sparse: no 4 MiB written


FILE_KINDS = {
    "a FIFO": lambda path: _fifo(path),
    "a symbolic link to a FIFO": lambda path: path.symlink_to(_fifo(path.with_name("fifo"))),
    "a symbolic link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
    "a directory": lambda path: path.mkdir(),
    "a symbolic link loop": lambda path: path.symlink_to(path),
    "over the size limit": lambda path: _oversized(path),
}
KIND_WORDS = {"a FIFO": "FIFO", "a symbolic link to a FIFO": "FIFO",
              "a symbolic link to /dev/zero": "character device", "a directory": "directory",
              "a symbolic link loop": "cannot be read", "over the size limit": "too large"}


def _snapshot(path: Path) -> tuple:
    """What must not change: the kind of file and, for a regular file, its bytes."""
    info = os.lstat(path)
    if os.path.islink(path):
        return ("link", os.readlink(path))
    if os.path.isfile(path):
        return ("file", info.st_size, info.st_mtime_ns)
    return ("other", info.st_mode, info.st_mtime_ns)


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(),
                    reason="needs POSIX FIFOs and /dev/zero")
@pytest.mark.parametrize("kind", list(FILE_KINDS))
@pytest.mark.parametrize("which", ["save", "stats"])
def test_special_files_are_refused_at_once_and_left_alone(data_directory, kind, which):
    path = (_made(data_directory / "saves") / "manx.json" if which == "save"
            else _made(data_directory) / "stats.json")
    FILE_KINDS[kind](path)
    before = _snapshot(path)
    read = saves.read_save if which == "save" else saves.read_stats
    with pytest.raises(saves.SaveError) as caught:
        timed(read, path)
    assert KIND_WORDS[kind] in str(caught.value) and str(path) in str(caught.value)
    if which == "save":
        message = timed(Session(find_variant("manx").deal(2)).save)
        assert "saved to" in message and "instead" in message
    else:
        reply = timed(Session(position("tabbycat", **WON_BUT_ONE)).apply, "c1:13-f")
        assert "You won!" in reply.text and "statistics not recorded" in reply.text
    assert _snapshot(path) == before


def test_writing_through_a_symbolic_link_keeps_the_link(data_directory, tmp_path):
    real = _made(tmp_path / "elsewhere") / "my-save.json"
    link = _made(data_directory / "saves") / "manx.json"
    link.symlink_to(real)
    assert saves.read_save(link) is None  # a link to a file not there yet: no save yet
    session = Session(find_variant("manx").deal(4))
    session.apply("d")
    assert session.save().startswith(f"saved to {link}")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert saves.read_save(real)["moves"] == ["d"]
    real.chmod(0o640)
    session.apply("u")
    session.save()
    assert link.is_symlink() and saves.read_save(link)["moves"] == []
    assert real.stat().st_mode & 0o777 == 0o640  # the target's permissions are kept
    assert sorted(p.name for p in real.parent.iterdir()) == ["my-save.json"]  # no temp left
    # statistics through a link too
    stats = tmp_path / "elsewhere" / "stats.json"
    (data_directory / "stats.json").symlink_to(stats)
    Session(position("tabbycat", **WON_BUT_ONE)).apply("c1:13-f")
    assert (data_directory / "stats.json").is_symlink()
    assert saves.read_stats(stats)["tabbycat"]["wins"] == 1


def test_a_finished_game_removes_the_target_of_a_linked_save(data_directory, tmp_path):
    real = _made(tmp_path / "elsewhere") / "my-save.json"
    link = _made(data_directory / "saves") / "tabbycat.json"
    link.symlink_to(real)
    session = Session(position("tabbycat", **WON_BUT_ONE))
    session.save()  # this game's save (another game's is kept: test_play_session.py)
    session.apply("c1:13-f")
    assert session.save() == ""
    assert link.is_symlink() and not real.exists()


def test_a_read_only_data_folder_never_loses_the_game(data_directory, tmp_path, unwritable):
    unwritable(data_directory / "saves")
    unwritable(data_directory)
    session = Session(find_variant("manx").deal(6))
    session.apply("d")
    message = session.save()
    assert "cannot write the saved game" in message and "Permission denied" in message
    (fallback,) = (tmp_path / "tmp").glob("patience-save-*.json")
    assert f"saved to {fallback} instead" in message
    assert f"--resume --save-file {fallback}" in message
    resumed = Session.from_save(saves.read_save(fallback), path=fallback)
    assert resumed.game.text() == session.game.text()
    session.apply("u")
    assert f"saved to {fallback} instead" in session.save()  # the same fallback again
    assert len(list((tmp_path / "tmp").glob("patience-save-*.json"))) == 1
    # the statistics cannot be written either: the win is still reported
    reply = Session(position("tabbycat", **WON_BUT_ONE)).apply("c1:13-f")
    assert "You won!" in reply.text and "statistics not recorded" in reply.text


def test_a_data_folder_that_cannot_exist_never_loses_the_game(tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "a-file" / "data"))
    result = CliRunner().invoke(main, ["play", "manx", "--seed", "2", "--plain"],
                                input="d\nq\n")
    assert result.exit_code == 0, result.output
    (fallback,) = (tmp_path / "tmp").glob("patience-save-*.json")
    assert f"saved to {fallback} instead" in result.output


def test_when_nothing_can_be_written_the_message_says_the_game_was_not_saved(
        data_directory, tmp_path, unwritable):
    unwritable(data_directory / "saves")
    unwritable(data_directory)
    unwritable(tmp_path / "tmp")
    message = Session(find_variant("manx").deal(6)).save()
    assert message.startswith("the game was NOT saved")
    assert str(data_directory) in message and str(tmp_path / "tmp") in message


def test_the_variant_is_saved_as_an_absolute_path(tmp_path, monkeypatch):
    variant = find_variant("manx")
    folder = _made(tmp_path / "mine")
    (folder / "mymanx.yaml").write_text(variant.text.replace("id: manx\n", "id: mymanx\n"))
    monkeypatch.chdir(folder)
    session = Session(find_variant("mymanx.yaml").deal(9))
    session.apply("d")
    session.save()
    data = saves.read_save(saves.save_path("mymanx"))
    assert data["version"] == 2 and data["variant_path"] == str(folder / "mymanx.yaml")
    monkeypatch.chdir(_made(tmp_path / "somewhere-else"))
    result = CliRunner().invoke(main, ["play", "--resume", "--plain"], input="u\nq\n")
    assert result.exit_code == 0, result.output
    assert "undid d" in result.output


def test_an_old_save_with_a_relative_variant_path_is_read_the_old_way(data_directory,
                                                                      tmp_path, monkeypatch):
    variant = find_variant("manx")
    folder = _made(tmp_path / "mine")
    (folder / "mymanx.yaml").write_text(variant.text.replace("id: manx\n", "id: mymanx\n"))
    monkeypatch.chdir(folder)
    mine = find_variant("mymanx.yaml")
    old = {**Session(mine.deal(9)).to_save(), "variant_path": "mymanx.yaml",
           "format": "patience-save", "version": 1}
    path = _made(data_directory) / "save.json"
    path.write_text(json.dumps(old))
    assert Session.from_save(saves.read_save()).variant.rules_hash == mine.rules_hash
    monkeypatch.chdir(tmp_path)  # from elsewhere, as before: not found, and said so
    with pytest.raises(saves.SaveError, match="not available here"):
        Session.from_save(saves.read_save())


def test_a_save_with_an_illegal_move_is_refused_not_replayed(data_directory):
    path = _made(data_directory) / "save.json"
    path.write_text(json.dumps({**good_save(), "moves": ["c1:13-f"]}))
    with pytest.raises(saves.SaveError, match="cannot be replayed"):
        Session.from_save(saves.read_save())



def test_a_save_that_does_not_start_as_its_deal_is_named_once(data_directory):
    path = _made(data_directory / "saves") / "elsewhere.json"
    path.write_text(json.dumps({**good_save(), "deal_number": 0}))
    with pytest.raises(saves.SaveError) as refused:
        Session.from_save(saves.read_save(path), path=path)
    message = str(refused.value)
    assert message.count(str(path)) == 1 and message.count("left untouched") == 1
    assert "does not start as that deal does" in message


@pytest.mark.parametrize("field, value", [
    ("deal_number", 0),  # does not start as that deal does
    ("rules_hash", "0" * 16),  # its variant changed
    ("moves", ["c1:13-f"]),  # cannot be replayed
])
def test_a_save_that_reads_but_cannot_be_resumed_is_never_replaced(data_directory, field,
                                                                    value):
    # read as a save, but no game can be made of it: another game saved there would lose it
    played_beside_a_kept_save(data_directory, json.dumps({**good_save(), field: value}).encode())


# -- saves and statistics: fuzzing ---------------------------------------------------------

ATOMS = st.one_of(
    st.sampled_from(["null", "true", "false", "0", "-1", "1.5", "1e999", "-0", "NaN",
                     "Infinity", '""', '"\\ud800"', '"\\u001b[2J"', "18446744073709551616",
                     '"d"', '["d"]', "[]", "{}", '"patience-save"', '"patience-stats"']),
    st.integers(4000, 6000).map(lambda digits: "9" * digits),
    st.integers(500, 5000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(500, 5000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    st.text(max_size=20).map(json.dumps),
    st.integers().map(str),
)
JSON_VALUES = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: "[" + ",".join(items) + "]"),
        st.dictionaries(st.text(max_size=8).map(json.dumps), inner, max_size=4).map(
            lambda pairs: "{" + ",".join(f"{k}:{v}" for k, v in pairs.items()) + "}")),
    max_leaves=8)


def mutated_object(good: dict) -> st.SearchStrategy[bytes]:
    """``good`` as JSON text with some fields replaced by hostile values, dropped, or
    joined by unknown ones; or cut short; or random bytes."""
    def build(replaced: dict, dropped: list, cut: int | None) -> bytes:
        fields = {json.dumps(k): json.dumps(v) for k, v in good.items() if k not in dropped}
        fields.update({json.dumps(k): v for k, v in replaced.items()})
        text = "{" + ",".join(f"{k}:{v}" for k, v in fields.items()) + "}"
        return text[:cut].encode() if cut is not None else text.encode()

    names = st.sampled_from([*good, "extra"])
    return st.one_of(
        st.builds(build, st.dictionaries(names, JSON_VALUES, max_size=3),
                  st.lists(names, max_size=2), st.none() | st.integers(0, 400)),
        st.binary(max_size=300),
        JSON_VALUES.map(str.encode),
    )


def good_stats() -> dict:
    return {"format": "patience-stats", "version": 1, "variants": {
        "tabbycat": {"games": 3, "wins": 2, "streak": 1, "best_streak": 2}}}


@FUZZ
@given(content=mutated_object(good_save()))
def test_fuzz_saves(content):
    with tempfile.TemporaryDirectory() as folder:
        os.environ["PATIENCE_DATA_DIR"] = folder
        path = _made(Path(folder) / "saves") / "manx.json"
        path.write_bytes(content)
        started = time.monotonic()
        try:
            data = saves.read_save(path)
            session = Session.from_save(data, path=path) if data is not None else None
        except saves.SaveError as error:
            assert str(path) in str(error) and "\n" not in str(error)
            assert path.read_bytes() == content
            message = Session(find_variant("manx").deal(1)).save()
            assert "instead" in message and path.read_bytes() == content
            assert len(list(Path(folder).iterdir())) == 2
        else:
            assert session is not None
            assert session.save().startswith("saved to")
        assert time.monotonic() - started < BOUND


@FUZZ
@given(content=mutated_object(good_stats()))
def test_fuzz_statistics(content):
    with tempfile.TemporaryDirectory() as folder:
        os.environ["PATIENCE_DATA_DIR"] = folder
        path = Path(folder) / "stats.json"
        path.write_bytes(content)
        started = time.monotonic()
        try:
            before = saves.read_stats()
        except saves.SaveError:
            before = None
        reply = Session(position("tabbycat", **WON_BUT_ONE)).apply("c1:13-f")
        assert "You won!" in reply.text
        if before is None:
            assert "statistics not recorded" in reply.text
            assert path.read_bytes() == content
        else:
            wins = before.get("tabbycat", {}).get("wins", 0)
            assert saves.read_stats()["tabbycat"]["wins"] == wins + 1
        assert time.monotonic() - started < BOUND


# -- study databases: explicit regressions ---------------------------------------------

KEY = RunKey("86ccea545ac5a72f", "test-1", 1000)


def results(*deals: int) -> list[DealResult]:
    return [DealResult(deal, "won", 10, 0.5, ("d",)) for deal in deals]


def stats(db: Path, *more: str, deals: str = "1-6"):
    return CliRunner().invoke(main, ["stats", "manx", "--deals", deals, "--db", str(db),
                                     "--solver", STANDIN, "--quiet", *more])


def report(db: Path, *more: str):
    return CliRunner().invoke(main, ["report", "--db", str(db), *more])


@pytest.fixture
def threads(monkeypatch):
    """``patience stats`` on two threads instead of worker processes (fast)."""
    from concurrent.futures import ThreadPoolExecutor

    import patience.studies.runner as cli  # what patience stats takes its workers from

    executor = ThreadPoolExecutor(2)
    monkeypatch.setattr(cli, "Workers",
                        lambda workers, scheduler: Workers.using(executor, 2, "2 threads"))
    yield executor
    executor.shutdown()


def test_a_huge_deal_range_is_counted_and_walked_without_a_list(tmp_path):
    started = time.monotonic()
    deals = parse_deals("1-10000000000,0-18446744073709551615")
    assert deals.spans == ((0, 2**64 - 1),) and deals.count == 2**64
    assert 2**64 - 1 in deals and 2**64 not in deals
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        database.record_chunk(KEY, results(2, 4))
        chunks = pending_chunks(parse_deals("1-10000000000"), database, KEY, 3)
        assert [next(chunks) for _ in range(3)] == [(1, 3, 5), (6, 7, 8), (9, 10, 11)]
        assert database.counts(KEY, deals)["won"] == 2
    assert time.monotonic() - started < BOUND


@pytest.mark.parametrize("text, words", [
    ("1-18446744073709551616", "goes past the last deal number"),
    ("-1", "N-M"), ("1-" + "9" * 5000, "N-M"), ("1--2", "N-M"), ("٣", "N-M"),
    ("1," * 60_000, "too long"),
])
def test_bad_deal_ranges_are_bad_arguments(tmp_path, text, words):
    with pytest.raises(StudyError, match=words):
        parse_deals(text)
    result = timed(stats, tmp_path / "r.sqlite", deals=text)
    assert result.exit_code == 2 and words in one_line_error(result.output)
    assert not (tmp_path / "r.sqlite").exists()


def test_deals_from_2_to_the_63_on_are_stored_and_reported(tmp_path, threads):
    db = tmp_path / "r.sqlite"
    top = 2**64 - 1
    deals = f"9223372036854775806-9223372036854775809,{top - 2}-{top}"
    result = stats(db, deals=deals)
    assert result.exit_code == 0, result.output
    assert "7 deals (0 already stored, 7 solved" in result.output
    again = stats(db, deals=deals)
    assert "7 deals (7 already stored, 0 solved" in again.output
    shown = report(db, "--json")
    assert shown.exit_code == 0, shown.output
    summary = json.loads(shown.output)
    assert (summary["deals"], summary["first_deal"], summary["last_deal"]) == (
        7, 2**63 - 2, top)


def _old_database(path: Path) -> None:
    """A results file as patience 0.1 wrote it: schema 1, no application id."""
    with sqlite3.connect(path) as connection:
        connection.executescript(SCHEMA_BEFORE_3 + "PRAGMA user_version = 1;")
        connection.execute(
            "INSERT INTO variants VALUES (?, 'manx', 'Manx', '...')",
            (find_variant("manx").rules_hash,))
        connection.execute(
            "INSERT INTO results (rules_hash, solver_version, deal, budget, verdict, "
            "positions, seconds) VALUES (?, ?, 3, 1000000, 'won', 31, 0.0)",
            (find_variant("manx").rules_hash, f"{STANDIN}@standin-1"))
    connection.close()


def test_an_old_database_is_reported_as_it_is_and_upgraded_by_stats(tmp_path, threads):
    db = tmp_path / "old.sqlite"
    _old_database(db)
    before = db.read_bytes()
    shown = report(db, "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["won"] == 1
    assert db.read_bytes() == before
    result = stats(db, deals="1-6")
    assert result.exit_code == 0, result.output
    assert "(1 already stored, 5 solved" in result.output
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert connection.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 6
    connection.close()


def _foreign(path: Path, script: str) -> bytes:
    connection = sqlite3.connect(path)
    connection.executescript(script)
    connection.close()
    return path.read_bytes()


FOREIGN = {
    "another results table": "CREATE TABLE results (id INTEGER PRIMARY KEY, score REAL);"
                             "INSERT INTO results VALUES (1, 2.5);",
    "our tables and one more": SCHEMA + "CREATE TABLE notes (text TEXT);"
                               "PRAGMA user_version = 1;",
    "another application id": "PRAGMA application_id = 1234; CREATE TABLE t (x);",
    "another user_version": SCHEMA + "PRAGMA user_version = 7;",
    "a newer patience": f"PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 3;"
                        "CREATE TABLE t (x);",
    "a view": SCHEMA + "CREATE VIEW everything AS SELECT * FROM results;",
    "a WAL-mode file": "PRAGMA journal_mode=WAL; CREATE TABLE results (x); "
                       "INSERT INTO results VALUES (1);",
}


@pytest.mark.parametrize("name", list(FOREIGN))
def test_a_database_we_did_not_make_is_refused_before_anything_is_written(tmp_path, name):
    db = _made(tmp_path / "theirs") / "theirs.sqlite"
    before = _foreign(db, FOREIGN[name])
    for result in (stats(db), report(db)):
        assert result.exit_code == 2, result.output
        line = one_line_error(result.output)
        assert str(db) in line
        assert "did not make" in line or "another program" in line or "upgrade" in line
    assert db.read_bytes() == before
    if "WAL" not in name:  # reading a WAL-mode file makes SQLite's -wal and -shm files
        assert [p.name for p in db.parent.iterdir()] == ["theirs.sqlite"]


def test_an_empty_file_is_ours(tmp_path, threads):
    db = tmp_path / "new.sqlite"
    db.write_bytes(b"")
    assert stats(db).exit_code == 0
    with ResultsDatabase(db, read_only=True) as database:
        assert database.counts(Study.of(find_variant("manx"), 1_000_000, STANDIN).key,
                               range(1, 7)) == {"won": 2, "unwinnable": 2, "unknown": 2}


@pytest.mark.parametrize("content, words", [
    (b"not sqlite " * 20, "not an SQLite database"),
    (b"SQLite format 3\x00" + b"\xff" * 200, "cannot use results database"),
])
def test_junk_is_refused_and_left_untouched(tmp_path, content, words):
    db = tmp_path / "junk.sqlite"
    db.write_bytes(content)
    for result in (stats(db), report(db)):
        assert result.exit_code == 2 and words in one_line_error(result.output)
    assert db.read_bytes() == content


def test_a_database_whose_schema_text_is_not_utf8_is_refused(tmp_path):
    # found by test_fuzz_database_files: sqlite3 raised UnicodeDecodeError (decoding
    # SQLite's message 'malformed database schema … near "\x80EY"'), not an Error
    db = tmp_path / "damaged.sqlite"
    content = bytearray(our_database())
    content[content.index(b"PRIMARY KEY") + len("PRIMARY ")] = 0x80  # SQLite quotes it
    db.write_bytes(bytes(content))
    for read_only in (True, False):
        with pytest.raises(StudyError, match="not UTF-8|malformed"):
            ResultsDatabase(db, read_only=read_only)
    result = report(db)
    assert result.exit_code == 2 and str(db) in one_line_error(result.output)
    assert db.read_bytes() == bytes(content)


def test_report_opens_the_database_read_only(tmp_path, threads):
    db = tmp_path / "r.sqlite"
    assert stats(db).exit_code == 0
    db.chmod(0o444)
    before, mtime = db.read_bytes(), db.stat().st_mtime_ns
    shown = report(db)
    assert shown.exit_code == 0, shown.output
    assert "deals       6" in shown.output
    assert db.read_bytes() == before and db.stat().st_mtime_ns == mtime
    db.chmod(0o644)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root writes in a read-only folder")
def test_report_works_in_a_read_only_folder(tmp_path, threads):
    folder = _made(tmp_path / "ro")
    db = folder / "r.sqlite"
    assert stats(db).exit_code == 0
    folder.chmod(0o555)
    try:
        shown = report(db)
        assert shown.exit_code == 0, shown.output
        assert "deals       6" in shown.output
    finally:
        folder.chmod(0o755)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_a_db_that_is_a_fifo_or_under_a_file_is_a_clear_error(tmp_path):
    fifo = _fifo(tmp_path / "fifo.sqlite")
    for result in (timed(stats, fifo), timed(report, fifo)):
        assert result.exit_code == 2 and "FIFO" in one_line_error(result.output)
    zero = tmp_path / "zero.sqlite"
    zero.symlink_to("/dev/zero")
    for result in (timed(stats, zero), timed(report, zero)):
        assert result.exit_code == 2 and "a device" in one_line_error(result.output)
    (tmp_path / "a-file").write_text("x")
    result = stats(tmp_path / "a-file" / "r.sqlite")
    assert result.exit_code == 2
    assert "is a file" in one_line_error(result.output)
    assert (tmp_path / "a-file").read_text() == "x"
    with pytest.raises(StudyError, match="is a file"):
        ResultsDatabase(tmp_path / "a-file" / "deeper" / "r.sqlite")


class DyingExecutor(Executor):
    """Solves ``good`` chunks on this thread, then fails every chunk with ``error``."""

    def __init__(self, good: int, error: BaseException) -> None:
        self.good, self.error = good, error

    def submit(self, function, /, *args, **kwargs):
        future: Future = Future()
        if self.good > 0:
            self.good -= 1
            future.set_result(function(*args, **kwargs))
        else:
            future.set_exception(self.error)
        return future


def killed_worker() -> BaseException:
    """What Dask raises when the workers running a task died again and again."""
    import types

    distributed = pytest.importorskip("distributed")
    return distributed.KilledWorker("solve_chunk-1", types.SimpleNamespace(
        address="tcp://127.0.0.1:1234"), 3)


def broken_process_pool() -> BaseException:
    from concurrent.futures.process import BrokenProcessPool

    return BrokenProcessPool("A process in the process pool was terminated abruptly")


LOST_WORKERS = {
    "KilledWorker": killed_worker,
    "BrokenProcessPool": broken_process_pool,
    "OSError": lambda: OSError("connection to the scheduler was lost"),
}


@pytest.mark.parametrize("name", list(LOST_WORKERS))
def test_lost_workers_end_in_one_line_exit_1_and_a_rerun_goes_on(tmp_path, monkeypatch,
                                                                 name):
    error = LOST_WORKERS[name]()
    import patience.studies.runner as cli  # what patience stats takes its workers from

    db = tmp_path / "r.sqlite"
    monkeypatch.setattr(cli, "Workers", lambda workers, scheduler: Workers.using(
        DyingExecutor(2, error), 1))
    result = stats(db, "--chunk-size", "2", deals="1-10")
    assert result.exit_code == 1, result.output
    line = one_line_error(result.output)
    assert type(error).__name__ in line and "4 of 10 deals are stored" in line
    assert "run the same command again to go on" in line
    monkeypatch.setattr(cli, "Workers", lambda workers, scheduler: Workers.using(
        DyingExecutor(100, error), 1))
    again = stats(db, "--chunk-size", "2", deals="1-10")
    assert again.exit_code == 0, again.output
    assert "10 deals (4 already stored, 6 solved" in again.output


def test_a_database_that_cannot_be_written_stops_the_run_with_exit_1(tmp_path, threads,
                                                                     monkeypatch):
    db = tmp_path / "r.sqlite"
    calls = []
    real = ResultsDatabase.record_chunk

    def full_disk(self, key, chunk):
        calls.append(chunk)
        if len(calls) > 1:
            with self._errors("write"):
                raise sqlite3.OperationalError("database or disk is full")
        return real(self, key, chunk)

    monkeypatch.setattr(ResultsDatabase, "record_chunk", full_disk)
    result = stats(db, "--chunk-size", "3", deals="1-12")
    assert result.exit_code == 1
    line = one_line_error(result.output)
    assert "database or disk is full" in line and "3 of 12 deals are stored" in line
    with ResultsDatabase(db, read_only=True) as database:
        assert len(database.finished_deals(Study.of(find_variant("manx"), 1_000_000,
                                                    STANDIN).key)) == 3


# -- study databases: fuzzing -------------------------------------------------------------


@functools.cache
def our_database() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.sqlite"
        with ResultsDatabase(path) as database:
            database.record_chunk(KEY, results(*range(1, 40)))
        return path.read_bytes()


def test_a_damaged_verdict_is_one_line_and_the_file_is_left_untouched(tmp_path):
    # found by test_fuzz_database_files: a flipped byte stored the verdict 48, which
    # SQLite's CHECK constraint never saw, and counting verdicts raised KeyError
    import sqlite3

    path = tmp_path / "r.sqlite"
    path.write_bytes(our_database())
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA ignore_check_constraints = ON")
    connection.execute("UPDATE results SET verdict = 48 WHERE deal = 2")
    connection.commit()
    connection.close()
    content = path.read_bytes()
    message = (f"results database {str(path)!r} is damaged: a result's verdict is '48', not "
               "one of won, unwinnable, unknown; it was left untouched")
    with ResultsDatabase(path, read_only=True) as database:
        for read in (lambda: database.counts(KEY, range(1, 50)),
                     lambda: list(database.results(KEY))):  # what 'patience report' reads
            with pytest.raises(StudyError) as caught:
                read()
            assert str(caught.value) == message
    assert path.read_bytes() == content


def flipped(content: bytes) -> st.SearchStrategy[bytes]:
    def flip(places: list[tuple[int, int]]) -> bytes:
        data = bytearray(content)
        for place, value in places:
            data[place % len(data)] = value
        return bytes(data)
    return st.lists(st.tuples(st.integers(0, len(content) * 4), st.integers(0, 255)),
                    min_size=1, max_size=8).map(flip)


@FUZZ
@given(content=st.one_of(st.binary(max_size=600),
                         st.binary(max_size=600).map(lambda b: b"SQLite format 3\x00" + b),
                         st.just(our_database()).flatmap(flipped)))
def test_fuzz_database_files(content):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.sqlite"
        path.write_bytes(content)
        started = time.monotonic()
        try:
            with ResultsDatabase(path, read_only=True) as database:
                list(database.results(KEY))
                database.counts(KEY, range(1, 50))
                database.variant_names()
        except StudyError as error:
            assert "\n" not in str(error)
        assert path.read_bytes() == content  # read-only: never written, whatever it holds
        ours = content[68:72] == APPLICATION_ID.to_bytes(4, "big")
        try:
            with ResultsDatabase(path) as database:
                database.record_chunk(KEY, results(50))
        except StudyError as error:
            assert "\n" not in str(error)
            if not ours:
                assert path.read_bytes() == content
        else:
            assert ours or content == b"" or content[:16] == b"SQLite format 3\x00"
        assert time.monotonic() - started < BOUND


SQL_NAMES = st.sampled_from(["results", "variants", "notes", "deal", "rules_hash", "x"])


@FUZZ
@given(tables=st.dictionaries(SQL_NAMES, st.lists(SQL_NAMES, min_size=1, max_size=4,
                                                  unique=True), max_size=3),
       application_id=st.sampled_from([0, 0, 1, APPLICATION_ID, -1]),
       user_version=st.sampled_from([0, 1, 2, 3, -5]))
def test_fuzz_foreign_schemas(tables, application_id, user_version):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.sqlite"
        script = "".join(f"CREATE TABLE {name} ({', '.join(columns)});"
                         for name, columns in tables.items())
        content = _foreign(path, script + f"PRAGMA application_id = {application_id};"
                                          f"PRAGMA user_version = {user_version};")
        for read_only in (True, False):
            try:
                with ResultsDatabase(path, read_only=read_only) as database:
                    database.variant_names()
                    if not read_only:
                        database.record_chunk(KEY, results(1))
            except StudyError as error:
                assert "\n" not in str(error)
                assert path.read_bytes() == content
            else:  # only ever a file that is, or says it is, ours
                assert application_id == APPLICATION_ID or (
                    application_id == 0 and user_version in (0, 1) and not tables)


@FUZZ
@given(text=st.text(alphabet="0123456789-, ٣x", max_size=60))
def test_fuzz_deal_ranges(text):
    try:
        deals = parse_deals(text)
    except StudyError as error:
        assert "\n" not in str(error)
        return
    assert all(0 <= first <= last < 2**64 for first, last in deals.spans)
    assert all(a[1] + 1 < b[0] for a, b in zip(deals.spans, deals.spans[1:]))
    small = [n for n in range(300) if n in deals]
    assert small == list(itertools.takewhile(lambda n: n < 300, deals))
    assert DealRanges.of(small).count == len(small)
    assert sum(1 for _ in zip(range(DEAL_WINDOW), deals)) == min(DEAL_WINDOW, deals.count)


def test_the_errors_are_patience_errors_mixed_with_the_fitting_builtin():
    assert issubclass(saves.SaveError, PatienceError) and issubclass(saves.SaveError,
                                                                     ValueError)
    assert issubclass(StudyStopped, StudyError) and issubclass(StudyError, PatienceError)
