//! Expression trees compiled, once per variant, into nested closures.
//!
//! Walking the tree with one large `match` cost about 60 instructions a node (measured with
//! callgrind on Tabby Cat searches): the dispatch and the frame of a function that holds
//! every case. A closure per node decides its case (and the comparison, the pile, the
//! table) when the program is read, so evaluating is a chain of small indirect calls. The
//! tree evaluator (`Program::eval`) stays as the reference the unit tests compare with.

//!
//! **Memo.** A loop (`count`, `all`, `any`, `pairs`) that reads nothing of the move — no
//! source, target, run or run size, no name bound outside it — has one value per position:
//! FreeCell's `count(x in cells: x.empty)` is asked for every target and run size of every
//! source, and is the same each time. Such a loop gets a memo slot when the program is read
//! (at most `MEMO_SLOTS` in a program); its value is kept in the `Env`, which borrows the
//! position and so never outlives it, and the generator makes one `Env` per position.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use crate::program::{
    attribute, card_value, lookup1, lookup2, Attr, CardRef, Cmp, Env, Expr, Op, PileRef, RunRef,
    Table, CHOSEN_BASE, MEMO_SLOTS,
};

type Function = Box<dyn for<'a> Fn(&mut Env<'a>) -> i64 + Send + Sync>;

/// A compiled expression.
pub struct Code {
    function: Function,
    constant: Option<i64>,
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Code({:?})", self.constant)
    }
}

impl Code {
    /// The expression compiled, without memo slots.
    pub fn new(expr: &Expr, tables: &[Arc<Table>]) -> Code {
        Code::with_memo(expr, tables, &Memo::none())
    }

    /// The expression compiled, its loops over the position alone given memo slots from
    /// `memo` (the next free one; every expression of one program draws from the same).
    pub fn with_memo(expr: &Expr, tables: &[Arc<Table>], memo: &Memo) -> Code {
        let constant = if let Expr::Int(v) = expr { Some(*v) } else { None };
        Code { function: compile(expr, &Context { tables, memo }), constant }
    }

    #[inline(always)]
    pub fn eval(&self, env: &mut Env) -> i64 {
        (self.function)(env)
    }

    #[inline(always)]
    pub fn truth(&self, env: &mut Env) -> bool {
        (self.function)(env) != 0
    }

    /// `eval`, without the call when the expression is a constant (a fixed run size)
    #[inline(always)]
    pub fn value(&self, env: &mut Env) -> i64 {
        match self.constant {
            Some(v) => v,
            None => (self.function)(env),
        }
    }

    /// whether it is the constant true: nothing to test
    pub fn is_true(&self) -> bool {
        self.constant == Some(1)
    }
}

fn compare(op: Cmp, a: Function, b: Function) -> Function {
    match op {
        Cmp::Eq => Box::new(move |e| (a(e) == b(e)) as i64),
        Cmp::Ne => Box::new(move |e| (a(e) != b(e)) as i64),
        Cmp::Lt => Box::new(move |e| (a(e) < b(e)) as i64),
        Cmp::Le => Box::new(move |e| (a(e) <= b(e)) as i64),
        Cmp::Gt => Box::new(move |e| (a(e) > b(e)) as i64),
        Cmp::Ge => Box::new(move |e| (a(e) >= b(e)) as i64),
    }
}

/// A quantifier body that tests first that its bound pile is empty: `Some(None)` when
/// that is all it tests, `Some(Some(rest))` with the rest of its conjunction, else None.
fn guard(slot: u8, body: &Expr) -> Option<Option<Expr>> {
    let is_guard = |e: &Expr| matches!(e, Expr::Empty(PileRef::Var(s)) if *s == slot);
    match body {
        e if is_guard(e) => Some(None),
        Expr::And(parts) if parts.len() >= 2 && is_guard(&parts[0]) => Some(Some(
            if parts.len() == 2 { parts[1].clone() } else { Expr::And(parts[1..].to_vec()) },
        )),
        _ => None,
    }
}

/// The pile `P` of a rest `x != P` (`not same(x, P)`), `x` the pile bound to `slot` and `P`
/// another.
fn all_but(slot: u8, rest: &Expr) -> Option<PileRef> {
    let Expr::Not(inner) = rest else { return None };
    let Expr::Same(a, b) = inner.as_ref() else { return None };
    let bound = |p: &PileRef| matches!(p, PileRef::Var(s) if *s == slot);
    match (bound(a), bound(b)) {
        (true, false) => Some(*b),
        (false, true) => Some(*a),
        _ => None,
    }
}

/// The most piles `skips` passes over by number (`x != P`) in one loop.
const MOST_SKIPPED: usize = 4;

/// An `any` body whose conjunction passes over piles: `x != P` (`not same(x, P)`, at most
/// `MOST_SKIPPED` of them) and `not x.empty`, `x` the pile bound to `slot`: the piles `P`,
/// whether empty piles are passed over, and the rest of the conjunction in its order (None:
/// nothing else). None where the body tests neither.
fn skips(slot: u8, body: &Expr) -> Option<(Vec<PileRef>, bool, Option<Expr>)> {
    let Expr::And(parts) = body else { return None };
    let (mut others, mut nonempty, mut rest) = (Vec::new(), false, Vec::new());
    for part in parts {
        if let Some(p) = all_but(slot, part) {
            others.push(p);
        } else if matches!(part, Expr::Not(inner) if matches!(inner.as_ref(), Expr::Empty(PileRef::Var(s)) if *s == slot)) {
            nonempty = true;
        } else {
            rest.push(part.clone());
        }
    }
    if (others.is_empty() && !nonempty) || others.len() > MOST_SKIPPED {
        return None;
    }
    let rest = match rest.len() {
        0 => None,
        1 => rest.pop(),
        _ => Some(Expr::And(rest)),
    };
    Some((others, nonempty, rest))
}

/// The memo slots of one program: the next free one, and the slot of each expression
/// remembered, by its text (so that its copies in several rules share one).
#[derive(Default)]
pub struct Memo {
    next: Cell<u32>,
    named: RefCell<HashMap<String, usize>>,
}

impl Memo {
    /// A memo that gives out no slot.
    pub fn none() -> Memo {
        Memo { next: Cell::new(MEMO_SLOTS as u32), named: Default::default() }
    }

    /// How many slots it gave out.
    pub fn used(&self) -> usize {
        self.next.get() as usize
    }
}

struct Context<'c> {
    tables: &'c [Arc<Table>],
    memo: &'c Memo,
}

/// What an expression reads, a bit each: the source pile, the target pile (`SOURCE`,
/// `TARGET`: their numbers, cards or sizes), the run's size or its bottom card (`RUN`), a pile or card slot
/// not bound inside it (`FREE`), a pile of the position other than the source and the
/// target (`OTHER`: bound by a loop, named, a neighbour, the stock); and whether it has a
/// loop (`LOOP`).
const SOURCE: u8 = 1;
const TARGET: u8 = 16;
const PILES: u8 = SOURCE | TARGET;
const RUN: u8 = 2;
const FREE: u8 = 4;
const LOOP: u8 = 8;
const OTHER: u8 = 32;

/// `reads` of `expr`, the slots bound around it so far a bit each (`piles`, `cards`).
fn reads(expr: &Expr, piles: u32, cards: u32) -> u8 {
    let pile = |p: &PileRef| match p {
        PileRef::Source => SOURCE,
        PileRef::Target => TARGET,
        PileRef::Var(slot) if piles & (1 << slot) == 0 => FREE | OTHER,
        PileRef::Var(_) | PileRef::Index(_) | PileRef::Stock => OTHER,
        PileRef::Chosen(_) => FREE | OTHER, // bound for each set of piles: never remembered
        // a neighbour reads its base pile's number (and the neighbour: a pile of the position)
        PileRef::Near(_, 0) => SOURCE | OTHER,
        PileRef::Near(_, 1) => TARGET | OTHER,
        PileRef::Near(_, base) if *base >= CHOSEN_BASE => FREE | OTHER, // a chosen pile, as above
        PileRef::Near(_, base) if piles & (1 << (base - 2)) == 0 => FREE | OTHER,
        PileRef::Near(..) => OTHER,
    };
    let card = |c: &CardRef| match c {
        CardRef::Top(p) | CardRef::Bottom(p) => pile(p),
        CardRef::RunTop => SOURCE, // the source's top card
        CardRef::RunBottom => RUN,
        CardRef::Card(slot) if cards & (1 << slot) == 0 => FREE,
        CardRef::Card(_) | CardRef::Const(_) => 0,
    };
    let sub = |e: &Expr| reads(e, piles, cards);
    match expr {
        Expr::Int(_) => 0,
        Expr::CardAttr(_, c) | Expr::CardTable1(_, c) => card(c),
        Expr::CardTable2(_, a, b) => card(a) | card(b),
        Expr::Top(p) | Expr::Bottom(p) | Expr::Empty(p) | Expr::Size(p) | Expr::Member(p, _, _)
        | Expr::Place(_, p) => pile(p),
        Expr::Same(a, b) => pile(a) | pile(b),
        Expr::RunTop => SOURCE,
        Expr::RunBottom | Expr::RunSize => RUN,
        Expr::Card(slot) => card(&CardRef::Card(*slot)),
        Expr::Attr(_, a) | Expr::Neg(a) | Expr::Not(a) | Expr::Table1(_, a) => sub(a),
        Expr::Arith(_, a, b) | Expr::Compare(_, a, b) | Expr::Table2(_, a, b) => sub(a) | sub(b),
        Expr::And(parts) | Expr::Or(parts) => parts.iter().fold(0, |r, p| r | sub(p)),
        Expr::Quantifier(_, slot, _, _, body) | Expr::Count(slot, _, _, body) => {
            LOOP | reads(body, piles | 1 << slot, cards)
        }
        Expr::Pairs(_, run, below, above, body) => {
            let over = match run {
                RunRef::Run => RUN,
                RunRef::Pile(p) => pile(p),
            };
            LOOP | over | reads(body, piles, cards | 1 << below | 1 << above)
        }
    }
}

/// Whether `expr` reads nothing of the position but the source pile, the target pile and
/// the run (`OTHER`): its value changes only where one of those two piles does.
pub(crate) fn reads_only_ends(expr: &Expr) -> bool {
    reads(expr, 0, 0) & OTHER == 0
}

/// Whether `expr` reads anything of the move or of a name bound outside it.
#[cfg(test)]
fn reads_the_move(expr: &Expr, piles: u32, cards: u32) -> bool {
    reads(expr, piles, cards) & (PILES | RUN | FREE) != 0
}

fn compile(expr: &Expr, ctx: &Context) -> Function {
    let worth = matches!(
        expr,
        Expr::Quantifier(..) | Expr::Count(..) | Expr::Pairs(..) | Expr::Arith(..) | Expr::Compare(..)
    );
    let what = if worth { reads(expr, 0, 0) } else { 0 };
    if what & LOOP != 0 && what & (RUN | FREE) == 0 {
        // one slot for each distinct expression: its copies in several rules share it
        let name = format!("{expr:?}");
        let memo = ctx.memo;
        let known = memo.named.borrow().get(&name).copied();
        let slot = match known {
            Some(slot) => Some(slot),
            None if memo.used() < MEMO_SLOTS => {
                let slot = memo.used();
                memo.next.set(slot as u32 + 1);
                memo.named.borrow_mut().insert(name, slot);
                Some(slot)
            }
            None => None,
        };
        if let Some(slot) = slot {
            let inner = compile_node(expr, ctx);
            let bit = 1u32 << slot;
            if what & PILES == 0 {
                return Box::new(move |e| {
                    if e.memo_set & bit != 0 {
                        return e.memo[slot];
                    }
                    let value = inner(e);
                    e.memo[slot] = value;
                    e.memo_set |= bit;
                    value
                });
            }
            // reads the source or the target: kept for the pair it was computed for (the
            // generator tries the run sizes of one pair one after the other)
            return Box::new(move |e| {
                let at = (e.s, e.t);
                if e.memo_set & bit != 0 && e.memo_for[slot] == at {
                    return e.memo[slot];
                }
                let value = inner(e);
                e.memo[slot] = value;
                e.memo_for[slot] = at;
                e.memo_set |= bit;
                value
            });
        }
    }
    compile_node(expr, ctx)
}

fn compile_node(expr: &Expr, ctx: &Context) -> Function {
    let tables = ctx.tables;
    let sub = |e: &Expr| compile(e, ctx);
    match expr {
        Expr::Int(v) => {
            let v = *v;
            Box::new(move |_| v)
        }
        Expr::CardAttr(attr, c) => {
            let (attr, c) = (*attr, *c);
            match (attr, c) {
                (Attr::Rank, CardRef::Card(slot)) => {
                    Box::new(move |e| (e.cards[slot as usize] >> 2) & 15)
                }
                _ => Box::new(move |e| attribute(attr, card_value(c, e))),
            }
        }
        Expr::CardTable1(id, a) => {
            let (table, a) = (tables[*id as usize].clone(), *a);
            Box::new(move |e| lookup1(&table, card_value(a, e)))
        }
        Expr::CardTable2(id, a, b) => {
            let (table, a, b) = (tables[*id as usize].clone(), *a, *b);
            Box::new(move |e| lookup2(&table, card_value(a, e), card_value(b, e)))
        }
        Expr::Attr(attr, c) => {
            let (attr, c) = (*attr, sub(c));
            Box::new(move |e| attribute(attr, c(e)))
        }
        Expr::Top(p) => {
            let c = CardRef::Top(*p);
            Box::new(move |e| card_value(c, e))
        }
        Expr::Bottom(p) => {
            let c = CardRef::Bottom(*p);
            Box::new(move |e| card_value(c, e))
        }
        Expr::RunTop => Box::new(|e| card_value(CardRef::RunTop, e)),
        Expr::RunBottom => Box::new(|e| card_value(CardRef::RunBottom, e)),
        Expr::Card(slot) => {
            let slot = *slot as usize;
            Box::new(move |e| e.cards[slot])
        }
        Expr::Empty(p) => match *p {
            PileRef::Target => Box::new(|e| e.piles[e.t].is_empty() as i64),
            PileRef::Source => Box::new(|e| e.piles[e.s].is_empty() as i64),
            p => Box::new(move |e| e.pile(p).is_empty() as i64),
        },
        Expr::Size(p) => match *p {
            PileRef::Var(slot) => {
                let slot = slot as usize;
                Box::new(move |e| e.piles[e.pile_vars[slot]].len() as i64)
            }
            p => Box::new(move |e| e.pile(p).len() as i64),
        },
        Expr::RunSize => Box::new(|e| e.k as i64),
        Expr::Arith(op, a, b) => {
            let (a, b) = (sub(a), sub(b));
            match op {
                Op::Add => Box::new(move |e| a(e).wrapping_add(b(e))),
                Op::Sub => Box::new(move |e| a(e).wrapping_sub(b(e))),
                Op::Mul => Box::new(move |e| a(e).wrapping_mul(b(e))),
                Op::FloorDiv => Box::new(move |e| {
                    let (x, y) = (a(e), b(e));
                    crate::program::floor_div(x, y)
                }),
                Op::Mod => Box::new(move |e| {
                    let (x, y) = (a(e), b(e));
                    crate::program::floor_mod(x, y)
                }),
                Op::Pow => Box::new(move |e| crate::program::power(a(e), b(e))),
            }
        }
        Expr::Neg(a) => {
            let a = sub(a);
            Box::new(move |e| a(e).wrapping_neg())
        }
        Expr::Not(a) => {
            let a = sub(a);
            Box::new(move |e| (a(e) == 0) as i64)
        }
        Expr::Compare(op, a, b) => compare(*op, sub(a), sub(b)),
        Expr::And(parts) => {
            let mut parts: Vec<Function> = parts.iter().map(sub).collect();
            if parts.len() == 2 {
                let b = parts.pop().expect("two parts");
                let a = parts.pop().expect("two parts");
                return Box::new(move |e| (a(e) != 0 && b(e) != 0) as i64);
            }
            Box::new(move |e| parts.iter().all(|p| p(e) != 0) as i64)
        }
        Expr::Or(parts) => {
            let mut parts: Vec<Function> = parts.iter().map(sub).collect();
            if parts.len() == 2 {
                let b = parts.pop().expect("two parts");
                let a = parts.pop().expect("two parts");
                return Box::new(move |e| (a(e) != 0 || b(e) != 0) as i64);
            }
            Box::new(move |e| parts.iter().any(|p| p(e) != 0) as i64)
        }
        Expr::Member(p, start, stop) => {
            let (p, start, stop) = (*p, *start as usize, *stop as usize);
            Box::new(move |e| {
                let i = e.pile_number(p);
                (i >= start && i < stop) as i64
            })
        }
        Expr::Same(a, b) => {
            let (a, b) = (*a, *b);
            Box::new(move |e| (e.pile_number(a) == e.pile_number(b)) as i64)
        }
        Expr::Quantifier(all, slot, start, stop, body) if matches!(guard(*slot, body), Some(None)) => {
            // `all x in G: x.empty` (a win: every column cleared) or `any x in G: x.empty`:
            // the emptiness read straight from the piles, no call a pile
            let (all, start, stop) = (*all, *start as usize, *stop as usize);
            let empty = move |e: &Env, i: usize| e.piles.get(i).is_none_or(|p| p.is_empty());
            if all {
                Box::new(move |e| (start..stop).all(|i| empty(e, i)) as i64)
            } else {
                Box::new(move |e| (start..stop).any(|i| empty(e, i)) as i64)
            }
        }
        Expr::Quantifier(false, slot, start, stop, body) if skips(*slot, body).is_some() => {
            // `any x in G: x != P and not x.empty and …` (Aces Up's discard): the piles
            // passed over are found by number and size before the rest is asked, whose
            // conjuncts read nothing but the position (no side effect: the order is free)
            let (others, nonempty, rest) = skips(*slot, body).expect("skips");
            let (slot, start, stop) = (*slot as usize, *start as usize, *stop as usize);
            let rest = rest.map(|r| sub(&r));
            Box::new(move |e| {
                let mut skipped = [usize::MAX; MOST_SKIPPED];
                for (number, &p) in skipped.iter_mut().zip(&others) {
                    *number = e.pile_number(p);
                }
                let saved = e.pile_vars[slot];
                let mut found = false;
                for i in start..stop {
                    if (nonempty && e.piles.get(i).is_none_or(|p| p.is_empty())) || skipped.contains(&i) {
                        continue;
                    }
                    let Some(rest) = &rest else {
                        found = true;
                        break;
                    };
                    e.pile_vars[slot] = i;
                    if rest(e) != 0 {
                        found = true;
                        break;
                    }
                }
                e.pile_vars[slot] = saved;
                found as i64
            })
        }
        Expr::Quantifier(all, slot, start, stop, body) => {
            let (all, slot, start, stop, body) =
                (*all, *slot as usize, *start as usize, *stop as usize, sub(body));
            Box::new(move |e| {
                let saved = e.pile_vars[slot];
                let mut result = all;
                for i in start..stop {
                    e.pile_vars[slot] = i;
                    if (body(e) != 0) != all {
                        result = !all;
                        break;
                    }
                }
                e.pile_vars[slot] = saved;
                result as i64
            })
        }
        Expr::Count(slot, start, stop, body) if guard(*slot, body).is_some() => {
            // `count(x in G: x.empty and ...)`: the emptiness read straight from the piles,
            // the rest (if any) only for the empty ones
            let (slot, start, stop) = (*slot as usize, *start as usize, *stop as usize);
            let empty = |e: &Env, i: usize| e.piles.get(i).is_none_or(|p| p.is_empty());
            let guarded = guard(slot as u8, body).expect("a guard");
            if let Some(other) = guarded.as_ref().and_then(|rest| all_but(slot as u8, rest)) {
                // `count(x in G: x.empty and x != P)` is the empty piles of G less P if it
                // is one of them; the count of all of them reads the position alone (memo)
                let all = compile(&Expr::Count(slot as u8, start as u16, stop as u16,
                                               Box::new(Expr::Empty(PileRef::Var(slot as u8)))), ctx);
                return Box::new(move |e| {
                    let n = e.pile_number(other);
                    all(e) - (n >= start && n < stop && empty(e, n)) as i64
                });
            }
            match guarded {
                None => Box::new(move |e| (start..stop).filter(|&i| empty(e, i)).count() as i64),
                Some(rest) => {
                    let rest = sub(&rest);
                    Box::new(move |e| {
                        let saved = e.pile_vars[slot];
                        let mut total = 0;
                        for i in start..stop {
                            if empty(e, i) {
                                e.pile_vars[slot] = i;
                                total += (rest(e) != 0) as i64;
                            }
                        }
                        e.pile_vars[slot] = saved;
                        total
                    })
                }
            }
        }
        Expr::Count(slot, start, stop, body) => {
            let (slot, start, stop, body) =
                (*slot as usize, *start as usize, *stop as usize, sub(body));
            Box::new(move |e| {
                let saved = e.pile_vars[slot];
                let mut total = 0;
                for i in start..stop {
                    e.pile_vars[slot] = i;
                    total += (body(e) != 0) as i64;
                }
                e.pile_vars[slot] = saved;
                total
            })
        }
        Expr::Pairs(all, run, below, above, body) => {
            let (all, run, b, a, body) = (*all, *run, *below as usize, *above as usize, sub(body));
            Box::new(move |e| {
                let cards: &[u8] = match run {
                    RunRef::Run => {
                        let src = e.pile(PileRef::Source);
                        &src[src.len() - e.k.min(src.len())..]
                    }
                    RunRef::Pile(p) => e.pile(p),
                };
                let saved = (e.cards[b], e.cards[a]);
                let mut result = all;
                for pair in cards.windows(2) {
                    e.cards[b] = pair[0] as i64;
                    e.cards[a] = pair[1] as i64;
                    if (body(e) != 0) != all {
                        result = !all;
                        break;
                    }
                }
                e.cards[b] = saved.0;
                e.cards[a] = saved.1;
                result as i64
            })
        }
        Expr::Table1(id, a) => {
            let (table, a) = (tables[*id as usize].clone(), sub(a));
            Box::new(move |e| {
                let x = a(e);
                lookup1(&table, x)
            })
        }
        Expr::Table2(id, a, b) => {
            let (table, a, b) = (tables[*id as usize].clone(), sub(a), sub(b));
            Box::new(move |e| {
                let (x, y) = (a(e), b(e));
                lookup2(&table, x, y)
            })
        }
        Expr::Place(map, p) => {
            let (map, p) = (*map, *p);
            Box::new(move |e| e.place(map, p))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::PileRef;

    #[test]
    fn a_guarded_count_counts_as_the_plain_one() {
        // piles 0-5, pile 6 past the end reads as empty; the target is pile 2
        let piles = vec![vec![], vec![5u8], vec![], vec![9, 10], vec![], vec![7]];
        let stock = vec![];
        let empty = || Box::new(Expr::Empty(PileRef::Var(0)));
        let not_target = || Expr::Not(Box::new(Expr::Same(PileRef::Var(0), PileRef::Target)));
        let bodies = [
            Expr::Empty(PileRef::Var(0)),
            Expr::And(vec![*empty(), not_target()]),
            Expr::And(vec![*empty(), not_target(), Expr::Not(Box::new(Expr::Same(PileRef::Var(0), PileRef::Source)))]),
            Expr::And(vec![not_target(), *empty()]), // not guarded: the plain loop
        ];
        let counts = [4, 3, 2, 3];
        for (body, want) in bodies.iter().zip(counts) {
            let count = Expr::Count(0, 0, 7, Box::new(body.clone()));
            let mut env = Env::new(&piles, &stock);
            env.t = 2;
            env.s = 4;
            env.pile_vars[0] = 5;
            let code = Code::new(&count, &[]);
            assert_eq!(code.eval(&mut env), want, "{body:?}");
            assert_eq!(env.pile_vars[0], 5, "the bound pile is restored");
        }
        assert!(guard(0, &bodies[1]).is_some() && guard(1, &bodies[1]).is_none());
        // x != P for every kind of P: the target, the source, a constant pile, another
        // bound pile, the stock (never one of them), a pile past the end (read as empty)
        for p in [PileRef::Target, PileRef::Source, PileRef::Index(1), PileRef::Index(2),
                  PileRef::Var(1), PileRef::Stock, PileRef::Index(6)] {
            for swapped in [false, true] {
                let same = if swapped { Expr::Same(p, PileRef::Var(0)) } else { Expr::Same(PileRef::Var(0), p) };
                let rest = Expr::Not(Box::new(same));
                assert_eq!(all_but(0, &rest), Some(p));
                let body = Expr::And(vec![*empty(), rest]);
                let count = Expr::Count(0, 0, 7, Box::new(body.clone()));
                for (t, s, var) in [(2, 4, 0), (1, 3, 6), (5, 0, 2)] {
                    let mut env = Env::new(&piles, &stock);
                    (env.t, env.s, env.pile_vars[1]) = (t, s, var);
                    let mut walk = Env::new(&piles, &stock);
                    (walk.t, walk.s, walk.pile_vars[1]) = (t, s, var);
                    let want = (0..7)
                        .filter(|&i| piles.get(i).is_none_or(|q| q.is_empty()) && i != walk.pile_number(p))
                        .count() as i64;
                    assert_eq!(Code::new(&count, &[]).eval(&mut env), want, "{p:?} {t} {s} {var}");
                }
            }
        }
        assert!(guard(0, &bodies[3]).is_none());
    }

    #[test]
    fn an_any_that_passes_over_piles_is_the_plain_one() {
        // piles 0-5; bodies with `x != P` and `not x.empty` in any place of the
        // conjunction, asked as `any` (passed over by number) and as `count(...) > 0` (the
        // plain loop: its body is not guarded)
        let piles = vec![vec![], vec![5u8], vec![], vec![9, 10], vec![8], vec![7, 3]];
        let stock = vec![];
        let not_empty = || Expr::Not(Box::new(Expr::Empty(PileRef::Var(0))));
        let not_same = |p| Expr::Not(Box::new(Expr::Same(PileRef::Var(0), p)));
        let same_not = |p| Expr::Not(Box::new(Expr::Same(p, PileRef::Var(0))));
        let big = || Expr::Compare(Cmp::Ge, Box::new(Expr::Size(PileRef::Var(0))), Box::new(Expr::Int(2)));
        let top_over = |v| Expr::Compare(Cmp::Gt, Box::new(Expr::Top(PileRef::Var(0))), Box::new(Expr::Int(v)));
        let bodies = [
            Expr::And(vec![not_same(PileRef::Source), not_empty(), top_over(6)]),
            Expr::And(vec![not_empty(), top_over(6), same_not(PileRef::Target)]),
            Expr::And(vec![not_same(PileRef::Source), not_empty()]),
            Expr::And(vec![not_same(PileRef::Source), same_not(PileRef::Target), not_same(PileRef::Index(5))]),
            Expr::And(vec![big(), not_empty(), not_same(PileRef::Var(1))]),
            Expr::And(vec![not_empty(), top_over(4), big()]),
            Expr::And(vec![not_same(PileRef::Stock), not_empty(), top_over(9)]),
        ];
        for body in &bodies {
            assert!(skips(0, body).is_some(), "{body:?}");
            for (s, t, var) in [(1, 3, 0), (3, 5, 4), (5, 4, 3), (4, 1, 6), (0, 2, 1)] {
                let mut env = Env::new(&piles, &stock);
                (env.s, env.t, env.pile_vars[0], env.pile_vars[1]) = (s, t, 2, var);
                let any = Code::new(&Expr::Quantifier(false, 0, 0, 6, Box::new(body.clone())), &[]).eval(&mut env);
                assert_eq!(env.pile_vars[0], 2, "the bound pile is restored");
                let count = Code::new(&Expr::Count(0, 0, 6, Box::new(body.clone())), &[]).eval(&mut env);
                assert_eq!(any, (count > 0) as i64, "{body:?} s {s} t {t} var {var}");
            }
        }
        // x != x passes nothing over; nor does a body with neither test, or too many
        let itself = Expr::And(vec![not_same(PileRef::Var(0)), top_over(6)]);
        assert!(skips(0, &itself).is_none());
        assert!(skips(0, &Expr::And(vec![big(), top_over(6)])).is_none());
        let many = Expr::And((0..=MOST_SKIPPED as u16).map(|i| not_same(PileRef::Index(i))).collect());
        assert!(skips(0, &many).is_none());
        let mut env = Env::new(&piles, &stock);
        let code = Code::new(&Expr::Quantifier(false, 0, 0, 6, Box::new(many.clone())), &[]);
        assert_eq!(code.eval(&mut env), 1, "pile 5 is left");
    }

    #[test]
    fn only_loops_over_the_position_alone_are_remembered() {
        let piles = vec![vec![], vec![5u8], vec![], vec![9, 10]];
        let stock = vec![];
        let empties = Expr::Count(0, 0, 4, Box::new(Expr::Empty(PileRef::Var(0))));
        let but_target = Expr::Count(0, 0, 4, Box::new(Expr::And(vec![
            Expr::Empty(PileRef::Var(0)),
            Expr::Not(Box::new(Expr::Same(PileRef::Var(0), PileRef::Target))),
        ])));
        // an outer loop binds slot 1; the inner count reads it: remembered only as a whole
        let nested = Expr::Count(1, 0, 4, Box::new(Expr::Compare(
            Cmp::Le,
            Box::new(Expr::Size(PileRef::Var(1))),
            Box::new(Expr::Count(0, 0, 4, Box::new(Expr::Compare(
                Cmp::Lt,
                Box::new(Expr::Size(PileRef::Var(0))),
                Box::new(Expr::Size(PileRef::Var(1))),
            )))),
        )));
        assert!(!reads_the_move(&empties, 0, 0) && reads_the_move(&but_target, 0, 0));
        assert!(!reads_the_move(&nested, 0, 0));
        let memo = Memo::default();
        let codes: Vec<Code> = [&empties, &but_target, &nested]
            .iter()
            .map(|e| Code::with_memo(e, &[], &memo))
            .collect();
        // empties; but_target, which reads the target (kept for one target at a time); the
        // count of all the empty piles inside it, the same expression as empties (one slot);
        // the outer nested count
        assert_eq!(memo.used(), 3);
        let mut env = Env::new(&piles, &stock);
        for t in [0, 1, 2] {
            env.t = t;
            let want = [2, if t == 1 { 2 } else { 1 }, 4];
            for _ in 0..2 {
                let got: Vec<i64> = codes.iter().map(|c| c.eval(&mut env)).collect();
                assert_eq!(got, want, "target {t}");
            }
        }
        assert_eq!(env.memo_set, 0b111);
        // the slots run out: later loops are computed each time, and still right
        let full = Memo::none();
        let code = Code::with_memo(&empties, &[], &full);
        assert_eq!(code.eval(&mut Env::new(&piles, &stock)), 2);
        assert_eq!(full.used(), MEMO_SLOTS);
        // a loop that reads the run size is never remembered
        let sized = Expr::Count(0, 0, 4, Box::new(Expr::Compare(
            Cmp::Lt, Box::new(Expr::Size(PileRef::Var(0))), Box::new(Expr::RunSize))));
        let fresh = Memo::default();
        let code = Code::with_memo(&sized, &[], &fresh);
        assert_eq!(fresh.used(), 0);
        let mut env = Env::new(&piles, &stock);
        for (k, want) in [(1, 2), (2, 3), (3, 4)] {
            env.k = k;
            assert_eq!(code.eval(&mut env), want);
        }
    }
}
