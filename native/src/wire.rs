//! The rule program's wire format: the twin of `patience/native/wire.py`, struct for class
//! and field for field. serde reads the JSON text into these (unknown fields refused, every
//! number checked for its type), then `Program::from_wire` checks the ranges and builds the
//! program. Expressions stay JSON trees (`Value`), read by `program.rs`.

use serde::Deserialize;
use serde_json::Value;

/// Only the version, read first: a program of another version is refused with a word about
/// rebuilding, before its fields (which may have changed) are read.
#[derive(Deserialize)]
pub struct Versioned {
    pub version: u64,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Group {
    #[allow(dead_code)] // carried for a person reading the program
    pub name: String,
    pub start: usize,
    pub stop: usize,
    pub face_down: bool,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Pairing {
    pub target: usize,
    pub k_outer: bool,
    pub first: bool,
    pub skip_self: bool,
    pub fixed: Option<Value>,
    pub hoisted: Value,
    pub free: Value,
    pub bound: Value,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub floor: Option<u64>,
    pub cap: Option<u64>,
    pub scan: Option<Value>,
    pub fixed: Option<Value>,
    pub rest: Value,
    pub pairings: Vec<Pairing>,
}

/// An empty pile of `start..stop` takes a card at once: the stock's next card
/// (`from_stock`), or the top card of the first pile of `sources` that has one. Read as it
/// is by the move generator (`moves.rs`).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Fill {
    pub start: usize,
    pub stop: usize,
    pub from_stock: bool,
    pub sources: (usize, usize),
    /// `fill_when`: the fills are made while it holds (`true`: always)
    pub when: Value,
}

/// A discard: the top cards of `cards` piles of `sources` (chosen in pile order) onto pile
/// `target` when `when` holds; its sets are numbered from `start` in lexicographic order,
/// the move of set `i` being `(-2 - i, cards, target)`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Discard {
    pub cards: usize,
    pub sources: Vec<usize>,
    pub target: usize,
    pub start: usize,
    pub when: Value,
}

/// The draws of a buried card (`merci`): while the hidden pile `counter` holds fewer than
/// `limit` cards, the card under the top card of a pile of each source group (the group's
/// number, its plan as a source of one card) is tried with the top card lifted: the move
/// `(s, -1, t)`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Merci {
    pub sources: Vec<(usize, Source)>,
    pub counter: usize,
    pub limit: usize,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Redeal {
    pub waste: usize,
    pub counter: Option<usize>,
    pub limit: usize,
}

/// The redeal that gathers piles and deals them again (`patience.moves.Gather`): read as
/// it is by the move generator (`moves.rs`).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Gather {
    pub piles: Vec<usize>,
    pub shuffle: bool,
    pub deal: usize,
    pub limit: Option<usize>,
    pub counter: Option<usize>,
    pub seed: Option<usize>,
    /// `gaps: N`: gaps shuffled in among the gathered cards (`moves::BLANK`), 0 for none
    pub blanks: usize,
    /// `stock.gather.keep` and `.gaps`: rules on the pile `["tgt"]` (None: not given)
    pub keep: Option<Value>,
    pub gaps: Option<Value>,
}

/// Where piles stand: maps from a pile's number, read by `["near", map, pile]` (a
/// neighbour's number, -1 for none) and `["place", map, pile]` (an index, row or column).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Places {
    pub maps: Vec<Vec<i64>>,
    /// the pile ranges of the groups whose gaps close (`close_gaps`): the first forced steps
    pub closing: Vec<(usize, usize)>,
    /// the pile ranges whose gaps close when the player deals (`close_gaps: deal`)
    pub deal_closing: Vec<(usize, usize)>,
}

/// Cards put under a pile (`lands: bottom`) and turned from the pile the last card went
/// to (`fill_from: last`): `patience.native.wire.Turning`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Turning {
    pub bottom_piles: Vec<usize>,
    pub fill_last_piles: Vec<usize>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Table {
    #[allow(dead_code)] // carried for a person reading the program
    pub name: String,
    pub shape: Vec<usize>,
    pub bits: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Key {
    pub card_table: Vec<u8>,
    pub always_sorted: Vec<(usize, usize)>,
    pub sorted_when_stock_empty: Vec<(usize, usize)>,
    pub stock_by_cards: bool,
    pub top_piles: Vec<(usize, bool)>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Ordering {
    pub first_target_piles: Vec<usize>,
    pub parking_piles: Vec<usize>,
    pub dealt_piles: Vec<usize>,
    pub after_deal: Option<Vec<usize>>,
    pub pass_merge: Option<(usize, usize)>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Beam {
    pub layers: bool,
    pub sequences: Vec<(usize, Vec<u64>)>,
}

/// The guided search's estimate (`patience.solver.guided`, `SolverRules.guided`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Guided {
    /// (pile, 64 rows of run pairs)
    pub runs: Vec<(usize, Vec<u64>)>,
    /// (pile, the cards an empty pile may take, 64 rows: per top card the cards it may take)
    pub homes: Vec<(usize, u64, Vec<u64>)>,
    /// the piles the stock deals onto (`GuidedRules.covered`)
    pub covered: Vec<usize>,
    /// the piles built one card at a time (`GuidedRules.built`)
    pub built: Vec<usize>,
    /// the piles not home that only some cards may fill when empty (`GuidedRules.narrow`)
    pub narrow: Vec<usize>,
    /// a child keyed when it is reached (`GuidedRules.keyed_when_reached`)
    pub keyed_when_reached: bool,
}

/// The guided search's numbers (`patience/solver/constants.py`, `GuidedConstants`).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct GuidedConstants {
    pub home_weight: i64,
    pub run_weight: i64,
    pub built_weight: i64,
    pub parked_weight: i64,
    pub empty_weight: i64,
    pub narrow_empty_weight: i64,
    pub next_weight: i64,
    pub down_weight: i64,
    pub stock_weight: i64,
    pub break_weight: i64,
    /// per face-down card on a pile a deal covers (`down_weight` elsewhere)
    pub covered_down_weight: i64,
    /// the guided searches side by side, each from the root with its own weight per move
    pub depth_weights: Vec<i64>,
    pub budget: u64,
    /// a guided search's budget is at least the solve's divided by this
    pub budget_share: u64,
    pub stock_from: u64,
    /// the least positions of a guided search's first turn
    pub first_turn: u64,
}

/// The move ordering's scores (`patience/solver/constants.py`, `Scores`).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Scores {
    pub home: f64,
    pub turns_up: f64,
    pub empties_pile: f64,
    pub parking_onto: f64,
    pub parking_to_empty: f64,
    pub whole_run_onto: f64,
    pub split_run_onto: f64,
    pub whole_run_to_empty: f64,
    pub pile_to_empty: f64,
    pub into_parking_whole: f64,
    pub split_run_to_empty: f64,
    pub into_parking: f64,
    pub dealt_pile_to_empty: f64,
    pub deal: f64,
    pub cheap_deal: f64,
    pub take_back: f64,
    pub jitter: f64,
}

/// The search's constants (`patience/solver/constants.py`, `SearchConstants`): the core
/// keeps no copy of its own.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Search {
    pub restart_unit: u64,
    pub styles: usize,
    pub beam_from: u64,
    pub beam_width: usize,
    pub max_beam_width: usize,
    pub beam_cap: u64,
    pub beam_endgame: u64,
    pub break_weight: i64,
    pub empty_weight: i64,
    pub scores: Scores,
    pub guided: GuidedConstants,
}

/// The card encoding the program was made with (`patience/cards.py`): the core checks it
/// against its own constants (`FACE_DOWN`, the rank in the bits above the suit's two, red
/// suits 1 and 2).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Cards {
    pub face_down: u64,
    pub suits: u64,
    pub red_suits: Vec<u64>,
    /// `moves::BLANK`: a gap shuffled in by `gaps: N`
    pub blank: u64,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Program {
    #[allow(dead_code)] // checked before (`Versioned`)
    pub version: u64,
    pub id: String,
    pub piles: usize,
    pub slots: usize,
    pub groups: Vec<Group>,
    pub sources: Vec<Option<Source>>,
    pub forced_sources: Vec<Option<Source>>,
    pub fills: Vec<Fill>,
    pub win: Value,
    pub deal_when: Value,
    pub safe: Option<Value>,
    pub deal_targets: Vec<usize>,
    pub deal_skips_empty: bool,
    pub deal_fills_empty: bool,
    pub redeal: Option<Redeal>,
    pub gather: Option<Gather>,
    pub face_down_piles: Vec<usize>,
    pub tables: Vec<Table>,
    pub key: Key,
    pub ordering: Ordering,
    pub beam: Beam,
    pub guided: Option<Guided>,
    pub search: Search,
    pub cards: Cards,
    pub max_forced_moves: u32,
    pub discards: Vec<Discard>,
    pub places: Places,
    /// the pile holding the stock's next card face up (`stock.top`): the deal is legal while
    /// it or the stock holds a card, and deals its card first
    pub stock_top: Option<usize>,
    /// `face_down: covered`: each pile dealt face down because it is covered, with the piles
    /// covering it: its face-down top card turns up once they are all empty
    pub uncovering: Vec<(usize, Vec<usize>)>,
    pub turning: Turning,
    /// the draws of a buried card (`merci`), if any
    pub merci: Option<Merci>,
}

/// Search constants for the core's own unit tests (a program brings the real ones).
#[cfg(test)]
pub fn test_search() -> Search {
    serde_json::from_str(
        r#"{"restart_unit": 500, "styles": 6, "beam_from": 100000, "beam_width": 50,
            "max_beam_width": 1048576, "beam_cap": 200, "beam_endgame": 2000,
            "break_weight": 10, "empty_weight": 3, "scores": {"home": 1000, "turns_up": 800,
            "empties_pile": 700, "parking_onto": 600, "parking_to_empty": 250,
            "whole_run_onto": 400, "split_run_onto": 200, "whole_run_to_empty": 100,
            "pile_to_empty": 90, "into_parking_whole": 80, "split_run_to_empty": 40,
            "into_parking": 20, "dealt_pile_to_empty": -500, "deal": -1000,
            "cheap_deal": 650, "take_back": -1100, "jitter": 60},
            "guided": {"home_weight": 3, "run_weight": 1, "built_weight": 1, "parked_weight": 1,
            "empty_weight": 2, "narrow_empty_weight": 2, "next_weight": 1, "down_weight": 3, "stock_weight": 1, "break_weight": 0, "covered_down_weight": 3,
            "depth_weights": [1, 2], "budget": 5000, "budget_share": 5, "stock_from": 0, "first_turn": 2000}}"#,
    )
    .expect("the test constants fit the wire")
}
