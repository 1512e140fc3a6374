//! Expression trees compiled, once per variant, into nested closures.
//!
//! Walking the tree with one large `match` cost about 60 instructions a node (measured with
//! callgrind on Tabby Cat searches): the dispatch and the frame of a function that holds
//! every case. A closure per node decides its case (and the comparison, the pile, the
//! table) when the program is read, so evaluating is a chain of small indirect calls. The
//! tree evaluator (`Program::eval`) stays as the reference the unit tests compare with.

use std::sync::Arc;

use crate::program::{
    attribute, card_value, lookup1, lookup2, Attr, CardRef, Cmp, Env, Expr, Op, PileRef, RunRef,
    Table,
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
    pub fn new(expr: &Expr, tables: &[Arc<Table>]) -> Code {
        let constant = if let Expr::Int(v) = expr { Some(*v) } else { None };
        Code { function: compile(expr, tables), constant }
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

fn compile(expr: &Expr, tables: &[Arc<Table>]) -> Function {
    let sub = |e: &Expr| compile(e, tables);
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
                Op::Pow => Box::new(move |e| {
                    let (x, y) = (a(e), b(e));
                    if y < 0 {
                        0
                    } else {
                        x.wrapping_pow(y.min(u32::MAX as i64) as u32)
                    }
                }),
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
            match guard(slot as u8, body).expect("a guard") {
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
        assert!(guard(0, &bodies[3]).is_none());
    }
}
