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

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Fill {
    pub start: usize,
    pub stop: usize,
    pub from_stock: bool,
    pub sources: (usize, usize),
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Redeal {
    pub waste: usize,
    pub counter: Option<usize>,
    pub limit: usize,
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
    pub redeal: Option<Redeal>,
    pub face_down_piles: Vec<usize>,
    pub tables: Vec<Table>,
    pub key: Key,
    pub ordering: Ordering,
    pub beam: Beam,
}
