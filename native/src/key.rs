//! Position keys (a port of `SolverRules.key` and `exact_key` in
//! `patience/solver/rules.py`) and the table that stores them.
//!
//! A key is exact: two positions share a key only when the rules cannot tell them apart
//! (card attributes no rule reads dropped, piles of symmetric groups sorted), never by a
//! hash alone, because a verdict "unwinnable" is a proof. Keys live in one byte arena,
//! one byte a card, each pile led by its length (one byte) instead of a separator, so a
//! key is `slots + cards + 2` bytes (Tabby Cat: 63). The table is open addressing over entry numbers; an entry holds its key's place in the
//! arena, a 32-bit hash, and what the search needs to know of the position.

use crate::moves::Position;
use crate::program::KeyRules;

/// Builds keys into a reusable buffer.
pub struct KeyMaker<'a> {
    rules: &'a KeyRules,
    exact: bool,
    parts: Vec<(usize, usize)>, // (start, len) of each pile's translated cards in `cards`
    cards: Vec<u8>,
    order: Vec<usize>,
}

impl<'a> KeyMaker<'a> {
    pub fn new(rules: &'a KeyRules, exact: bool) -> KeyMaker<'a> {
        KeyMaker { rules, exact, parts: Vec::new(), cards: Vec::new(), order: Vec::new() }
    }

    /// The key of `pos`, written into `out` (cleared first).
    pub fn key(&mut self, pos: &Position, out: &mut Vec<u8>) {
        out.clear();
        let piles = &pos.piles;
        if self.exact {
            for pile in piles {
                out.push(pile.len() as u8);
                out.extend_from_slice(pile);
            }
            out.push(0xFE);
            out.extend_from_slice(&pos.stock);
            return;
        }
        let table = &self.rules.card_table;
        let sorting: &[(usize, usize)] = if self.rules.stock_by_cards {
            &[]
        } else {
            &self.rules.always_sorted
        };
        let later: &[(usize, usize)] = if self.rules.stock_by_cards || !pos.stock.is_empty() {
            &[]
        } else {
            &self.rules.sorted_when_stock_empty
        };
        if sorting.is_empty() && later.is_empty() {
            let total: usize = piles.iter().map(|p| p.len() + 1).sum();
            out.resize(total, 0);
            let mut at = 0;
            for pile in piles {
                out[at] = pile.len() as u8;
                let dest = &mut out[at + 1..at + 1 + pile.len()];
                for (d, &c) in dest.iter_mut().zip(pile.iter()) {
                    *d = table[c as usize];
                }
                at += pile.len() + 1;
            }
        } else {
            let total: usize = piles.iter().map(|p| p.len()).sum();
            self.cards.resize(total, 0);
            self.parts.clear();
            let mut at = 0;
            for pile in piles {
                for (d, &c) in self.cards[at..at + pile.len()].iter_mut().zip(pile.iter()) {
                    *d = table[c as usize];
                }
                self.parts.push((at, pile.len()));
                at += pile.len();
            }
            self.order.clear();
            self.order.extend(0..piles.len());
            let cards = &self.cards;
            let parts = &self.parts;
            for &(start, stop) in sorting.iter().chain(later) {
                let stop = stop.min(piles.len());
                if start < stop {
                    self.order[start..stop].sort_unstable_by(|&a, &b| {
                        let (sa, la) = parts[a];
                        let (sb, lb) = parts[b];
                        cards[sa..sa + la].cmp(&cards[sb..sb + lb])
                    });
                }
            }
            out.resize(total + piles.len(), 0);
            let mut at = 0;
            for &i in &self.order {
                let (start, len) = self.parts[i];
                out[at] = len as u8;
                out[at + 1..at + 1 + len].copy_from_slice(&self.cards[start..start + len]);
                at += len + 1;
            }
        }
        if self.rules.stock_by_cards {
            out.push(0xFE);
            out.extend_from_slice(&pos.stock);
        } else {
            out.extend_from_slice(&(pos.stock.len() as u16).to_be_bytes());
        }
    }
}

/// What the search knows of a stored position.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// the key's place in the arena: offset << 16 | length
    place: u64,
    pub hash: u32,
    /// the restart in which it was last seen
    pub run: u32,
    /// its depth on the current path, or -1
    pub depth: i32,
    pub lost: bool,
}

const EMPTY: u32 = u32::MAX;

/// The stored positions: one arena of keys, a table of entry numbers.
pub struct Store {
    arena: Vec<u8>,
    pub entries: Vec<Entry>,
    index: Vec<u32>,
    mask: usize,
}

#[inline]
pub fn hash_key(key: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(key);
    let h = hasher.finish();
    // FxHash's low bits are weak: mix
    let h = (h ^ (h >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 29)
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

impl Store {
    pub fn new() -> Store {
        Store { arena: Vec::new(), entries: Vec::new(), index: vec![EMPTY; 1024], mask: 1023 }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes the store holds (arena, entries, table), as allocated.
    pub fn bytes(&self) -> usize {
        self.arena.capacity()
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.index.capacity() * 4
    }

    /// What the next insertion may allocate at most, on top of `bytes()`.
    pub fn growth(&self, key_len: usize) -> usize {
        let mut more = 0;
        if self.arena.len() + key_len > self.arena.capacity() {
            more += self.arena.capacity().max(key_len);
        }
        if self.entries.len() == self.entries.capacity() {
            more += self.entries.capacity().max(4) * std::mem::size_of::<Entry>();
        }
        if (self.entries.len() + 1) * 2 > self.index.len() {
            more += self.index.len() * 2 * 4;
        }
        more
    }

    fn key_of(&self, entry: &Entry) -> &[u8] {
        let (offset, len) = ((entry.place >> 16) as usize, (entry.place & 0xFFFF) as usize);
        &self.arena[offset..offset + len]
    }

    /// The entry number of `key`, if stored.
    pub fn find(&self, key: &[u8], hash: u64) -> Option<u32> {
        let short = hash as u32;
        let mut at = (hash >> 32) as usize & self.mask;
        loop {
            let id = self.index[at];
            if id == EMPTY {
                return None;
            }
            let entry = &self.entries[id as usize];
            if entry.hash == short && self.key_of(entry) == key {
                return Some(id);
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Store `key` (not stored yet); its entry number.
    pub fn insert(&mut self, key: &[u8], hash: u64, run: u32, depth: i32) -> u32 {
        if (self.entries.len() + 1) * 2 > self.index.len() {
            self.grow();
        }
        let id = self.entries.len() as u32;
        self.entries.push(Entry {
            place: (self.arena.len() as u64) << 16 | key.len() as u64,
            hash: hash as u32,
            run,
            depth,
            lost: false,
        });
        self.arena.extend_from_slice(key);
        self.place(id, hash);
        id
    }

    fn place(&mut self, id: u32, hash: u64) {
        let mut at = (hash >> 32) as usize & self.mask;
        while self.index[at] != EMPTY {
            at = (at + 1) & self.mask;
        }
        self.index[at] = id;
    }

    fn grow(&mut self) {
        let size = self.index.len() * 2;
        self.index = vec![EMPTY; size];
        self.mask = size - 1;
        for id in 0..self.entries.len() {
            let hash = hash_key(self.key_of(&self.entries[id]));
            self.place(id as u32, hash);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }

    #[test]
    fn the_store_finds_what_it_holds_and_nothing_else() {
        let mut store = Store::new();
        for i in 0..5000u32 {
            let key = i.to_le_bytes();
            let h = hash_key(&key);
            assert!(store.find(&key, h).is_none());
            assert_eq!(store.insert(&key, h, 0, -1), i);
        }
        for i in 0..5000u32 {
            let key = i.to_le_bytes();
            assert_eq!(store.find(&key, hash_key(&key)), Some(i));
        }
        assert!(store.find(b"nope", hash_key(b"nope")).is_none());
    }

    #[test]
    fn symmetric_piles_share_a_key_once_sorted() {
        let mut table = [0u8; 256];
        for (i, t) in table.iter_mut().enumerate() {
            *t = i as u8;
        }
        let rules = KeyRules {
            card_table: table,
            always_sorted: vec![(0, 2)],
            sorted_when_stock_empty: vec![],
            stock_by_cards: false,
        };
        let mut maker = KeyMaker::new(&rules, false);
        let a = Position { piles: vec![vec![4, 8], vec![12]], stock: vec![] };
        let b = Position { piles: vec![vec![12], vec![4, 8]], stock: vec![] };
        let (mut ka, mut kb) = (Vec::new(), Vec::new());
        maker.key(&a, &mut ka);
        maker.key(&b, &mut kb);
        assert_eq!(ka, kb);
        let mut exact = KeyMaker::new(&rules, true);
        exact.key(&a, &mut ka);
        exact.key(&b, &mut kb);
        assert_ne!(ka, kb);
    }
}
