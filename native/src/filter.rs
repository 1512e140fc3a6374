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

use crate::program::{attribute, lookup1, lookup2, CardRef, Expr, PileRef, Table, NO_CARD};

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
    takers: Vec<Cards>,
    /// for each key card code, the target tops for which the rule is known *true*: the two
    /// cards decide it, so the generator emits the move without running the rule
    sure: Vec<Row>,
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
        let at = card_code(card) as usize;
        if !row_has(&self.rows[at], code) {
            Verdict::No
        } else if row_has(&self.sure[at], code) {
            Verdict::Yes
        } else {
            Verdict::Maybe
        }
    }

    /// The key cards 0–127 whose row has the target-top `code` (the "other" code: all).
    #[inline(always)]
    pub fn takers(&self, code: u8) -> &Cards {
        &self.takers[code as usize]
    }

    fn with_lists(key: FilterKey, rows: Vec<Row>, sure: Vec<Row>) -> TargetFilter {
        let listed = rows
            .iter()
            .map(|row| {
                let codes: Vec<u8> = (0..CODES as u8).filter(|&v| row_has(row, v)).collect();
                (codes.len() <= SPARSE).then(|| {
                    let mut out = Listed { codes: [0; SPARSE], len: codes.len() as u8 };
                    out.codes[..codes.len()].copy_from_slice(&codes);
                    out
                })
            })
            .collect();
        let mut takers = vec![[0u64; 2]; CODES];
        for (c, row) in rows.iter().take(128).enumerate() {
            for (v, cards) in takers.iter_mut().enumerate() {
                if row_has(row, v as u8) {
                    cards[c >> 6] |= 1 << (c & 63);
                }
            }
        }
        TargetFilter { key, rows, listed, takers, sure }
    }

    /// The filter of a pairing whose whole rule is `rule` (None when it would never skip
    /// anything). `size_one`: every run of the pairing is one card (its bottom is its top).
    pub fn new(rule: &Expr, tables: &[std::sync::Arc<Table>], size_one: bool) -> Option<TargetFilter> {
        let mut reads = Reads::default();
        reads.visit(rule);
        if !reads.target_top {
            return None; // nothing about the target is known: no pair can be ruled out
        }
        let key = if reads.run_bottom {
            FilterKey::RunBottom
        } else if reads.run_top {
            FilterKey::RunTop
        } else {
            FilterKey::Nothing
        };
        let mut rows = vec![[u64::MAX; 3]; CODES];
        // the "other" codes are never sure: the rule runs for them
        let mut sure = vec![[0u64; 3]; CODES];
        let mut skips = false;
        let keys: &[u16] = if key == FilterKey::Nothing { &[0] } else { &KEY_CODES };
        for &c in keys {
            let mut row: Row = [0; 3];
            let mut sure_row: Row = [0; 3];
            for v in 0..CODES as u16 {
                let known = Known {
                    bottom: if key == FilterKey::RunBottom { Some(c as i64) } else { None },
                    top: match key {
                        FilterKey::RunTop => Some(c as i64),
                        FilterKey::RunBottom if size_one => Some(c as i64),
                        _ => None,
                    },
                    target: match v as u8 {
                        EMPTY_CODE => Some(NO_CARD),
                        OTHER_CODE => None,
                        card => Some(card as i64),
                    },
                    tables,
                };
                // passes unless known false (the "other" column always passes); sure when
                // known true
                let value = if v as u8 == OTHER_CODE { None } else { known.eval(rule) };
                if value != Some(0) {
                    row[(v >> 6) as usize] |= 1 << (v & 63);
                } else {
                    skips = true;
                }
                if value.is_some_and(|value| value != 0) {
                    sure_row[(v >> 6) as usize] |= 1 << (v & 63);
                }
            }
            if key == FilterKey::Nothing {
                rows = vec![row; CODES];
                sure = vec![sure_row; CODES];
                sure[OTHER_CODE as usize] = [0; 3];
            } else {
                rows[c as usize] = row;
                sure[c as usize] = sure_row;
            }
        }
        // the "other" row (a key card outside 0-127) passes everything: left all ones
        skips.then(|| TargetFilter::with_lists(key, rows, sure))
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
    target_top: bool,
}

impl Reads {
    fn card(&mut self, c: &CardRef) {
        match c {
            CardRef::RunBottom => self.run_bottom = true,
            CardRef::RunTop | CardRef::Top(PileRef::Source) => self.run_top = true,
            CardRef::Top(PileRef::Target) => self.target_top = true,
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
            Expr::Empty(PileRef::Target) | Expr::Size(PileRef::Target) => self.target_top = true,
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
struct Known<'t> {
    bottom: Option<i64>,
    top: Option<i64>,
    target: Option<i64>,
    tables: &'t [std::sync::Arc<Table>],
}

impl Known<'_> {
    fn card(&self, c: &CardRef) -> Option<i64> {
        match c {
            CardRef::RunBottom => self.bottom,
            CardRef::RunTop | CardRef::Top(PileRef::Source) => self.top,
            CardRef::Top(PileRef::Target) => self.target,
            CardRef::Const(v) => Some(*v),
            _ => None,
        }
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
            Expr::Empty(PileRef::Target) => (self.target? == NO_CARD) as i64,
            Expr::Size(PileRef::Target) if self.target == Some(NO_CARD) => 0,
            Expr::Arith(op, a, b) => op.apply(self.eval(a)?, self.eval(b)?),
            Expr::Neg(a) => self.eval(a)?.wrapping_neg(),
            Expr::Not(a) => (self.eval(a)? == 0) as i64,
            Expr::Compare(op, a, b) => op.holds(self.eval(a)?, self.eval(b)?) as i64,
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Attr, Cmp};
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
        // a rule that reads nothing of the target has no filter
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
}
