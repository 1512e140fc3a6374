"""The play session: commands, undo/redo, end of game, statistics, saves."""

from __future__ import annotations

import datetime
import json
import sys
import time

import pytest

from patience import Game, find_variant, solve
from patience import solver as solver_module
from patience.cards import parse_cards
from patience.errors import SaveError
from patience.play import saves
from patience.play.session import Session

THREE_SUITS_HOME = {"f1": "KCQCJCTC9C8C7C6C5C4C3C2CAC", "f2": "KDQDJDTD9D8D7D6D5D4D3D2DAD",
                    "f3": "KHQHJHTH9H8H7H6H5H4H3H2HAH"}
WON_BUT_ONE = {"c1": "KSQSJSTS9S8S7S6S5S4S3S2SAS", **THREE_SUITS_HOME}
ONE_MOVE_FROM_LOSS = {"c1": "5C", "c2": "9D", "c3": "2H", "c4": "JS7C"}
# The spades on the table, no stock: winnable (the solver's line replays to a win), but
# c4:1-t loses at once: with 8S in the tail the tops KS (on AS), 7S, JS and 3S take nothing
# from each other, no column is empty and the full tail takes nothing: no move is left.
ONE_MOVE_LOSES = {"c1": "5S4SASKS", "c2": "7S", "c3": "TS9S6S2SJS", "c4": "QS3S8S",
                  **THREE_SUITS_HOME}


@pytest.fixture(autouse=True)
def data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def replays_to_a_win(game: Game, moves: tuple[str, ...]) -> bool:
    probe = game.copy()
    for move in moves:
        probe.push(move)  # checked: raises MoveError on an illegal move
    return probe.is_won()


def position(name: str, **piles: str) -> Game:
    variant = find_variant(name)
    split = lambda codes: " ".join(codes[i:i + 2] for i in range(0, len(codes), 2))
    return Game(variant, [parse_cards(split(piles.get(p, ""))) for p in variant.pile_names], [])


def test_moves_undo_and_redo():
    session = Session(find_variant("tabbycat").deal(1))
    start = session.game.text()
    assert session.apply("d").changed
    after_deal = session.game.text()
    assert session.apply("c2:1-c4").changed
    assert session.status() == "deals left 11 · sets 0/4 · moves 2"
    assert session.apply("u").text == "undid c2:1-c4"
    assert session.apply("u").text == "undid d"
    assert session.game.text() == start
    assert session.apply("u").text == "nothing to undo"
    assert session.apply("r").text == "redid d"
    assert session.game.text() == after_deal
    assert session.apply("r").text == "redid c2:1-c4"
    assert session.apply("r").error


def test_a_new_move_clears_the_redo_stack_and_replaying_the_next_one_keeps_it():
    session = Session(find_variant("tabbycat").deal(1))
    session.apply("d")
    session.apply("c2:1-c4")
    session.apply("u")
    session.apply("u")
    session.apply("d")  # the move redo would make: the rest stays redoable
    assert session.apply("r").text == "redid c2:1-c4"
    session.apply("u")
    session.apply("c1:1-t")
    assert session.apply("r").text == "nothing to redo"


def test_an_illegal_move_is_explained_and_changes_nothing():
    session = Session(find_variant("tabbycat").deal(1))
    session.apply("d")
    before = session.game.text()
    reply = session.apply("c1:1-c3")
    assert reply.error and not reply.changed
    assert reply.text == "8♦ can't go on J♦: only a 10 goes there"
    assert session.game.text() == before
    why = session.apply("why").text
    assert why.startswith("c1:1-c3: c3 does not take 8D from c1: piles.columns.accepts")
    assert "goes_on" in why and why == reply.explanation
    assert "cannot read move" in session.apply("hello").text


def test_a_move_typed_without_the_count_picks_the_one_legal_move_or_lists_them():
    session = Session(position("tabbycat", c1="KSQS", c2="9C8H7S", c3="", c4="8D"))
    reply = session.apply("c4-c2")
    assert reply.error and reply.text == "8♦ can't go on 7♠: only a 6 goes there"
    assert session.apply("c2-c3").text == ("c2-c3 could be c2:1-c3, c2:2-c3, c2:3-c3: type one "
                                           "of them")
    assert session.apply("c2-c4").changed  # 7♠ on 8♦: the only move
    assert session.game.text().startswith("c:KSQS/9C8H//8D7S ")
    assert session.apply("c9-c1").text.startswith("c9-c1: there is no pile 'c9'")


def test_tens_are_typed_either_way_and_shown_one_way():
    from patience.cards import card_symbol, parse_card

    assert parse_card("10S") == parse_card("TS") == parse_card("10s")
    assert card_symbol(parse_card("10S")) == "10♠"
    session = Session(position("tabbycat", c1="TS", c2="8H"))
    assert session.apply("c2:1-c1").text.startswith("8♥ can't go on 10♠: ")


def test_restart_goes_back_to_the_start_and_redo_replays():
    session = Session(find_variant("tabbycat").deal(1))
    start = session.game.text()
    session.apply("d")
    session.apply("d")
    assert session.apply("restart").changed and session.game.text() == start
    assert session.apply("restart").text == "the game is at its start already"
    session.apply("r")
    assert len(session.game.move_stack) == 1


def test_auto_finish_moves_the_complete_sets_home():
    session = Session(position(
        "tabbycat", c1="KSQSJSTS9S8S7S6S5S4S3S2SAS", c2="KCQCJCTC9C8C7C6C5C4C3C2CAC",
        f2="KDQDJDTD9D8D7D6D5D4D3D2DAD", f3="KHQHJHTH9H8H7H6H5H4H3H2HAH"), record_stats=False)
    reply = session.apply("a")
    assert reply.changed and reply.text == "auto-finish: c1:13-f c2:13-f You won!"
    assert session.game.is_won()
    assert session.apply("a").text == "nothing can go home now"


def test_click_command_uses_the_click_order():
    session = Session(position("tabbycat", c1="9C", c2="9D", c4="8D"))
    session.apply("click c4")
    assert session.game.text().startswith("c:9C/9D8D//")
    assert session.apply("click c3").text == "c3 is empty"
    assert "no pile" in session.apply("click zz").text


def test_a_win_says_so_and_is_counted():
    session = Session(position("tabbycat", **WON_BUT_ONE), seconds=185)  # 3:05 played before
    reply = session.apply("c1:13-f")
    assert "You won!" in reply.text
    assert ("games 1, wins 1 (100%), streak 1, best streak 1, best time 3:05, average 3:05, "
            "fewest moves 1") in reply.text
    assert saves.read_stats()["tabbycat"] == {"games": 1, "wins": 1, "streak": 1,
                                              "best_streak": 1, "best_seconds": 185,
                                              "won_seconds": 185, "timed_wins": 1,
                                              "fewest_moves": 1}
    session.apply("u")
    session.apply("c1:13-f")  # the same game is counted once
    assert saves.read_stats()["tabbycat"]["games"] == 1


def test_no_move_left_says_so_and_breaks_the_streak():
    session = Session(position("tabbycat", **ONE_MOVE_FROM_LOSS))
    reply = session.apply("c4:1-t")
    assert "No move is left" in reply.text
    assert saves.read_stats()["tabbycat"]["streak"] == 0
    assert session.hint().text.startswith("no move is left")


def test_save_and_resume_round_trip():
    session = Session(find_variant("manx").deal(5))
    session.apply("d")
    session.apply(session.legal_moves_text()[0])
    session.apply("d")
    session.apply("u")
    session.apply("u")
    message = session.save()
    assert "saved to" in message
    data = saves.read_save(saves.save_path("manx"))
    assert data["format"] == "patience-save" and data["version"] == saves.SAVE_VERSION
    resumed = Session.from_save(data)
    assert resumed.game.text() == session.game.text()
    assert resumed.game.move_stack == session.game.move_stack
    assert resumed.redo_stack == session.redo_stack
    assert resumed.game.deal_number == 5
    assert resumed.label == "deal 5"
    assert resumed.apply("r").changed and resumed.apply("r").changed


def test_a_proven_deal_is_still_proven_when_resumed():
    # Spider One Suit deal 4 is proven winnable in 62,274 positions: the resumed game's
    # first hint at its start searches with the proof's budget, not the quick one, and
    # finds the win
    session = Session(find_variant("spider-1suit").deal(4), label="winnable deal 4")
    session.proven = 200_000
    session.apply("d")
    session.save()
    resumed = Session.from_save(saves.read_save(saves.save_path("spider-1suit")))
    assert resumed.proven == 200_000
    resumed.hint_budget = (20_000, 0.05)
    resumed.undo()
    assert resumed.hint().text.startswith("hint from the full deal: ")
    assert replays_to_a_win(resumed.game, tuple(resumed.game.notation(m)
                                                for m in resumed.planned_moves()))


def test_every_budget_a_deal_is_proven_with_fits_in_a_save():
    from patience.play.deals import proof_positions
    from patience.web.dealfinder import WINNABLE_POSITIONS

    assert max(proof_positions(), WINNABLE_POSITIONS) <= saves.MAX_PROVEN_POSITIONS


def test_a_save_without_proven_resumes_as_not_proven():
    # a save written before 'proven' was kept (or of a deal not proven winnable) has none
    session = Session(find_variant("manx").deal(5))
    session.save()
    path = saves.save_path("manx")
    data = json.loads(path.read_text())
    assert "proven" not in data  # written only for a proven deal: earlier versions read it
    resumed = Session.from_save(saves.read_save(path))
    assert resumed.proven is None and saves.read_save(path)["proven"] is None


def test_a_game_started_from_a_position_resumes_with_its_shuffle_seed():
    # the position text carries the redeals made (r:) and the seed (z:) of the next shuffle
    variant = find_variant("la-belle-lucie")
    start = variant.deal(9)
    start.push("d")
    session = Session(variant.position(start.text()))
    session.apply("d")
    session.save()
    resumed = Session.from_save(saves.read_save(saves.save_path("la-belle-lucie")))
    start.push("d")
    assert resumed.game.text() == session.game.text() == start.text()
    assert resumed.game.text().endswith(" r:2 z:9")


def test_a_finished_recorded_game_removes_its_save():
    session = Session(position("tabbycat", **WON_BUT_ONE))
    session.save()
    resumed = Session.from_save(saves.read_save(saves.save_path("tabbycat")))
    resumed.apply("c1:13-f")
    assert resumed.save() == ""
    assert saves.read_save(saves.save_path("tabbycat")) is None


@pytest.mark.parametrize("content, words", [
    ("{not json", "corrupt"),
    (json.dumps({"hello": 1}), "not a patience saved game"),
    (json.dumps({"format": "patience-save", "version": 99}), "version 99"),
    (json.dumps({"format": "patience-save", "version": 1}), "incomplete"),
])
def test_a_bad_save_gives_a_clear_message_and_is_left_untouched(data_directory, content,
                                                                 words):
    path = saves.save_path("tabbycat")
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    with pytest.raises(saves.SaveError, match=words):
        saves.read_save(path)
    # a save that is not ours is never overwritten: the game goes to a fallback file
    session = Session(find_variant("tabbycat").deal(1))
    message = session.save()
    assert words in message and "left untouched" in message
    assert path.read_text(encoding="utf-8") == content
    (fallback,) = [p for p in data_directory.iterdir() if p.name != "saves"]
    assert f"saved to {fallback} instead" in message
    assert f"--resume --save-file {fallback}" in message
    assert saves.read_save(fallback)["moves"] == []
    # saving again reuses the same fallback file
    session.apply("d")
    assert f"saved to {fallback} instead" in session.save()
    assert len(list(data_directory.iterdir())) == 2
    resumed = Session.from_save(saves.read_save(fallback), path=fallback)
    assert resumed.game.move_stack == session.game.move_stack


def test_a_save_of_a_changed_variant_is_refused(data_directory):
    session = Session(find_variant("tabbycat").deal(1))
    session.save()
    data = saves.read_save(saves.save_path("tabbycat"))
    data["rules_hash"] = "0000"
    with pytest.raises(saves.SaveError, match="not available here"):
        Session.from_save(data)


def test_a_save_whose_start_is_not_its_deal_is_refused(data_directory):
    session = Session(find_variant("tabbycat").deal(1))
    session.save()
    data = saves.read_save(saves.save_path("tabbycat"))
    data["start"] = find_variant("tabbycat").deal(2).text()
    with pytest.raises(saves.SaveError, match="says it is deal 1 of 'tabbycat', but it does "
                                              "not start as that deal does"):
        Session.from_save(data)
    data["deal_number"] = None  # a chosen position stands as it is
    assert Session.from_save(data).label == "deal 1"


def test_a_corrupt_statistics_file_is_reported_and_kept(data_directory):
    data_directory.mkdir(parents=True)
    path = data_directory / "stats.json"
    path.write_text("[1, 2", encoding="utf-8")
    session = Session(position("tabbycat", **WON_BUT_ONE))
    reply = session.apply("c1:13-f")
    assert "You won!" in reply.text and "statistics not recorded" in reply.text
    assert path.read_text(encoding="utf-8") == "[1, 2"


def test_without_the_solver_hint_and_review_say_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "patience.solver", None)  # import fails
    session = Session(find_variant("tabbycat").deal(1))
    assert "solver is not available" in session.hint().text
    assert "solver is not available" in session.where_lost().text


def test_hint_follows_a_winning_line():
    session = Session(position("tabbycat", **WON_BUT_ONE))
    assert session.hint(time_limit=None).text.startswith("hint: c1:13-f")


def test_a_hint_has_two_readings_where_cards_are_hidden():
    from patience.solver import hint_from_view

    session = Session(find_variant("tabbycat").deal(1), record_stats=False)
    assert session.hides_cards()  # the stock
    seen = session.apply("v").text
    expected = hint_from_view(find_variant("tabbycat").deal(1))
    assert seen == (f"hint from what you see: {expected.move} (it starts a win in "
                    f"{expected.won} of 8 guesses of the hidden cards; it may be wrong for "
                    "the real ones)")
    assert session.game.notation(session.hinted_move()) == expected.move
    full = session.apply("h").text
    assert full.startswith("hint from the full deal: ") and \
        full.endswith("(the solver knows the hidden cards; v: a hint from what you see)")
    assert session.hinted_move() == session.planned_moves()[0]  # the last hint given


def test_with_every_card_in_view_the_two_readings_are_one():
    session = Session(find_variant("freecell").deal(1), record_stats=False)
    assert not session.hides_cards()
    assert session.apply("h").text.startswith("hint: ")
    assert session.apply("v").text.endswith(
        "(every card is in view: a hint from what you see is the same)")


# The reviews below run the solver with a position budget and no time limit: the same
# answer on any machine, however loaded.


def test_where_did_i_lose_names_the_losing_move():
    session = Session(position("tabbycat", **ONE_MOVE_LOSES), record_stats=False)
    line = solve(session.game, time_limit=None).moves
    assert replays_to_a_win(session.game, line)  # the start is winnable
    assert "No move is left" in session.apply("c4:1-t").text
    text = session.where_lost(max_positions=10_000, time_limit=None).text
    assert text.startswith("The last winnable position came after move 0 (c:5S4SASKS/7S/")
    assert "Move 1, c4:1-t, lost the game. A winning line from there: " in text
    assert text.endswith("Press b to go back there.")
    assert session.apply("b").changed and session.game.move_stack == []


def test_where_did_i_lose_on_a_deal_never_winnable():
    session = Session(position("tabbycat", **ONE_MOVE_FROM_LOSS), record_stats=False)
    session.apply("c4:1-t")
    # five cards can never fill the foundations: the solver proves the start unwinnable
    assert session.where_lost(max_positions=10_000, time_limit=None).text == (
        "this deal could not be won from the start (the solver proved it)")


def test_where_did_i_lose_says_when_the_budget_did_not_decide():
    session = Session(position("tabbycat", **ONE_MOVE_LOSES), record_stats=False)
    session.apply("c4:1-t")
    # one position is enough to see that the lost position has no move, not to win the start
    assert session.where_lost(max_positions=1, time_limit=None).text == (
        "the solver could not decide the position after move 0 within its budget; "
        "the game was lost at move 1 or earlier")


def test_where_did_i_lose_on_a_real_deal_and_back():
    session = Session(find_variant("tabbycat").deal(3), record_stats=False)
    for _ in range(12):
        session.apply("d")
    text = session.where_lost(time_limit=None).text
    assert "The last winnable position came after move 10" in text
    assert "Move 11, d, lost the game" in text
    reply = session.apply("b")
    assert reply.changed and len(session.game.move_stack) == 10
    assert session.hint(time_limit=None).text.startswith("hint from the full deal: ")
    assert session.apply("r").text.startswith("redid d")


def test_statistics_count_games_wins_and_streaks():
    times = iter((100, 200, 50, 60))  # seconds played before the last move
    for layout in (WON_BUT_ONE, WON_BUT_ONE, ONE_MOVE_FROM_LOSS, WON_BUT_ONE):
        session = Session(position("tabbycat", **layout), seconds=next(times))
        session.apply("c1:13-f" if layout is WON_BUT_ONE else "c4:1-t")
    assert saves.read_stats()["tabbycat"] == {"games": 4, "wins": 3, "streak": 1,
                                              "best_streak": 2, "best_seconds": 60,
                                              "won_seconds": 360, "timed_wins": 3,
                                              "fewest_moves": 1}
    assert ("games 4, wins 3 (75%), streak 1, best streak 2, best time 1:00, average 2:00, "
            "fewest moves 1" in session.apply("stats").text)


def test_a_version_1_statistics_file_is_read_its_wins_untimed(tmp_path):
    path = tmp_path / "stats.json"
    path.write_text('{"format": "patience-stats", "version": 1, "variants": {"tabbycat": '
                    '{"games": 2, "wins": 1, "streak": 1, "best_streak": 1}}}')
    record = saves.read_stats(path)["tabbycat"]
    assert saves.describe_record(record) == "games 2, wins 1 (50%), streak 1, best streak 1"
    record = saves.record_result("tabbycat", True, 75, path)
    assert saves.describe_record(record).endswith("best time 1:15, average 1:15")
    assert '"version": 3' in path.read_text()
    path.write_text(path.read_text().replace('"timed_wins": 1', '"timed_wins": 9'))
    with pytest.raises(SaveError, match="timed_wins <= wins"):
        saves.read_stats(path)


def test_statistics_keep_the_fewest_moves_of_a_win(tmp_path):
    path = tmp_path / "stats.json"
    saves.record_result("tabbycat", True, 100, path, moves=120)
    saves.record_result("tabbycat", True, 90, path, moves=97)
    saves.record_result("tabbycat", True, 80, path, moves=130)
    record = saves.record_result("tabbycat", False, 10, path, moves=5)  # a loss counts none
    assert record["fewest_moves"] == 97
    assert saves.describe_record(record).endswith("best time 1:20, average 1:30, "
                                                  "fewest moves 97")
    # a version 2 file (no fewest_moves) reads as "none counted"
    path.write_text('{"format": "patience-stats", "version": 2, "variants": {"tabbycat": '
                    '{"games": 1, "wins": 1, "streak": 1, "best_streak": 1, "best_seconds": 5, '
                    '"won_seconds": 5, "timed_wins": 1}}}')
    assert saves.read_stats(path)["tabbycat"]["fewest_moves"] == 0
    path.write_text('{"format": "patience-stats", "version": 3, "variants": {"tabbycat": '
                    '{"games": 1, "wins": 0, "streak": 0, "best_streak": 0, '
                    '"fewest_moves": 4}}}')
    with pytest.raises(SaveError, match="fewest_moves 4 without a win"):
        saves.read_stats(path)


def test_the_clock_stands_while_the_game_is_over_and_goes_on_after_an_undo(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    session = Session(position("tabbycat", **WON_BUT_ONE), record_stats=False, seconds=10)

    def wait(seconds: float) -> None:  # and then a request, as the web server sees it
        now[0] += seconds
        session.skip_idle(300)

    wait(5)
    session.apply("c1:13-f")
    assert session.elapsed() == 15 and session.summary() == "1 move, 0:15"
    wait(100)  # admiring the win
    assert session.elapsed() == 15
    session.apply("u")
    wait(2)
    assert session.elapsed() == 17
    wait(4000)  # the page was left open: a pause counts as at most the limit
    assert session.elapsed() == 317


def test_without_the_solver_winnable_and_daily_deals_say_so(monkeypatch):
    from patience.errors import PatienceError
    from patience.play import deals

    variant = find_variant("tabbycat")
    day = datetime.date(2026, 1, 1)
    expected_start = solver_module.daily_seed(variant, day)
    monkeypatch.setitem(sys.modules, "patience.solver", None)
    with pytest.raises(PatienceError, match="solver is not available"):
        deals.first_winnable(variant, 1)
    with pytest.raises(PatienceError, match="solver is not available"):
        deals.daily_deal(variant, day)
    # the day's starting number needs no solver, and is still the solver's
    assert deals.daily_start(variant, day) == expected_start


def test_the_daily_start_is_the_solvers():
    from patience.play import deals

    variant = find_variant("manx")
    day = datetime.date(2026, 11, 30)
    assert deals.daily_start(variant, day) == solver_module.daily_seed(variant, day)


def test_each_variant_keeps_its_own_save(data_directory):
    tabby = Session(find_variant("tabbycat").deal(1))
    tabby.apply("d")
    manx = Session(find_variant("manx").deal(2))
    assert manx.replacing_note() == ("", False)  # another variant's save is not in the way
    assert "resume with 'patience play tabbycat --resume'" in tabby.save()
    assert "resume with 'patience play manx --resume'" in manx.save()
    assert saves.read_save(saves.save_path("tabbycat"))["moves"] == ["d"]
    assert saves.read_save(saves.save_path("manx"))["moves"] == []
    assert [data["variant"] for _, data, _ in saves.saved_games()] == ["manx", "tabbycat"]


def test_winning_a_new_game_keeps_another_games_save():
    unfinished = Session(find_variant("tabbycat").deal(1))
    unfinished.apply("d")
    unfinished.save()
    note, other_game = Session(position("tabbycat", c1="KS")).replacing_note()
    assert other_game and note.startswith("the saved game (tabbycat, deal 1, 1 move) will be "
                                          "replaced when this one is saved")
    won = Session(position(
        "tabbycat", c1="KSQSJSTS9S8S7S6S5S4S3S2SAS", f1="KCQCJCTC9C8C7C6C5C4C3C2CAC",
        f2="KDQDJDTD9D8D7D6D5D4D3D2DAD", f3="KHQHJHTH9H8H7H6H5H4H3H2HAH"), record_stats=False)
    won.recorded = True
    won.apply("c1:13-f")
    assert won.game.is_won() and won.save() == ""
    assert saves.read_save(saves.save_path("tabbycat"))["moves"] == ["d"]  # still there


def test_the_rules_page_is_in_plain_words_then_exact():
    rules = Session(find_variant("tabbycat").deal(1)).rules()
    plain, _, exact = rules.partition("\n\n— The rules exactly as written —\n\n")
    assert exact == find_variant("tabbycat").rules_text()
    assert "Win: all f in foundations: f.size == 13" in exact
    assert plain.splitlines()[-1] == "To win: Every one of the foundations holds 13 cards."
    assert ("Tail (t): Takes: Any movable run, only while empty. Cards leave: The tail's run "
            "leaves whole.") in plain
    assert "f.size" not in plain and "pile.top" not in plain


def test_home_counts_what_the_win_rule_counts_and_a_sends_free_cell_cards_home():
    session = Session(position("freecell", c1="KH2S", a1="AS"), record_stats=False,
                      auto_home=False)  # the safe moves home would take the Ace and Two
    session.apply("c1:1-a")
    assert "home 0/52" in session.status()  # cards in free cells are not home
    assert session.apply("a").text == "auto-finish: a1:1-f a2:1-f"
    assert "home 2/52" in session.status()
    golf = Session(find_variant("golf").deal(1), record_stats=False)
    golf.apply("d")
    assert "home 2/52" in golf.status()  # Golf's waste is where its cards go home
    clock = Session(find_variant("clock").deal(2), record_stats=False)
    assert "home 0/52" in clock.status()  # the hours' cards are home once turned up
    clock.apply("h:1-c7")
    assert "home 1/52" in clock.status()


def test_a_stock_that_is_never_dealt_counts_no_deals():
    # Elevens' stock only fills gaps (stock.deal_when: "false"): no "deals left" anywhere
    from patience.rulestext import rules_text
    from patience.web.snapshot import stock_label

    variant = find_variant("elevens")
    game = variant.deal(1)
    assert variant.plan.never_deals and game.deals_left == 0
    assert game.drawing().splitlines()[-1].split("|")[1].strip() == "43 cards"
    assert "deals left" not in Session(game, record_stats=False).status()
    assert "Stock: 43 cards, never dealt" in rules_text(variant)
    assert stock_label(43, 0, 0, 0, dealt=False) == "stock, 43 cards"
    klondike = find_variant("klondike")
    assert not klondike.plan.never_deals and klondike.deal(1).deals_left == 24
