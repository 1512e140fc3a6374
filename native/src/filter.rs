//! Target filters: which piles a moving card could possibly go to, decided once per
//! variant when the rule program is read.
//!
//! A pairing's rule (`rest`, `hoisted`, `free` and `bound` together: everything a move of
//! it must pass) is evaluated at read time for every pair (key card, target top): the
//! key card is the run's bottom card (or its top card, when the rule reads no bottom), the
//! target top is the top card of the receiving pile, or "empty". Everything else the rule
//! reads (sizes, other piles, counts, the stock, the pile numbers) is *unknown*, and the
//! evaluation is three-valued (Kleene): `and` is false when one part is false, `or` true
//! when one part is true, an unknown operand makes anything else unknown. Where the result
//! is *false*, no position whose source and target show those two cards has that move:
//! the rule is a pure function of the position, and the two cards are all that was fixed.
//! So the generator may skip such a target without running the rule, and the moves it
//! emits — and their order — stay exactly what the full test gives (for every skipped pair
//! the full test would have said no). Where the result is true or unknown the full rule
//! still decides. No variant is named: the filter is whatever the compiled rule implies.

use crate::program::{attribute, lookup1, lookup2, CardRef, Cmp, Expr, Op, PileRef, Table, NO_CARD};

/// Card codes: a card value 0–127 is itself; 128 is "no card" (an empty pile); 129 stands
/// for any value outside those (none occurs in play), for which the filter always passes.
pub const EMPTY_CODE: u8 = 128;
pub const OTHER_CODE: u8 = 129;
pub const CODES: usize = 130;

/// The code of a pile's top card (`EMPTY_CODE` when it is empty).
#[inline(always)]
pub fn top_code(pile: &[u8]) -> u8 {
    match pile.last() {
        None => EMPTY_CODE,
        Some(&c) if c < 128 => c,
        Some(_) => OTHER_CODE,
    }
}

#[inline(always)]
fn card_code(c: u8) -> u8 {
    if c < 128 {
        c
    } else {
        OTHER_CODE
    }
}

/// Which card of the source the filter's rows are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKey {
    /// the run's bottom card (`run.bottom`: the card that lands on the target's top)
    RunBottom,
    /// the source's top card (`run.top`)
    RunTop,
    /// none: the rule reads no card of the run, the rows are all one
    Nothing,
}

/// A set of target-top codes, one bit each.
pub type Row = [u64; 3];

#[inline(always)]
pub fn row_has(row: &Row, code: u8) -> bool {
    (row[(code >> 6) as usize] >> (code & 63)) & 1 != 0
}

#[inline(always)]
pub fn row_union(a: &mut Row, b: &Row) {
    a[0] |= b[0];
    a[1] |= b[1];
    a[2] |= b[2];
}

/// At most this many target tops make a row sparse: listed, so that the generator can
/// find the piles showing them from an index of the position's tops (`moves.rs`).
pub const SPARSE: usize = 6;

/// A row's target tops listed, when there are at most `SPARSE` of them.
#[derive(Debug, Clone, Copy)]
pub struct Listed {
    codes: [u8; SPARSE],
    len: u8,
}

impl Listed {
    #[inline(always)]
    pub fn codes(&self) -> &[u8] {
        &self.codes[..self.len as usize]
    }
}

/// Each row's codes listed, where it holds at most `SPARSE`.
fn listed_rows(rows: &[Row]) -> Vec<Option<Listed>> {
    rows.iter()
        .map(|row| {
            let codes: Vec<u8> = (0..CODES as u8).filter(|&v| row_has(row, v)).collect();
            (codes.len() <= SPARSE).then(|| {
                let mut out = Listed { codes: [0; SPARSE], len: codes.len() as u8 };
                out.codes[..codes.len()].copy_from_slice(&codes);
                out
            })
        })
        .collect()
}

/// The card a code stands for in a three-valued reading: the empty code reads as
/// `NO_CARD` (an empty pile's top), the "other" code as unknown.
fn code_value(code: u8) -> Option<i64> {
    match code {
        EMPTY_CODE => Some(NO_CARD),
        OTHER_CODE => None,
        card => Some(card as i64),
    }
}

/// A set of key cards 0–127, one bit each.
pub type Cards = [u64; 2];

/// A pairing's filter: for each key card code, the target tops its rule may accept.
#[derive(Debug, Clone)]
pub struct TargetFilter {
    pub key: FilterKey,
    rows: Vec<Row>,
    listed: Vec<Option<Listed>>,
    /// the rows read the other way: for each target-top code, the key cards 0–127 whose
    /// row has it (a source screen's question, `moves.rs`: may any target take this card?)
    takers: Box<[Cards; 256]>,
    /// for each key card code, the target tops for which the rule is known *true*: the two
    /// cards decide it, so the generator emits the move without running the rule
    sure: Vec<Row>,
    /// the same for a run of one card (`Known::size`): where a rule bounds the run's size
    /// by counts of the position (FreeCell's free spaces), one card always fits
    sure_one: Vec<Row>,
}

/// What a filter says of one run (by its key card) and one target (by its top's code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// the rule is false: no move
    No,
    /// the rule is true: a move, whatever else the position holds
    Yes,
    /// the rest of the position decides: run the rule
    Maybe,
}

impl TargetFilter {
    /// The target tops a run whose key card is `card` may go to.
    #[inline(always)]
    pub fn row(&self, card: u8) -> &Row {
        &self.rows[card_code(card) as usize]
    }

    /// The same, listed, when they are few.
    #[inline(always)]
    pub fn listed(&self, card: u8) -> Option<&Listed> {
        self.listed[card_code(card) as usize].as_ref()
    }

    /// What the rule is for a run keyed by `card` onto a pile whose top has `code`.
    #[inline(always)]
    pub fn verdict(&self, card: u8, code: u8) -> Verdict {
        self.verdict_of(card, code, false)
    }

    /// `verdict`, for a run of one card when `one`.
    #[inline(always)]
    pub fn verdict_of(&self, card: u8, code: u8, one: bool) -> Verdict {
        let at = card_code(card) as usize;
        if !row_has(&self.rows[at], code) {
            Verdict::No
        } else if row_has(if one { &self.sure_one[at] } else { &self.sure[at] }, code) {
            Verdict::Yes
        } else {
            Verdict::Maybe
        }
    }

    /// The key cards 0–127 whose row has the target-top `code` (the "other" code: all).
    #[inline(always)]
    pub fn takers(&self, code: u8) -> &Cards {
        // one entry for every byte: no bounds check
        &self.takers[code as usize]
    }

    fn with_lists(key: FilterKey, rows: Vec<Row>, sure: Vec<Row>, sure_one: Vec<Row>) -> TargetFilter {
        let listed = listed_rows(&rows);
        // the codes past `CODES` never occur: as the "other" code, they pass every card
        let mut takers = Box::new([[u64::MAX; 2]; 256]);
        takers[..CODES].fill([0; 2]);
        for (c, row) in rows.iter().take(128).enumerate() {
            for (v, cards) in takers.iter_mut().take(CODES).enumerate() {
                if row_has(row, v as u8) {
                    cards[c >> 6] |= 1 << (c & 63);
                }
            }
        }
        TargetFilter { key, rows, listed, takers, sure, sure_one }
    }

    /// The filter of a pairing whose whole rule is `rule` (None when it would never skip
    /// anything). `size_one`: every run of the pairing is one card (its bottom is its top).
    pub fn new(rule: &Expr, tables: &[std::sync::Arc<Table>], size_one: bool) -> Option<TargetFilter> {
        let mut reads = Reads::default();
        reads.visit(rule);
        if !reads.target_top && reads.key() == FilterKey::Nothing {
            return None; // neither the target nor the run is known: no pair can be ruled out
        }
        let (filter, skips) = TargetFilter::build(rule, tables, size_one, reads.key(), By::Target);
        skips.then_some(filter)
    }

    /// The rows of `rule` keyed by `key`, read by the top of the pile `by` (the target's
    /// own or its neighbour's), and whether some row rules a pair out.
    fn build(rule: &Expr, tables: &[std::sync::Arc<Table>], size_one: bool, key: FilterKey, by: By) -> (TargetFilter, bool) {
        let mut rows = vec![[u64::MAX; 3]; CODES];
        // the "other" codes are never sure: the rule runs for them
        let mut sure = vec![[0u64; 3]; CODES];
        let mut sure_one = vec![[0u64; 3]; CODES];
        let mut skips = false;
        let keys: &[u16] = if key == FilterKey::Nothing { &[0] } else { &KEY_CODES };
        // one card's rows can differ only where the rule reads the run's size, or both its
        // ends (one card is both); elsewhere they are the rows of every run
        let mut reads = Reads::default();
        reads.visit(rule);
        let one_apart = !size_one && (reads.run_size || (reads.run_top && reads.run_bottom));
        // what is known of a run keyed by `c` onto a pile read as showing `v`; `one`: the
        // run is one card (its bottom is its top)
        let known = |c: u16, v: u16, one: bool| {
            let card = (key != FilterKey::Nothing).then_some(c as i64);
            let other = code_value(v as u8);
            Known {
                bottom: if key == FilterKey::RunBottom || one { card } else { None },
                top: if key == FilterKey::RunTop || one { card } else { None },
                size: one.then_some(1),
                target: if by == By::Target { other } else { None },
                near: match by {
                    By::Near(map) => other.map(|card| (map, card)),
                    By::Target => None,
                },
                chosen: [None; 2],
                tables,
            }
        };
        for &c in keys {
            let mut row: Row = [0; 3];
            let mut sure_row: Row = [0; 3];
            let mut sure_one_row: Row = [0; 3];
            for v in 0..CODES as u16 {
                if v as u8 == OTHER_CODE {
                    row[(v >> 6) as usize] |= 1 << (v & 63); // passes, never sure
                    continue;
                }
                // passes unless known false; sure when known true
                let value = known(c, v, size_one).eval(rule);
                if value != Some(0) {
                    row[(v >> 6) as usize] |= 1 << (v & 63);
                } else {
                    skips = true;
                }
                if value.is_some_and(|value| value != 0) {
                    sure_row[(v >> 6) as usize] |= 1 << (v & 63);
                }
                // and for a run of one card, where the pairing's runs are not all one
                let one = if one_apart { known(c, v, true).eval(rule) } else { value };
                if one.is_some_and(|value| value != 0) {
                    sure_one_row[(v >> 6) as usize] |= 1 << (v & 63);
                }
            }
            if key == FilterKey::Nothing {
                rows = vec![row; CODES];
                sure = vec![sure_row; CODES];
                sure_one = vec![sure_one_row; CODES];
                sure[OTHER_CODE as usize] = [0; 3];
                sure_one[OTHER_CODE as usize] = [0; 3];
            } else {
                rows[c as usize] = row;
                sure[c as usize] = sure_row;
                sure_one[c as usize] = sure_one_row;
            }
        }
        // the "other" row (a key card outside 0-127) passes everything: left all ones
        (TargetFilter::with_lists(key, rows, sure, sure_one), skips)
    }
}

/// The most neighbours of the target that the branch filters of one program read: the
/// generator keeps the top of each pile's neighbour by each of their maps (`moves.rs`).
pub const MAX_NEAR: usize = 2;
/// The most branches a rule is split into for a branch filter.
const MAX_BRANCHES: usize = 16;
/// The most nodes a branch filter's branches hold in all, or a pair filter's rule: the
/// rows evaluate them for every pair of codes (130 × 128 or 130 × 130), so a longer rule
/// gets none and is run as it is (a shipped grid's branches hold a few dozen nodes; a
/// hostile file's rule, 5,000 nodes at most, would cost a tenth of a second a pairing).
const MAX_FILTERED_NODES: usize = 2_000;

/// `BranchFilter::slots`' mark for a branch read by the target's own top.
pub const TARGET_SLOT: u8 = u8::MAX;
/// `BranchFilter::slots`' mark for a branch whose neighbour has no slot (yet): the
/// generator reads it as the "other" code, which every row passes
pub const UNPLACED: u8 = u8::MAX - 1;

/// What a filter's rows are read by: the target's top, or the top of the target's
/// neighbour by a map of `Program::places` (`PileRef::Near(map, 1)`; a pile past the edge
/// reads as empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    Target,
    Near(u16),
}

/// A pairing's rule split into branches, an `or` of `and`s (`and` distributed over `or`),
/// each with rows of its own, read by the key card and the top of one pile: the target's,
/// or where the branch reads a neighbour of the target (`left(pile)`, a grid's gap after
/// a card), that neighbour's. A move needs some branch true, so a target for which every
/// branch is known false given its pile's top has no move. The whole rule's filter reads
/// the target's top alone and knows nothing of a rule that turns on a neighbour
/// (Montana's gap takes the card after the one on its left); the branches do.
#[derive(Debug, Clone)]
pub struct BranchFilter {
    pub branches: Vec<(By, TargetFilter)>,
    /// for each branch, where the generator reads its pile's top: `TARGET_SLOT` for the
    /// target's, else the program's neighbour slot of its map (`Program::near_maps`)
    pub slots: Vec<u8>,
}

impl BranchFilter {
    /// The branches of a pairing's whole `rule`, keyed by the whole filter's `key`: None
    /// unless some branch reads a neighbour of the target and every branch rules some pair
    /// out (a branch that passes everything passes every move), or when the rule splits
    /// into more than `MAX_BRANCHES` or its branches hold more than `MAX_FILTERED_NODES`.
    pub fn new(rule: &Expr, tables: &[std::sync::Arc<Table>], size_one: bool, key: FilterKey) -> Option<BranchFilter> {
        let split = branches(rule)?;
        if split.iter().map(|atoms| atoms.iter().map(|&atom| nodes(atom)).sum::<usize>()).sum::<usize>() > MAX_FILTERED_NODES {
            return None;
        }
        let mut out = Vec::with_capacity(split.len());
        for atoms in split {
            let branch = Expr::And(atoms.into_iter().cloned().collect());
            let mut reads = Reads::default();
            reads.visit(&branch);
            let by = reads.near.map_or(By::Target, By::Near);
            let (filter, skips) = TargetFilter::build(&branch, tables, size_one, key, by);
            if !skips {
                return None;
            }
            out.push((by, filter));
        }
        if !out.iter().any(|(by, _)| *by != By::Target) {
            return None; // the whole rule's filter already knows all the branches know
        }
        let slots = out.iter().map(|(by, _)| if *by == By::Target { TARGET_SLOT } else { UNPLACED }).collect();
        Some(BranchFilter { branches: out, slots })
    }

    /// The neighbour maps the branches read.
    pub fn maps(&self) -> impl Iterator<Item = u16> + '_ {
        self.branches.iter().filter_map(|(by, _)| match by {
            By::Near(map) => Some(*map),
            By::Target => None,
        })
    }

    /// What the branches say of a run keyed by `card` onto a target whose piles read by
    /// slot show `code(slot)`: no branch passes, one is sure, or the rule must run.
    #[inline]
    pub fn verdict(&self, card: u8, code: impl Fn(u8) -> u8) -> Verdict {
        let mut passes = false;
        for ((_, filter), &slot) in self.branches.iter().zip(&self.slots) {
            match filter.verdict(card, code(slot)) {
                Verdict::Yes => return Verdict::Yes,
                Verdict::Maybe => passes = true,
                Verdict::No => {}
            }
        }
        if passes {
            Verdict::Maybe
        } else {
            Verdict::No
        }
    }

    /// The piles (of the first 64) that some branch may let take a run keyed by `card`:
    /// for each branch, the piles whose pile read by its slot shows a top its row lists
    /// (`by_top(slot, code)`), all of them where a row is not sparse.
    #[inline]
    pub fn piles(&self, card: u8, by_top: impl Fn(u8, u8) -> u64) -> u64 {
        let mut bits = 0u64;
        for ((_, filter), &slot) in self.branches.iter().zip(&self.slots) {
            match filter.listed(card) {
                Some(list) => {
                    for &code in list.codes() {
                        bits |= by_top(slot, code);
                    }
                }
                None => return u64::MAX,
            }
        }
        bits
    }

    /// The key cards some branch may let a target take whose piles read by slot show
    /// `code(slot)`.
    #[inline]
    pub fn takers(&self, code: impl Fn(u8) -> u8) -> Cards {
        let mut cards = [0u64; 2];
        for ((_, filter), &slot) in self.branches.iter().zip(&self.slots) {
            let takers = filter.takers(code(slot));
            cards[0] |= takers[0];
            cards[1] |= takers[1];
        }
        cards
    }
}

/// The nodes of an expression (each part counts one).
fn nodes(e: &Expr) -> usize {
    1 + match e {
        Expr::Attr(_, a) | Expr::Neg(a) | Expr::Not(a) | Expr::Table1(_, a) => nodes(a),
        Expr::Arith(_, a, b) | Expr::Compare(_, a, b) | Expr::Table2(_, a, b) => nodes(a) + nodes(b),
        Expr::And(parts) | Expr::Or(parts) => parts.iter().map(nodes).sum(),
        Expr::Quantifier(_, _, _, _, body) | Expr::Count(_, _, _, body) | Expr::Pairs(_, _, _, _, body) => nodes(body),
        _ => 0,
    }
}

/// `rule` as an `or` of `and`s of its other parts (None past `MAX_BRANCHES`): `or` of
/// no part is no branch, `and` of none one empty branch.
fn branches(rule: &Expr) -> Option<Vec<Vec<&Expr>>> {
    match rule {
        Expr::Or(parts) => {
            let mut out = Vec::new();
            for part in parts {
                out.extend(branches(part)?);
                if out.len() > MAX_BRANCHES {
                    return None;
                }
            }
            Some(out)
        }
        Expr::And(parts) => {
            let mut out: Vec<Vec<&Expr>> = vec![Vec::new()];
            for part in parts {
                let split = branches(part)?;
                if out.len() * split.len() > MAX_BRANCHES {
                    return None;
                }
                out = out
                    .iter()
                    .flat_map(|a| split.iter().map(move |b| a.iter().chain(b).copied().collect()))
                    .collect();
            }
            Some(out)
        }
        _ => Some(vec![vec![rule]]),
    }
}

/// A discard of two cards' filter: for each pair of top codes of its two chosen piles
/// (first, second), whether its `when` rule may hold (read three-valued with those two
/// cards known, as a target filter reads its pair). A set whose tops it rules out has no
/// discard, so the generator passes it over without running the rule: Pyramid's 435 sets
/// of two piles a position, of which the tops adding up to thirteen are a few.
#[derive(Debug, Clone)]
pub struct PairFilter {
    /// by the first pile's top code, the second pile's top codes that may pass
    rows: Vec<Row>,
    /// the same rows listed where they hold at most `SPARSE` codes
    listed: Vec<Option<Listed>>,
}

impl PairFilter {
    /// The filter of a two-card discard's `when` rule; None when it reads neither chosen
    /// pile's top, rules no pair out, or is longer than `MAX_FILTERED_NODES`.
    pub fn new(when: &Expr, tables: &[std::sync::Arc<Table>]) -> Option<PairFilter> {
        if nodes(when) > MAX_FILTERED_NODES {
            return None;
        }
        let mut rows = vec![[u64::MAX; 3]; CODES];
        let mut skips = false;
        for a in 0..CODES as u16 {
            if a as u8 == OTHER_CODE {
                continue; // the "other" row passes everything
            }
            let mut row: Row = [0; 3];
            for b in 0..CODES as u16 {
                let known = Known {
                    bottom: None,
                    top: None,
                    size: None,
                    target: None,
                    near: None,
                    chosen: [code_value(a as u8), code_value(b as u8)],
                    tables,
                };
                if b as u8 == OTHER_CODE || known.eval(when) != Some(0) {
                    row[(b >> 6) as usize] |= 1 << (b & 63);
                } else {
                    skips = true;
                }
            }
            rows[a as usize] = row;
        }
        let listed = listed_rows(&rows);
        skips.then_some(PairFilter { rows, listed })
    }

    /// The second tops a first top `first` may pair with, listed when they are few.
    #[inline(always)]
    pub fn listed(&self, first: u8) -> Option<&Listed> {
        self.listed[first as usize].as_ref()
    }

    /// Whether a set whose first pile shows `first` and second `second` may be discarded.
    #[inline(always)]
    pub fn may(&self, first: u8, second: u8) -> bool {
        row_has(&self.rows[first as usize], second)
    }
}

/// The key codes a row is computed for: every card value 0–127 (the empty code never
/// keys a row: a run has cards).
const KEY_CODES: [u16; 128] = {
    let mut out = [0u16; 128];
    let mut i = 0;
    while i < 128 {
        out[i] = i as u16;
        i += 1;
    }
    out
};

/// What a rule reads of the source's run and of the target.
#[derive(Default)]
struct Reads {
    run_bottom: bool,
    run_top: bool,
    /// whether the rule reads the run's size (only then are one card's sure rows apart)
    run_size: bool,
    target_top: bool,
    /// the first neighbour of the target whose top or size it reads, by its map
    near: Option<u16>,
}

impl Reads {
    fn key(&self) -> FilterKey {
        if self.run_bottom {
            FilterKey::RunBottom
        } else if self.run_top {
            FilterKey::RunTop
        } else {
            FilterKey::Nothing
        }
    }

    fn pile(&mut self, p: &PileRef) {
        match p {
            PileRef::Target => self.target_top = true,
            PileRef::Near(map, 1) => {
                self.near.get_or_insert(*map);
            }
            _ => {}
        }
    }

    fn card(&mut self, c: &CardRef) {
        match c {
            CardRef::RunBottom => self.run_bottom = true,
            CardRef::RunTop | CardRef::Top(PileRef::Source) => self.run_top = true,
            CardRef::Top(p) => self.pile(p),
            _ => {}
        }
    }

    fn visit(&mut self, e: &Expr) {
        match e {
            Expr::CardAttr(_, c) | Expr::CardTable1(_, c) => self.card(c),
            Expr::CardTable2(_, a, b) => {
                self.card(a);
                self.card(b);
            }
            Expr::Top(p) => self.card(&CardRef::Top(*p)),
            Expr::RunTop => self.run_top = true,
            Expr::RunBottom => self.run_bottom = true,
            Expr::RunSize => self.run_size = true,
            Expr::Empty(p) | Expr::Size(p) => self.pile(p),
            Expr::Attr(_, a) | Expr::Neg(a) | Expr::Not(a) | Expr::Table1(_, a) => self.visit(a),
            Expr::Arith(_, a, b) | Expr::Compare(_, a, b) | Expr::Table2(_, a, b) => {
                self.visit(a);
                self.visit(b);
            }
            Expr::And(parts) | Expr::Or(parts) => parts.iter().for_each(|p| self.visit(p)),
            Expr::Quantifier(_, _, _, _, body) | Expr::Count(_, _, _, body) | Expr::Pairs(_, _, _, _, body) => {
                self.visit(body)
            }
            _ => {}
        }
    }
}

/// The three-valued evaluation: `Some(value)` when the fixed cards decide it, else None.
/// A comparison the values do not fix may still be decided by their bounds (`bounds`): a
/// count over piles lies between 0 and their number, a run holds one card or more.
struct Known<'t> {
    bottom: Option<i64>,
    top: Option<i64>,
    /// the run's size, where it is fixed
    size: Option<i64>,
    target: Option<i64>,
    /// the top card of the target's neighbour by a map (`PileRef::Near(map, 1)`)
    near: Option<(u16, i64)>,
    /// the top cards of a discard's first two chosen piles (`PileRef::Chosen`)
    chosen: [Option<i64>; 2],
    tables: &'t [std::sync::Arc<Table>],
}

impl Known<'_> {
    fn card(&self, c: &CardRef) -> Option<i64> {
        match c {
            CardRef::RunBottom => self.bottom,
            CardRef::RunTop | CardRef::Top(PileRef::Source) => self.top,
            CardRef::Top(PileRef::Target) => self.target,
            CardRef::Top(PileRef::Near(map, 1)) => self.near_top(*map),
            CardRef::Top(PileRef::Chosen(j)) => *self.chosen.get(*j as usize)?,
            CardRef::Const(v) => Some(*v),
            _ => None,
        }
    }

    fn near_top(&self, map: u16) -> Option<i64> {
        self.near.and_then(|(m, card)| (m == map).then_some(card))
    }

    fn eval(&self, e: &Expr) -> Option<i64> {
        Some(match e {
            Expr::Int(v) => *v,
            Expr::CardAttr(attr, c) => attribute(*attr, self.card(c)?),
            Expr::CardTable1(id, a) => lookup1(&self.tables[*id as usize], self.card(a)?),
            Expr::CardTable2(id, a, b) => {
                lookup2(&self.tables[*id as usize], self.card(a)?, self.card(b)?)
            }
            Expr::Attr(attr, a) => attribute(*attr, self.eval(a)?),
            Expr::Top(p) => self.card(&CardRef::Top(*p))?,
            Expr::RunTop => self.top?,
            Expr::RunBottom => self.bottom?,
            Expr::RunSize => self.size?,
            Expr::Empty(PileRef::Target) => (self.target? == NO_CARD) as i64,
            Expr::Size(PileRef::Target) if self.target == Some(NO_CARD) => 0,
            Expr::Empty(PileRef::Near(map, 1)) => (self.near_top(*map)? == NO_CARD) as i64,
            Expr::Empty(PileRef::Chosen(j)) => ((*self.chosen.get(*j as usize)?)? == NO_CARD) as i64,
            Expr::Size(PileRef::Near(map, 1)) if self.near_top(*map) == Some(NO_CARD) => 0,
            Expr::Arith(op, a, b) => op.apply(self.eval(a)?, self.eval(b)?),
            Expr::Neg(a) => self.eval(a)?.wrapping_neg(),
            Expr::Not(a) => (self.eval(a)? == 0) as i64,
            Expr::Compare(op, a, b) => compare_bounds(*op, self.bounds(a)?, self.bounds(b)?)? as i64,
            Expr::And(parts) => {
                let mut unknown = false;
                for part in parts {
                    match self.eval(part) {
                        Some(0) => return Some(0),
                        Some(_) => {}
                        None => unknown = true,
                    }
                }
                if unknown {
                    return None;
                }
                1
            }
            Expr::Or(parts) => {
                let mut unknown = false;
                for part in parts {
                    match self.eval(part) {
                        Some(0) => {}
                        Some(_) => return Some(1),
                        None => unknown = true,
                    }
                }
                if unknown {
                    return None;
                }
                0
            }
            Expr::Table1(id, a) => lookup1(&self.tables[*id as usize], self.eval(a)?),
            Expr::Table2(id, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                lookup2(&self.tables[*id as usize], a, b)
            }
            // sizes, other piles, bound names, pile numbers, loops: not fixed by two cards
            _ => return None,
        })
    }

    /// The least and the most `e` may be (None: anything), for the comparisons: exact
    /// where `eval` knows it; a count over piles lies between 0 and their number, a run
    /// holds one card or more; sums, products and powers of bounds that cannot be
    /// negative, where no bound overflows (the rule's arithmetic wraps, and a wrapped
    /// value is nowhere near its bounds: then nothing is known). Each node is read once.
    fn bounds(&self, e: &Expr) -> Option<(i64, i64)> {
        match e {
            Expr::RunSize if self.size.is_none() => Some((1, i64::MAX)),
            Expr::Count(_, start, stop, _) => Some((0, i64::from(stop.saturating_sub(*start)))),
            Expr::Arith(op, a, b) => {
                let ((alo, ahi), (blo, bhi)) = (self.bounds(a)?, self.bounds(b)?);
                if alo == ahi && blo == bhi {
                    let v = op.apply(alo, blo);
                    return Some((v, v));
                }
                if alo < 0 || blo < 0 {
                    return None;
                }
                match op {
                    Op::Add => Some((alo.checked_add(blo)?, ahi.checked_add(bhi)?)),
                    Op::Mul => Some((alo.checked_mul(blo)?, ahi.checked_mul(bhi)?)),
                    Op::Pow => {
                        let (elo, ehi) = (u32::try_from(blo).ok()?, u32::try_from(bhi).ok()?);
                        // 0 ** 0 is 1: a base that may be 0 is left unknown
                        (alo >= 1).then_some(())?;
                        Some((alo.checked_pow(elo)?, ahi.checked_pow(ehi)?))
                    }
                    _ => None,
                }
            }
            _ => self.eval(e).map(|v| (v, v)),
        }
    }
}

/// Whether `a op b` holds for every value of `a` and `b` within their bounds (Some(true)),
/// for none (Some(false)), or it depends (None).
fn compare_bounds(op: Cmp, (alo, ahi): (i64, i64), (blo, bhi): (i64, i64)) -> Option<bool> {
    let (always, never) = match op {
        Cmp::Lt => (ahi < blo, alo >= bhi),
        Cmp::Le => (ahi <= blo, alo > bhi),
        Cmp::Gt => (alo > bhi, ahi <= blo),
        Cmp::Ge => (alo >= bhi, ahi < blo),
        Cmp::Eq => (alo == ahi && blo == bhi && alo == blo, ahi < blo || bhi < alo),
        Cmp::Ne => (ahi < blo || bhi < alo, alo == ahi && blo == bhi && alo == blo),
    };
    if always {
        Some(true)
    } else if never {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Attr, Cmp, Op, CHOSEN_BASE};
    use std::sync::Arc;

    fn goes_on_table() -> Arc<Table> {
        // goes_on(card, base): one rank lower, the same suit (cards 4..55)
        let mut bits = vec![false; 56 * 56];
        for a in 4..56 {
            for b in 4..56 {
                bits[a * 56 + b] = (a >> 2) + 1 == (b >> 2) && a & 3 == b & 3;
            }
        }
        Arc::new(Table { rows: 56, width: 56, bits })
    }

    #[test]
    fn a_built_down_in_suit_rule_keeps_the_one_card_above_and_kings_for_the_gaps() {
        // pile.empty and run.bottom.rank == K or not pile.empty and goes_on(run.bottom, pile.top)
        let tables = vec![goes_on_table()];
        let rule = Expr::Or(vec![
            Expr::And(vec![
                Expr::Empty(PileRef::Target),
                Expr::Compare(Cmp::Eq, Box::new(Expr::CardAttr(Attr::Rank, CardRef::RunBottom)), Box::new(Expr::Int(13))),
            ]),
            Expr::And(vec![
                Expr::Not(Box::new(Expr::Empty(PileRef::Target))),
                Expr::CardTable2(0, CardRef::RunBottom, CardRef::Top(PileRef::Target)),
            ]),
        ]);
        let filter = TargetFilter::new(&rule, &tables, false).expect("it skips");
        assert_eq!(filter.key, FilterKey::RunBottom);
        let nine_clubs = 9 << 2;
        let passes: Vec<u8> = (0..=129).filter(|&v| row_has(filter.row(nine_clubs), v)).collect();
        assert_eq!(passes, vec![10 << 2, OTHER_CODE]); // the ten of clubs only
        let king = 13 << 2 | 1;
        let passes: Vec<u8> = (0..=129).filter(|&v| row_has(filter.row(king), v)).collect();
        assert_eq!(passes, vec![EMPTY_CODE, OTHER_CODE]); // only a gap: nothing is above a King
        assert_eq!(filter.listed(king).expect("sparse").codes(), &[EMPTY_CODE, OTHER_CODE]);
        assert_eq!(filter.listed(nine_clubs).expect("sparse").codes(), &[10 << 2, OTHER_CODE]);
        // a key card outside the codes passes everything: not sparse
        assert!(filter.listed(200).is_none() && row_has(filter.row(200), 7 << 2));
        // the two cards decide this rule: what passes is a move, the rest none
        assert_eq!(filter.verdict(nine_clubs, 10 << 2), Verdict::Yes);
        assert_eq!(filter.verdict(nine_clubs, 10 << 2 | 1), Verdict::No);
        assert_eq!(filter.verdict(king, EMPTY_CODE), Verdict::Yes);
        assert_eq!(filter.verdict(nine_clubs, EMPTY_CODE), Verdict::No);
        assert_eq!(filter.verdict(king, OTHER_CODE), Verdict::Maybe); // never sure
        assert_eq!(filter.verdict(200, 10 << 2), Verdict::Maybe);
    }

    #[test]
    fn what_the_two_cards_do_not_decide_passes() {
        // (pile.empty or goes_on(run.bottom, pile.top)) and run.size <= count(...): the
        // count is unknown, so everything the first part allows passes
        let tables = vec![goes_on_table()];
        let count = Expr::Count(0, 0, 4, Box::new(Expr::Empty(PileRef::Var(0))));
        let rule = Expr::And(vec![
            Expr::Or(vec![
                Expr::Empty(PileRef::Target),
                Expr::CardTable2(0, CardRef::RunBottom, CardRef::Top(PileRef::Target)),
            ]),
            Expr::Compare(Cmp::Le, Box::new(Expr::RunSize), Box::new(count)),
        ]);
        let filter = TargetFilter::new(&rule, &tables, false).expect("it skips");
        let passes: Vec<u8> = (0..=129).filter(|&v| row_has(filter.row(5 << 2), v)).collect();
        assert_eq!(passes, vec![6 << 2, EMPTY_CODE, OTHER_CODE]);
        // the count decides what the cards pass: the rule runs
        assert_eq!(filter.verdict(5 << 2, 6 << 2), Verdict::Maybe);
        assert_eq!(filter.verdict(5 << 2, EMPTY_CODE), Verdict::Maybe);
        assert_eq!(filter.verdict(5 << 2, 7 << 2), Verdict::No);
        // a rule that reads neither the target nor a card of the run has no filter
        assert!(TargetFilter::new(&Expr::Compare(Cmp::Le, Box::new(Expr::RunSize), Box::new(Expr::Int(3))), &tables, false).is_none());
        // one whose target part can be true or unknown everywhere has none either
        let rule = Expr::Or(vec![Expr::Empty(PileRef::Target), Expr::Compare(Cmp::Le, Box::new(Expr::Size(PileRef::Target)), Box::new(Expr::Int(3)))]);
        assert!(TargetFilter::new(&rule, &tables, false).is_none());
        // an empty-only rule (a free cell) keys no card: every row is the gap alone
        let filter = TargetFilter::new(&Expr::Empty(PileRef::Target), &tables, false).expect("it skips");
        assert_eq!(filter.key, FilterKey::Nothing);
        let passes: Vec<u8> = (0..=129).filter(|&v| row_has(filter.row(17), v)).collect();
        assert_eq!(passes, vec![EMPTY_CODE, OTHER_CODE]);
    }

    #[test]
    fn a_rule_that_reads_the_card_alone_keeps_the_cards_it_takes() {
        // run.size == 1 and run.bottom.rank == A (Montana's Aces out of the grid): the
        // target is never read, every row is all or nothing
        let rule = Expr::And(vec![
            Expr::Compare(Cmp::Eq, Box::new(Expr::RunSize), Box::new(Expr::Int(1))),
            Expr::Compare(Cmp::Eq, Box::new(Expr::CardAttr(Attr::Rank, CardRef::RunBottom)), Box::new(Expr::Int(1))),
        ]);
        let filter = TargetFilter::new(&rule, &[], true).expect("it skips");
        assert_eq!(filter.key, FilterKey::RunBottom);
        let (ace, two) = (1 << 2 | 3, 2 << 2 | 3);
        assert!((0..=129).all(|v| row_has(filter.row(ace), v)));
        assert_eq!((0..=129).filter(|&v| row_has(filter.row(two), v)).collect::<Vec<u8>>(), vec![OTHER_CODE]);
        // every run of the pairing is one card: the Ace's move is sure; no top takes the Two
        assert_eq!(filter.verdict(ace, EMPTY_CODE), Verdict::Yes);
        assert_eq!(filter.verdict(two, EMPTY_CODE), Verdict::No);
        // where runs may be longer, the run's size decides the Ace's move, but a run of
        // one card is sure
        let longer = TargetFilter::new(&rule, &[], false).expect("it skips");
        assert_eq!(longer.verdict(ace, EMPTY_CODE), Verdict::Maybe);
        assert_eq!(longer.verdict_of(ace, EMPTY_CODE, true), Verdict::Yes);
        assert_eq!(longer.verdict_of(two, EMPTY_CODE, true), Verdict::No);
        // read the other way: every card of rank A (the four Aces among the cards of play)
        let takers = filter.takers(EMPTY_CODE);
        let aces: Vec<u8> = (4..56).filter(|&c| (takers[0] >> c) & 1 != 0).collect();
        assert_eq!(aces, vec![4, 5, 6, ace]);
    }

    #[test]
    fn one_card_always_fits_a_bound_of_free_spaces_and_nothing_else_is_assumed() {
        // FreeCell's `run.size <= (1 + count(cells empty)) * 2 ** count(columns empty)`:
        // at least 1 whatever the counts, so one card is sure and a longer run is not
        let cells = || Box::new(Expr::Count(0, 8, 12, Box::new(Expr::Empty(PileRef::Var(0)))));
        let columns = || Box::new(Expr::Count(0, 0, 8, Box::new(Expr::Empty(PileRef::Var(0)))));
        let spaces = Expr::Arith(
            Op::Mul,
            Box::new(Expr::Arith(Op::Add, Box::new(Expr::Int(1)), cells())),
            Box::new(Expr::Arith(Op::Pow, Box::new(Expr::Int(2)), columns())),
        );
        let rule = |bound: Expr| Expr::And(vec![
            Expr::CardTable2(0, CardRef::RunBottom, CardRef::Top(PileRef::Target)),
            Expr::Compare(Cmp::Le, Box::new(Expr::RunSize), Box::new(bound)),
        ]);
        let tables = vec![goes_on_table()];
        let (five, six) = (5 << 2, 6 << 2);
        let filter = TargetFilter::new(&rule(spaces.clone()), &tables, false).expect("it skips");
        assert_eq!(filter.verdict_of(five, six, true), Verdict::Yes);
        assert_eq!(filter.verdict_of(five, six, false), Verdict::Maybe);
        assert_eq!(filter.verdict_of(five, 7 << 2, true), Verdict::No);
        // each of these may be below 1, or is past what the bounds tell: one card runs the rule
        let unsure = [
            *cells(),                                                               // no free cell
            Expr::Arith(Op::Sub, Box::new(spaces.clone()), Box::new(Expr::Int(1))), // a difference
            Expr::Arith(Op::Pow, Box::new(Expr::Int(0)), columns()),                // 0 ** 0 is 1
            Expr::Arith(Op::Pow, Box::new(Expr::Int(2)),                            // 2 ** 100 wraps
                        Box::new(Expr::Count(0, 0, 100, Box::new(Expr::Empty(PileRef::Var(0)))))),
            Expr::Size(PileRef::Source),                                            // no bound
        ];
        for bound in unsure {
            let filter = TargetFilter::new(&rule(bound.clone()), &tables, false).expect("it skips");
            assert_eq!(filter.verdict_of(five, six, true), Verdict::Maybe, "{bound:?}");
        }
        // bounds decide it the other way too: one card is never more than 4 + the free cells
        let filter = TargetFilter::new(&Expr::And(vec![
            Expr::CardTable2(0, CardRef::RunBottom, CardRef::Top(PileRef::Target)),
            Expr::Compare(Cmp::Gt, Box::new(Expr::RunSize), Box::new(Expr::Arith(Op::Add, Box::new(Expr::Int(4)), cells()))),
        ]), &tables, true).expect("it skips");
        assert_eq!(filter.verdict(five, six), Verdict::No);
    }

    /// Montana's gap: `pile.empty and (pile.column == 1 and run.bottom.rank == 2 or
    /// not left(pile).empty and follows(run.bottom, left(pile).top))`, left by map 1.
    fn montana_gap() -> (Expr, Vec<Arc<Table>>) {
        // follows(card, base): the same suit, one rank higher (cards 4..55)
        let mut bits = vec![false; 56 * 56];
        for a in 4..56 {
            for b in 4..56 {
                bits[a * 56 + b] = (a >> 2) == (b >> 2) + 1 && a & 3 == b & 3;
            }
        }
        let left = PileRef::Near(1, 1);
        let rule = Expr::And(vec![
            Expr::Empty(PileRef::Target),
            Expr::Or(vec![
                Expr::And(vec![
                    Expr::Compare(Cmp::Eq, Box::new(Expr::Place(0, PileRef::Target)), Box::new(Expr::Int(1))),
                    Expr::Compare(Cmp::Eq, Box::new(Expr::CardAttr(Attr::Rank, CardRef::RunBottom)), Box::new(Expr::Int(2))),
                ]),
                Expr::And(vec![
                    Expr::Not(Box::new(Expr::Empty(left))),
                    Expr::CardTable2(0, CardRef::RunBottom, CardRef::Top(left)),
                ]),
            ]),
        ]);
        (rule, vec![Arc::new(Table { rows: 56, width: 56, bits })])
    }

    #[test]
    fn a_gap_read_by_its_left_neighbour_takes_the_card_after_that_neighbours_top() {
        let (rule, tables) = montana_gap();
        // the whole rule's filter knows the gap only: any card may go to any gap
        let whole = TargetFilter::new(&rule, &tables, true).expect("only gaps take cards");
        let (two, three, four) = (2 << 2, 3 << 2, 4 << 2); // clubs
        assert_eq!(whole.verdict(three, EMPTY_CODE), Verdict::Maybe);
        let mut branches = BranchFilter::new(&rule, &tables, true, whole.key).expect("a branch reads the left");
        let bys: Vec<By> = branches.branches.iter().map(|(by, _)| *by).collect();
        assert_eq!(bys, vec![By::Target, By::Near(1)]);
        // until placed, the neighbour reads as the "other" code: nothing is ruled out
        assert_eq!(branches.slots, vec![TARGET_SLOT, UNPLACED]);
        branches.slots = vec![TARGET_SLOT, 0];
        let read = |left: u8| move |slot: u8| if slot == TARGET_SLOT { EMPTY_CODE } else { left };
        // 3C after 2C: the left branch's cards allow it, the gap's emptiness is the rule's
        assert_eq!(branches.verdict(three, read(two)), Verdict::Maybe);
        // 3C after 3C, after 2D, after a gap or the edge: no branch
        assert_eq!(branches.verdict(three, read(three)), Verdict::No);
        assert_eq!(branches.verdict(three, read(2 << 2 | 1)), Verdict::No);
        assert_eq!(branches.verdict(three, read(EMPTY_CODE)), Verdict::No);
        // a Two may start a row whatever lies left of the gap: the column decides
        assert_eq!(branches.verdict(two, read(EMPTY_CODE)), Verdict::Maybe);
        assert_eq!(branches.verdict(four, read(OTHER_CODE)), Verdict::Maybe);
        // a gap after 3C takes 4C or a Two, read the other way
        let takers = branches.takers(read(three));
        let cards: Vec<u8> = (4..56).filter(|&c| (takers[0] >> c) & 1 != 0).collect();
        assert_eq!(cards, vec![8, 9, 10, 11, four]);
        // the gaps whose left neighbour shows 2C, by the index of the position's tops
        let index = |slot: u8, code: u8| match (slot, code) {
            (0, c) if c == two => 0b100,
            (TARGET_SLOT, EMPTY_CODE) => 0b1111,
            _ => 0,
        };
        assert_eq!(branches.piles(three, index), 0b100);
        // a Two may go to every gap (the column decides)
        assert_eq!(branches.piles(two, index), 0b1111);
    }

    #[test]
    fn a_rule_of_too_many_branches_or_none_reading_a_neighbour_has_no_branch_filter() {
        let (rule, tables) = montana_gap();
        let mut atoms = Vec::new();
        for rank in 1..=17 {
            atoms.push(Expr::Compare(Cmp::Eq, Box::new(Expr::CardAttr(Attr::Rank, CardRef::RunBottom)), Box::new(Expr::Int(rank))));
        }
        let wide = Expr::And(vec![rule.clone(), Expr::Or(atoms)]);
        assert!(BranchFilter::new(&wide, &tables, true, FilterKey::RunBottom).is_none());
        // nor one whose branches hold more than MAX_FILTERED_NODES (a long conjunct)
        let long = (0..MAX_FILTERED_NODES as i64).fold(Expr::Int(0), |sum, i| {
            Expr::Arith(Op::Add, Box::new(sum), Box::new(Expr::Int(i)))
        });
        let heavy = Expr::And(vec![rule.clone(), Expr::Compare(Cmp::Ge, Box::new(long), Box::new(Expr::RunSize))]);
        assert!(BranchFilter::new(&heavy, &tables, true, FilterKey::RunBottom).is_none());
        assert!(BranchFilter::new(&rule, &tables, true, FilterKey::RunBottom).is_some());
        let plain = Expr::Or(vec![Expr::Empty(PileRef::Target), Expr::CardTable2(0, CardRef::RunBottom, CardRef::Top(PileRef::Target))]);
        assert!(BranchFilter::new(&plain, &tables, true, FilterKey::RunBottom).is_none());
    }

    #[test]
    fn a_pair_filter_keeps_the_pairs_of_tops_that_add_up_to_thirteen() {
        // Pyramid's discard: both chosen piles uncovered (their neighbours, unknown here)
        // and first.top.rank + second.top.rank == 13
        let rank = |j: u8| Box::new(Expr::CardAttr(Attr::Rank, CardRef::Top(PileRef::Chosen(j))));
        let uncovered = |j: u8| Expr::Empty(PileRef::Near(0, CHOSEN_BASE + j));
        let when = Expr::And(vec![
            uncovered(0),
            uncovered(1),
            Expr::Compare(Cmp::Eq, Box::new(Expr::Arith(Op::Add, rank(0), rank(1))), Box::new(Expr::Int(13))),
        ]);
        let pair = PairFilter::new(&when, &[]).expect("it skips");
        let card = |rank: u8, suit: u8| rank << 2 | suit;
        // 6 + 7 may go (the neighbours decide), 7 + 7 and 6 + 6 never
        assert!(pair.may(card(6, 0), card(7, 2)) && pair.may(card(7, 3), card(6, 1)));
        assert!(!pair.may(card(7, 0), card(7, 1)) && !pair.may(card(6, 0), card(6, 2)));
        // a face-down or unknown card passes; an Ace and a Queen too
        assert!(pair.may(OTHER_CODE, card(7, 0)) && pair.may(card(1, 0), card(12, 3)));
        // a rule that reads no chosen top rules nothing out
        assert!(PairFilter::new(&Expr::And(vec![uncovered(0), uncovered(1)]), &[]).is_none());
    }
}
