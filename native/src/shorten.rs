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

use crate::key::{KeyMaker, VIEW_ALL};
use crate::moves::{Move, Position, Stacks, Touched};
use crate::program::{KeyRules, Program};
use crate::store::{hash_key, Store};

/// The most moves a line may have to be shortened (a store's open mark holds the number of
/// the line's last visit, in 30 bits).
const MOST: usize = (1 << 30) - 2;

/// `line` (from `root`) with its detours cut; the line as it is where a memory cap of
/// `max_memory` bytes would be passed, or it is longer than `MOST`.
pub fn shorten(program: &Program, root: &Position, line: &[Move], max_memory: Option<usize>) -> Vec<Move> {
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
        match cut(program, root, &line, &rules, max_memory) {
            Some(shorter) if shorter.len() < line.len() => line = shorter,
            _ => return line,
        }
    }
}

/// One pass: the line cut where a move reaches a later position of it (None: a memory cap
/// would be passed).
fn cut(program: &Program, root: &Position, line: &[Move], rules: &KeyRules, max_memory: Option<usize>)
       -> Option<Vec<Move>> {
    let mut keys = KeyMaker::new(rules, false);
    keys.pack_for(root);
    let mut store = Store::new();
    store.set_cap(max_memory);
    store.start_run();
    let mut key = Vec::new();
    let mut pos = root.clone();
    let mut stacks = Stacks::default();
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
    let mut at = 0;
    // the position keyed last is the line's last one: every pile may differ from `root`
    let mut touched = Touched::ALL;
    while at < line.len() {
        let (mut best, mut best_move) = (at + 1, line[at]);
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
            program.take_back(&mut pos, mv, undo, &mut stacks);
            touched = stacks.take_touched();
            let reached = store.find(&key, hash_key(&key)).map_or(-1, |id| store.depth(id));
            if reached > best as i32 || (reached == best as i32 && mv < best_move) {
                (best, best_move) = (reached as usize, mv);
            }
        }
        program.play(&mut pos, best_move, &mut stacks);
        stacks.forget_undos();
        touched.add(stacks.take_touched());
        shorter.push(best_move);
        at = best;
    }
    Some(shorter)
}
