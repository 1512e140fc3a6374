//! The search: a port of `Search.run` and `make_ordering` (patience/solver/search.py) and of
//! the restart loop of `solve` (patience/solver/__init__.py).
//!
//! Depth-first with explicit frames; a position counts once, when it is first seen and its
//! moves are generated; Tarjan's strongly connected components prove positions lost (a
//! component closed without a win, every member of it; kept across the restarts of one
//! solve); a move that only undoes the last one is not played.

use std::time::Instant;

use crate::beam::Schedule;
use crate::guided::Guided;
use crate::key::KeyMaker;
use crate::store::{hash_key, Id, Store};
use crate::moves::{Move, Position, Touched, Undo, DEAL};
use crate::path::{room, Frame, Path, DROPPED, MOVES_KEPT, PATH_KEPT};
use crate::program::{Program, FACE_DOWN};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Exhausted,
    Budget,
    Timeout,
    Memory,
    /// a move's forced moves went on past `MAX_FORCED_MOVES` (`Stacks::runaway`)
    Runaway,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Exhausted => "exhausted",
            Outcome::Budget => "budget",
            Outcome::Timeout => "timeout",
            Outcome::Memory => "memory",
            Outcome::Runaway => "runaway",
        }
    }
}


/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 …, `i` from 1.
pub fn luby(mut i: u64) -> u64 {
    let mut k = 1;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    loop {
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
        k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
    }
}

/// The jitter of styles ≥ 1: Python's own generator (MT19937 seeded as `random.Random(style)`
/// seeds it, and `random()` made the same way), so that both engines order moves alike and
/// search the same positions.
struct Jitter {
    state: [u32; 624],
    index: usize,
}

impl Jitter {
    fn new(seed: u32) -> Jitter {
        // init_genrand(19650218), then init_by_array([seed]) (CPython's random_seed for an
        // int that fits in 32 bits)
        let mut mt = [0u32; 624];
        mt[0] = 19_650_218;
        for i in 1..624 {
            mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..624 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(seed)
                .wrapping_add(j as u32);
            i += 1;
            j = 0; // the key has one word
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        for _ in 0..623 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        Jitter { state: mt, index: 624 }
    }

    fn word(&mut self) -> u32 {
        if self.index >= 624 {
            let mt = &mut self.state;
            for k in 0..624 {
                let y = (mt[k] & 0x8000_0000) | (mt[(k + 1) % 624] & 0x7fff_ffff);
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ if y & 1 != 0 { 0x9908_b0df } else { 0 };
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.random()`: 53 random bits in [0, 1)
    fn next(&mut self) -> f64 {
        let a = (self.word() >> 5) as f64;
        let b = (self.word() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }
}

#[cfg(test)]
mod jitter_tests {
    #[test]
    fn the_jitter_is_pythons_random() {
        // random.Random(1).random() ... and Random(5), from CPython 3.11
        let mut one = super::Jitter::new(1);
        assert_eq!(one.next(), 0.13436424411240122);
        assert_eq!(one.next(), 0.8474337369372327);
        assert_eq!(one.next(), 0.763774618976614);
        let mut five = super::Jitter::new(5);
        assert_eq!(five.next(), 0.6229016948897019);
        assert_eq!(five.next(), 0.7417869892607294);
    }
}

/// A move ordering (`make_ordering`): style 0 exactly; styles ≥ 1 add a jitter.
pub struct Ordering {
    jitter: Option<Jitter>,
    /// each move's place: its score (highest first), then the move (in sorted order)
    scored: Vec<u128>,
    longest: Vec<i16>,
}

/// A move as a number that sorts as the move does (`s`, then `k`, then `t`).
#[inline(always)]
fn move_rank(m: Move) -> u64 {
    let field = |v: i16| u64::from(v as u16 ^ 0x8000);
    field(m.s) << 32 | field(m.k) << 16 | field(m.t)
}

/// The move `move_rank` made.
#[inline(always)]
fn ranked_move(rank: u64) -> Move {
    let field = |shift: u32| ((rank >> shift) as u16 ^ 0x8000) as i16;
    Move { s: field(32), k: field(16), t: field(0) }
}

/// A score as a number that sorts the other way (highest first); the two zeros are one.
#[inline(always)]
fn score_rank(score: f64) -> u64 {
    let bits = (score + 0.0).to_bits();
    let ascending = if bits >> 63 != 0 { !bits } else { bits | 1 << 63 };
    !ascending
}

impl Ordering {
    pub fn new(style: usize) -> Ordering {
        Ordering {
            jitter: if style >= 1 { Some(Jitter::new(style as u32)) } else { None },
            scored: Vec::new(),
            longest: Vec::new(),
        }
    }

    pub fn order(&mut self, program: &Program, moves: &mut [Move], pos: &Position) {
        if moves.len() < 2 && self.jitter.is_none() {
            return; // one move is in order (with a jitter, its draw is still made)
        }
        let rules = &program.ordering;
        // a deal that uses nothing up and whose only followers are deals and moves from the
        // waste costs little: it comes before the moves into empty piles (make_ordering)
        let scores = &program.search.scores;
        let deal_score = if rules.pass_merge.is_some() { scores.cheap_deal } else { scores.deal };
        self.longest.clear();
        self.longest.resize(pos.piles.len(), 0);
        for m in moves.iter() {
            if m.s >= 0 && m.k > self.longest[m.s as usize] {
                self.longest[m.s as usize] = m.k;
            }
        }
        if self.jitter.is_some() {
            // the jitter is drawn move by move in sorted order
            moves.sort_unstable();
        }
        self.scored.clear();
        for &m in moves.iter() {
            let mut score: f64 = if m.is_discard() {
                scores.home // cards leave the table
            } else if m.s < 0 {
                deal_score
            } else {
                let (s, t) = (m.s as usize, m.t as usize);
                if rules.first_target[t] {
                    scores.home
                } else if rules.first_target[s] {
                    scores.take_back // off a foundation: after the deal
                } else if m.is_draw() {
                    scores.split_run_onto + 1.0 // a buried card drawn onto a card (merci)
                } else {
                    let left = pos.piles[s].len() as i64 - m.k as i64;
                    let onto = !pos.piles[t].is_empty();
                    let whole_run = m.k == self.longest[s];
                    if left > 0
                        && program.turns_up.get(s).copied().unwrap_or(false)
                        && pos.piles[s][left as usize - 1] & FACE_DOWN != 0
                    {
                        scores.turns_up // uncovers a face-down card: it turns up
                    } else if rules.parking[s] {
                        if onto { scores.parking_onto } else { scores.parking_to_empty }
                    } else if onto {
                        if left == 0 {
                            scores.empties_pile
                        } else if whole_run {
                            scores.whole_run_onto + m.k as f64
                        } else {
                            scores.split_run_onto + m.k as f64
                        }
                    } else if rules.parking[t] {
                        if whole_run && left != 0 { scores.into_parking_whole } else { scores.into_parking }
                    } else if left == 0 {
                        if rules.dealt[s] { scores.dealt_pile_to_empty } else { scores.pile_to_empty }
                    } else if whole_run {
                        scores.whole_run_to_empty
                    } else {
                        scores.split_run_to_empty
                    }
                }
            };
            if let Some(j) = &mut self.jitter {
                score += j.next() * scores.jitter;
            }
            self.scored.push(u128::from(score_rank(score)) << 64 | u128::from(move_rank(m)));
        }
        // highest score first, equal scores in sorted order (Python sorts the moves, then
        // sorts them stably by score), whatever order the generator listed them in
        self.scored.sort_unstable();
        for (slot, &rank) in moves.iter_mut().zip(&self.scored) {
            *slot = ranked_move(rank as u64);
        }
    }
}

/// Asked every 1,024 expansions and between restarts, with the positions expanded so far
/// (over all restarts): true stops the search as the deadline does.
pub type ShouldStop = Box<dyn Fn(u64) -> bool + Send + Sync>;

/// The limits of one search.
#[derive(Default)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub max_memory: Option<usize>,
    pub should_stop: Option<ShouldStop>,
    /// the moves a depth-first search keeps on its move stack (None: `MOVES_KEPT`); the
    /// tests set a few to make it drop and remake children all the time
    pub moves_kept: Option<usize>,
    /// keys one byte a card, as Python's key has the parts (never numbered): the tests
    /// compare the numbered code with it
    pub byte_keys: bool,
    /// the positions of the path kept plain before the shallowest are packed (None:
    /// `PATH_KEPT`); the tests set a few to pack and unpack them all the time
    pub path_kept: Option<usize>,
}

impl Limits {
    pub(crate) fn stops(&self, spent: u64) -> bool {
        self.deadline.is_some_and(|d| Instant::now() > d)
            || self.should_stop.as_ref().is_some_and(|stop| stop(spent))
    }
}

/// One solve: the store (positions seen and proven lost) outlives its restarts.
pub struct Solver<'a> {
    pub program: &'a Program,
    pub store: Store,
    keys: KeyMaker<'a>,
    exact: bool,
    run: u32,
    pub line: Vec<Move>,
    /// positions the last run expanded, less the steps of stock macro moves (positions
    /// reached by a deal where moves after a deal are restricted: docs/solver.md)
    pub expanded: u64,
    /// every position the last run expanded (the restart schedule's count)
    pub walked: u64,
    /// positions expanded by the earlier restarts of this solve (for `should_stop`)
    pub spent: u64,
    buffer: Vec<u8>,
    /// the moves a safe move may be among (`children`, with `pass_merge`)
    candidates: Vec<Move>,
    /// the most bytes a search's stacks held (`Path`), over the solve's runs
    stack_bytes: usize,
    /// the bytes the rest of the solve holds (the guided search's), for the memory cap
    pub extra_bytes: usize,
}

impl<'a> Solver<'a> {
    /// What a search that ended with `outcome` after `expanded` positions hands back.
    fn solved(&mut self, outcome: Outcome, expanded: u64) -> Solved {
        Solved {
            outcome,
            line: std::mem::take(&mut self.line),
            expanded,
            stored: self.store.len(),
            bytes: self.store.bytes() + self.keys.bytes(),
            parts: self.keys.parts(),
            record_bytes: self.store.record_bytes(),
            stack_bytes: self.stack_bytes,
        }
    }

    pub fn new(program: &'a Program, exact: bool) -> Solver<'a> {
        Solver {
            program,
            store: Store::new(),
            keys: KeyMaker::new(&program.key, exact),
            exact,
            run: 0,
            line: Vec::new(),
            expanded: 0,
            walked: 0,
            spent: 0,
            buffer: Vec::new(),
            candidates: Vec::new(),
            stack_bytes: 0,
            extra_bytes: 0,
        }
    }

    /// Whether storing a new position (`key_len`: its key's length; None when it is stored
    /// already) would take the store and the search's stacks (`stacks` bytes once it is
    /// pushed on them) past the memory cap.
    pub(crate) fn over_memory(&self, limits: &Limits, key_len: Option<usize>, stacks: usize) -> bool {
        match limits.max_memory {
            None => false,
            Some(max) => {
                // the tables of numbered parts as they may be after the next key
                self.store.bytes() + key_len.map_or(0, |len| self.store.growth(len))
                    + self.keys.bytes_after_next_key() + stacks + self.extra_bytes > max
            }
        }
    }

    /// Look the current position up: `Err(())` when it is proven lost, `Ok(Some(number))`
    /// when seen in this run (its number on the stack of open positions, or -1), `Ok(None)`
    /// when new here (then the hash and the entry number if it was stored by an earlier run
    /// are kept).
    ///
    /// With moves after a deal restricted (`after_deal`), a position reached by a deal is
    /// its own node: its key ends in 1, every other key in 0 (`AFTER_DEAL` in search.py).
    ///
    /// `touched`: the piles in which `pos` may differ from the position keyed last (by
    /// play and take back since: `Stacks::take_touched`); `Touched::ALL` for a position
    /// from anywhere else (a root, a beam's entry, a position kept in a queue).
    ///
    /// When the stock is keyed as a cycle (`pass_merge`), a position not reached by a deal
    /// whose waste holds a multiple of the deal's cards is keyed as if its waste were turned
    /// back into the stock (`pass_key` in search.py).
    pub(crate) fn classify(&mut self, pos: &mut Position, dealt: bool, mut touched: Touched)
                           -> (Result<Option<i32>, ()>, u64, Option<Id>) {
        match self.pass_merge() {
            Some((waste, turn)) if !dealt && !pos.piles[waste].is_empty()
                && pos.piles[waste].len().is_multiple_of(turn) => {
                let cards = std::mem::take(&mut pos.piles[waste]);
                let stock = pos.stock.len();
                pos.stock.extend(cards.iter().rev());
                touched.mark(waste);
                self.keys.key_touched(pos, touched, &mut self.buffer);
                pos.stock.truncate(stock);
                pos.piles[waste] = cards;
                self.keys.forget(waste); // the waste is back
            }
            _ => self.keys.key_touched(pos, touched, &mut self.buffer),
        }
        if self.restricts_after_deal() {
            self.buffer.push(dealt as u8);
        }
        let hash = hash_key(&self.buffer);
        match self.store.find(&self.buffer, hash) {
            None => (Ok(None), hash, None),
            Some(id) => {
                if self.store.is_lost(id) {
                    (Err(()), hash, Some(id))
                } else if self.store.seen_in_this_run(id) {
                    (Ok(Some(self.store.depth(id))), hash, Some(id))
                } else {
                    (Ok(None), hash, Some(id))
                }
            }
        }
    }

    pub(crate) fn enter(&mut self, hash: u64, old: Option<Id>, depth: i32) -> Id {
        match old {
            Some(id) => {
                self.store.mark_seen(id, depth);
                id
            }
            None => self.store.insert(&self.buffer, hash, depth),
        }
    }

    /// A new run (a restart, or a layer of a beam): nothing stored counts as seen in it.
    pub(crate) fn start_run(&mut self) {
        self.run += 1;
        self.store.start_run();
    }

    /// Number the parts of keys from the solve's root on (only the first call counts),
    /// unless the limits ask for byte keys.
    pub(crate) fn pack(&mut self, root: &Position, limits: &Limits) {
        if !limits.byte_keys {
            self.keys.pack_for(root);
        }
    }

    /// The numbers of the parts of the position keyed last (`KeyMaker::numbers`).
    pub(crate) fn key_numbers(&self) -> Option<(&[u32], Touched)> {
        self.keys.numbers()
    }

    /// Key the next position against one keyed before (`KeyMaker::load`).
    pub(crate) fn load_key_numbers(&mut self, numbers: &[u32], stale: Touched) {
        self.keys.load(numbers, stale);
    }

    /// The length of the key `classify` made last.
    pub(crate) fn buffer_len(&self) -> usize {
        self.buffer.len()
    }

    /// (the waste, cards a deal) when the stock is keyed as a cycle; never in the exact
    /// reference search.
    fn pass_merge(&self) -> Option<(usize, usize)> {
        if self.exact { None } else { self.program.ordering.pass_merge }
    }

    /// Whether moves after a deal are restricted (never in the exact reference search).
    pub(crate) fn restricts_after_deal(&self) -> bool {
        !self.exact && self.program.ordering.after_deal.is_some()
    }

    /// The piles whose moves a position reached by a deal keeps (`dealt`: reached so, the
    /// moves after a deal restricted), for `Program::generate_from`; None: every pile's.
    pub(crate) fn after_deal(&self, dealt: bool) -> Option<&[bool]> {
        if dealt && !self.exact { self.program.ordering.after_deal.as_deref() } else { None }
    }

    /// The move that only undoes the one that led to the deepest frame (the line's last,
    /// `undo` its undo): not played (never in the exact reference search). None at the
    /// root, after a deal, and after a move that forced more moves or turned a card.
    #[inline]
    fn reverse(&self, line: &[Move], undos: &[Undo]) -> Option<Move> {
        match (line.last(), undos.last()) {
            (Some(&m), Some(undo)) if !self.exact => m.reversed(undo),
            _ => None,
        }
    }

    /// The moves to try from `pos`, in order, of its `moves` as generated (right after a
    /// deal, where the rules let every other move commute with it, only the deal and the
    /// moves from the piles it feeds: `after_deal` for `Program::generate_from`): the first
    /// safe move (`solver.safe`) in sorted order alone when one is legal (never in the
    /// exact reference search), else all of them, ordered (`Search._children`).
    pub(crate) fn children(&mut self, moves: &mut Vec<Move>, ordering: Option<&mut Ordering>, pos: &Position) {
        if !self.exact {
            let safe = match self.pass_merge() {
                // the safe move must not depend on the waste
                Some((waste, _)) => {
                    self.candidates.clear();
                    self.candidates.extend(moves.iter().filter(|m| m.s != waste as i16));
                    self.program.first_safe(pos, &self.candidates)
                }
                None => self.program.first_safe(pos, moves),
            };
            if let Some(safe) = safe {
                moves.clear();
                moves.push(safe);
                return;
            }
        }
        if let Some(o) = ordering {
            o.order(self.program, moves, pos);
        }
    }

    /// One depth-first search from `root` (left as it was), with the ordering given (None:
    /// the generator's order, as the reference search), a budget of expanded positions
    /// (`walked`, all of them) and a cap on those counted (`expanded`: not the steps of
    /// stock macro moves; `Search.run` in search.py).
    pub fn run(
        &mut self,
        root: &Position,
        ordering: Option<&mut Ordering>,
        budget: u64,
        cap: u64,
        limits: &Limits,
    ) -> Outcome {
        let mut path = Path::default();
        let outcome = self.search(root, ordering, (budget, cap), limits, &mut path);
        self.stack_bytes = self.stack_bytes.max(path.allocated());
        // the positions left open (a restart's budget spent, a win) close: the store keeps
        // an open position's number in place of the restart that saw it
        for id in path.open.from(0) {
            self.store.set_depth(id, -1);
        }
        outcome
    }

    /// `run`, on the stacks `path`, empty at first.
    fn search(
        &mut self,
        root: &Position,
        mut ordering: Option<&mut Ordering>,
        (budget, cap): (u64, u64),
        limits: &Limits,
        path: &mut Path,
    ) -> Outcome {
        let Path { frames, moves, line, undos, open, cold } = path;
        let path_kept = limits.path_kept.unwrap_or(PATH_KEPT);
        // a frame's children can be made again, in the same order, unless the ordering
        // draws a jitter (a stream that has moved on since)
        let regenerable = ordering.as_ref().is_none_or(|o| o.jitter.is_none());
        let moves_kept = limits.moves_kept.unwrap_or(MOVES_KEPT);
        self.start_run();
        self.pack(root, limits);
        self.line.clear();
        let program = self.program;
        let mut pos = root.clone();
        let mut stacks = program.stacks_from(root);
        let mut scratch: Vec<Move> = Vec::new();
        let (_, hash, old) = self.classify(&mut pos, false, Touched::ALL);
        if old.is_none() && self.over_memory(limits, Some(self.buffer.len()), 0) {
            return Outcome::Memory;
        }
        if let Some(id) = old {
            if self.store.is_lost(id) {
                self.expanded = 1;
                self.walked = 1;
                return Outcome::Exhausted;
            }
        }
        let root_id = self.enter(hash, old, 0);
        program.generate(&pos, &mut scratch);
        self.expanded = 1;
        self.walked = 1;
        if scratch.is_empty() {
            self.store.set_depth(root_id, -1);
            if program.is_won(&pos) {
                return Outcome::Won;
            }
            self.store.set_lost(root_id);
            return Outcome::Exhausted;
        }
        self.children(&mut scratch, ordering.as_deref_mut(), &pos);
        moves.extend_from_slice(&scratch);
        frames.push(Frame { children: 0, next: 0, low: 0, number: 0 });
        // the positions of the components not closed yet (Tarjan's stack), in order; an
        // open position's entry holds its place here as its depth, a closed one -1
        open.push(root_id);
        // counted, and all (`run`)
        let mut expanded: u64 = 1;
        let mut walked: u64 = 1;
        let mut check_at: u64 = 1024;
        while !frames.is_empty() {
            let parent_number = if frames.len() >= 2 { frames[frames.len() - 2].number } else { -1 };
            if frames.last().expect("a frame").children == DROPPED {
                // the deepest frame again: its children, made as they were made first (the
                // move that led to it is the line's last: a deal restricts them); the frames
                // below it hold none, so the move stack is empty
                let dealt = line.last().is_some_and(|&m| m == DEAL) && self.restricts_after_deal();
                program.generate_from(&pos, &mut scratch, self.after_deal(dealt));
                self.children(&mut scratch, ordering.as_deref_mut(), &pos);
                debug_assert!(moves.is_empty());
                frames.last_mut().expect("a frame").children = moves.len() as u32;
                room(moves, scratch.len());
                moves.extend_from_slice(&scratch);
            }
            let frame = frames.last_mut().expect("a frame");
            // the deepest frame's children are the top of the move stack
            if frame.next as usize == moves.len() - frame.children as usize {
                let frame = frames.pop().expect("a frame");
                moves.truncate(frame.children as usize);
                if frame.low >= frame.number {
                    // the root of a component: all of it is proven lost
                    for member in open.from(frame.number as usize) {
                        self.store.set_depth(member, -1);
                        self.store.set_lost(member);
                    }
                    open.truncate(frame.number as usize);
                } else if let Some(parent) = frames.last_mut() {
                    parent.low = parent.low.min(frame.low);
                }
                if let (Some(m), Some(u)) = (line.pop(), undos.pop()) {
                    program.take_back(&mut pos, m, u, &mut stacks);
                }
                Path::thaw(frames, line, undos, cold);
                continue;
            }
            let at = (frame.children + frame.next) as usize;
            let mv = moves[at];
            frame.next += 1;
            if program.is_twin(&pos, &moves[frame.children as usize..at], mv) {
                continue; // the key of a move tried before (`Program::is_twin`)
            }
            if Some(mv) == self.reverse(line, undos) {
                frame.low = frame.low.min(parent_number);
                continue;
            }
            let undo = program.play(&mut pos, mv, &mut stacks);
            if stacks.runaway {
                program.take_back(&mut pos, mv, undo, &mut stacks);
                (self.expanded, self.walked) = (expanded, walked);
                return Outcome::Runaway;
            }
            let dealt = mv == DEAL && self.restricts_after_deal();
            let (class, hash, old) = self.classify(&mut pos, dealt, stacks.take_touched());
            let frame = frames.last_mut().expect("a frame");
            match class {
                Err(()) => {
                    program.take_back(&mut pos, mv, undo, &mut stacks);
                    continue;
                }
                Ok(Some(depth)) => {
                    program.take_back(&mut pos, mv, undo, &mut stacks);
                    frame.low = frame.low.min(depth);
                    continue;
                }
                Ok(None) => {}
            }
            // a position reached by a deal (moves after it restricted) is a step of a stock
            // macro move: free of the cap (docs/solver.md, "Stock macro moves")
            if walked >= budget || (expanded >= cap && !dealt) {
                program.take_back(&mut pos, mv, undo, &mut stacks);
                (self.expanded, self.walked) = (expanded, walked);
                return Outcome::Budget;
            }
            program.generate_from(&pos, &mut scratch, self.after_deal(dealt));
            // the store with this position in it, and the stacks with it pushed on them
            if limits.max_memory.is_some()
                && self.over_memory(limits, old.is_none().then_some(self.buffer.len()),
                                    Path::bytes(frames, moves, line, undos, open, cold, Some(scratch.len())))
            {
                program.take_back(&mut pos, mv, undo, &mut stacks);
                (self.expanded, self.walked) = (expanded, walked);
                return Outcome::Memory;
            }
            let id = self.enter(hash, old, -1);
            expanded += u64::from(!dealt);
            walked += 1;
            if scratch.is_empty() {
                if program.is_won(&pos) {
                    line.push(mv);
                    self.line = Path::full_line(cold, line);
                    (self.expanded, self.walked) = (expanded, walked);
                    return Outcome::Won;
                }
                self.store.set_lost(id);
                program.take_back(&mut pos, mv, undo, &mut stacks);
                continue;
            }
            let number = open.len() as i32;
            open.push(id);
            self.store.set_depth(id, number);
            room(line, 1);
            room(undos, 1);
            line.push(mv);
            undos.push(undo);
            self.children(&mut scratch, ordering.as_deref_mut(), &pos);
            let start = moves.len() as u32;
            room(moves, scratch.len());
            moves.extend_from_slice(&scratch);
            room(frames, 1);
            frames.push(Frame { children: start, next: 0, low: number, number });
            if moves.len() > moves_kept && regenerable {
                Path::drop_moves(frames, moves, moves_kept);
            }
            if frames.len() > 2 * path_kept {
                Path::freeze(frames, line, undos, moves, cold, path_kept, regenerable);
            }
            if walked >= check_at {
                check_at += 1024;
                if limits.stops(self.spent + expanded) {
                    (self.expanded, self.walked) = (expanded, walked);
                    return Outcome::Timeout;
                }
            }
        }
        (self.expanded, self.walked) = (expanded, walked);
        Outcome::Exhausted
    }
}

/// What a solve found: the outcome, the line (for a win), positions expanded.
pub struct Solved {
    pub outcome: Outcome,
    pub line: Vec<Move>,
    pub expanded: u64,
    pub stored: usize,
    /// the store and the tables of numbered parts, as allocated
    pub bytes: usize,
    /// the parts those tables hold
    pub parts: usize,
    /// the bytes of the stored records (words, lengths and keys), without room to spare
    pub record_bytes: usize,
    /// the most bytes a search's own stacks held (as allocated): a memory cap counts them
    pub stack_bytes: usize,
}

/// `solve`'s guided search where it runs (`guided.rs`, unless `guides` is false), then its
/// restart loop: Luby budgets, ordering style `run % styles`, beams on the
/// schedule of `Schedule` (unless `beams` is false); with `prove` one search with the main
/// ordering and the whole budget.
pub fn solve(program: &Program, root: &Position, max_positions: u64, prove: bool, beams: bool,
             guides: bool, limits: &Limits) -> Solved {
    let mut solver = Solver::new(program, false);
    solver.store.set_cap(limits.max_memory);
    let constants = &program.search;
    let mut orderings: Vec<Ordering> = (0..constants.styles).map(Ordering::new).collect();
    let mut spent: u64 = 0;
    let mut run: u64 = 0;
    let mut outcome = Outcome::Budget;
    let mut schedule =
        Schedule::new(beams && !prove && program.beam.layers && !root.stock.is_empty(), constants);
    // the guided searches take turns with the restarts (`guided.rs`), one turn before each
    // restart, the searches in turn: one from the root for each depth weight
    // (`depth_weights`, at most `FLARES`: `Program::from_wire`), each until it has spent
    // its budget: `budget`, or its share of the solve's where that is more (`budget_share`)
    let flare_budget = constants.guided.budget.max(max_positions / constants.guided.budget_share.max(1));
    let mut flares: Vec<(Guided, u64)> = if guides && !prove {
        constants.guided.depth_weights.iter().enumerate()
            .filter_map(|(flare, &weight)| Guided::new(program, root, weight, flare))
            .map(|g| (g, flare_budget))
            .collect()
    } else {
        Vec::new()
    };
    let mut next_flare = 0;
    // where a stock is dealt, their first turn waits (`GuidedConstants.stock_from`)
    let guided_from = if program.deal_targets.is_empty() { 0 } else { constants.guided.stock_from };
    while spent < max_positions {
        solver.spent = spent;
        let width = schedule.next_width();
        if width > 0 {
            outcome = solver.beam(root, width, max_positions - spent, limits);
            spent += solver.expanded;
            schedule.beam_spent(solver.expanded);
        } else {
            if !flares.is_empty() && spent >= guided_from {
                // its turn: as many positions as the next restart's, and its first at least
                // `first_turn`
                let mut turn = constants.restart_unit.saturating_mul(luby(run + 1));
                if flares[next_flare].1 == flare_budget {
                    turn = turn.max(constants.guided.first_turn);
                }
                let turn = turn.min(flares[next_flare].1).min(max_positions - spent);
                // in its turn it counts its own bytes (`held`), the others' beside
                solver.extra_bytes = held_by_others(&flares, next_flare);
                let (g, left) = &mut flares[next_flare];
                let outcome = g.run(&mut solver, turn, spent, limits);
                spent += solver.expanded;
                *left -= solver.expanded;
                match outcome {
                    Outcome::Budget => {}
                    _ => return solver.solved(outcome, spent),
                }
                if limits.should_stop.as_ref().is_some_and(|stop| stop(spent)) {
                    return solver.solved(Outcome::Timeout, spent);
                }
                if *left == 0 {
                    // its share is spent: the others go on; after the last the restarts
                    // go on alone
                    flares.remove(next_flare);
                } else {
                    next_flare += 1;
                }
                if next_flare >= flares.len() {
                    next_flare = 0;
                }
                if spent >= max_positions {
                    break;
                }
                solver.spent = spent;
                solver.extra_bytes = held_by_others(&flares, usize::MAX);
            }
            // the schedule counts every position a run expands (`walked`), the budget only
            // those not reached by a deal where moves after one are restricted (steps of a
            // stock macro move): elsewhere the two are the same
            let mut budget = constants.restart_unit.saturating_mul(luby(run + 1));
            if prove || spent + budget * 2 > max_positions {
                budget = u64::MAX; // too little left for another run: only the cap stops it
            }
            let style = (run % constants.styles as u64) as usize;
            outcome = solver.run(root, Some(&mut orderings[style]), budget, max_positions - spent, limits);
            spent += solver.expanded;
            schedule.restart_spent(solver.walked);
            run += 1;
        }
        match outcome {
            Outcome::Won | Outcome::Exhausted | Outcome::Timeout | Outcome::Memory | Outcome::Runaway => break,
            Outcome::Budget => {
                if limits.should_stop.as_ref().is_some_and(|stop| stop(spent)) {
                    outcome = Outcome::Timeout;
                    break;
                }
            }
        }
    }
    solver.solved(outcome, spent)
}

/// The bytes the guided searches hold but the one numbered `but`.
fn held_by_others(flares: &[(Guided, u64)], but: usize) -> usize {
    flares.iter().enumerate().filter(|&(i, _)| i != but).map(|(_, (g, _))| g.held()).sum()
}

/// One layered beam on its own (`Solver::beam`), as a solve's first beam would run.
pub fn beam(program: &Program, root: &Position, width: usize, max_positions: u64, limits: &Limits) -> Solved {
    let mut solver = Solver::new(program, false);
    solver.store.set_cap(limits.max_memory);
    let outcome = solver.beam(root, width, max_positions, limits);
    let expanded = solver.expanded;
    solver.solved(outcome, expanded)
}

/// The reference search: exact keys, nothing merged, no ordering, no restarts.
pub fn exhaustive(program: &Program, root: &Position, max_positions: u64, limits: &Limits) -> Solved {
    let mut solver = Solver::new(program, true);
    solver.store.set_cap(limits.max_memory);
    let outcome = solver.run(root, None, max_positions, max_positions, limits);
    let expanded = solver.expanded;
    solver.solved(outcome, expanded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_scores_rank_as_they_sort() {
        let moves = [Move { s: -2, k: 4, t: 3 }, DEAL, Move { s: 0, k: -1, t: 5 }, Move::new(0, 1, 2),
                     Move::new(0, 2, 1), Move::new(3, 1, 0), Move { s: -1, k: 1, t: 2 }];
        for a in moves {
            assert_eq!(ranked_move(move_rank(a)), a);
            for b in moves {
                assert_eq!(move_rank(a).cmp(&move_rank(b)), a.cmp(&b), "{a:?} {b:?}");
            }
        }
        let scores = [-1e9, -3.5, -0.0, 0.0, 1e-300, 0.25, 7.0, 1e300];
        for a in scores {
            for b in scores {
                // highest first
                assert_eq!(score_rank(a).cmp(&score_rank(b)), b.partial_cmp(&a).expect("numbers"), "{a} {b}");
            }
        }
    }

    #[test]
    fn luby_is_the_luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
