//! The table of stored positions (the transposition table): every key the search has
//! stored, whether it is proven lost and the restart that last saw it.
//!
//! Keys live in one byte arena, one after another; an entry (8 bytes) holds its key's
//! offset (its length is where the next key starts), the restart that last saw it and
//! whether it is proven lost; an open-addressing table of 5-byte slots (an entry number and
//! 8 bits of its hash) finds them. A position's number on the search's stack of open
//! positions (Tarjan's; "depth" below), needed only while its component is open, lives in a
//! small map beside.

use rustc_hash::FxHashMap;

/// What the search knows of a stored position, in one word: the key's offset in the arena
/// (bits 0–39), the restart that last saw it (bits 40–55, see `Store::start_run`), proven
/// lost (bit 56), perhaps open (bit 57: only then is the depth map asked).
#[derive(Debug, Clone, Copy)]
struct Entry(u64);

const OFFSET_BITS: u32 = 40;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
const RUN_MASK: u64 = 0xFFFF << OFFSET_BITS;
const LOST: u64 = 1 << 56;
/// a hint that the entry may be in the depth map of open positions (the map decides)
const ON_PATH: u64 = 1 << 57;

impl Entry {
    fn offset(self) -> usize {
        (self.0 & OFFSET_MASK) as usize
    }
    fn run(self) -> u16 {
        ((self.0 & RUN_MASK) >> OFFSET_BITS) as u16
    }
}

const EMPTY: u32 = u32::MAX;
const SLOT: usize = 5; // an entry number (4 bytes) and 8 bits of its hash

/// The stored positions: one arena of keys, their entries, a table of entry numbers.
pub struct Store {
    arena: Vec<u8>,
    entries: Vec<Entry>,
    /// `slots` slots of `SLOT` bytes each
    table: Vec<u8>,
    slots: usize,
    run: u16,
    depths: FxHashMap<u32, i32>,
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

/// A vector's next capacity: a quarter more (so that at most a fifth of what is allocated
/// is slack), at least `need`.
fn grown(capacity: usize, need: usize) -> usize {
    (capacity + capacity / 4).max(need).max(64)
}

impl Store {
    pub fn new() -> Store {
        let slots = 256;
        Store {
            arena: Vec::new(),
            entries: Vec::new(),
            table: Self::empty_table(slots),
            slots,
            run: 0,
            depths: FxHashMap::default(),
        }
    }

    fn empty_table(slots: usize) -> Vec<u8> {
        let mut table = vec![0u8; slots * SLOT];
        for slot in table.chunks_exact_mut(SLOT) {
            slot[..4].copy_from_slice(&EMPTY.to_le_bytes());
        }
        table
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes the store holds (arena, entries, table, the open positions' depths), as
    /// allocated.
    pub fn bytes(&self) -> usize {
        self.arena.capacity()
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.table.capacity()
            + self.depths.capacity() * (std::mem::size_of::<(u32, i32)>() + 1)
    }

    /// What the next insertion may allocate at most, on top of `bytes()`.
    pub fn growth(&self, key_len: usize) -> usize {
        let mut more = 0;
        if self.arena.len() + key_len > self.arena.capacity() {
            more += grown(self.arena.capacity(), self.arena.len() + key_len) - self.arena.capacity();
        }
        if self.entries.len() == self.entries.capacity() {
            more += (grown(self.entries.capacity(), self.entries.len() + 1) - self.entries.capacity())
                * std::mem::size_of::<Entry>();
        }
        if self.must_grow_table() {
            more += self.table.len() / 2; // the old table is freed before the new is made
        }
        more
    }

    /// A new restart begins: nothing stored counts as seen in it any more.
    pub fn start_run(&mut self) {
        if self.run == u16::MAX {
            // the 16-bit counter wraps: forget every entry's restart (once per 65,535)
            for entry in &mut self.entries {
                entry.0 &= !RUN_MASK;
            }
            self.run = 0;
        }
        self.run += 1;
        self.depths.clear();
    }

    /// Whether entry `id` was seen in the current restart.
    #[inline]
    pub fn seen_in_this_run(&self, id: u32) -> bool {
        self.entries[id as usize].run() == self.run
    }

    /// Mark entry `id` seen in the current restart, open at `depth` (or -1: not open).
    pub fn mark_seen(&mut self, id: u32, depth: i32) {
        let entry = &mut self.entries[id as usize];
        entry.0 = (entry.0 & !RUN_MASK) | (self.run as u64) << OFFSET_BITS;
        self.set_depth(id, depth);
    }

    #[inline]
    pub fn is_lost(&self, id: u32) -> bool {
        self.entries[id as usize].0 & LOST != 0
    }

    pub fn set_lost(&mut self, id: u32) {
        self.entries[id as usize].0 |= LOST;
    }

    /// The depth (number) of entry `id` among the open positions, or -1 when it is not open.
    #[inline]
    pub fn depth(&self, id: u32) -> i32 {
        if self.entries[id as usize].0 & ON_PATH == 0 {
            return -1;
        }
        self.depths.get(&id).copied().unwrap_or(-1)
    }

    pub fn set_depth(&mut self, id: u32, depth: i32) {
        let entry = &mut self.entries[id as usize];
        if depth < 0 {
            if entry.0 & ON_PATH != 0 {
                entry.0 &= !ON_PATH;
                self.depths.remove(&id);
            }
        } else {
            entry.0 |= ON_PATH;
            self.depths.insert(id, depth);
        }
    }

    fn key_of(&self, id: usize) -> &[u8] {
        let start = self.entries[id].offset();
        let end = self.entries.get(id + 1).map_or(self.arena.len(), |e| e.offset());
        &self.arena[start..end]
    }

    #[inline]
    fn home(&self, hash: u64) -> usize {
        (((hash >> 32) * self.slots as u64) >> 32) as usize
    }

    #[inline]
    fn slot(&self, at: usize) -> (u32, u8) {
        let s = &self.table[at * SLOT..at * SLOT + SLOT];
        (u32::from_le_bytes([s[0], s[1], s[2], s[3]]), s[4])
    }

    /// The entry number of `key`, if stored.
    pub fn find(&self, key: &[u8], hash: u64) -> Option<u32> {
        let tag = hash as u8;
        let mut at = self.home(hash);
        loop {
            let (id, slot_tag) = self.slot(at);
            if id == EMPTY {
                return None;
            }
            if slot_tag == tag && self.key_of(id as usize) == key {
                return Some(id);
            }
            at += 1;
            if at == self.slots {
                at = 0;
            }
        }
    }

    fn must_grow_table(&self) -> bool {
        (self.entries.len() + 1) * 4 > self.slots * 3 // at most three quarters full
    }

    /// Store `key` (not stored yet), seen in the current restart at `depth` (or -1); its
    /// entry number.
    pub fn insert(&mut self, key: &[u8], hash: u64, depth: i32) -> u32 {
        if self.must_grow_table() {
            self.grow_table();
        }
        if self.arena.len() + key.len() > self.arena.capacity() {
            let want = grown(self.arena.capacity(), self.arena.len() + key.len());
            self.arena.reserve_exact(want - self.arena.len());
        }
        if self.entries.len() == self.entries.capacity() {
            let want = grown(self.entries.capacity(), self.entries.len() + 1);
            self.entries.reserve_exact(want - self.entries.len());
        }
        let id = self.entries.len() as u32;
        let offset = self.arena.len() as u64;
        assert!(offset <= OFFSET_MASK, "the key arena passed 2^40 bytes");
        self.entries.push(Entry(offset | (self.run as u64) << OFFSET_BITS));
        self.arena.extend_from_slice(key);
        self.place(id, hash);
        self.set_depth(id, depth);
        id
    }

    fn place(&mut self, id: u32, hash: u64) {
        let mut at = self.home(hash);
        while self.slot(at).0 != EMPTY {
            at += 1;
            if at == self.slots {
                at = 0;
            }
        }
        let s = &mut self.table[at * SLOT..at * SLOT + SLOT];
        s[..4].copy_from_slice(&id.to_le_bytes());
        s[4] = hash as u8;
    }

    fn grow_table(&mut self) {
        self.slots = self.slots / 2 * 3;
        self.table = Vec::new(); // free the old table before the new one is made
        self.table = Self::empty_table(self.slots);
        for id in 0..self.entries.len() {
            let hash = hash_key(self.key_of(id));
            self.place(id as u32, hash);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_8_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 8);
    }

    #[test]
    fn the_store_finds_what_it_holds_and_nothing_else() {
        let mut store = Store::new();
        store.start_run();
        let key_of = |i: u32| {
            let mut key = i.to_le_bytes().to_vec();
            key.resize(4 + i as usize % 5, 0xAB); // keys of several lengths
            key
        };
        for i in 0..50_000u32 {
            let key = key_of(i);
            let h = hash_key(&key);
            assert!(store.find(&key, h).is_none());
            assert_eq!(store.insert(&key, h, -1), i);
        }
        for i in 0..50_000u32 {
            let key = key_of(i);
            assert_eq!(store.find(&key, hash_key(&key)), Some(i));
            assert_eq!(store.key_of(i as usize), &key[..]);
            assert!(store.seen_in_this_run(i) && !store.is_lost(i));
        }
        assert!(store.find(b"nope", hash_key(b"nope")).is_none());
        store.set_lost(7);
        store.start_run();
        assert!(store.is_lost(7) && !store.is_lost(8) && !store.seen_in_this_run(7));
    }

    #[test]
    fn the_restart_counter_wraps_without_false_sightings() {
        let mut store = Store::new();
        store.start_run();
        let h = hash_key(b"a");
        let id = store.insert(b"a", h, -1);
        for _ in 0..u16::MAX as usize + 3 {
            store.start_run();
            assert!(!store.seen_in_this_run(id));
        }
        store.mark_seen(id, 3);
        assert!(store.seen_in_this_run(id));
        assert_eq!(store.depth(id), 3);
        store.set_depth(id, -1);
        assert_eq!(store.depth(id), -1);
    }
}
