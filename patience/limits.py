"""Every limit patience puts on what it reads from outside, in one place.

A variant file, a rule, a position or a move that goes past one of these is refused with a
plain error (a located one for variant files) before any work that could take unbounded time
or memory; ``docs/limits.md`` lists each limit with the error it gives, and the tests of
hostile input (``tests/test_hostile_input.py``) refer to these names. None of the limits is
anywhere near what a real variant or game needs.
"""

from __future__ import annotations

# --- variant files ----------------------------------------------------------------------

#: Bytes in a variant file (checked before the YAML is parsed; also for ``extends`` parents).
MAX_VARIANT_FILE_BYTES = 1 << 20  # 1 MiB

#: How deeply YAML mappings and lists may nest in a variant file (the top mapping is 1).
MAX_YAML_DEPTH = 64

#: How many files an ``extends`` chain may hold above the file itself.
MAX_EXTENDS_DEPTH = 16

#: Pile groups (``piles:`` entries), predicates and parameters in a variant (after
#: ``extends`` merges the parents in). Real variants have a handful of each.
MAX_PILE_GROUPS = 16
MAX_GROUP_PILES = 64  # piles in one group ('count:')
MAX_PREDICATES = 256
MAX_PARAMETERS = 256

#: The largest magnitude of any whole number: written in a variant file (``decks``, a
#: parameter), written in a rule, computed by a rule (folded when the variant compiles or
#: when a move is generated), or in a position. Fits a signed 64-bit integer.
MAX_INTEGER = 2**63 - 1

#: Characters of a whole number as written in YAML (digits, sign, underscores, ``0x``, ``:``)
#: or in a rule; longer text is refused before it is converted.
MAX_INTEGER_TEXT = 40

#: Discards (a top-level ``discards:`` entry each: a move that takes the top cards of
#: several piles at once), the cards one discard takes, and the sets of piles all the
#: discards of a variant may choose from together (each ``C(piles in from, cards)``). The
#: sets bound the work of every position (each is tried once) and number the moves: a
#: discard is the move ``(-2 - set, cards, target)``, and the core keeps moves in 16 bits.
MAX_DISCARDS = 16
MAX_DISCARD_CARDS = 4
MAX_DISCARD_SETS = 20_000

#: Draws of a buried card a game (a group's ``merci: N``): each is counted by a hidden pile
#: of that many cards, as the redeals are.
MAX_MERCI_DRAWS = 1000

#: Errors shown for one variant file: past this many, one line says how many more there
#: are (``and N more errors``). A file's errors are kept in memory only up to twice this.
MAX_FILE_ERRORS = 50

#: Characters of a file's line quoted under an error (with a caret under the problem): a
#: longer line is cut to this many around the problem, with an ellipsis where it was cut.
MAX_EXCERPT_WIDTH = 100

# --- rule expressions -------------------------------------------------------------------

#: Characters in one rule expression or predicate signature.
MAX_EXPRESSION_LENGTH = 10_000

#: How deeply one expression may nest, as written: each operator, 'not', '-', attribute,
#: call and quantifier is a level (a long flat 'a and b and …' chain is one level).
MAX_EXPRESSION_DEPTH = 32

#: Nodes of an expression once every predicate it calls is written out in full (an argument
#: a predicate does not read counts once). The shipped variants' largest rule has 34.
MAX_INLINED_NODES = 5_000

#: Nodes of all the rules of a variant together (every ``moves`` and ``accepts``, ``win``
#: and ``stock.deal_when``), each measured as for ``MAX_INLINED_NODES``. The generated move
#: generator repeats rules per pair of pile groups, so this and ``MAX_PILE_GROUPS`` bound
#: the code compiled for a variant.
MAX_VARIANT_INLINED_NODES = 20_000

#: Depth of an expression once every predicate it calls is written out in full, where each
#: predicate call counts as one more level.
MAX_INLINED_DEPTH = 64

#: How deeply quantifiers ('all …: …', 'any …: …') may nest in an expression once every
#: predicate it calls is written out. Each level multiplies the work of evaluating the rule
#: by the length of a run or the size of a pile group.
MAX_QUANTIFIER_NESTING = 2

# --- positions and moves ----------------------------------------------------------------

#: Characters of a position, as one-line text or as JSON (``--position``, ``from_json``).
MAX_POSITION_TEXT = 64 * 1024

#: How deeply the JSON form of a position may nest (it needs 3: object, piles, a pile).
MAX_POSITION_JSON_DEPTH = 8

#: Characters of one move in notation (``c1:3-c4`` is 7).
MAX_MOVE_TEXT = 32

#: Digits of the card count in a move (ASCII digits only).
MAX_MOVE_COUNT_DIGITS = 4

# --- numbered deals (``--seed``; patience.seeds) ----------------------------------------

#: Our deal numbers: SplitMix64's seed, an unsigned 64-bit integer (docs/rules.md).
MAX_DEAL_NUMBER = 2**64 - 1

#: Microsoft's deal numbers (``ms:N``), from 1: what pysol-cards deals. 1 to 32,000 are
#: Windows FreeCell's first games, up to 2^31 - 1 FreeCell Pro's, and up to 2^33 - 1 the
#: extended range of Freecell Solver's tools.
MAX_MS_DEAL_NUMBER = 2**33 - 1

#: PySolFC's deal numbers (``pysolfc:N``), from 1: the twenty digits PySolFC shows (it deals
#: 1 to 32,000 as Microsoft does, larger numbers with its Mersenne Twister).
MAX_PYSOLFC_DEAL_NUMBER = 10**20 - 1

# --- playing ---------------------------------------------------------------------------

#: Forced moves (forced removals and ``fill_from`` fills) that one move, one deal or the
#: start may cause, in both engines. The loader refuses fills that can pass cards round a
#: loop, and then each card can move at most once per pile group: a variant that loads needs
#: at most 416 cards x 16 groups = 6,656. Past it the move stops with ``ForcedMovesError``.
MAX_FORCED_MOVES = 10_000
# --- numbers given to a command or a function -------------------------------------------

#: The largest budget of positions for a search (``--max-positions``, ``max_positions=``):
#: what the results database stores (SQLite's signed 64-bit integers) and the core counts.
MAX_POSITIONS = 2**63 - 1

#: The longest time limit, in seconds (``--time-limit``, ``time_limit=``): about 31 years.
#: Infinity and NaN are refused; the native core clamps a longer limit to this one.
MAX_TIME_LIMIT = 1_000_000_000

#: The largest memory cap of a native search, in bytes (``--max-memory``): 4 EiB.
MAX_MEMORY = 2**62

#: The deepest perft (``patience perft --depth``, ``perft(game, depth)``).
MAX_PERFT_DEPTH = 64

#: Worker processes of a study (``patience stats --workers``).
MAX_WORKERS = 256

#: Deals in one chunk of a study (``patience stats --chunk-size``; automatic sizes stay at
#: or below ``MAX_CHUNK_SIZE`` of ``patience/studies/runner.py``).
MAX_CHUNK_DEALS = 10_000

# --- the test battery -------------------------------------------------------------------

#: Random positions per battery check (``patience test --examples``,
#: ``pytest --patience-examples``, ``PATIENCE_EXAMPLES``): from 1 to this.
MAX_EXAMPLES = 1_000_000

# --- expectations (``expect:`` in a variant file) ---------------------------------------

#: Entries of a variant's ``expect:`` list (after ``extends`` merges the parents in).
MAX_EXPECTATIONS = 256

#: Moves in one list of an entry (``after``, ``legal``, ``illegal``, ``moves``).
MAX_EXPECT_MOVES = 1_000

#: The largest solver budget an entry may give in ``within`` (positions searched).
MAX_EXPECT_BUDGET = 10_000_000

#: The deepest perft an entry may ask for, and the largest count it may state: the count
#: bounds the work (the count stops as soon as it passes the stated number).
MAX_EXPECT_PERFT_DEPTH = 8
MAX_EXPECT_PERFT_LEAVES = 10_000_000

# --- the web server (``patience serve``) ------------------------------------------------

#: Browser games a server keeps (``web/games/ID.json`` in the data directory). A new game
#: past it removes the game file changed longest ago among the finished games (won, or no
#: move left); a game in progress is never removed, so when every kept game is in progress
#: a new game is refused (HTTP 503) until one is finished or its file removed.
MAX_WEB_GAMES = 1_000
