//! The rule program: what `patience/native/program.py` lowers a variant into, read once
//! per variant, and the evaluator of its expression trees.
//!
//! Every name is resolved when the program is read: an expression refers to the source pile
//! `s`, the target pile `t`, the run size `k`, piles and cards bound by quantifiers (slots),
//! constant piles and the stock. Values are `i64` (booleans are 0 and 1, cards their
//! number). Reading the top or bottom of an empty pile gives `NO_CARD` (the checker rules
//! that out; the evaluator still never panics).

use std::sync::Arc;

use serde_json::Value;

use crate::compile::{reads_only_ends, Code};
use crate::filter::{BranchFilter, By, FilterKey, PairFilter, TargetFilter, MAX_NEAR, TARGET_SLOT};
use crate::wire;

pub const FACE_DOWN: u8 = 64;
/// the rule program's version (2: `top_piles`; 3: `safe`, the declared safe moves; 4: the
/// moves after a deal and the stock as a cycle; 5: `beam`, the layered beam; 6: the typed
/// wire format, `wire.rs`; 7: the redeal that gathers piles, the discards, and places,
/// `wire::Places`; 8: the gathering redeal's `keep` and `gaps`, the gaps that close on the
/// deal, `stock.top` and covered cards face down, cards put under a pile and turned from the
/// pile the last card went to, `wire::Turning`; 9-11: the draws of a buried card, the
/// guided search and its weights; 12: the guided search's built and narrow piles; 13-16:
/// its first turn, whether it keys a child when reached, the weight of face-down cards on
/// the piles a deal covers, its budget's share of the solve's)
pub const PROGRAM_VERSION: u64 = 16;
/// the card read from an empty pile: no table holds it, no rank or suit matches it
pub const NO_CARD: i64 = 255;
pub const SLOTS: usize = 4;
/// the most cards one discard takes (`MAX_DISCARD_CARDS` of `patience/limits.py`)
pub const MAX_DISCARD_CARDS: usize = 4;
/// `PileRef::Near`'s base for a discard's chosen pile j: `CHOSEN_BASE + j`, after the
/// source, the target and the bound piles
pub const CHOSEN_BASE: u8 = 2 + SLOTS as u8;
/// the most sets of piles the discards of a program choose among (`MAX_DISCARD_SETS`):
/// a discard's move source is `-2 - set`, an `i16`
pub const MAX_DISCARD_SETS: usize = 20_000;

#[derive(Debug)]
/// A discard: its rule over the chosen piles, and its sets of piles (`cards` each, in
/// pile order) numbered from `start`.
pub struct Discard {
    pub cards: usize,
    pub target: usize,
    pub start: usize,
    pub when: Code,
    /// the sets, `cards` piles each, one after the other
    pub sets: Vec<u16>,
    /// a discard of two cards: which pairs of top cards its rule may pass
    /// (`filter::PairFilter`)
    pub pair: Option<PairFilter>,
    /// the piles it chooses among, in order (its sets are their combinations, in
    /// lexicographic order)
    pub sources: Vec<u16>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PileRef {
    Source,
    Target,
    Var(u8),
    Index(u16),
    Stock,
    /// a discard's chosen pile (`first` is 0)
    Chosen(u8),
    /// the neighbour of the source (base 0), the target (1), a bound pile (2 + slot) or a
    /// discard's chosen pile (`CHOSEN_BASE` + j) by the map `Program::places[map]` (no pile
    /// past the edge: it reads as an empty pile)
    Near(u16, u8),
}

#[derive(Debug, Clone, Copy)]
pub enum Attr {
    Rank,
    Suit,
    Color,
    FaceUp,
}

#[derive(Debug, Clone, Copy)]
pub enum Op {
    Add,
    Sub,
    Mul,
    FloorDiv,
    Mod,
    Pow,
}

#[derive(Debug, Clone, Copy)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    /// The rule language's arithmetic on two values: wrapping, floor division and modulo
    /// (0 by a zero divisor), a negative power 0. Every evaluator of the core uses it.
    #[inline]
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            Op::Add => a.wrapping_add(b),
            Op::Sub => a.wrapping_sub(b),
            Op::Mul => a.wrapping_mul(b),
            Op::FloorDiv => floor_div(a, b),
            Op::Mod => floor_mod(a, b),
            Op::Pow => power(a, b),
        }
    }
}

impl Cmp {
    /// Whether `a op b` holds.
    #[inline]
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunRef {
    Run,
    Pile(PileRef),
}

/// A card read straight from the position or the environment (no sub-expression).
#[derive(Debug, Clone, Copy)]
pub enum CardRef {
    Top(PileRef),
    Bottom(PileRef),
    RunTop,
    RunBottom,
    Card(u8),
    Const(i64),
}

#[derive(Debug, Clone)]
pub enum Expr {
    Int(i64),
    /// an attribute of a card read directly (the common case, without recursion)
    CardAttr(Attr, CardRef),
    /// a table lookup of cards read directly
    CardTable1(u16, CardRef),
    CardTable2(u16, CardRef, CardRef),
    Attr(Attr, Box<Expr>),
    Top(PileRef),
    Bottom(PileRef),
    RunTop,
    RunBottom,
    Card(u8),
    Empty(PileRef),
    Size(PileRef),
    RunSize,
    Arith(Op, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Compare(Cmp, Box<Expr>, Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Member(PileRef, u16, u16),
    Same(PileRef, PileRef),
    /// all (true) / any (false) pile of `start..stop`, bound to the slot
    Quantifier(bool, u8, u16, u16, Box<Expr>),
    Count(u8, u16, u16, Box<Expr>),
    /// all (true) / any (false) pair of neighbouring cards (below, above) of the run or pile
    Pairs(bool, RunRef, u8, u8, Box<Expr>),
    Table1(u16, Box<Expr>),
    Table2(u16, Box<Expr>, Box<Expr>),
    /// a pile's index, row or column by the map `Program::places[map]` (0 for no pile)
    Place(u16, PileRef),
}

impl Expr {
    pub fn is_true(&self) -> bool {
        matches!(self, Expr::Int(1))
    }

    fn card_ref(&self) -> Option<CardRef> {
        Some(match self {
            Expr::Top(p) => CardRef::Top(*p),
            Expr::Bottom(p) => CardRef::Bottom(*p),
            Expr::RunTop => CardRef::RunTop,
            Expr::RunBottom => CardRef::RunBottom,
            Expr::Card(slot) => CardRef::Card(*slot),
            Expr::Int(v) => CardRef::Const(*v),
            _ => return None,
        })
    }
}

/// A table of a card-only predicate: `bits[a * width + b]`.
#[derive(Debug, Clone)]
pub struct Table {
    pub rows: usize,
    pub width: usize,
    pub bits: Vec<bool>,
}

/// One target group of a source group, with its rule split up (as the Python generator).
#[derive(Debug)]
pub struct Pairing {
    pub start: usize,
    pub stop: usize,
    pub k_outer: bool,
    pub first: bool,
    pub skip_self: bool,
    pub fixed: Option<Code>,
    pub hoisted: Code,
    pub free: Code,
    pub bound: Code,
    /// the targets its rule may accept, and those it surely accepts, by the run's key card
    /// (`filter.rs`); None: all, and the rule decides each
    pub filter: Option<TargetFilter>,
    /// where the whole rule's filter leaves a pair open, its branches read by a neighbour
    /// of the target (`filter::BranchFilter`); only with an indexed filter
    pub branches: Option<Box<BranchFilter>>,
    /// whether the generator finds the candidate targets from the filter (an index of the
    /// position's tops, a screen of the sources), not only checks each target with it
    pub indexed: bool,
    /// in a screened plan, where the key card of its runs lies: `d` for the `d`-th card
    /// from the top of the source, 0 for the card 0 (a filter keyed by no card)
    pub key_depth: usize,
    /// in a screened plan, the place of `key_depth` among the plan's `key_depths`
    pub depth_slot: usize,
}

/// A scan's table of two neighbouring cards read out for every pair of bytes: `continues(below,
/// above)` is the table's entry (`lookup2`, 0 off the table) for the card below and the card
/// above, in the order the rule reads them. A byte indexes it whole, so a step of the scan is
/// a load and a bit test, with no bounds to check.
#[derive(Debug)]
pub struct ScanTable {
    bits: Box<[[u64; 4]; 256]>,
}

impl ScanTable {
    fn new(table: &Table, above_first: bool) -> ScanTable {
        let mut bits = Box::new([[0u64; 4]; 256]);
        for (below, row) in bits.iter_mut().enumerate() {
            for above in 0..256usize {
                let (a, b) = if above_first { (above, below) } else { (below, above) };
                if lookup2(table, a as i64, b as i64) != 0 {
                    row[above >> 6] |= 1 << (above & 63);
                }
            }
        }
        ScanTable { bits }
    }

    /// Whether the run goes on from the card `above` down to the card `below` it.
    #[inline(always)]
    pub fn continues(&self, below: u8, above: u8) -> bool {
        (self.bits[below as usize][(above >> 6) as usize] >> (above & 63)) & 1 != 0
    }
}

/// The most pairings a plan with a screen has (a screen keeps a card set for each).
pub const MAX_SCREENED: usize = 8;
/// The most distinct key depths a screened plan's pairings have (the screen keeps one card
/// set for each: the union of its pairings' sets).
pub const MAX_SCREEN_KEYS: usize = 2;

#[derive(Debug)]
pub struct SourcePlan {
    /// piles shorter than this give nothing (every target takes a constant run size)
    pub floor: usize,
    /// the scan stops at this run size
    pub cap: usize,
    pub scan: Option<Code>,
    /// the scan when it is one lookup in a table of two neighbouring cards: the table read
    /// out once for every pair of bytes (`ScanTable`)
    pub scan_table: Option<ScanTable>,
    pub fixed: Option<Code>,
    pub rest: Code,
    pub pairings: Vec<Pairing>,
    /// whether the generator may pass over a source pile by its key cards alone before
    /// setting up any pairing (`moves.rs`, `Screen`): every pairing has a target filter
    /// and its runs one known key card (a constant run size, or a rule that reads no
    /// card of the run below its top)
    pub screened: bool,
    /// in a screened plan, the distinct depths of its pairings' key cards, in order
    pub key_depths: Vec<usize>,
    /// whether the generator reads, once a position, the key cards each pairing's targets
    /// may take (`moves.rs`, `Screen`), to pass over a pairing before setting it up: some
    /// pairing has a target filter, and there are at most `MAX_SCREENED`
    pub screen: bool,
    /// whether every rule of the plan reads only its source pile, its target pile and the
    /// run (`compile::reads_only_ends`): then a move of it becomes legal only where one of
    /// those two piles changed
    pub local: bool,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub start: usize,
    pub stop: usize,
    pub face_down: bool,
}

#[derive(Debug, Clone)]
pub struct Redeal {
    pub waste: usize,
    pub counter: Option<usize>,
    pub limit: usize,
}

#[derive(Debug, Clone)]
pub struct KeyRules {
    pub card_table: [u8; 256],
    pub always_sorted: Vec<(usize, usize)>,
    pub sorted_when_stock_empty: Vec<(usize, usize)>,
    pub stock_by_cards: bool,
    /// how each slot is keyed: `key::VIEW_ALL`, `VIEW_TOP` or `VIEW_TOP_AND_SIZE`
    pub views: Vec<u8>,
}

#[derive(Debug, Clone)]
pub struct OrderingRules {
    pub first_target: Vec<bool>,
    pub parking: Vec<bool>,
    pub dealt: Vec<bool>,
    /// after a deal, only a deal or a move from these piles (`SolverRules.after_deal`);
    /// None: any move
    pub after_deal: Option<Vec<bool>>,
    /// (the waste, cards a deal) when the stock is keyed as a cycle (`SolverRules.pass_merge`)
    pub pass_merge: Option<(usize, usize)>,
}

/// What the layered beam (`beam.rs`) reads of the rules.
#[derive(Debug, Clone, Default)]
pub struct BeamRules {
    /// whether the stock deals and never comes back (`SolverRules.beam_layers`)
    pub layers: bool,
    /// each pile's rows of the adjacent face-up cards that form a run (bit `above` of row
    /// `below`); None: no break is counted on the pile
    pub sequences: Vec<Option<[u64; 64]>>,
}

/// What the guided search (`guided.rs`) reads of the rules (`SolverRules.guided`).
#[derive(Debug, Clone)]
pub struct GuidedRules {
    /// each pile's rows of the adjacent face-up cards that form a run; None: its cards not
    /// home count as parked
    pub runs: Vec<Option<[u64; 64]>>,
    /// the home piles: (pile, the cards it may take empty, per top card the cards it may take)
    pub homes: Vec<(usize, u64, [u64; 64])>,
    /// whether a pile is home
    pub home: Vec<bool>,
    /// whether the stock deals onto a pile (`GuidedRules.covered` in rules.py): its breaks
    /// count, not the cards under its top run
    pub covered: Vec<bool>,
    /// whether a pile is built one card at a time (`GuidedRules.built`): the cards under
    /// its top run weigh `built_weight`
    pub built: Vec<bool>,
    /// whether a pile not home takes only some cards when empty (`GuidedRules.narrow`): it
    /// weighs `narrow_empty_weight` when empty
    pub narrow: Vec<bool>,
    /// a child keyed when the search reaches it, not when its turn comes
    /// (`GuidedRules.keyed_when_reached` in rules.py)
    pub keyed_when_reached: bool,
}

/// `solver.safe` and the piles its moves may go from and to: a rule `pile in G and …`
/// (`source in G`) holds of no move to (from) a pile outside `G`, so those are not asked.
#[derive(Debug)]
pub struct Safe {
    pub code: Code,
    /// the piles `start..stop` a safe move's source (target) is among
    pub sources: (usize, usize),
    pub targets: (usize, usize),
}

impl Safe {
    /// The piles `pile` (the source or the target) is among where `expr` holds: the
    /// intersection of the ranges of its conjuncts `pile in G` (every pile where none).
    fn range(expr: &Expr, pile: PileRef) -> (usize, usize) {
        let mut range = (0, usize::MAX);
        let parts = match expr {
            Expr::And(parts) => parts.as_slice(),
            other => std::slice::from_ref(other),
        };
        for part in parts {
            if let Expr::Member(p, start, stop) = part {
                if *p == pile {
                    range = (range.0.max(*start as usize), range.1.min(*stop as usize));
                }
            }
        }
        range
    }

    /// Whether the move from `s` to `t` may be safe (the rule is asked only then).
    #[inline]
    pub fn may_hold(&self, s: usize, t: usize) -> bool {
        (self.sources.0..self.sources.1).contains(&s) && (self.targets.0..self.targets.1).contains(&t)
    }
}

#[derive(Debug)]
pub struct Program {
    pub id: String,
    pub piles: usize,
    pub slots: usize,
    pub groups: Vec<Group>,
    pub sources: Vec<Option<SourcePlan>>,
    pub forced_sources: Vec<Option<SourcePlan>>,
    pub fills: Vec<wire::Fill>,
    pub win: Code,
    pub deal_when: Code,
    /// `solver.safe` over a legal move (`s`, `k`, `t`); None when no move is declared safe
    pub safe: Option<Safe>,
    pub deal_targets: Vec<usize>,
    pub deal_skips_empty: bool,
    /// `empty_piles: only`: a deal gives a card to the empty deal targets alone
    pub deal_fills_empty: bool,
    pub redeal: Option<Redeal>,
    /// the redeal that gathers piles and deals them again (`stock.gather`), if any
    pub gather: Option<wire::Gather>,
    /// the gathering redeal's rules on the pile `t`: the piles that keep their cards
    /// (`stock.gather.keep`) and the gathered piles left empty (`.gaps`)
    pub gather_keep: Option<Code>,
    pub gather_gaps: Option<Code>,
    /// the pile holding the stock's next card face up (`stock.top`), if any
    pub stock_top: Option<usize>,
    /// `face_down: covered`, by covering pile: the face-down piles it covers, each with all
    /// the piles covering it (empty for a pile that covers none)
    pub uncovers: Vec<Vec<(usize, Vec<usize>)>>,
    pub turns_up: Vec<bool>,
    pub has_forced: bool,
    /// where there are forced plans and every one is `local`: the piles their moves may go
    /// to. After a move from a position with no forced move left, a forced move then takes
    /// cards from a pile the move changed, or goes to a pile of these the move changed
    /// (`Program::settle` looks at every source only then); None: it always looks at every
    /// source
    pub forced_targets: Option<crate::moves::Touched>,
    /// for each pile, the always-sorted key group it is in (`KeyRules::always_sorted`),
    /// where no forced move exists; u32::MAX for none: two empty piles of one such group
    /// are twins (a move into either gives the same key)
    pub twin_group: Vec<u32>,
    /// whether some pile has a twin group
    pub has_twins: bool,
    /// whether some pairing of `sources` (of `forced_sources`) has a target filter
    pub filtered: bool,
    pub forced_filtered: bool,
    /// the maps by which the branch filters read a neighbour of the target, in their
    /// slots' order (`filter::BranchFilter`; at most `filter::MAX_NEAR`)
    pub near_maps: Vec<u16>,
    pub tables: Vec<Arc<Table>>,
    pub key: KeyRules,
    pub ordering: OrderingRules,
    pub beam: BeamRules,
    /// the guided search's tables; None where it never runs
    pub guided: Option<Box<GuidedRules>>,
    /// the search's constants (`patience.solver.constants`)
    pub search: wire::Search,
    /// the most forced moves one move or deal may cause (`MAX_FORCED_MOVES` of
    /// `patience/limits.py`): past it `play` stops and sets `Stacks::runaway`
    pub max_forced_moves: u32,
    pub discards: Vec<Discard>,
    /// every set of piles of every discard, by number
    pub discard_sets: DiscardSets,
    /// where piles stand: maps from a pile's number (`wire::Places`; `usize::MAX` for none)
    /// and the closing groups, boxed: the program's hot fields keep their places
    pub placing: Box<Placing>,
    /// the piles where a move's cards land under the others (`lands: bottom`), a flag a
    /// pile (empty: no such pile, and nothing to ask)
    pub bottom: Vec<bool>,
    /// the piles filled from the pile the last card went to (`fill_from: last`), in order
    pub fill_last: Vec<usize>,
    /// per fill of `fills`, its `fill_when` (a rule on the table)
    pub fill_when: Vec<Code>,
    /// the draws of a buried card (`merci`), if any
    pub merci: Option<Box<Merci>>,
}

/// The draws of a buried card (`merci`, `patience.plan.MerciPlan`): while the hidden pile
/// `counter` holds fewer than `limit` cards, the card under the top card of a pile of each
/// source range is tried as a run of one of its plan, the top card lifted.
#[derive(Debug)]
pub struct Merci {
    pub sources: Vec<(usize, usize, SourcePlan)>,
    pub counter: usize,
    pub limit: usize,
}

/// A program's places (`Program::placing`).
#[derive(Debug, Default)]
pub struct Placing {
    /// maps from a pile's number (`wire::Places`; `usize::MAX` for none)
    pub maps: Vec<Vec<usize>>,
    /// the pile ranges of the groups whose gaps close (`close_gaps`)
    pub closing: Vec<(usize, usize)>,
    /// the pile ranges whose gaps close when the player deals (`close_gaps: deal`)
    pub deal_closing: Vec<(usize, usize)>,
}

type Result<T> = std::result::Result<T, String>;

fn err<T>(what: &str, value: &Value) -> Result<T> {
    let text = value.to_string();
    let mut shown: String = text.chars().take(80).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    Err(format!("bad rule program: {what} in {shown}"))
}

fn bad<T>(what: String) -> Result<T> {
    Err(format!("bad rule program: {what}"))
}

fn int(value: &Value) -> Result<i64> {
    value.as_i64().map_or_else(|| err("not an integer", value), Ok)
}

fn index(value: &Value) -> Result<usize> {
    value.as_u64().map_or_else(|| err("not an index", value), |v| Ok(v as usize))
}

fn slot(value: &Value, limit: usize) -> Result<u8> {
    let v = index(value)?;
    if v >= limit {
        return err("slot out of range", value);
    }
    Ok(v as u8)
}

fn flags(piles: &[usize], size: usize) -> Result<Vec<bool>> {
    let mut out = vec![false; size];
    for &i in piles {
        if i >= size {
            return bad(format!("pile {i} out of range"));
        }
        out[i] = true;
    }
    Ok(out)
}

struct Reader {
    slots: usize, // pile slots: constant piles must be below
    maps: usize,  // the maps of `wire::Places`
    tables: Vec<Arc<Table>>,
    /// the memo slots given out so far (one program shares them)
    memo: crate::compile::Memo,
    /// whether pairings get target filters (off only to test the filters against the rules)
    filters: bool,
    /// the filters made so far, by their rule (written out) and whether its runs are one
    /// card: pairings of several sources often share a rule (FreeCell's moves onto a column
    /// from a cell or a foundation), and a filter costs a read of the rule for every pair
    /// of codes
    made: std::cell::RefCell<std::collections::HashMap<String, Made>>,
}

/// The filters of one rule (`Reader::filters_of`): the branch filter once a pairing with
/// several targets asks for it.
struct Made {
    filter: Option<TargetFilter>,
    branches: Option<Option<Box<BranchFilter>>>,
}

impl Reader {
    fn pile(&self, value: &Value) -> Result<PileRef> {
        let items = value.as_array().ok_or_else(|| "bad rule program: pile".to_string())?;
        match items.first().and_then(Value::as_str) {
            Some("src") => Ok(PileRef::Source),
            Some("tgt") => Ok(PileRef::Target),
            Some("stock") => Ok(PileRef::Stock),
            Some("var") => Ok(PileRef::Var(slot(&items[1], SLOTS)?)),
            Some("chosen") => match items.get(1) {
                Some(j) => Ok(PileRef::Chosen(slot(j, MAX_DISCARD_CARDS)?)),
                None => err("not a pile", value),
            },
            Some("near") => {
                let map = self.map(&items[1])?;
                let base = match self.pile(&items[2])? {
                    PileRef::Source => 0,
                    PileRef::Target => 1,
                    PileRef::Var(slot) => 2 + slot,
                    PileRef::Chosen(j) => CHOSEN_BASE + j,
                    _ => return err("a neighbour of a pile that is no source, target, bound or chosen pile", value),
                };
                Ok(PileRef::Near(map, base))
            }
            Some("pile") => {
                let i = index(&items[1])?;
                if i >= self.slots {
                    return err("pile out of range", value);
                }
                Ok(PileRef::Index(i as u16))
            }
            _ => err("not a pile", value),
        }
    }

    fn map(&self, value: &Value) -> Result<u16> {
        let map = index(value)?;
        if map >= self.maps {
            return err("unknown place map", value);
        }
        Ok(map as u16)
    }

    /// The target filter of a pairing whose whole rule is `rule` (`size_one`: its runs are
    /// one card), and its branch filter where it has `several` target piles: each made once
    /// for a rule (`made`), since pairings of several sources often share one.
    fn filters_of(&self, rule: &Expr, size_one: bool, several: bool) -> (Option<TargetFilter>, Option<Box<BranchFilter>>) {
        let mut made = self.made.borrow_mut();
        let made = made.entry(format!("{size_one} {rule:?}"))
            .or_insert_with(|| Made { filter: TargetFilter::new(rule, &self.tables, size_one), branches: None });
        let branches = match &made.filter {
            Some(filter) if several => made.branches
                .get_or_insert_with(|| BranchFilter::new(rule, &self.tables, size_one, filter.key).map(Box::new))
                .clone(),
            _ => None,
        };
        (made.filter.clone(), branches)
    }

    fn code(&self, value: &Value) -> Result<Code> {
        Ok(Code::with_memo(&self.expr(value)?, &self.tables, &self.memo))
    }

    fn safe(&self, value: &Value) -> Result<Safe> {
        let expr = self.expr(value)?;
        Ok(Safe { sources: Safe::range(&expr, PileRef::Source), targets: Safe::range(&expr, PileRef::Target),
                  code: Code::with_memo(&expr, &self.tables, &self.memo) })
    }

    fn boxed(&self, value: &Value) -> Result<Box<Expr>> {
        Ok(Box::new(self.expr(value)?))
    }

    fn range(&self, a: &Value, b: &Value) -> Result<(u16, u16)> {
        let (start, stop) = (index(a)?, index(b)?);
        if start > stop || stop > self.slots {
            return err("bad pile range", a);
        }
        Ok((start as u16, stop as u16))
    }

    fn expr(&self, value: &Value) -> Result<Expr> {
        if let Some(b) = value.as_bool() {
            return Ok(Expr::Int(b as i64));
        }
        let items = match value.as_array() {
            Some(items) if !items.is_empty() => items,
            _ => return err("not an expression", value),
        };
        let arg = |i: usize| items.get(i).ok_or_else(|| "bad rule program: too few".to_string());
        let kind = items[0].as_str().unwrap_or("");
        Ok(match kind {
            "int" => Expr::Int(int(arg(1)?)?),
            "attr" => {
                let attr = match arg(1)?.as_str() {
                    Some("rank") => Attr::Rank,
                    Some("suit") => Attr::Suit,
                    Some("color") => Attr::Color,
                    Some("face_up") => Attr::FaceUp,
                    _ => return err("unknown attribute", value),
                };
                let card = self.expr(arg(2)?)?;
                match card.card_ref() {
                    Some(c) => Expr::CardAttr(attr, c),
                    None => Expr::Attr(attr, Box::new(card)),
                }
            }
            "top" => Expr::Top(self.pile(arg(1)?)?),
            "bottom" => Expr::Bottom(self.pile(arg(1)?)?),
            "empty" => Expr::Empty(self.pile(arg(1)?)?),
            "size" => Expr::Size(self.pile(arg(1)?)?),
            "run_top" => Expr::RunTop,
            "run_bottom" => Expr::RunBottom,
            "run_size" => Expr::RunSize,
            "card" => Expr::Card(slot(arg(1)?, 2 * SLOTS)?),
            "arith" => {
                let op = match arg(1)?.as_str() {
                    Some("+") => Op::Add,
                    Some("-") => Op::Sub,
                    Some("*") => Op::Mul,
                    Some("//") => Op::FloorDiv,
                    Some("%") => Op::Mod,
                    Some("**") => Op::Pow,
                    _ => return err("unknown operator", value),
                };
                Expr::Arith(op, self.boxed(arg(2)?)?, self.boxed(arg(3)?)?)
            }
            "neg" => Expr::Neg(self.boxed(arg(1)?)?),
            "not" => Expr::Not(self.boxed(arg(1)?)?),
            "cmp" => {
                let op = match arg(1)?.as_str() {
                    Some("==") => Cmp::Eq,
                    Some("!=") => Cmp::Ne,
                    Some("<") => Cmp::Lt,
                    Some("<=") => Cmp::Le,
                    Some(">") => Cmp::Gt,
                    Some(">=") => Cmp::Ge,
                    _ => return err("unknown comparison", value),
                };
                Expr::Compare(op, self.boxed(arg(2)?)?, self.boxed(arg(3)?)?)
            }
            "and" | "or" => {
                let parts = arg(1)?
                    .as_array()
                    .ok_or_else(|| "bad rule program: and/or".to_string())?
                    .iter()
                    .map(|v| self.expr(v))
                    .collect::<Result<Vec<_>>>()?;
                if kind == "and" {
                    Expr::And(parts)
                } else {
                    Expr::Or(parts)
                }
            }
            "place" => Expr::Place(self.map(arg(1)?)?, self.pile(arg(2)?)?),
            "member" => {
                let (start, stop) = self.range(arg(2)?, arg(3)?)?;
                Expr::Member(self.pile(arg(1)?)?, start, stop)
            }
            "same" => Expr::Same(self.pile(arg(1)?)?, self.pile(arg(2)?)?),
            "all" | "any" | "count" => {
                let s = slot(arg(1)?, SLOTS)?;
                let (start, stop) = self.range(arg(2)?, arg(3)?)?;
                let body = self.boxed(arg(4)?)?;
                match kind {
                    "all" => Expr::Quantifier(true, s, start, stop, body),
                    "any" => Expr::Quantifier(false, s, start, stop, body),
                    _ => Expr::Count(s, start, stop, body),
                }
            }
            "pairs_all" | "pairs_any" => {
                let run = arg(1)?;
                let run = if run.get(0).and_then(Value::as_str) == Some("run") {
                    RunRef::Run
                } else {
                    RunRef::Pile(self.pile(run)?)
                };
                Expr::Pairs(
                    kind == "pairs_all",
                    run,
                    slot(arg(2)?, 2 * SLOTS)?,
                    slot(arg(3)?, 2 * SLOTS)?,
                    self.boxed(arg(4)?)?,
                )
            }
            "table" => {
                let id = index(arg(1)?)?;
                if id >= self.tables.len() {
                    return err("unknown table", value);
                }
                let a = self.expr(arg(2)?)?;
                if items.len() == 3 {
                    match a.card_ref() {
                        Some(c) => Expr::CardTable1(id as u16, c),
                        None => Expr::Table1(id as u16, Box::new(a)),
                    }
                } else {
                    let b = self.expr(arg(3)?)?;
                    match (a.card_ref(), b.card_ref()) {
                        (Some(x), Some(y)) => Expr::CardTable2(id as u16, x, y),
                        _ => Expr::Table2(id as u16, Box::new(a), Box::new(b)),
                    }
                }
            }
            _ => return err("unknown node", value),
        })
    }

    fn plan(&self, source: &wire::Source, groups: &[Group]) -> Result<SourcePlan> {
        let optional = |v: &Option<Value>| -> Result<Option<Code>> {
            v.as_ref().map(|v| self.code(v)).transpose()
        };
        let rest = self.expr(&source.rest)?;
        let is_one = |v: &Option<Value>| -> Result<bool> {
            Ok(match v {
                None => false,
                Some(v) => matches!(self.expr(v)?, Expr::Int(1)),
            })
        };
        let plan_one = is_one(&source.fixed)?;
        let constant = |v: &Option<Value>| -> Result<Option<i64>> {
            Ok(match v {
                None => None,
                Some(v) => match self.expr(v)? {
                    Expr::Int(k) => Some(k),
                    _ => None,
                },
            })
        };
        let plan_size = constant(&source.fixed)?;
        let mut screened = true;
        let read = |v: &Option<Value>| -> Result<bool> {
            Ok(v.as_ref().map(|v| self.expr(v)).transpose()?.is_none_or(|e| reads_only_ends(&e)))
        };
        let mut local = reads_only_ends(&rest) && read(&source.scan)? && read(&source.fixed)?;
        let mut pairings = Vec::new();
        let mut key_depths = Vec::new();
        for item in &source.pairings {
            local &= read(&item.fixed)?;
            for rule in [&item.hoisted, &item.free, &item.bound] {
                local &= reads_only_ends(&self.expr(rule)?);
            }
            let group = groups.get(item.target).ok_or("bad rule program: target group")?;
            let (start, stop) = (group.start, group.stop);
            // a single target pile is tested at once: indexing the position's tops for it
            // would cost more than it saves (Golf's waste); its filter's verdicts still serve
            let several = stop > start + 1;
            let (filter, branches) = if self.filters {
                // everything a move of this pairing must pass, tested together
                let rule = Expr::And(vec![
                    rest.clone(),
                    self.expr(&item.hoisted)?,
                    self.expr(&item.free)?,
                    self.expr(&item.bound)?,
                ]);
                self.filters_of(&rule, plan_one || is_one(&item.fixed)?, several)
            } else {
                (None, None)
            };
            let indexed = filter.is_some() && several;
            // the one card every run of the pairing is keyed by, when there is one (a pairing
            // into a single pile too: the screen passes over most sources at once)
            let key_depth = match filter.as_ref().map(|f| f.key) {
                Some(FilterKey::Nothing) => Some(0),
                Some(FilterKey::RunTop) => Some(1),
                Some(FilterKey::RunBottom) => match constant(&item.fixed)?.or(plan_size) {
                    Some(k) if k >= 1 => Some(k as usize),
                    _ => None,
                },
                None => None,
            };
            screened &= key_depth.is_some();
            let key_depth = key_depth.unwrap_or(0);
            let depth_slot = match key_depths.iter().position(|&d| d == key_depth) {
                Some(slot) => slot,
                None => {
                    key_depths.push(key_depth);
                    key_depths.len() - 1
                }
            };
            pairings.push(Pairing {
                key_depth,
                depth_slot,
                filter,
                branches,
                indexed,
                start,
                stop,
                k_outer: item.k_outer,
                first: item.first,
                skip_self: item.skip_self,
                fixed: optional(&item.fixed)?,
                hoisted: self.code(&item.hoisted)?,
                free: self.code(&item.free)?,
                bound: self.code(&item.bound)?,
            });
        }
        let size = |v: Option<u64>, default: usize| v.map_or(default, |v| v.min(usize::MAX as u64) as usize);
        Ok(SourcePlan {
            floor: size(source.floor, 1).max(1),
            cap: size(source.cap, usize::MAX),
            scan: optional(&source.scan)?,
            scan_table: match source.scan.as_ref().map(|v| self.expr(v)).transpose()? {
                Some(Expr::CardTable2(id, CardRef::Card(a), CardRef::Card(b))) if a != b && a < 2 && b < 2 => {
                    Some(ScanTable::new(self.tables.get(id as usize).ok_or("bad rule program: table")?, a == 1))
                }
                _ => None,
            },
            fixed: optional(&source.fixed)?,
            rest: self.code(&source.rest)?,
            screened: screened
                && !pairings.is_empty()
                && pairings.len() <= MAX_SCREENED
                && key_depths.len() <= MAX_SCREEN_KEYS,
            key_depths,
            screen: pairings.iter().any(|pairing| pairing.filter.is_some()) && pairings.len() <= MAX_SCREENED,
            pairings,
            local,
        })
    }
}

/// Give each branch filter of `plans` the slots of the neighbours it reads, adding its maps
/// to `maps`; a filter whose maps would pass `MAX_NEAR` slots is dropped (its pairing then
/// tests those targets by its rule, as without it).
fn place_near(plans: &mut [Option<SourcePlan>], maps: &mut Vec<u16>) {
    for pairing in plans.iter_mut().flatten().flat_map(|plan| plan.pairings.iter_mut()) {
        let Some(branches) = pairing.branches.as_mut() else { continue };
        let mut wanted = maps.clone();
        for map in branches.maps() {
            if !wanted.contains(&map) {
                wanted.push(map);
            }
        }
        if wanted.len() > MAX_NEAR {
            pairing.branches = None;
            continue;
        }
        *maps = wanted;
        let slot = |by: &By| match by {
            By::Target => TARGET_SLOT,
            By::Near(map) => maps.iter().position(|m| m == map).expect("placed") as u8,
        };
        branches.slots = branches.branches.iter().map(|(by, _)| slot(by)).collect();
    }
}

impl Program {
    /// Whether `mv` moves into an empty pile of an always-sorted group (`twin_group`)
    /// the same cards from the same pile as one of `earlier` moves into another empty pile
    /// of it: the two children's keys are the same, so the second is a position seen.
    #[inline]
    pub fn is_twin(&self, pos: &crate::moves::Position, earlier: &[crate::moves::Move], mv: crate::moves::Move) -> bool {
        if !self.has_twins || mv.s < 0 || mv.k <= 0 || mv.t < 0 {
            return false;
        }
        let t = mv.t as usize;
        let group = match self.twin_group.get(t) {
            Some(&g) if g != u32::MAX && pos.piles[t].is_empty() => g,
            _ => return false,
        };
        earlier.iter().any(|m| {
            m.s == mv.s && m.k == mv.k && m.t >= 0 && self.twin_group[m.t as usize] == group
                && pos.piles[m.t as usize].is_empty()
        })
    }

    /// Read a rule program from its JSON text.
    pub fn from_json(text: &str) -> Result<Program> {
        Program::from_json_with(text, true)
    }

    /// Read a rule program, with target filters or (`filters` false, for the tests that
    /// check them) without: every pairing then tests every target.
    pub fn from_json_with(text: &str, filters: bool) -> Result<Program> {
        let versioned: wire::Versioned =
            serde_json::from_str(text).map_err(|e| format!("bad rule program: {e}"))?;
        if versioned.version != PROGRAM_VERSION {
            return Err(format!(
                "rule program version {} is not the core's {PROGRAM_VERSION}: rebuild the native core",
                versioned.version
            ));
        }
        let program: wire::Program =
            serde_json::from_str(text).map_err(|e| format!("bad rule program: {e}"))?;
        Program::from_wire(program, filters)
    }

    /// Check the ranges of a program read from the wire and build it.
    fn from_wire(value: wire::Program, filters: bool) -> Result<Program> {
        let (piles, slots) = (value.piles, value.slots);
        if piles > 250 || slots < piles || slots > piles + 3 {
            return bad(format!("pile count {piles} with {slots} slots"));
        }
        let mut tables = Vec::new();
        for item in &value.tables {
            let bits: Vec<bool> = item.bits.bytes().map(|b| b == b'1').collect();
            let (rows, width) = match item.shape[..] {
                [rows] => (rows, 1),
                [rows, width] => (rows, width),
                _ => return bad(format!("table {:?}: shape {:?}", item.name, item.shape)),
            };
            if rows.checked_mul(width) != Some(bits.len()) {
                return bad(format!("table {:?}: size", item.name));
            }
            tables.push(Arc::new(Table { rows, width, bits }));
        }
        let mut places = Vec::new();
        for map in &value.places.maps {
            if map.len() != piles || map.iter().any(|&v| v < -1 || v > piles as i64) {
                return bad("a place map is not one number from -1 to the piles per pile".to_string());
            }
            places.push(map.iter().map(|&v| if v < 0 { usize::MAX } else { v as usize }).collect());
        }
        let reader = Reader { slots, maps: places.len(), tables: tables.clone(), memo: Default::default(), filters, made: Default::default() };
        let mut groups = Vec::new();
        for g in &value.groups {
            if g.start > g.stop || g.stop > piles {
                return bad(format!("group {:?}: piles {}..{}", g.name, g.start, g.stop));
            }
            groups.push(Group { start: g.start, stop: g.stop, face_down: g.face_down });
        }
        let read_plans = |plans: &[Option<wire::Source>]| -> Result<Vec<Option<SourcePlan>>> {
            if plans.len() != groups.len() {
                return bad("one plan per group".to_string());
            }
            plans.iter().map(|p| p.as_ref().map(|p| reader.plan(p, &groups)).transpose()).collect()
        };
        let mut sources = read_plans(&value.sources)?;
        let mut forced_sources = read_plans(&value.forced_sources)?;
        // the neighbours the branch filters read, each given a slot of the generator's
        let mut near_maps = Vec::new();
        place_near(&mut sources, &mut near_maps);
        place_near(&mut forced_sources, &mut near_maps);
        for f in &value.fills {
            let (a, b) = f.sources;
            if a > b || b > piles || f.start > f.stop || f.stop > piles {
                return bad(format!("fill of piles {}..{}", f.start, f.stop));
            }
        }
        if value.deal_targets.iter().any(|&t| t >= piles) {
            return bad("deal target out of range".to_string());
        }
        if value.stock_top.is_some_and(|t| t >= piles || value.deal_targets.contains(&t)) {
            return bad(format!("stock top {:?}", value.stock_top));
        }
        let mut uncovers: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new(); piles];
        for (pile, covering) in &value.uncovering {
            if *pile >= piles || covering.is_empty() || covering.iter().any(|&c| c >= piles || c == *pile) {
                return bad(format!("uncovering of pile {pile} by {covering:?}"));
            }
            for &c in covering {
                uncovers[c].push((*pile, covering.clone()));
            }
        }
        let redeal = match &value.redeal {
            None => None,
            Some(r) => {
                if r.waste >= piles || r.counter.is_some_and(|c| c >= slots) {
                    return bad("redeal piles out of range".to_string());
                }
                Some(Redeal { waste: r.waste, counter: r.counter, limit: r.limit })
            }
        };
        if let Some(g) = &value.gather {
            let mut seen = vec![false; piles];
            let hidden = |slot: Option<usize>| slot.is_some_and(|s| s < piles || s >= slots);
            if g.deal == 0
                || g.piles.is_empty()
                || g.piles.iter().any(|&p| p >= piles || std::mem::replace(&mut seen[p], true))
                || hidden(g.counter)
                || hidden(g.seed)
                || g.counter.is_some() != g.limit.is_some()
                || (g.shuffle && g.seed.is_none())
                || (g.shuffle && g.counter.is_none())
                || (g.blanks > 0 && (!g.shuffle || g.deal != 1))
                || value.redeal.is_some()
            {
                return bad(format!("gather {g:?}"));
            }
        }
        let key = &value.key;
        let card_table: [u8; 256] = key.card_table[..]
            .try_into()
            .map_err(|_| format!("bad rule program: card table of {} entries", key.card_table.len()))?;
        let check = |r: &Vec<(usize, usize)>| r.iter().all(|&(a, b)| a <= b && b <= slots);
        if !check(&key.always_sorted) || !check(&key.sorted_when_stock_empty) {
            return bad("sorted ranges out of range".to_string());
        }
        let mut views = vec![crate::key::VIEW_ALL; slots];
        for &(pile, size_read) in &key.top_piles {
            if pile >= piles {
                return bad(format!("top pile {pile} out of range"));
            }
            views[pile] = if size_read { crate::key::VIEW_TOP_AND_SIZE } else { crate::key::VIEW_TOP };
        }
        let mut sequences = vec![None; piles];
        for (pile, rows) in &value.beam.sequences {
            if *pile >= piles {
                return bad(format!("sequence rows of pile {pile} out of range"));
            }
            let table: [u64; 64] = rows[..]
                .try_into()
                .map_err(|_| format!("bad rule program: {} sequence rows, not 64", rows.len()))?;
            sequences[*pile] = Some(table);
        }
        let rows64 = |rows: &Vec<u64>, what: &str| -> Result<[u64; 64]> {
            rows[..].try_into().map_err(|_| format!("bad rule program: {} {what} rows, not 64", rows.len()))
        };
        let guided = match &value.guided {
            None => None,
            Some(g) => {
                let mut runs = vec![None; piles];
                for (pile, rows) in &g.runs {
                    if *pile >= piles {
                        return bad(format!("guided run rows of pile {pile} out of range"));
                    }
                    runs[*pile] = Some(rows64(rows, "run")?);
                }
                let mut homes = Vec::with_capacity(g.homes.len());
                let mut home = vec![false; piles];
                for (pile, empty, rows) in &g.homes {
                    if *pile >= piles || home[*pile] {
                        return bad(format!("guided home pile {pile} out of range or twice"));
                    }
                    home[*pile] = true;
                    homes.push((*pile, *empty, rows64(rows, "home")?));
                }
                let flags = |list: &Vec<usize>, what: &str| -> Result<Vec<bool>> {
                    let mut flags = vec![false; piles];
                    for &pile in list {
                        match flags.get_mut(pile) {
                            Some(flag) => *flag = true,
                            None => return bad(format!("guided {what} pile {pile} out of range")),
                        }
                    }
                    Ok(flags)
                };
                let covered = flags(&g.covered, "covered")?;
                let built = flags(&g.built, "built")?;
                let narrow = flags(&g.narrow, "narrow")?;
                let keyed_when_reached = g.keyed_when_reached;
                Some(Box::new(GuidedRules { runs, homes, home, covered, built, narrow, keyed_when_reached }))
            }
        };
        let pass_merge = match value.ordering.pass_merge {
            Some((waste, turn)) if waste >= piles || turn == 0 => {
                return bad(format!("pass merge ({waste}, {turn})"));
            }
            other => other,
        };
        let cards = &value.cards;
        if cards.face_down != FACE_DOWN as u64
            || cards.suits != 4
            || cards.red_suits != [1, 2]
            || cards.blank != crate::moves::BLANK as u64
        {
            return bad(format!(
                "card encoding {cards:?} is not the core's (face down {FACE_DOWN}, 4 suits, red 1 and 2, blank {}): rebuild the native core",
                crate::moves::BLANK
            ));
        }
        if value.max_forced_moves == 0 {
            return bad("max_forced_moves of 0".to_string());
        }
        let search = value.search.clone();
        if search.styles == 0 || search.styles > 64 || search.restart_unit == 0 || search.beam_width == 0
            || search.max_beam_width < search.beam_width
        {
            return bad(format!("search constants {search:?}"));
        }
        if search.guided.depth_weights.len() > crate::store::FLARES {
            return bad(format!("{} guided searches: the store marks at most {}",
                               search.guided.depth_weights.len(), crate::store::FLARES));
        }
        if value.places.closing.iter().chain(&value.places.deal_closing).any(|&(a, b)| a > b || b > piles) {
            return bad("a closing range out of range".to_string());
        }
        let fill_when = value.fills.iter().map(|fill| reader.code(&fill.when)).collect::<Result<Vec<_>>>()?;
        let turning = &value.turning;
        if turning.fill_last_piles.iter().any(|&p| p >= piles) {
            return bad("a fill_last pile out of range".to_string());
        }
        let bottom = if turning.bottom_piles.is_empty() { Vec::new() } else { flags(&turning.bottom_piles, piles)? };
        let has_forced = !value.fills.is_empty()
            || forced_sources.iter().any(Option::is_some)
            || !value.places.closing.is_empty()
            || !turning.fill_last_piles.is_empty();
        let forced_plans: Vec<&SourcePlan> = forced_sources.iter().flatten().collect();
        let forced_targets = (!forced_plans.is_empty() && forced_plans.iter().all(|plan| plan.local)).then(|| {
            let mut targets = crate::moves::Touched::NONE;
            for pairing in forced_plans.iter().flat_map(|plan| &plan.pairings) {
                (pairing.start..pairing.stop).for_each(|t| targets.mark(t));
            }
            targets
        });
        let mut twin_group = vec![u32::MAX; piles];
        if !has_forced {
            for (number, &(start, stop)) in key.always_sorted.iter().enumerate() {
                for group in twin_group.iter_mut().take(stop).skip(start) {
                    *group = number as u32;
                }
            }
        }
        let any_filter = |plans: &[Option<SourcePlan>]| {
            plans.iter().flatten().any(|p| p.pairings.iter().any(|q| q.indexed))
        };
        let (filtered, forced_filtered) = (any_filter(&sources), any_filter(&forced_sources));
        let (discards, discard_sets) = read_discards(&value.discards, &reader, piles)?;
        let merci = match &value.merci {
            None => None,
            Some(m) => {
                if m.counter < piles || m.counter >= slots || m.limit == 0 {
                    return bad(format!("merci counted by pile {} up to {}", m.counter, m.limit));
                }
                let mut sources = Vec::new();
                for (group, source) in &m.sources {
                    let Some(g) = groups.get(*group) else {
                        return bad(format!("merci of group {group}"));
                    };
                    sources.push((g.start, g.stop, reader.plan(source, &groups)?));
                }
                Some(Box::new(Merci { sources, counter: m.counter, limit: m.limit }))
            }
        };
        let ordering = &value.ordering;
        Ok(Program {
            id: value.id.clone(),
            piles,
            slots,
            sources,
            forced_sources,
            fills: value.fills,
            win: reader.code(&value.win)?,
            deal_when: reader.code(&value.deal_when)?,
            safe: value.safe.as_ref().map(|expr| reader.safe(expr)).transpose()?,
            turns_up: flags(&value.face_down_piles, piles)?,
            deal_targets: value.deal_targets,
            deal_skips_empty: value.deal_skips_empty,
            deal_fills_empty: value.deal_fills_empty,
            redeal,
            gather_keep: gather_rule(&reader, value.gather.as_ref().and_then(|g| g.keep.as_ref()))?,
            gather_gaps: gather_rule(&reader, value.gather.as_ref().and_then(|g| g.gaps.as_ref()))?,
            gather: value.gather,
            stock_top: value.stock_top,
            uncovers,
            has_forced,
            forced_targets,
            has_twins: twin_group.iter().any(|&g| g != u32::MAX),
            twin_group,
            filtered,
            forced_filtered,
            near_maps,
            tables,
            key: KeyRules {
                card_table,
                always_sorted: key.always_sorted.clone(),
                sorted_when_stock_empty: key.sorted_when_stock_empty.clone(),
                stock_by_cards: key.stock_by_cards,
                views,
            },
            ordering: OrderingRules {
                first_target: flags(&ordering.first_target_piles, slots)?,
                parking: flags(&ordering.parking_piles, slots)?,
                dealt: flags(&ordering.dealt_piles, slots)?,
                after_deal: ordering.after_deal.as_ref().map(|p| flags(p, slots)).transpose()?,
                pass_merge,
            },
            beam: BeamRules { layers: value.beam.layers, sequences },
            guided,
            search,
            max_forced_moves: value.max_forced_moves,
            groups,
            discards,
            discard_sets,
            placing: Box::new(Placing {
                maps: places,
                closing: value.places.closing,
                deal_closing: value.places.deal_closing,
            }),
            bottom,
            fill_last: value.turning.fill_last_piles,
            fill_when,
            merci,
        })
    }
}

/// The discards of the wire, their sets made (lexicographic order, numbered in a row from
/// the first discard's `start` of 0) and their ranges checked.
/// Every set of piles of every discard, by number: (its discard, its first pile in that
/// discard's `sets`).
type DiscardSets = Vec<(u16, u32)>;

/// A gathering redeal's rule on a pile (`wire::Gather::keep`, `gaps`), read.
fn gather_rule(reader: &Reader, rule: Option<&Value>) -> Result<Option<Code>> {
    rule.map(|expr| reader.code(expr)).transpose()
}

fn read_discards(wired: &[wire::Discard], reader: &Reader, piles: usize) -> Result<(Vec<Discard>, DiscardSets)> {
    let mut discards = Vec::new();
    let mut numbered: DiscardSets = Vec::new();
    for (number, d) in wired.iter().enumerate() {
        let n = d.cards;
        if !(2..=MAX_DISCARD_CARDS).contains(&n)
            || d.sources.len() < n
            || d.target >= piles
            || d.sources.iter().any(|&p| p >= piles || p == d.target)
            || d.sources.windows(2).any(|w| w[0] >= w[1])
            || d.start != numbered.len()
        {
            return bad(format!("discard {number}: {} cards of piles {:?} onto {}, from set {}", n, d.sources, d.target, d.start));
        }
        // the combinations of n of the sources, in lexicographic order
        let mut sets = Vec::new();
        let mut at: Vec<usize> = (0..n).collect();
        loop {
            if numbered.len() >= MAX_DISCARD_SETS {
                return bad(format!("more than {MAX_DISCARD_SETS} sets of discarded piles"));
            }
            numbered.push((number as u16, sets.len() as u32));
            sets.extend(at.iter().map(|&i| d.sources[i] as u16));
            let Some(j) = (0..n).rev().find(|&j| at[j] < d.sources.len() - n + j) else { break };
            at[j] += 1;
            for i in j + 1..n {
                at[i] = at[i - 1] + 1;
            }
        }
        let pair = if n == 2 && reader.filters {
            PairFilter::new(&reader.expr(&d.when)?, &reader.tables)
        } else {
            None
        };
        discards.push(Discard { cards: n, target: d.target, start: d.start, when: reader.code(&d.when)?, sets, pair,
                                  sources: d.sources.iter().map(|&p| p as u16).collect() });
    }
    Ok((discards, numbered))
}

/// How many loops over the position alone (`compile.rs`, "memo") a program remembers.
pub const MEMO_SLOTS: usize = 16;

/// What an expression is evaluated in: the position and the bound names, and the values
/// of the loops that read the position alone, once computed (`memo_set` says which). The
/// position is borrowed, so it cannot change while an `Env` lives: a remembered value
/// stays right for as long as it can be read.
pub struct Env<'a> {
    pub piles: &'a [Vec<u8>],
    pub stock: &'a [u8],
    /// the program's place maps (`Program::places`), read by `PileRef::Near` and `Expr::Place`
    pub places: &'a [Vec<usize>],
    pub s: usize,
    pub t: usize,
    pub k: usize,
    pub pile_vars: [usize; SLOTS],
    /// the piles a discard chose, in pile order
    pub chosen: [usize; MAX_DISCARD_CARDS],
    pub cards: [i64; 2 * SLOTS],
    pub memo: [i64; MEMO_SLOTS],
    /// the source and target a remembered value that reads them was computed for
    pub memo_for: [(usize, usize); MEMO_SLOTS],
    pub memo_set: u32,
}

impl<'a> Env<'a> {
    pub fn new(piles: &'a [Vec<u8>], stock: &'a [u8]) -> Env<'a> {
        Env::placed(piles, stock, &[])
    }

    /// An `Env` that reads the program's place maps (a program with places needs them).
    #[inline]
    pub fn placed(piles: &'a [Vec<u8>], stock: &'a [u8], places: &'a [Vec<usize>]) -> Env<'a> {
        Env {
            piles,
            stock,
            places,
            s: 0,
            t: 0,
            k: 0,
            pile_vars: [0; SLOTS],
            chosen: [0; MAX_DISCARD_CARDS],
            cards: [0; 2 * SLOTS],
            memo: [0; MEMO_SLOTS],
            memo_for: [(0, 0); MEMO_SLOTS],
            memo_set: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn pile(&self, pile: PileRef) -> &'a [u8] {
        let piles = self.piles;
        let at = |i: usize| piles.get(i).map_or(&[][..], |p| &p[..]);
        match pile {
            PileRef::Source => at(self.s),
            PileRef::Target => at(self.t),
            PileRef::Var(slot) => at(self.pile_vars[slot as usize]),
            PileRef::Index(i) => at(i as usize),
            PileRef::Stock => self.stock,
            PileRef::Chosen(j) => at(self.chosen[j as usize]),
            PileRef::Near(map, base) => self.near_pile(map, base),
        }
    }

    /// The cards of the neighbour by `map` of the pile `base` (out of line: the common
    /// piles' reads stay small).
    #[inline(never)]
    fn near_pile(&self, map: u16, base: u8) -> &'a [u8] {
        self.piles.get(self.near(map, base)).map_or(&[][..], |p| &p[..])
    }

    /// The number of the neighbour by `map` of the pile `base` (`PileRef::Near`), or
    /// `usize::MAX` for none.
    #[inline(never)]
    pub(crate) fn near(&self, map: u16, base: u8) -> usize {
        let of = match base {
            0 => self.s,
            1 => self.t,
            j if j >= CHOSEN_BASE => self.chosen[(j - CHOSEN_BASE) as usize],
            slot => self.pile_vars[(slot - 2) as usize],
        };
        self.read_map(map, of)
    }

    /// A pile's index, row or column by `map` (`Expr::Place`): 0 for no pile.
    #[inline]
    pub(crate) fn place(&self, map: u16, pile: PileRef) -> i64 {
        match self.read_map(map, self.pile_number(pile)) {
            usize::MAX => 0,
            value => value as i64,
        }
    }

    /// `map`'s value for the pile numbered `pile` (`usize::MAX` for none, or no pile).
    #[inline]
    pub(crate) fn read_map(&self, map: u16, pile: usize) -> usize {
        self.places.get(map as usize).and_then(|m| m.get(pile)).copied().unwrap_or(usize::MAX)
    }

    #[inline(always)]
    pub(crate) fn pile_number(&self, pile: PileRef) -> usize {
        match pile {
            PileRef::Source => self.s,
            PileRef::Target => self.t,
            PileRef::Var(slot) => self.pile_vars[slot as usize],
            PileRef::Index(i) => i as usize,
            PileRef::Stock => usize::MAX,
            PileRef::Chosen(j) => self.chosen[j as usize],
            PileRef::Near(map, base) => self.near(map, base),
        }
    }
}

/// The card a rule reads (`pile.top`, `run.bottom`, a bound card…); NO_CARD for none.
#[inline(always)]
pub(crate) fn card_value(card: CardRef, env: &Env) -> i64 {
    match card {
        CardRef::Top(p) => env.pile(p).last().map_or(NO_CARD, |&c| c as i64),
        CardRef::Bottom(p) => env.pile(p).first().map_or(NO_CARD, |&c| c as i64),
        CardRef::RunTop => env.pile(PileRef::Source).last().map_or(NO_CARD, |&c| c as i64),
        CardRef::RunBottom => {
            let src = env.pile(PileRef::Source);
            if env.k >= 1 && env.k <= src.len() {
                src[src.len() - env.k] as i64
            } else {
                NO_CARD
            }
        }
        CardRef::Card(slot) => env.cards[slot as usize],
        CardRef::Const(v) => v,
    }
}

/// A card's attribute (`card.rank`, …), the same for the evaluator and the compiled closures.
#[inline(always)]
pub(crate) fn attribute(attr: Attr, c: i64) -> i64 {
    match attr {
        Attr::Rank => (c >> 2) & 15,
        Attr::Suit => c & 3,
        Attr::Color => (((c & 3) + 1) >> 1) & 1,
        Attr::FaceUp => (c < FACE_DOWN as i64) as i64,
    }
}

#[inline(always)]
pub(crate) fn lookup1(table: &Table, a: i64) -> i64 {
    if a < 0 || a as usize >= table.rows {
        0
    } else {
        table.bits[a as usize] as i64
    }
}

#[inline(always)]
pub(crate) fn lookup2(table: &Table, a: i64, b: i64) -> i64 {
    if a < 0 || b < 0 || a as usize >= table.rows || b as usize >= table.width {
        0
    } else {
        table.bits[a as usize * table.width + b as usize] as i64
    }
}

#[inline]
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let q = a.wrapping_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

#[inline]
/// `a ** b`, wrapping; 0 for a negative power.
pub(crate) fn power(a: i64, b: i64) -> i64 {
    if b < 0 {
        0
    } else {
        a.wrapping_pow(b.min(u32::MAX as i64) as u32)
    }
}

pub(crate) fn floor_mod(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

impl Program {
    #[inline]
    pub fn truth(&self, expr: &Expr, env: &mut Env) -> bool {
        self.eval(expr, env) != 0
    }


    #[inline(never)]
    fn eval_loop(&self, expr: &Expr, env: &mut Env) -> i64 {
        match expr {
            Expr::Quantifier(all, slot, start, stop, body) => {
                let saved = env.pile_vars[*slot as usize];
                let mut result = *all;
                for i in *start as usize..*stop as usize {
                    env.pile_vars[*slot as usize] = i;
                    if self.truth(body, env) != *all {
                        result = !*all;
                        break;
                    }
                }
                env.pile_vars[*slot as usize] = saved;
                result as i64
            }
            Expr::Count(slot, start, stop, body) => {
                let saved = env.pile_vars[*slot as usize];
                let mut total = 0;
                for i in *start as usize..*stop as usize {
                    env.pile_vars[*slot as usize] = i;
                    total += self.truth(body, env) as i64;
                }
                env.pile_vars[*slot as usize] = saved;
                total
            }
            Expr::Pairs(all, run, below, above, body) => {
                let cards: &[u8] = match run {
                    RunRef::Run => {
                        let src = env.pile(PileRef::Source);
                        &src[src.len() - env.k.min(src.len())..]
                    }
                    RunRef::Pile(p) => env.pile(*p),
                };
                let (b, a) = (*below as usize, *above as usize);
                let saved = (env.cards[b], env.cards[a]);
                let mut result = *all;
                for pair in cards.windows(2) {
                    env.cards[b] = pair[0] as i64;
                    env.cards[a] = pair[1] as i64;
                    if self.truth(body, env) != *all {
                        result = !*all;
                        break;
                    }
                }
                env.cards[b] = saved.0;
                env.cards[a] = saved.1;
                result as i64
            }
            _ => unreachable!("not a loop"),
        }
    }

    pub fn eval(&self, expr: &Expr, env: &mut Env) -> i64 {
        match expr {
            Expr::Int(v) => *v,
            Expr::CardAttr(attr, card) => attribute(*attr, card_value(*card, env)),
            Expr::CardTable1(id, a) => lookup1(&self.tables[*id as usize], card_value(*a, env)),
            Expr::CardTable2(id, a, b) => {
                lookup2(&self.tables[*id as usize], card_value(*a, env), card_value(*b, env))
            }
            Expr::Attr(attr, card) => attribute(*attr, self.eval(card, env)),
            Expr::Top(p) => env.pile(*p).last().map_or(NO_CARD, |&c| c as i64),
            Expr::Bottom(p) => env.pile(*p).first().map_or(NO_CARD, |&c| c as i64),
            Expr::RunTop => env.pile(PileRef::Source).last().map_or(NO_CARD, |&c| c as i64),
            Expr::RunBottom => {
                let src = env.pile(PileRef::Source);
                if env.k >= 1 && env.k <= src.len() {
                    src[src.len() - env.k] as i64
                } else {
                    NO_CARD
                }
            }
            Expr::Card(slot) => env.cards[*slot as usize],
            Expr::Empty(p) => env.pile(*p).is_empty() as i64,
            Expr::Size(p) => env.pile(*p).len() as i64,
            Expr::RunSize => env.k as i64,
            Expr::Arith(op, a, b) => op.apply(self.eval(a, env), self.eval(b, env)),
            Expr::Neg(a) => self.eval(a, env).wrapping_neg(),
            Expr::Not(a) => (self.eval(a, env) == 0) as i64,
            Expr::Compare(op, a, b) => op.holds(self.eval(a, env), self.eval(b, env)) as i64,
            Expr::And(parts) => {
                for part in parts {
                    if self.eval(part, env) == 0 {
                        return 0;
                    }
                }
                1
            }
            Expr::Or(parts) => {
                for part in parts {
                    if self.eval(part, env) != 0 {
                        return 1;
                    }
                }
                0
            }
            Expr::Member(p, start, stop) => {
                let i = env.pile_number(*p);
                (i >= *start as usize && i < *stop as usize) as i64
            }
            Expr::Same(a, b) => (env.pile_number(*a) == env.pile_number(*b)) as i64,
            Expr::Quantifier(..) | Expr::Count(..) | Expr::Pairs(..) => self.eval_loop(expr, env),
            Expr::Table1(id, a) => {
                let a = self.eval(a, env);
                lookup1(&self.tables[*id as usize], a)
            }
            Expr::Table2(id, a, b) => {
                let (a, b) = (self.eval(a, env), self.eval(b, env));
                lookup2(&self.tables[*id as usize], a, b)
            }
            Expr::Place(map, p) => env.place(*map, *p),
        }
    }
}

/// A program of `piles` piles with no group, no rule and no fill: the tests set what they
/// need.
#[cfg(test)]
pub(crate) fn bare_program(piles: usize) -> Program {
    Program {
        id: String::new(),
        piles,
        slots: piles,
        groups: vec![],
        sources: vec![],
        forced_sources: vec![],
        fills: vec![],
        win: Code::new(&Expr::Int(0), &[]),
        deal_when: Code::new(&Expr::Int(0), &[]),
        safe: None,
        deal_targets: vec![],
        deal_skips_empty: false,
        deal_fills_empty: false,
        redeal: None,
        gather: None,
        gather_keep: None,
        gather_gaps: None,
        stock_top: None,
        uncovers: vec![Vec::new(); piles],
        turns_up: vec![false; piles],
        has_forced: false,
        forced_targets: None,
        twin_group: vec![],
        has_twins: false,
        filtered: false,
        forced_filtered: false,
        near_maps: Vec::new(),
        tables: vec![],
        key: KeyRules {
            card_table: [0; 256],
            always_sorted: vec![],
            sorted_when_stock_empty: vec![],
            stock_by_cards: false,
            views: vec![0; piles],
        },
        ordering: OrderingRules { first_target: vec![], parking: vec![], dealt: vec![],
                                  after_deal: None, pass_merge: None },
        beam: BeamRules::default(),
        guided: None,
        search: crate::wire::test_search(),
        max_forced_moves: 10_000,
        discards: Vec::new(),
        discard_sets: Vec::new(),
        placing: Box::default(),
        bottom: Vec::new(),
        fill_last: Vec::new(),
        fill_when: Vec::new(),
        merci: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_semantics_are_pythons() {
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(floor_div(7, -2), -4);
        assert_eq!(floor_mod(-7, 2), 1);
        assert_eq!(floor_mod(7, -2), -1);
        assert_eq!(floor_mod(-7, -2), -1);
        assert_eq!(floor_div(5, 0), 0);
    }

    #[test]
    fn an_empty_pile_reads_no_card() {
        let piles = vec![vec![], vec![12u8]];
        let stock = vec![];
        let mut env = Env::new(&piles, &stock);
        env.s = 0;
        let program_json = r#"{"version":1}"#;
        assert!(Program::from_json(program_json).is_err());
        let top = Expr::Top(PileRef::Source);
        let dummy = bare_program(2);
        assert_eq!(dummy.eval(&top, &mut env), NO_CARD);
        assert_eq!(Code::new(&top, &[]).eval(&mut env), NO_CARD);
        env.s = 1;
        let rank = Expr::Attr(Attr::Rank, Box::new(top));
        assert_eq!(dummy.eval(&rank, &mut env), 3);
        assert_eq!(Code::new(&rank, &[]).eval(&mut env), 3);
    }

    #[test]
    fn a_neighbour_past_the_edge_reads_as_an_empty_pile_of_no_place() {
        // three piles in a row: map 0 is "left" (none for the first), map 1 the column
        let piles = vec![vec![4u8], vec![], vec![12u8]];
        let stock = vec![];
        let places = vec![vec![usize::MAX, 0, 1], vec![1, 2, 3]];
        let mut env = Env::placed(&piles, &stock, &places);
        let dummy = bare_program(3);
        let left = PileRef::Near(0, 0); // the source's left neighbour
        for (s, empty, column, top) in [(0, 1, 0, NO_CARD), (1, 0, 1, 4), (2, 1, 2, NO_CARD)] {
            env.s = s;
            for expr in [Expr::Empty(left), Expr::Place(1, left), Expr::Top(left)] {
                let want = match expr {
                    Expr::Empty(_) => empty,
                    Expr::Place(..) => column,
                    _ => top,
                };
                assert_eq!(dummy.eval(&expr, &mut env), want, "source {s}: {expr:?}");
                assert_eq!(Code::new(&expr, &[]).eval(&mut env), want, "source {s}: {expr:?}");
            }
        }
        assert_eq!(env.pile_number(left), 1);
    }
}
