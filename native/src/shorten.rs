//! A won line with its detours cut: `shorten` in patience/solver/__init__.py, ported.
//!
//! From each position of the line, play the legal move that reaches the latest later
//! position of the line, when one does (of several, the smallest move: the choice does not
//! depend on the order moves are generated in); repeat until nothing shortens. Positions
//! are compared by exact key (nothing merged: every card as it lies, no pile sorted), so
//! the cut line reaches the line's last position and still wins. The keys are numbered
//! (`parts.rs`) and stored in a `Store`, each with the number of the line's last visit to
//! it: a line of 10^8 moves, as a deep depth-first search finds, takes some 3 GB, where
//! Python's dictionary of byte keys takes ten times that. With a memory cap the line is
//! left as it is where shortening it would pass the cap.

use std::time::Instant;

use crate::key::{KeyMaker, VIEW_ALL};
use crate::moves::{Move, Position, Touched};
use crate::program::{KeyRules, Program};
use crate::store::{hash_key, Store};

/// The most moves a line may have to be shortened (a store's open mark holds the number of
/// the line's last visit, in 30 bits).
const MOST: usize = (1 << 30) - 2;

/// `line` (from `root`) with its detours cut; the line as it is where a memory cap of
/// `max_memory` bytes would be passed, or it is longer than `MOST`.
pub fn shorten(program: &Program, root: &Position, line: &[Move], max_memory: Option<usize>) -> Vec<Move> {
    shorten_to_depth(program, root, line, max_memory, 1, None)
}

/// `shorten`, where from each position of the line also every two moves in a row are
/// tried (`depth` 2): the two that reach a later position of the line with more of it
/// left behind than any one move does replace the moves between (a hint's line:
/// `patience.solver.lines`). Of equal gains, one move before two, then the smallest moves.
/// Past `deadline` the rest of the line is kept as it is (it still wins).
pub fn shorten_to_depth(program: &Program, root: &Position, line: &[Move], max_memory: Option<usize>,
                        depth: usize, deadline: Option<Instant>) -> Vec<Move> {
    let mut table = [0u8; 256];
    for (i, t) in table.iter_mut().enumerate() {
        *t = i as u8;
    }
    let rules = KeyRules {
        card_table: table,
        always_sorted: vec![],
        sorted_when_stock_empty: vec![],
        stock_by_cards: true,
        views: vec![VIEW_ALL; root.piles.len()],
    };
    let mut line = line.to_vec();
    if line.len() > MOST {
        return line;
    }
    loop {
        match cut(program, root, &line, &rules, max_memory, depth, deadline) {
            Some(shorter) if shorter.len() < line.len() => line = shorter,
            _ => return line,
        }
        if deadline.is_some_and(|at| Instant::now() >= at) {
            return line;
        }
    }
}

/// One pass: the line cut where a move reaches a later position of it (None: a memory cap
/// would be passed).
fn cut(program: &Program, root: &Position, line: &[Move], rules: &KeyRules, max_memory: Option<usize>,
       depth: usize, deadline: Option<Instant>) -> Option<Vec<Move>> {
    let mut keys = KeyMaker::new(rules, false);
    keys.pack_for(root);
    let mut store = Store::new();
    store.set_cap(max_memory);
    store.start_run();
    let mut key = Vec::new();
    let mut pos = root.clone();
    let mut stacks = program.stacks_from(root);
    // each position of the line with the number of the line's last visit to it
    keys.key_touched(&pos, Touched::ALL, &mut key);
    store.insert(&key, hash_key(&key), 0);
    for (number, &mv) in line.iter().enumerate() {
        program.play(&mut pos, mv, &mut stacks);
        // never taken back: what a take-back would need is not kept
        stacks.forget_undos();
        keys.key_touched(&pos, stacks.take_touched(), &mut key);
        let hash = hash_key(&key);
        match store.find(&key, hash) {
            Some(id) => store.set_depth(id, number as i32 + 1),
            None => {
                if max_memory.is_some_and(|max| store.bytes() + store.growth(key.len())
                    + keys.bytes_after_next_key() > max) {
                    return None;
                }
                store.insert(&key, hash, number as i32 + 1);
            }
        }
    }
    let mut pos = root.clone();
    let mut shorter = Vec::new();
    let mut moves = Vec::new();
    let mut seconds = Vec::new();
    let mut at = 0;
    // the position keyed last is the line's last one: every pile may differ from `root`
    let mut touched = Touched::ALL;
    while at < line.len() {
        if deadline.is_some_and(|end| Instant::now() >= end) {
            shorter.extend_from_slice(&line[at..]);  // out of time: the rest as it is
            break;
        }
        // the best so far: the moves, and the line's later position they reach
        let (mut best, mut best_moves) = (at + 1, vec![line[at]]);
        program.generate(&pos, &mut moves);
        for &mv in &moves {
            let undo = program.play(&mut pos, mv, &mut stacks);
            touched.add(stacks.take_touched());
            if stacks.runaway {
                // its forced moves never end (`MAX_FORCED_MOVES`): not a move to cut with
                program.take_back(&mut pos, mv, undo, &mut stacks);
                touched.add(stacks.take_touched());
                stacks.runaway = false;
                continue;
            }
            keys.key_touched(&pos, touched, &mut key);
            touched = Touched::NONE;
            let reached = store.find(&key, hash_key(&key)).map_or(-1, |id| store.depth(id));
            if better(reached, &[mv], best, &best_moves) {
                (best, best_moves) = (reached as usize, vec![mv]);
            }
            if depth >= 2 {
                program.generate(&pos, &mut seconds);
                for &second in &seconds {
                    let undo = program.play(&mut pos, second, &mut stacks);
                    touched.add(stacks.take_touched());
                    if !stacks.runaway {
                        keys.key_touched(&pos, touched, &mut key);
                        touched = Touched::NONE;
                        let reached = store.find(&key, hash_key(&key)).map_or(-1, |id| store.depth(id));
                        if better(reached, &[mv, second], best, &best_moves) {
                            (best, best_moves) = (reached as usize, vec![mv, second]);
                        }
                    }
                    program.take_back(&mut pos, second, undo, &mut stacks);
                    touched.add(stacks.take_touched());
                    stacks.runaway = false;
                }
            }
            program.take_back(&mut pos, mv, undo, &mut stacks);
            touched.add(stacks.take_touched());
        }
        for &mv in &best_moves {
            program.play(&mut pos, mv, &mut stacks);
        }
        stacks.forget_undos();
        touched.add(stacks.take_touched());
        shorter.extend_from_slice(&best_moves);
        at = best;
    }
    Some(shorter)
}

/// Whether `moves` reaching the line's position `reached` (-1: none of it) cut more than
/// `best_moves` reaching `best` do: more of the line left behind for each move made; of
/// equal gains fewer moves, then the smallest.
fn better(reached: i32, moves: &[Move], best: usize, best_moves: &[Move]) -> bool {
    if reached < 0 {
        return false;
    }
    let gain = reached as i64 - moves.len() as i64;
    let best_gain = best as i64 - best_moves.len() as i64;
    gain > best_gain || (gain == best_gain && (moves.len() < best_moves.len()
        || (moves.len() == best_moves.len() && moves < best_moves)))
}
