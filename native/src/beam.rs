//! The layered beam: `patience/solver/beam.py` ported, position for position.
//!
//! Where the stock deals and never comes back, the positions with the same cards left in
//! the stock form a layer. From each of the `width` entries of a layer the beam searches
//! breadth-first over every move but the deal, up to `BEAM_CAP` positions; each position
//! from which the deal is legal gives a candidate (the position after the deal); the
//! `width` least disordered candidates are the next layer's entries. An entry whose stock
//! is empty gets a depth-first search (`Solver::run`, the main ordering) of at most
//! `BEAM_ENDGAME` positions. It only finds wins; `solve` (search.rs) runs it beside the
//! depth-first restarts, on the schedule of `Schedule`.

use std::collections::VecDeque;

use crate::moves::{Move, Position, Touched, DEAL};
use crate::program::{Program, FACE_DOWN};
use crate::wire::Search;
use crate::search::{Limits, Ordering, Outcome, Solver};

/// How far `pos` is from won, as the beam ranks it (lower is better): 10 × (breaks +
/// face-down cards) − 3 × empty piles − cards on the piles of `target: first` groups
/// (`patience.solver.beam.disorder`).
pub fn disorder(program: &Program, pos: &Position) -> i64 {
    let (mut breaks, mut down, mut empty, mut home) = (0i64, 0i64, 0i64, 0i64);
    for index in 0..program.piles {
        let pile = &pos.piles[index];
        if program.ordering.first_target[index] {
            home += pile.len() as i64;
            continue;
        }
        if pile.is_empty() {
            empty += 1;
            continue;
        }
        let rows = program.beam.sequences[index].as_ref();
        let mut below = pile[0];
        if below >= FACE_DOWN {
            down += 1;
        }
        for &above in &pile[1..] {
            if above >= FACE_DOWN {
                down += 1;
            } else if below < FACE_DOWN {
                if let Some(rows) = rows {
                    if rows[below as usize] >> above & 1 == 0 {
                        breaks += 1;
                    }
                }
            }
            below = above;
        }
    }
    let search = &program.search;
    search.break_weight * (breaks + down) - search.empty_weight * empty - home
}

/// When a solve runs a beam beside its depth-first restarts (`BeamSchedule` in beam.py):
/// once the restarts have spent `BEAM_FROM` positions more than all the beams so far, and
/// never two beams in a row; beam j is `BEAM_WIDTH × 2^j` wide.
pub struct Schedule {
    active: bool,
    beam_from: u64,
    beam_width: usize,
    max_beam_width: usize,
    restarts: u64,
    beams: u64,
    count: u32,
    last_was_beam: bool,
}

impl Schedule {
    pub fn new(active: bool, constants: &Search) -> Schedule {
        Schedule {
            active,
            beam_from: constants.beam_from,
            beam_width: constants.beam_width,
            max_beam_width: constants.max_beam_width,
            restarts: 0,
            beams: 0,
            count: 0,
            last_was_beam: false,
        }
    }

    /// The width of the beam to run next, or 0: a depth-first restart comes next.
    pub fn next_width(&self) -> usize {
        if !self.active || self.last_was_beam || self.restarts < self.beams.saturating_add(self.beam_from) {
            return 0;
        }
        let doubled = self.beam_width.checked_shl(self.count).filter(|w| w >> self.count == self.beam_width);
        doubled.map_or(self.max_beam_width, |w| w.min(self.max_beam_width))
    }

    pub fn beam_spent(&mut self, positions: u64) {
        self.beams += positions;
        self.count += 1;
        self.last_was_beam = true;
    }

    pub fn restart_spent(&mut self, positions: u64) {
        self.restarts += positions;
        self.last_was_beam = false;
    }
}

/// A position the breadth-first search of a layer reached: the move to it, and the step
/// it came from (NO_STEP: the layer's entry `entry`).
struct Step {
    parent: u32,
    entry: u32,
    mv: Move,
}

const NO_STEP: u32 = u32::MAX;

/// The moves from the layer's entry to `step`, in order, and the entry's number.
fn path(steps: &[Step], mut step: u32) -> (Vec<Move>, usize) {
    let mut moves = Vec::new();
    let entry = steps[step as usize].entry as usize;
    while step != NO_STEP {
        let s = &steps[step as usize];
        moves.push(s.mv);
        step = s.parent;
    }
    moves.reverse();
    (moves, entry)
}

impl<'a> Solver<'a> {
    /// One layered beam from `root`, `width` wide, with a budget of expanded positions;
    /// `self.line` holds a win. Ends as `Budget` when it runs out of candidates: it proves
    /// nothing.
    pub fn beam(&mut self, root: &Position, width: usize, budget: u64, limits: &Limits) -> Outcome {
        let program = self.program;
        let base = self.spent;
        let mut entries: Vec<(Position, Vec<Move>)> = vec![(root.clone(), Vec::new())];
        let mut expanded: u64 = 0;
        let mut check_at: u64 = 1024;
        let mut stacks = program.stacks_from(root);
        let mut moves: Vec<Move> = Vec::new();
        let outcome = 'layers: loop {
            if entries.is_empty() {
                break 'layers Outcome::Budget;
            }
            self.pack(root, limits);
            self.start_run();
            let mut steps: Vec<Step> = Vec::new();
            // positions done with, their room reused for the next ones queued
            let mut spare: Vec<Position> = Vec::new();
            let mut candidates: Vec<(i64, u32, u32)> = Vec::new();
            let mut endgames: Vec<usize> = Vec::new();
            for (number, (entry, _)) in entries.iter().enumerate() {
                if entry.stock.is_empty() {
                    endgames.push(number);
                    continue;
                }
                let mut pos = entry.clone();
                let (class, hash, old) = self.classify(&mut pos, false, Touched::ALL);
                if class != Ok(None) {
                    continue; // proven lost, or seen in this layer
                }
                if old.is_none() && self.over_memory(limits, Some(self.buffer_len()), 0) {
                    break 'layers Outcome::Memory;
                }
                self.enter(hash, old, -1);
                let mut queue: VecDeque<(Position, u32)> = VecDeque::new();
                queue.push_back((pos, NO_STEP));
                let mut count: u64 = 0;
                while count < self.program.search.beam_cap {
                    let Some((mut pos, step)) = queue.pop_front() else { break };
                    // a position from the queue: not the one keyed last
                    stacks.touched = Touched::ALL;
                    if expanded >= budget {
                        break 'layers Outcome::Budget;
                    }
                    expanded += 1;
                    count += 1;
                    program.generate(&pos, &mut moves);
                    if moves.is_empty() {
                        if program.is_won(&pos) {
                            let mut line = entries[number].1.clone();
                            if step != NO_STEP {
                                line.extend(path(&steps, step).0);
                            }
                            self.line = line;
                            break 'layers Outcome::Won;
                        }
                        continue;
                    }
                    if let Some(safe) = program.first_safe(&pos, &moves) {
                        moves.clear();
                        moves.push(safe);
                    }
                    moves.sort_unstable();
                    for &mv in moves.iter() {
                        let undo = program.play(&mut pos, mv, &mut stacks);
                        if stacks.runaway {
                            break 'layers Outcome::Runaway;
                        }
                        let (class, hash, old) = self.classify(&mut pos, false, stacks.take_touched());
                        if class == Ok(None) {
                            if old.is_none() && self.over_memory(limits, Some(self.buffer_len()), 0) {
                                break 'layers Outcome::Memory;
                            }
                            self.enter(hash, old, -1);
                            steps.push(Step { parent: step, entry: number as u32, mv });
                            let at = (steps.len() - 1) as u32;
                            if mv == DEAL {
                                // the deal: a candidate for the next layer
                                candidates.push((disorder(program, &pos), candidates.len() as u32, at));
                            } else {
                                let mut child = spare.pop().unwrap_or_default();
                                child.copy_from(&pos);
                                queue.push_back((child, at));
                            }
                        }
                        program.take_back(&mut pos, mv, undo, &mut stacks);
                    }
                    spare.push(pos);
                    if expanded >= check_at {
                        check_at += 1024;
                        if limits.stops(base + expanded) {
                            break 'layers Outcome::Timeout;
                        }
                    }
                }
                spare.extend(queue.into_iter().map(|(pos, _)| pos));
            }
            for number in endgames {
                if expanded >= budget {
                    break;
                }
                let mut pos = entries[number].0.clone();
                if self.classify(&mut pos, false, Touched::ALL).0.is_err() {
                    continue; // proven lost
                }
                self.spent = base + expanded;
                let mut ordering = Ordering::new(0);
                let endgame = self.program.search.beam_endgame.min(budget - expanded);
                let outcome = self.run(&pos, Some(&mut ordering), endgame, endgame, limits);
                expanded += self.walked; // a beam counts every position
                match outcome {
                    Outcome::Won => {
                        let mut line = entries[number].1.clone();
                        line.append(&mut self.line);
                        self.line = line;
                        break 'layers Outcome::Won;
                    }
                    Outcome::Timeout | Outcome::Memory | Outcome::Runaway => break 'layers outcome,
                    Outcome::Budget | Outcome::Exhausted => {}
                }
            }
            candidates.sort_unstable_by_key(|&(score, arrival, _)| (score, arrival));
            candidates.truncate(width);
            let mut next = Vec::with_capacity(candidates.len());
            for &(_, _, at) in &candidates {
                let (moves, entry) = path(&steps, at);
                let (mut pos, mut line) = entries[entry].clone();
                for &mv in &moves {
                    program.play(&mut pos, mv, &mut stacks);
                }
                stacks.forget_undos();
                line.extend(moves);
                next.push((pos, line));
            }
            entries = next;
        };
        self.spent = base;
        self.expanded = expanded;
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_shares_the_budget_with_the_restarts() {
        // numbers of this test's own (the real ones come with the program)
        let mut constants = crate::wire::test_search();
        (constants.beam_from, constants.beam_width, constants.max_beam_width) = (1000, 5, 640);
        let mut schedule = Schedule::new(true, &constants);
        assert_eq!(schedule.next_width(), 0);
        schedule.restart_spent(999);
        assert_eq!(schedule.next_width(), 0);
        schedule.restart_spent(1);
        assert_eq!(schedule.next_width(), 5);
        schedule.beam_spent(700);
        assert_eq!(schedule.next_width(), 0); // never two beams in a row
        schedule.restart_spent(699);
        assert_eq!(schedule.next_width(), 0);
        schedule.restart_spent(1);
        assert_eq!(schedule.next_width(), 10);
        for _ in 0..100 {
            schedule.beam_spent(0);
            schedule.restart_spent(1000);
        }
        assert_eq!(schedule.next_width(), 640);
        let mut off = Schedule::new(false, &constants);
        off.restart_spent(1 << 40);
        assert_eq!(off.next_width(), 0);
    }
}
