//! The guided search: `patience/solver/guided.py` ported, position for position.
//!
//! The search expands, of all the positions it has reached,
//! the one of least *estimate* (ties: the one reached first), its children ranked in the
//! order of their sorted moves, a safe move alone where one is legal, each keyed as the
//! restarts key it when its turn comes (a position seen in the run, or proven lost by
//! the restarts, is then passed over and never expanded again; where the estimate counts
//! breaks, when it is reached: `GuidedRules::keyed_when_reached`); where moves after a deal
//! are restricted, a position reached by a deal is its own node, its moves restricted and
//! not counted, as in the restarts (`Solver::after_deal`, `Solver::classify`). `solve`
//! (search.rs) gives it turns beside the depth-first restarts, with a share of the budget.

use std::collections::VecDeque;

use crate::moves::{Move, Position, Stacks, Touched, DEAL};
use crate::program::{GuidedRules, Program, FACE_DOWN};
use crate::search::{Limits, Outcome, Solver};


/// How far `pos` is from won, as the guided search ranks positions (lower is better):
/// `patience.solver.guided.make_estimate`.
pub fn estimate(program: &Program, rules: &GuidedRules, pos: &Position) -> i64 {
    let (wanted, homes) = wanted(program, rules, pos);
    pile_terms(program, rules, pos, wanted).fold(homes, i64::wrapping_add)
}

/// Each pile's terms of the estimate, in pile order (0 for a home pile: its terms are
/// `wanted`'s).
fn pile_terms<'p>(program: &'p Program, rules: &'p GuidedRules, pos: &'p Position, wanted: u64)
                  -> impl Iterator<Item = i64> + 'p {
    (0..program.piles).map(move |index| {
        if rules.home[index] { 0 } else { pile_term(program, rules, index, &pos.piles[index], wanted) }
    })
}

/// The cards some home pile may take now (a bit each), and the estimate's terms of the
/// home piles and the stock.
#[inline]
fn wanted(program: &Program, rules: &GuidedRules, pos: &Position) -> (u64, i64) {
    wanted_of(program, rules, pos.stock.len(), |index| {
        let pile = &pos.piles[index];
        (pile.len(), pile.last().copied())
    })
}

/// `wanted`, each home pile's size and top card read by `home(index)`, the stock's size
/// `stock`.
#[inline]
fn wanted_of(program: &Program, rules: &GuidedRules, stock: usize, home: impl Fn(usize) -> (usize, Option<u8>))
             -> (u64, i64) {
    let mut cards = 0i64;
    let mut wanted: u64 = 0;
    for (index, on_empty, rows) in &rules.homes {
        let (size, top) = home(*index);
        cards += size as i64;
        wanted |= match top {
            Some(top) if top < FACE_DOWN => rows[top as usize],
            Some(_) => 0,
            None => *on_empty,
        };
    }
    let c = &program.search.guided;
    let terms = c.stock_weight.wrapping_mul(stock as i64).wrapping_sub(c.home_weight.wrapping_mul(cards));
    (wanted, terms)
}

/// The estimate's terms of the pile `index` (not a home pile), its cards `pile`.
#[inline]
fn pile_term(program: &Program, rules: &GuidedRules, index: usize, pile: &[u8], wanted: u64) -> i64 {
    let c = &program.search.guided;
    if pile.is_empty() {
        return if rules.narrow[index] { c.narrow_empty_weight.wrapping_neg() } else { c.empty_weight.wrapping_neg() };
    }
    let (mut under, mut parked, mut deep, mut down) = (0i64, 0i64, 0i64, 0i64);
    let (mut breaks, mut built_under) = (0i64, 0i64);
    let covered = rules.covered[index];
    match &rules.runs[index] {
        None => parked += pile.len() as i64,
        Some(rows) if covered => {
            // a deal covers it: its breaks (adjacent face-up cards not a run)
            for pair in pile.windows(2) {
                if pair[0] < FACE_DOWN && pair[1] < FACE_DOWN && rows[pair[0] as usize] >> pair[1] & 1 == 0 {
                    breaks += 1;
                }
            }
        }
        Some(rows) => {
            let mut bottom = pile.len() - 1; // the bottom card of the top run
            while bottom > 0
                && pile[bottom] < FACE_DOWN
                && pile[bottom - 1] < FACE_DOWN
                && rows[pile[bottom - 1] as usize] >> pile[bottom] & 1 == 1
            {
                bottom -= 1;
            }
            if rules.built[index] {
                built_under += bottom as i64;
            } else {
                under += bottom as i64;
            }
        }
    }
    let mut depth = pile.len() as i64 - 1;
    for &card in pile {
        if card >= FACE_DOWN {
            down += 1;
        } else if wanted >> card & 1 == 1 {
            deep += depth;
        }
        depth -= 1;
    }
    c.run_weight.wrapping_mul(under)
        .wrapping_add(c.built_weight.wrapping_mul(built_under))
        .wrapping_add(c.parked_weight.wrapping_mul(parked))
        .wrapping_add(c.next_weight.wrapping_mul(deep))
        .wrapping_add(if covered { c.covered_down_weight } else { c.down_weight }.wrapping_mul(down))
        .wrapping_add(c.break_weight.wrapping_mul(breaks))
}

/// Whether a move that changed the piles `touched` changed a home pile.
#[inline]
fn home_touched(rules: &GuidedRules, touched: &Touched) -> bool {
    rules.homes.iter().any(|(index, _, _)| touched.has(*index))
}

/// The fewest moves of a position expanded for which its estimate is kept pile by pile
/// (`Terms`): below, each child's estimate is made whole, which costs less than the terms.
const TERMS_FROM: usize = 4;

/// No pile: a card not face up on a pile that is not home (`Terms::at`).
const NOWHERE: u16 = u16::MAX;

/// A position's estimate kept pile by pile, so that a child's is its parent's with the
/// terms of the piles its move changed made again (`Guided::push`): the same value as
/// `estimate`, the terms summed in another order (wrapping sums: the same).
///
/// A move that changes a home pile changes the cards wanted (`wanted`), and with them the
/// `next_weight` term of every pile: each face-up card of a pile not home is kept with its
/// pile and depth (`at`), so that only the cards whose wanted bit changed are counted again
/// on the piles the move left alone. A card face up twice there (two decks) cannot be told
/// apart: a change of its bit makes the estimate whole.
struct Terms {
    piles: Vec<i64>,
    wanted: u64,
    /// the terms of the home piles and the stock (`wanted`'s second value)
    homes: i64,
    sum: i64,
    /// each face-up card's pile (`NOWHERE`: none not home) and depth under its top
    at: [(u16, u16); 64],
    /// the cards face up twice on piles not home
    twice: u64,
}

impl Terms {
    fn new() -> Terms {
        Terms { piles: Vec::new(), wanted: 0, homes: 0, sum: 0, at: [(NOWHERE, 0); 64], twice: 0 }
    }

    fn of(program: &Program, rules: &GuidedRules, pos: &Position, terms: &mut Terms) {
        let (wanted, homes) = wanted(program, rules, pos);
        terms.piles.clear();
        terms.piles.extend(pile_terms(program, rules, pos, wanted));
        terms.wanted = wanted;
        terms.homes = homes;
        terms.sum = terms.piles.iter().copied().fold(homes, i64::wrapping_add);
        terms.at = [(NOWHERE, 0); 64];
        terms.twice = 0;
        // the piles of the game, not the counts kept after them (`Program::piles`)
        for (index, pile) in pos.piles[..program.piles].iter().enumerate() {
            if rules.home[index] {
                continue;
            }
            for (i, &card) in pile.iter().enumerate() {
                if card < FACE_DOWN {
                    if terms.at[card as usize].0 != NOWHERE {
                        terms.twice |= 1 << card;
                    }
                    terms.at[card as usize] = (index as u16, (pile.len() - 1 - i) as u16);
                }
            }
        }
    }

    /// `sum` with the home piles' terms `homes` in place of these terms', and the
    /// `next_weight` term of each card whose wanted bit `wanted_now` changed counted again
    /// where it lies on a pile the move left alone (`left_alone`); None where a card face
    /// up twice changed its bit (then `estimate` makes it whole).
    fn rehomed(&self, program: &Program, mut sum: i64, wanted_now: u64, homes: i64,
               left_alone: impl Fn(usize) -> bool) -> Option<i64> {
        let changed = wanted_now ^ self.wanted;
        if changed & self.twice != 0 {
            return None;
        }
        sum = sum.wrapping_sub(self.homes).wrapping_add(homes);
        let next = program.search.guided.next_weight;
        let mut bits = changed;
        while bits != 0 {
            let card = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (pile, depth) = self.at[card];
            if pile != NOWHERE && left_alone(pile as usize) {
                let term = next.wrapping_mul(depth as i64);
                sum = if wanted_now >> card & 1 == 1 { sum.wrapping_add(term) } else { sum.wrapping_sub(term) };
            }
        }
        Some(sum)
    }

    /// The estimate of `pos`, which differs from the position of these terms in the piles
    /// `touched` at most, its stock the same; None where a card face up twice changed its
    /// wanted bit (then `estimate` makes it whole).
    fn child(&self, program: &Program, rules: &GuidedRules, pos: &Position, touched: &Touched,
             home_touched: bool) -> Option<i64> {
        let mut sum = self.sum;
        let mut wanted_now = self.wanted;
        if home_touched {
            let homes;
            (wanted_now, homes) = wanted(program, rules, pos);
            sum = self.rehomed(program, sum, wanted_now, homes, |pile| !touched.has(pile))?;
        }
        for (word, &bits) in touched.0.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let index = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if index >= program.piles {
                    return Some(sum);
                }
                if !rules.home[index] {
                    let term = pile_term(program, rules, index, &pos.piles[index], wanted_now);
                    sum = sum.wrapping_sub(self.piles[index]).wrapping_add(term);
                }
            }
        }
        Some(sum)
    }

    /// `child`'s estimate of the position the move `mv` leads to from `pos` (the position
    /// of these terms), where the move only moves its cards (`Program::moves_cards_only`),
    /// without playing it: the source's cards but the run, the target's with the run on
    /// them (made in `scratch`). None as `child` says.
    fn child_by(&self, program: &Program, rules: &GuidedRules, pos: &Position, mv: Move,
                scratch: &mut Vec<u8>) -> Option<i64> {
        let (s, k, t) = (mv.s as usize, mv.k as usize, mv.t as usize);
        if s >= program.piles || t >= program.piles {
            return None;
        }
        let (rest, run) = pos.piles[s].split_at(pos.piles[s].len() - k);
        let mut sum = self.sum;
        let mut wanted_now = self.wanted;
        if rules.home[s] || rules.home[t] {
            let homes;
            (wanted_now, homes) = wanted_of(program, rules, pos.stock.len(), |index| {
                let pile = &pos.piles[index];
                if index == s {
                    (rest.len(), rest.last().copied())
                } else if index == t {
                    (pile.len() + k, run.last().copied())
                } else {
                    (pile.len(), pile.last().copied())
                }
            });
            sum = self.rehomed(program, sum, wanted_now, homes, |pile| pile != s && pile != t)?;
        }
        if !rules.home[s] {
            let term = pile_term(program, rules, s, rest, wanted_now);
            sum = sum.wrapping_sub(self.piles[s]).wrapping_add(term);
        }
        if !rules.home[t] {
            scratch.clear();
            scratch.extend_from_slice(&pos.piles[t]);
            scratch.extend_from_slice(run);
            let term = pile_term(program, rules, t, scratch, wanted_now);
            sum = sum.wrapping_sub(self.piles[t]).wrapping_add(term);
        }
        Some(sum)
    }
}

/// The pile separator of a stored position (never a card, nor a count the guided
/// variants keep: no gathering redeal's seed)
const SEPARATOR: u8 = 0xFF;
/// Between a stored position's piles and its stock
const STOCK: u8 = 0xFE;

fn store_position(pos: &Position, out: &mut Vec<u8>) {
    for (number, pile) in pos.piles.iter().enumerate() {
        if number > 0 {
            out.push(SEPARATOR);
        }
        out.extend_from_slice(pile);
    }
    out.push(STOCK);
    out.extend_from_slice(&pos.stock);
}

/// The piles of the `index`th node kept (`Guided::keep`).
fn kept<'s>(stored: &'s [u8], starts: &[usize], index: usize) -> &'s [u8] {
    &stored[starts[index]..starts.get(index + 1).copied().unwrap_or(stored.len())]
}

fn restore_position(stored: &[u8], pos: &mut Position) {
    let at = stored.iter().rposition(|&b| b == STOCK).unwrap_or(stored.len());
    let (piles, stock) = stored.split_at(at);
    for (pile, cards) in pos.piles.iter_mut().zip(piles.split(|&b| b == SEPARATOR)) {
        pile.clear();
        pile.extend_from_slice(cards);
    }
    pos.stock.clear();
    pos.stock.extend_from_slice(stock.get(1..).unwrap_or(&[]));
}

/// A position the search reached: the move to it, the node it came from (the root's own
/// is `NO_NODE`), the moves from the root, whether a deal reached it where moves after one
/// are restricted, and once it is expanded where its position is kept (`NO_PILES` before:
/// it is made again from the node before when its turn comes).
struct Node {
    parent: u32,
    mv: Move,
    depth: u32,
    piles: u32,
    dealt: bool,
}

const NO_PILES: u32 = u32::MAX;

const NO_NODE: u32 = u32::MAX;

/// The nodes waiting, the least rank first and, of one rank, the node reached first (as a
/// heap of (rank, arrival) pops them, guided.py's): a list a rank, first in first out, the
/// lists in a window of consecutive ranks from `base` on. A search meets a few hundred
/// ranks, so a push or a pop reads a list's end (and a pop skips the emptied lists below
/// it), where a binary heap of millions of nodes missed the cache at every level of a pop,
/// and a B-tree of the ranks cost a search of its nodes at every push.
#[derive(Default)]
struct Queue {
    /// the list of rank `base + i` at `i`
    lists: VecDeque<VecDeque<u32>>,
    base: i64,
    /// the lowest list that holds a node (while any does)
    low: usize,
    len: usize,
    /// the lists' room, in nodes
    room: usize,
}

/// the emptied lists below the lowest that a queue keeps (their room reused as the
/// estimates fall back) before it lets them go
const BELOW_KEPT: usize = 64;

impl Queue {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, rank: i64, node: u32) {
        if self.lists.is_empty() {
            self.base = rank;
        }
        if rank < self.base {
            let more = usize::try_from(self.base - rank).expect("ranks within the window");
            for _ in 0..more {
                self.lists.push_front(VecDeque::new());
            }
            self.base = rank;
            self.low += more;
        }
        let at = usize::try_from(rank - self.base).expect("ranks within the window");
        if at >= self.lists.len() {
            self.lists.resize_with(at + 1, VecDeque::new);
        }
        let list = &mut self.lists[at];
        let before = list.capacity();
        list.push_back(node);
        self.room += list.capacity() - before;
        self.low = if self.len == 0 { at } else { self.low.min(at) };
        self.len += 1;
    }

    fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let node = self.lists[self.low].pop_front();
        self.len -= 1;
        while self.len > 0 && self.lists[self.low].is_empty() {
            self.low += 1;
        }
        if self.low > BELOW_KEPT {
            // the lists far below the lowest go, their room with them
            let gone = self.low - BELOW_KEPT / 2;
            for list in self.lists.drain(..gone) {
                self.room -= list.capacity();
            }
            self.base += gone as i64;
            self.low -= gone;
        }
        node
    }

    /// What it holds, as allocated (a list counted as its header and its room).
    fn bytes(&self) -> usize {
        self.room * std::mem::size_of::<u32>() + self.lists.capacity() * std::mem::size_of::<VecDeque<u32>>()
    }
}

/// One guided search from a root: it keeps its state between calls of `run`, so a solve
/// can give it turns beside the restarts and the other guided searches (`Guided` in
/// guided.py). It keys its positions in the restarts' store (each turn borrows their
/// `Solver`), marking those it reaches with its own mark (`Store::set_guided`, its
/// `flare`): a position the restarts proved lost is never pushed.
pub struct Guided<'a> {
    program: &'a Program,
    rules: &'a GuidedRules,
    pos: Position,
    nodes: Vec<Node>,
    /// the piles of each node expanded (`store_position`), one after another: its children
    /// are made from them
    stored: Vec<u8>,
    /// where each node's piles begin in `stored`
    starts: Vec<usize>,
    /// the numbers of the parts of each node expanded, as its key left them, and its stale
    /// piles (`Solver::key_numbers`), a child's key read against them: `stride` numbers a
    /// node, in `stored`'s order (none where keys are not numbered)
    numbers: Vec<u32>,
    stride: usize,
    stale: Vec<Touched>,
    /// a child is keyed when it is reached, not when its turn comes
    /// (`GuidedRules::keyed_when_reached`)
    key_when_reached: bool,
    /// the kept position `pos` is, within a turn (None at a turn's start: the restarts and
    /// the other guided search key between); where a child is keyed when its turn comes,
    /// the key maker's numbers are that position's, with the piles touched since
    current: Option<usize>,
    queue: Queue,
    stacks: Stacks,
    moves: Vec<Move>,
    started: bool,
    /// its rank's weight per move from the root
    depth_weight: i64,
    /// which of the solve's guided searches it is (below `store::FLARES`): its mark
    flare: usize,
    /// the estimate's terms of the position expanded now
    terms: Terms,
    /// a pile's cards as a move not played would leave them (`Terms::child_by`)
    scratch: Vec<u8>,
}

impl<'a> Guided<'a> {
    /// None where the program has no guided search.
    pub fn new(program: &'a Program, root: &Position, depth_weight: i64, flare: usize) -> Option<Guided<'a>> {
        let rules = program.guided.as_deref()?;
        Some(Guided {
            program,
            rules,
            pos: root.clone(),
            nodes: Vec::new(),
            stored: Vec::new(),
            starts: Vec::new(),
            numbers: Vec::new(),
            stride: 0,
            stale: Vec::new(),
            key_when_reached: rules.keyed_when_reached,
            current: None,
            queue: Queue::default(),
            stacks: program.stacks_from(root),
            moves: Vec::new(),
            started: false,
            depth_weight,
            flare,
            terms: Terms::new(),
            scratch: Vec::new(),
        })
    }

    /// The bytes it holds beside the store it shares: the nodes, the piles waiting and
    /// the queue.
    pub fn held(&self) -> usize {
        self.stored.capacity() + self.starts.capacity() * std::mem::size_of::<usize>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.numbers.capacity() * std::mem::size_of::<u32>()
            + self.stale.capacity() * std::mem::size_of::<Touched>()
            + self.queue.bytes()
    }

    /// Keep the position `self.pos` (the node `at`'s, expanded now, keyed last by
    /// `solver`) and its key's numbers.
    fn keep(&mut self, at: u32, solver: &Solver) {
        self.nodes[at as usize].piles = self.starts.len() as u32;
        self.starts.push(self.stored.len());
        store_position(&self.pos, &mut self.stored);
        self.current = Some(self.starts.len() - 1);
        if self.key_when_reached {
            return; // its children are keyed as they are reached, the first every pile
        }
        if let Some((numbers, stale)) = solver.key_numbers() {
            self.stride = numbers.len();
            self.numbers.extend_from_slice(numbers);
            self.stale.push(stale);
        }
    }

    /// Read the next key against the kept position `kept` (`pos` now): its key's numbers
    /// back in `solver`'s key maker, or every pile (the return) where keys are not
    /// numbered.
    fn load_numbers(&mut self, kept: usize, solver: &mut Solver) -> Touched {
        self.current = Some(kept);
        if self.stale.is_empty() {
            return Touched::ALL;
        }
        let stride = self.stride;
        solver.load_key_numbers(&self.numbers[kept * stride..(kept + 1) * stride], self.stale[kept]);
        Touched::NONE
    }

    /// Key `self.pos` (reached by a deal where moves after one are restricted: `dealt`),
    /// whose piles `touched` changed since the last key: whether it is new to this search
    /// and not proven lost (a position the restarts saw is new to it). A new one is
    /// entered in the store with this search's mark, unless that would pass the memory cap
    /// (`Err`).
    fn reach(&mut self, solver: &mut Solver, limits: &Limits, dealt: bool, touched: Touched) -> Result<bool, ()> {
        let (class, hash, old) = solver.classify(&mut self.pos, dealt, touched);
        if class.is_err() || old.is_some_and(|id| solver.store.is_guided(id, self.flare)) {
            return Ok(false);
        }
        if old.is_none() && solver.over_memory(limits, Some(solver.buffer_len()), self.held()) {
            return Err(());
        }
        let id = solver.enter(hash, old, -1);
        solver.store.set_guided(id, self.flare);
        Ok(true)
    }

    /// A new node (`self.pos` now), ranked in the queue; `from`: the piles in which it
    /// differs from the position of `self.terms` (its parent), when only those and the home
    /// piles do, and whether a home pile is among them.
    fn push(&mut self, parent: u32, mv: Move, depth: u32, dealt: bool, from: Option<(&Touched, bool)>) {
        let program = self.program;
        let estimate = from
            .and_then(|(touched, home)| self.terms.child(program, self.rules, &self.pos, touched, home))
            .unwrap_or_else(|| estimate(program, self.rules, &self.pos));
        debug_assert_eq!(estimate, self::estimate(program, self.rules, &self.pos));
        self.push_estimated(parent, mv, depth, dealt, estimate);
    }

    /// A new node, its position's estimate `estimate`, ranked in the queue.
    fn push_estimated(&mut self, parent: u32, mv: Move, depth: u32, dealt: bool, estimate: i64) {
        let number = self.nodes.len() as u32;
        self.nodes.push(Node { parent, mv, depth, piles: NO_PILES, dealt });
        let rank = estimate.wrapping_add(self.depth_weight.wrapping_mul(depth as i64));
        self.queue.push(rank, number);
    }

    /// In a debug build: the estimate made without playing `mv` (`Terms::child_by`) is the
    /// estimate of the position it leads to, which it changes in its two piles alone.
    #[cfg(debug_assertions)]
    fn check_unplayed(&mut self, mv: Move, estimate: i64) {
        let program = self.program;
        let undo = program.play(&mut self.pos, mv, &mut self.stacks);
        let touched = self.stacks.take_touched();
        let mut two = Touched::NONE;
        two.mark(mv.s as usize);
        two.mark(mv.t as usize);
        assert!(undo.is_plain() && touched == two, "a move that only moves its cards: {mv:?}");
        assert_eq!(estimate, self::estimate(program, self.rules, &self.pos), "{mv:?}");
        program.take_back(&mut self.pos, mv, undo, &mut self.stacks);
        self.stacks.take_touched();
    }

    /// Search on until a win (`solver.line` holds it), `budget` more positions
    /// expanded (`solver.expanded` says how many, less those reached by a deal where
    /// moves after one are restricted: `Solver::run`'s count), or the limits; `Exhausted` when
    /// nothing is left to expand: every position reachable was (or was proven lost by the
    /// restarts), a proof as a depth-first run's is. `solver`: the restarts', whose store
    /// it shares, between two of their runs (they hold nothing else then: the memory cap
    /// counts the store and `held`). `base`: the positions the solve spent before (for
    /// `should_stop`).
    pub fn run(&mut self, solver: &mut Solver, budget: u64, base: u64, limits: &Limits) -> Outcome {
        let program = self.program;
        solver.expanded = 0;
        if !self.started {
            self.started = true;
            let root = self.pos.clone();
            solver.pack(&root, limits);
            match self.reach(solver, limits, false, Touched::ALL) {
                Ok(true) => {}
                Ok(false) => return Outcome::Exhausted, // the restarts proved the root lost
                Err(()) => return Outcome::Memory,
            }
            self.push(NO_NODE, Move { s: 0, k: 0, t: 0 }, 0, false, None);
            self.keep(0, solver);
        }
        self.current = None; // others keyed since the last turn
        let mut expanded: u64 = 0;
        let mut walked: u64 = 0;
        let mut check_at: u64 = 1024;
        let restricts = solver.restricts_after_deal();
        let mut moves = std::mem::take(&mut self.moves);
        let outcome = loop {
            if self.queue.is_empty() {
                break Outcome::Exhausted; // every position reachable was expanded, none won
            }
            if expanded >= budget {
                break Outcome::Budget;
            }
            let Some(at) = self.queue.pop() else { break Outcome::Exhausted };
            let parent = self.nodes[at as usize].parent;
            let dealt = self.nodes[at as usize].dealt;
            // the move that only undoes the one that led here (`Move::reversed`), where the
            // parent was not reached by a deal (its key then says so): its child is the
            // parent, reached by this search, so it would be passed over when its turn came
            let mut reverse = None;
            if parent == NO_NODE {
                restore_position(kept(&self.stored, &self.starts, 0), &mut self.pos); // the root's, kept at the start
                self.load_numbers(0, solver);
            } else {
                // made from its parent, unless that is the position in hand (its move taken
                // back, or its children's moves)
                let before = self.nodes[parent as usize].piles as usize;
                let mut read = Touched::NONE;
                if self.current != Some(before) {
                    restore_position(kept(&self.stored, &self.starts, before), &mut self.pos);
                    read = self.load_numbers(before, solver);
                    self.stacks.take_touched();
                }
                let mv = self.nodes[at as usize].mv;
                let undo = program.play(&mut self.pos, mv, &mut self.stacks);
                if !self.nodes[parent as usize].dealt {
                    reverse = mv.reversed(&undo);
                }
                if !self.key_when_reached {
                    // keyed now, not when reached, its key read against its parent's (only
                    // the piles the move changed): a position reached before (by this
                    // search, or proven lost by the restarts) is passed over, not counted
                    let mut touched = self.stacks.take_touched();
                    touched.add(read);
                    match self.reach(solver, limits, dealt, touched) {
                        Ok(true) => {}
                        Ok(false) => {
                            program.take_back(&mut self.pos, mv, undo, &mut self.stacks);
                            self.current = Some(before);
                            continue;
                        }
                        Err(()) => break Outcome::Memory,
                    }
                }
                self.stacks.forget_undos();
                self.keep(at, solver);
            }
            // the piles each child changes are told apart for its estimate
            self.stacks.take_touched();
            expanded += u64::from(!dealt);
            walked += 1;
            program.generate_from(&self.pos, &mut moves, solver.after_deal(dealt));
            if moves.is_empty() {
                if program.is_won(&self.pos) {
                    let mut line = Vec::new();
                    let mut node = at;
                    while self.nodes[node as usize].parent != NO_NODE {
                        line.push(self.nodes[node as usize].mv);
                        node = self.nodes[node as usize].parent;
                    }
                    line.reverse();
                    solver.line = line;
                    break Outcome::Won;
                }
                continue;
            }
            // a safe move alone (after a deal `generate_from` made only the moves that do not
            // commute with it)
            solver.children(&mut moves, None, &self.pos);
            moves.sort_unstable();
            let depth = self.nodes[at as usize].depth + 1;
            // the terms cost an estimate of their own: kept where the children are many
            let kept = moves.len() >= TERMS_FROM;
            if kept {
                Terms::of(program, self.rules, &self.pos, &mut self.terms);
            }
            let stock = self.pos.stock.len();
            let mut key_all = true;
            let mut stopped = None;
            // the moves are sorted: those of a source and run size stand together, and a
            // twin's earlier move is among them
            let mut same = 0;
            for (i, &mv) in moves.iter().enumerate() {
                if i > 0 && (moves[i - 1].s, moves[i - 1].k) != (mv.s, mv.k) {
                    same = i;
                }
                if Some(mv) == reverse || program.is_twin(&self.pos, &moves[same..i], mv) {
                    continue;
                }
                // a child keyed when its turn comes, whose move only moves its cards, is
                // estimated from the terms without being played
                if kept && !self.key_when_reached && program.moves_cards_only(&self.pos, mv) {
                    let unplayed = self.terms.child_by(program, self.rules, &self.pos, mv, &mut self.scratch);
                    if let Some(estimate) = unplayed {
                        #[cfg(debug_assertions)]
                        self.check_unplayed(mv, estimate);
                        self.push_estimated(at, mv, depth, false, estimate);
                        continue;
                    }
                }
                let undo = program.play(&mut self.pos, mv, &mut self.stacks);
                if self.stacks.runaway {
                    stopped = Some(Outcome::Runaway);
                    break;
                }
                let touched = self.stacks.take_touched();
                // the terms serve where the stock is the same
                let terms_serve = kept && self.pos.stock.len() == stock;
                let home_touched = terms_serve && home_touched(self.rules, &touched);
                let deal = restricts && mv == DEAL;
                // where a child is keyed when reached, the first one's key reads every pile
                // (the position keyed last is not its parent)
                let reached = if self.key_when_reached {
                    let read = if std::mem::replace(&mut key_all, false) { Touched::ALL } else { touched };
                    self.reach(solver, limits, deal, read)
                } else {
                    Ok(true)
                };
                match reached {
                    Ok(true) => self.push(at, mv, depth, deal, terms_serve.then_some((&touched, home_touched))),
                    Ok(false) => {}
                    Err(()) => {
                        program.take_back(&mut self.pos, mv, undo, &mut self.stacks);
                        stopped = Some(Outcome::Memory);
                        break;
                    }
                }
                program.take_back(&mut self.pos, mv, undo, &mut self.stacks);
                if !self.key_when_reached {
                    // the position is the one the children's estimates read against again: the
                    // next child's terms are those of the piles its own move changes (keys are
                    // made when a child's turn comes, from the piles its move changes)
                    self.stacks.take_touched();
                }
            }
            if let Some(outcome) = stopped {
                break outcome;
            }
            if walked >= check_at {
                check_at += 1024;
                if limits.stops(base + expanded) {
                    break Outcome::Timeout;
                }
            }
        };
        self.moves = moves;
        solver.expanded = expanded;
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers below the bound asked, from a generator seeded with `seed`.
    fn numbers(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut state = seed;
        move |below| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % below
        }
    }

    #[test]
    fn the_queue_pops_as_a_heap_of_rank_and_arrival() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let (mut queue, mut heap) = (Queue::default(), BinaryHeap::new());
        let mut next = numbers(7);
        for node in 0..20_000u32 {
            let rank = next(40) as i64 - 20;
            queue.push(rank, node);
            heap.push(Reverse((rank, node)));
            if next(3) == 0 {
                assert_eq!(queue.pop(), heap.pop().map(|Reverse((_, node))| node));
            }
        }
        // the room counted is the room the lists hold
        let held = |queue: &Queue| queue.lists.iter().map(VecDeque::capacity).sum::<usize>();
        assert_eq!(queue.room, held(&queue));
        while let Some(Reverse((_, node))) = heap.pop() {
            assert_eq!(queue.pop(), Some(node));
        }
        assert!(queue.is_empty() && queue.pop().is_none() && queue.room == held(&queue));
    }

    #[test]
    fn a_queue_of_ranks_far_apart_pops_as_a_heap_and_lets_the_lists_below_go() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        // ranks that climb as a search's do, with falls below the lowest, far and near
        let (mut queue, mut heap) = (Queue::default(), BinaryHeap::new());
        let mut next = numbers(3);
        let mut highest = i64::MIN;
        for node in 0..50_000u32 {
            let rank = node as i64 / 10 + (next(400) as i64) - 300;
            queue.push(rank, node);
            heap.push(Reverse((rank, node)));
            highest = highest.max(rank);
            if next(2) == 0 {
                assert_eq!(queue.pop(), heap.pop().map(|Reverse((_, node))| node));
            }
            // the window reaches from at most BELOW_KEPT lists below the lowest rank
            // queued to the highest rank pushed
            let lowest = heap.peek().map_or(highest, |Reverse((rank, _))| *rank);
            assert!(queue.low <= BELOW_KEPT);
            assert!(queue.lists.len() as i64 <= highest - lowest + 1 + BELOW_KEPT as i64);
        }
        while let Some(Reverse((_, node))) = heap.pop() {
            assert_eq!(queue.pop(), Some(node));
        }
        assert_eq!(queue.room, queue.lists.iter().map(VecDeque::capacity).sum::<usize>());
    }

    #[test]
    fn a_childs_estimate_from_its_parents_terms_is_its_estimate() {
        // FreeCell (one deck) and Double FreeCell (two: a card may lie face up twice), cards
        // spread at random over every pile, home piles too; each legal move's child
        // estimated from the parent's terms, played and not, the home piles' moves among
        // them
        for text in [include_str!("../../tests/programs/freecell.json"),
                     include_str!("../../tests/programs/double-freecell.json")] {
            let program = Program::from_json(text).expect("the golden program");
            let rules = program.guided.as_deref().expect("guided rules");
            let decks = if program.piles > 16 { 2 } else { 1 };
            let mut next = numbers(11);
            let (mut homes, mut whole) = (0, 0);
            let mut terms = Terms::new();
            let mut stacks = Stacks::default();
            let (mut moves, mut scratch) = (Vec::new(), Vec::new());
            for _ in 0..300 {
                let mut pos = Position { piles: vec![Vec::new(); program.piles], stock: Vec::new() };
                for _ in 0..decks {
                    for card in 4u8..56 {
                        pos.piles[next(program.piles as u64) as usize].push(card);
                    }
                }
                Terms::of(&program, rules, &pos, &mut terms);
                assert_eq!(terms.sum, estimate(&program, rules, &pos));
                program.generate(&pos, &mut moves);
                for &mv in &moves {
                    // estimated without playing it: the same, or None where `child` says so
                    let unplayed = program.moves_cards_only(&pos, mv)
                        .then(|| terms.child_by(&program, rules, &pos, mv, &mut scratch));
                    stacks.take_touched();
                    let undo = program.play(&mut pos, mv, &mut stacks);
                    let touched = stacks.take_touched();
                    let home = home_touched(rules, &touched);
                    let from_terms = terms.child(&program, rules, &pos, &touched, home);
                    assert_eq!(unplayed.expect("FreeCell's moves only move their cards"), from_terms, "{mv:?}");
                    match from_terms {
                        Some(value) => {
                            assert_eq!(value, estimate(&program, rules, &pos), "{mv:?}");
                            homes += usize::from(home);
                        }
                        None => whole += 1,
                    }
                    program.take_back(&mut pos, mv, undo, &mut stacks);
                }
            }
            assert!(homes > 100, "children of home moves from the terms: {homes}");
            if decks == 2 {
                assert!(whole > 0, "no child made whole for a card face up twice");
            } else {
                assert_eq!(whole, 0);
            }
        }
    }

    #[test]
    fn a_stored_position_comes_back_whole() {
        for stock in [vec![], vec![7, 64 + 3]] {
            let pos = Position { piles: vec![vec![4, 9], vec![], vec![63, 64 + 5], vec![]], stock };
            let mut stored = Vec::new();
            store_position(&pos, &mut stored);
            let mut back = Position { piles: vec![vec![1]; 4], stock: vec![2] };
            restore_position(&stored, &mut back);
            assert_eq!(back.piles, pos.piles);
            assert_eq!(back.stock, pos.stock);
        }
    }
}
