//! The depth-first search's own stacks (`search.rs`): for each position of its path a frame,
//! the move that led on from it and that move's undo, the moves of the frames' children,
//! and Tarjan's stack of the positions of components not closed yet. A deep search's path
//! holds most of the positions it expanded (FreeCell deal 3: 1.8 million of 1.8 million),
//! so it is kept small: 35 bytes a plain position, the shallowest packed into about five
//! (`Cold`), the children of the shallowest frames dropped and made again, and every stack
//! grown by an eighth (a memory cap counts them as allocated).

use crate::moves::{Move, Undo};
use crate::store::Id;

/// A position of the search's path: 16 bytes (a deep search keeps tens of millions). Its
/// children's count is not kept: the deepest frame's children are the top of the move
/// stack. Nor is the reverse of the move that led to it, which is the line's last move
/// (`Solver::reverse`).
pub(crate) struct Frame {
    /// start of its children on the move stack, or `DROPPED`
    pub children: u32,
    pub next: u32,
    pub low: i32,
    /// its number: its place on the stack of open positions
    pub number: i32,
}

/// Ids of stored positions in five bytes each (an id has at most 40 bits: `store.rs`):
/// Tarjan's stack of open positions.
#[derive(Default)]
pub(crate) struct Ids {
    low: Vec<u32>,
    high: Vec<u8>,
}

impl Ids {
    #[inline]
    pub fn push(&mut self, id: Id) {
        debug_assert!(id >> 40 == 0);
        room(&mut self.low, 1);
        room(&mut self.high, 1);
        self.low.push(id as u32);
        self.high.push((id >> 32) as u8);
    }

    pub fn len(&self) -> usize {
        self.low.len()
    }

    pub fn truncate(&mut self, len: usize) {
        self.low.truncate(len);
        self.high.truncate(len);
    }

    /// The ids from place `from` on.
    pub fn from(&self, from: usize) -> impl Iterator<Item = Id> + '_ {
        self.low[from..].iter().zip(&self.high[from..]).map(|(&low, &high)| (high as Id) << 32 | low as Id)
    }
}

/// The shallowest positions of a deep path, packed (`Path::freeze`): for each, its frame,
/// the move from it to the next position and that move's undo, as LEB128 numbers that can
/// be read back to front (a number's last byte is the only one below 128): the fields that
/// differ from the common case, then the move's pile and target, its next child, and last
/// a byte of flags that says which fields came before it. Common: a frame's number one
/// more than the one before, its low link its number, its children dropped, a move of one
/// card, an undo of nothing. Mostly four or five bytes a position. The frames packed are
/// never the deepest two: only those change.
#[derive(Default)]
pub(crate) struct Cold {
    bytes: Vec<u8>,
    /// the positions packed, and the number of the last one's frame
    count: usize,
    last_number: i32,
}

/// The most bytes a packed position takes: ten LEB128 numbers of at most 32 bits.
const MOST_PACKED: usize = 50;

/// `Cold`'s flags: the field is the common case, and not written
const GAP_ONE: u64 = 1;
const LOW_IS_NUMBER: u64 = 2;
const CHILDREN_DROPPED: u64 = 4;
const ONE_CARD: u64 = 8;
const NO_DEAL: u64 = 16;
const NO_STEPS: u64 = 32;

fn put_leb(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The LEB128 number that ends just before `end`, read back to front; `end` moves to its
/// start.
fn get_leb_back(bytes: &[u8], end: &mut usize) -> u64 {
    let mut start = *end - 1; // its last byte, below 128
    while start > 0 && bytes[start - 1] >= 0x80 {
        start -= 1;
    }
    let mut value = 0u64;
    for (i, &byte) in bytes[start..*end].iter().enumerate() {
        value |= ((byte & 0x7F) as u64) << (7 * i);
    }
    *end = start;
    value
}

/// A move's source as a packed number: a pile (or the deal's -1) plus 2, below
/// `DISCARDS_FROM`; a discard of set `i` (`-2 - i`) from `DISCARDS_FROM` on.
const DISCARDS_FROM: u64 = crate::moves::MAX_PILES as u64 + 2;

fn packed_source(s: i16) -> u64 {
    if s >= -1 { (s as i64 + 2) as u64 } else { DISCARDS_FROM + (-2 - s as i64) as u64 }
}

fn unpacked_source(value: u64) -> i16 {
    if value < DISCARDS_FROM { (value as i64 - 2) as i16 } else { (-2 - (value - DISCARDS_FROM) as i64) as i16 }
}

impl Cold {
    fn push(&mut self, frame: &Frame, mv: Move, undo: Undo) {
        let gap = (frame.number - if self.count == 0 { 0 } else { self.last_number }) as u64;
        let low = (frame.number as i64 - frame.low as i64) as u64;
        let (deal, steps) = undo.packed();
        room(&mut self.bytes, MOST_PACKED);
        let out = &mut self.bytes;
        let mut flags = 0;
        // the fields read last are written first
        if steps == 0 { flags |= NO_STEPS } else { put_leb(out, steps as u64) }
        if deal == 0 { flags |= NO_DEAL } else { put_leb(out, deal as u64) }
        if mv.k == 1 { flags |= ONE_CARD } else { put_leb(out, mv.k as u16 as u64) }
        if frame.children == DROPPED { flags |= CHILDREN_DROPPED } else { put_leb(out, frame.children as u64) }
        if low == 0 { flags |= LOW_IS_NUMBER } else { put_leb(out, low) }
        if gap == 1 { flags |= GAP_ONE } else { put_leb(out, gap) }
        put_leb(out, packed_source(mv.s));
        put_leb(out, (mv.t as i64 + 2) as u64);
        put_leb(out, frame.next as u64);
        put_leb(out, flags);
        self.count += 1;
        self.last_number = frame.number;
    }

    /// Take the last record back.
    fn pop(&mut self) -> (Frame, Move, Undo) {
        let mut end = self.bytes.len();
        let record = Cold::read_back(&self.bytes, &mut end);
        self.bytes.truncate(end);
        let number = self.last_number;
        self.count -= 1;
        self.last_number = number - record.gap;
        let frame = Frame { children: record.children, next: record.next, low: number - record.low, number };
        (frame, record.mv, record.undo)
    }

    /// The moves of the positions packed, shallowest first.
    fn moves(&self) -> Vec<Move> {
        let mut end = self.bytes.len();
        let mut moves = Vec::with_capacity(self.count);
        while end > 0 {
            moves.push(Cold::read_back(&self.bytes, &mut end).mv);
        }
        moves.reverse();
        moves
    }

    /// The record that ends just before `end`; `end` moves to its start.
    fn read_back(bytes: &[u8], end: &mut usize) -> Record {
        let flags = get_leb_back(bytes, end);
        let next = get_leb_back(bytes, end) as u32;
        let t = (get_leb_back(bytes, end) as i64 - 2) as i16;
        let s = unpacked_source(get_leb_back(bytes, end));
        let mut field = |flag: u64, common: u64| if flags & flag != 0 { common } else { get_leb_back(bytes, end) };
        let gap = field(GAP_ONE, 1) as i32;
        let low = field(LOW_IS_NUMBER, 0) as i32;
        let children = field(CHILDREN_DROPPED, DROPPED as u64) as u32;
        let k = field(ONE_CARD, 1) as i16;
        let deal = field(NO_DEAL, 0) as u32;
        let steps = field(NO_STEPS, 0) as u32;
        Record { gap, low, children, next, mv: Move { s, k, t }, undo: Undo::from_packed(deal, steps) }
    }
}

/// A packed position as read back: its frame's number less the one before it (`gap`) and
/// less its low link (`low`), the rest of its frame, its move and its undo.
struct Record {
    gap: i32,
    low: i32,
    children: u32,
    next: u32,
    mv: Move,
    undo: Undo,
}

/// A frame whose children were dropped from the move stack (`Path::drop_moves`): they are
/// made again, in the same order, when it is the deepest frame again.
pub(crate) const DROPPED: u32 = u32::MAX;

/// The positions of a path kept plain (`Frame`, move, undo: 30 bytes each) before the
/// shallowest are packed into a few bytes each (`Path::freeze`): a deep search's path
/// holds most of the positions it expanded (FreeCell deal 3: 1.8 million of 1.8 million).
pub(crate) const PATH_KEPT: usize = 1 << 12;

/// The moves a search keeps on its move stack before it drops the children of its
/// shallowest frames (when their order can be made again: an ordering without jitter).
/// A deep search otherwise keeps every sibling of its whole path: FreeCell's hold 250
/// bytes a position of the path, seven times the store.
pub(crate) const MOVES_KEPT: usize = 1 << 16;

/// A depth-first search's own stacks: a frame, its children's moves, the move and its undo
/// a position deep, and the positions of the components not closed yet (Tarjan's stack).
/// They live as long as `run`, so that their size (as allocated: `bytes`) is known when the
/// search ends, and a memory cap counts them with the store.
#[derive(Default)]
pub(crate) struct Path {
    pub frames: Vec<Frame>,
    pub moves: Vec<Move>,
    pub line: Vec<Move>,
    pub undos: Vec<Undo>,
    pub open: Ids,
    /// the shallowest positions, packed: `frames`, `line` and `undos` hold the deepest
    pub cold: Cold,
}

/// The room a stack of the search gets when it is full: an eighth more (at least 1,024
/// items and what is pushed), not twice as much as a `Vec` would, since a capped search
/// counts its stacks as allocated (a big vector is remapped by the allocator when it grows,
/// not copied).
#[inline]
fn grown(capacity: usize, more: usize) -> usize {
    capacity + (capacity / 8).max(more).max(1024)
}

/// Make room for `more` items on the stack `v` (`grown`).
#[inline]
pub(crate) fn room<T>(v: &mut Vec<T>, more: usize) {
    if v.len() + more > v.capacity() {
        grow(v, more);
    }
}

#[cold]
#[inline(never)]
fn grow<T>(v: &mut Vec<T>, more: usize) {
    let capacity = grown(v.capacity(), more);
    v.reserve_exact(capacity - v.len());
}

/// The bytes of `v` as allocated once `more` items are pushed on it (after `room`).
fn after_push<T>(v: &Vec<T>, more: usize) -> usize {
    let capacity = if v.len() + more > v.capacity() { grown(v.capacity(), more) } else { v.capacity() };
    capacity * std::mem::size_of::<T>()
}

impl Path {
    /// Drop the children of the shallowest frames that hold some, until at most half of
    /// `kept` are left on the move stack, and move the others down.
    pub fn drop_moves(frames: &mut [Frame], moves: &mut Vec<Move>, kept: usize) {
        // the deepest frame keeps its children, however many; the frames below the
        // shallowest that holds some hold none (`DROPPED`), and its children start at 0
        let mut keep = frames.len() - 1;
        while keep > 0 && moves.len() - frames[keep - 1].children as usize <= kept / 2 {
            keep -= 1;
        }
        let base = frames[keep].children;
        debug_assert!(base != DROPPED);
        if base == 0 {
            return;
        }
        for frame in frames[..keep].iter_mut().rev().take_while(|f| f.children != DROPPED) {
            frame.children = DROPPED;
        }
        for frame in &mut frames[keep..] {
            frame.children -= base;
        }
        moves.drain(..base as usize);
    }

    /// Pack the shallowest positions but `kept` (`Cold`), with their children dropped from
    /// the move stack when they can be made again (`regenerable`; else they stay, and the
    /// packed frames say where).
    #[cold]
    #[inline(never)]
    pub fn freeze(frames: &mut Vec<Frame>, line: &mut Vec<Move>, undos: &mut Vec<Undo>, moves: &mut Vec<Move>,
              cold: &mut Cold, kept: usize, regenerable: bool) {
        let count = frames.len().saturating_sub(kept.max(2));
        if count == 0 {
            return;
        }
        if regenerable {
            // the children of the frames packed lie below those of the first frame left
            // that holds some (the deepest holds its own)
            let base = frames[count..].iter().map(|f| f.children).find(|&c| c != DROPPED).unwrap_or(0);
            for frame in &mut frames[..count] {
                frame.children = DROPPED;
            }
            for frame in frames[count..].iter_mut().filter(|f| f.children != DROPPED) {
                frame.children -= base;
            }
            moves.drain(..base as usize);
        }
        for ((frame, &mv), &undo) in frames[..count].iter().zip(&line[..count]).zip(&undos[..count]) {
            cold.push(frame, mv, undo);
        }
        frames.drain(..count);
        line.drain(..count);
        undos.drain(..count);
    }

    /// Unpack the last packed position, where fewer than two are plain: the deepest frame's
    /// parent must be plain (its low link changes).
    #[inline]
    pub fn thaw(frames: &mut Vec<Frame>, line: &mut Vec<Move>, undos: &mut Vec<Undo>, cold: &mut Cold) {
        if frames.len() < 2 && cold.count > 0 {
            Path::unpack(frames, line, undos, cold);
        }
    }

    #[cold]
    #[inline(never)]
    fn unpack(frames: &mut Vec<Frame>, line: &mut Vec<Move>, undos: &mut Vec<Undo>, cold: &mut Cold) {
        let (frame, mv, undo) = cold.pop();
        frames.insert(0, frame);
        line.insert(0, mv);
        undos.insert(0, undo);
    }

    /// The whole line: the packed positions' moves, then the plain ones'.
    #[cold]
    #[inline(never)]
    pub fn full_line(cold: &Cold, line: &[Move]) -> Vec<Move> {
        let mut moves = cold.moves();
        moves.extend_from_slice(line);
        moves
    }

    /// The bytes the stacks hold, as allocated (a `Vec` keeps its room when it shrinks, so
    /// at the end of a search this is the most they held).
    pub fn allocated(&self) -> usize {
        Path::bytes(&self.frames, &self.moves, &self.line, &self.undos, &self.open, &self.cold, None)
    }

    /// The stacks' bytes as allocated once one more position with `children` moves is
    /// pushed on them (None: as they are); the packed positions as they are (they grow
    /// when a freeze packs `PATH_KEPT` more, a few bytes each, after the push).
    #[allow(clippy::too_many_arguments)]
    pub fn bytes(frames: &Vec<Frame>, moves: &Vec<Move>, line: &Vec<Move>, undos: &Vec<Undo>,
             open: &Ids, cold: &Cold, children: Option<usize>) -> usize {
        let one = usize::from(children.is_some());
        after_push(frames, one) + after_push(moves, children.unwrap_or(0)) + after_push(line, one)
            + after_push(undos, one) + after_push(&open.low, one) + after_push(&open.high, one)
            + cold.bytes.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_discards_source_packs_past_every_pile_and_back() {
        // piles and the deal keep their one-byte form; a discard of set i (-2 - i) packs
        // after them, whatever its number
        for s in [-1i16, 0, 1, 125, 249, -2, -3, -200, -20_001, i16::MIN + 1] {
            assert_eq!(unpacked_source(packed_source(s)), s);
        }
        assert!(packed_source(125) < 128 && packed_source(-2) >= DISCARDS_FROM);
    }

    #[test]
    fn a_position_on_the_path_takes_35_bytes() {
        // a frame, the move that led to it and its undo, its place on Tarjan's stack
        let sizes = [std::mem::size_of::<Frame>(), std::mem::size_of::<Move>(), std::mem::size_of::<Undo>(), 5];
        assert_eq!(sizes, [16, 6, 8, 5]);
        let mut ids = Ids::default();
        for id in [0, 1, (1 << 40) - 1, 1 << 32, 12_345_678_901] {
            ids.push(id);
        }
        ids.truncate(4);
        assert_eq!(ids.from(1).collect::<Vec<_>>(), vec![1, (1 << 40) - 1, 1 << 32]);
    }

    #[test]
    fn packed_positions_come_back_as_they_were() {
        let mut cold = Cold::default();
        let mut state = 9u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        let mut pushed = Vec::new();
        let mut number = 0;
        for i in 0..5_000 {
            // mostly the common case, now and then every field far from it
            let odd = next() % 4 == 0;
            number += if odd { 1 + next() as i32 % 300_000 } else { 1 };
            let frame = Frame {
                children: if odd { next() as u32 % 70_000 } else { DROPPED },
                next: if odd { next() as u32 } else { next() as u32 % 5 },
                low: if odd { number - next() as i32 % (number + 2) } else { number },
                number,
            };
            let deal = i % 7 == 0;
            let deal = deal && odd;
            let piles = if odd { 256 } else { 100 };
            let mv = if deal { crate::moves::DEAL } else {
                Move { s: (next() % piles) as i16, k: if odd { (next() % 255) as i16 } else { 1 }, t: (next() % piles) as i16 }
            };
            let undo = Undo::from_packed(if deal { 2 + next() as u32 % 300 } else { 0 }, if odd { next() as u32 } else { 0 });
            let before = cold.bytes.len();
            cold.push(&frame, mv, undo);
            if !odd {
                // the common case: the flags, the next child, the target and the pile
                assert_eq!(cold.bytes.len() - before, 4);
            }
            pushed.push((frame, mv, undo));
        }
        assert_eq!(cold.moves(), pushed.iter().map(|p| p.1).collect::<Vec<_>>());
        while let Some((frame, mv, undo)) = pushed.pop() {
            let (f, m, u) = cold.pop();
            assert_eq!((f.children, f.next, f.low, f.number), (frame.children, frame.next, frame.low, frame.number));
            assert_eq!((m, u.packed()), (mv, undo.packed()));
        }
        assert!(cold.bytes.is_empty() && cold.count == 0);
    }
}
