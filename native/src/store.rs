//! The table of stored positions (the transposition table): every key the search has
//! stored, whether it is proven lost and the restart that last saw it.
//!
//! A stored position is a record in a byte arena: a 4-byte word (proven lost, open, and
//! the restart that last saw it or, while it is open, its number on the search's stack of
//! open positions), the key's length (one byte, two from 128 on) and the key. A record's
//! offset in the arena is the position's id. The arena is a list of chunks of at most
//! 4 MiB, the last one grown by a quarter (so that only it has room to spare, and ids never
//! move); a record never straddles two chunks. An open-addressing table of 6-byte slots
//! (a record's offset and 8 bits of its key's hash) finds them.

/// A stored position: its record's offset in the arena (chunk number, then the offset in
/// the chunk, `CHUNK_BITS` bits).
pub type Id = u64;

/// the record's word: proven lost
const LOST: u32 = 1 << 31;
/// the record's word: open (on the stack of open positions); the low bits are then its
/// number there, not the restart that saw it (the current one, since open positions of
/// earlier restarts are closed when a restart begins)
const OPEN: u32 = 1 << 30;
/// the low bits of the word: the restart, or the open position's number
const LOW: u32 = OPEN - 1;
const HEADER: usize = 4;

const CHUNK_BITS: u32 = 22;
const CHUNK: usize = 1 << CHUNK_BITS;
const FIRST_CHUNK: usize = 1 << 12;

const SLOT: usize = 6; // a record's offset (5 bytes) and 8 bits of its hash
const OFFSET_BYTES: usize = 5;
const EMPTY: u64 = (1 << 40) - 1;

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

/// The stored positions: the records in chunks, a table of their offsets.
pub struct Store {
    chunks: Vec<Vec<u8>>,
    /// `slots` slots of `SLOT` bytes each
    table: Vec<u8>,
    slots: usize,
    stored: usize,
    run: u32,
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

/// The bytes of a record of a key of `len` bytes.
fn record_len(len: usize) -> usize {
    HEADER + 1 + (len >= 128) as usize + len
}

/// The last chunk's next capacity: a quarter more, at least `need`, at most a chunk (or
/// `need`, for a record longer than that).
fn grown(capacity: usize, need: usize) -> usize {
    (capacity + capacity / 4).clamp(FIRST_CHUNK, CHUNK).max(need)
}

impl Store {
    pub fn new() -> Store {
        let slots = 256;
        Store { chunks: Vec::new(), table: Self::empty_table(slots), slots, stored: 0, run: 0 }
    }

    fn empty_table(slots: usize) -> Vec<u8> {
        let mut table = vec![0u8; slots * SLOT];
        for slot in table.chunks_exact_mut(SLOT) {
            slot[..OFFSET_BYTES].copy_from_slice(&EMPTY.to_le_bytes()[..OFFSET_BYTES]);
        }
        table
    }

    pub fn len(&self) -> usize {
        self.stored
    }

    pub fn is_empty(&self) -> bool {
        self.stored == 0
    }

    /// The bytes the store holds (chunks, their list and the table), as allocated.
    pub fn bytes(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum::<usize>()
            + self.chunks.capacity() * std::mem::size_of::<Vec<u8>>()
            + self.table.capacity()
    }

    /// Where a record of `need` bytes goes: grow the last chunk (its new capacity), or a
    /// new chunk (its capacity), or neither (`None`: it fits).
    fn room(&self, need: usize) -> Option<(bool, usize)> {
        match self.chunks.last() {
            Some(last) if last.len() + need <= last.capacity() => None,
            Some(last) if last.len() + need <= CHUNK => Some((false, grown(last.capacity(), last.len() + need))),
            _ => Some((true, grown(0, need))),
        }
    }

    /// What the next insertion may allocate at most, on top of `bytes()`.
    pub fn growth(&self, key_len: usize) -> usize {
        let mut more = match self.room(record_len(key_len)) {
            None => 0,
            Some((true, capacity)) => capacity,
            Some((false, capacity)) => capacity - self.chunks.last().map_or(0, Vec::capacity),
        };
        if self.must_grow_table() {
            more += self.table.len() / 2; // the old table is freed before the new is made
        }
        more
    }

    #[inline]
    fn word_at(&self, id: Id) -> u32 {
        let chunk = &self.chunks[(id >> CHUNK_BITS) as usize];
        let at = (id as usize) & (CHUNK - 1);
        u32::from_le_bytes(chunk[at..at + HEADER].try_into().expect("a record's word"))
    }

    #[inline]
    fn set_word(&mut self, id: Id, word: u32) {
        let chunk = &mut self.chunks[(id >> CHUNK_BITS) as usize];
        let at = (id as usize) & (CHUNK - 1);
        chunk[at..at + HEADER].copy_from_slice(&word.to_le_bytes());
    }

    /// The key of the record at `at` of `chunk`, and where the next record starts.
    #[inline]
    fn record(chunk: &[u8], at: usize) -> (&[u8], usize) {
        let first = chunk[at + HEADER] as usize;
        let (len, start) = if first < 128 {
            (first, at + HEADER + 1)
        } else {
            (first & 127 | (chunk[at + HEADER + 1] as usize) << 7, at + HEADER + 2)
        };
        (&chunk[start..start + len], start + len)
    }

    fn key_of(&self, id: Id) -> &[u8] {
        Self::record(&self.chunks[(id >> CHUNK_BITS) as usize], (id as usize) & (CHUNK - 1)).0
    }

    /// A new restart begins: nothing stored counts as seen in it any more (and nothing is
    /// open: the search closes the open positions of a restart when it ends).
    pub fn start_run(&mut self) {
        if self.run == LOW {
            // the counter wraps: forget every record's restart (once per 2^30 - 1)
            for chunk in &mut self.chunks {
                let mut at = 0;
                while at < chunk.len() {
                    let word = u32::from_le_bytes(chunk[at..at + HEADER].try_into().expect("a word"));
                    chunk[at..at + HEADER].copy_from_slice(&(word & LOST).to_le_bytes());
                    at = Self::record(chunk, at).1;
                }
            }
            self.run = 0;
        }
        self.run += 1;
    }

    /// Whether `id` was seen in the current restart.
    #[inline]
    pub fn seen_in_this_run(&self, id: Id) -> bool {
        let word = self.word_at(id);
        word & OPEN != 0 || word & LOW == self.run
    }

    /// Mark `id` seen in the current restart, open at `depth` (or -1: not open).
    pub fn mark_seen(&mut self, id: Id, depth: i32) {
        self.set_depth(id, depth);
    }

    #[inline]
    pub fn is_lost(&self, id: Id) -> bool {
        self.word_at(id) & LOST != 0
    }

    pub fn set_lost(&mut self, id: Id) {
        let word = self.word_at(id);
        self.set_word(id, word | LOST);
    }

    /// The depth (number) of `id` among the open positions, or -1 when it is not open.
    #[inline]
    pub fn depth(&self, id: Id) -> i32 {
        let word = self.word_at(id);
        if word & OPEN != 0 {
            (word & LOW) as i32
        } else {
            -1
        }
    }

    /// Open `id` at `depth`, or close it (-1): it stays seen in the current restart.
    pub fn set_depth(&mut self, id: Id, depth: i32) {
        let lost = self.word_at(id) & LOST;
        let low = if depth < 0 {
            self.run
        } else {
            assert!((depth as u32) < OPEN, "more than 2^30 open positions");
            OPEN | depth as u32
        };
        self.set_word(id, lost | low);
    }

    #[inline]
    fn home(&self, hash: u64) -> usize {
        (((hash >> 32) * self.slots as u64) >> 32) as usize
    }

    #[inline]
    fn slot(&self, at: usize) -> (u64, u8) {
        let s = &self.table[at * SLOT..at * SLOT + SLOT];
        let mut offset = [0u8; 8];
        offset[..OFFSET_BYTES].copy_from_slice(&s[..OFFSET_BYTES]);
        (u64::from_le_bytes(offset), s[OFFSET_BYTES])
    }

    /// The id of `key`, if stored.
    pub fn find(&self, key: &[u8], hash: u64) -> Option<Id> {
        let tag = hash as u8;
        let mut at = self.home(hash);
        loop {
            let (id, slot_tag) = self.slot(at);
            if id == EMPTY {
                return None;
            }
            if slot_tag == tag && self.key_of(id) == key {
                return Some(id);
            }
            at += 1;
            if at == self.slots {
                at = 0;
            }
        }
    }

    fn must_grow_table(&self) -> bool {
        (self.stored + 1) * 4 > self.slots * 3 // at most three quarters full
    }

    /// Store `key` (not stored yet), seen in the current restart at `depth` (or -1); its
    /// id.
    pub fn insert(&mut self, key: &[u8], hash: u64, depth: i32) -> Id {
        if self.must_grow_table() {
            self.grow_table();
        }
        let need = record_len(key.len());
        assert!(key.len() < 1 << 14, "a key of more than 2^14 bytes");
        match self.room(need) {
            None => {}
            Some((true, capacity)) => {
                assert!(self.chunks.len() < 1 << (40 - CHUNK_BITS), "the arena passed 2^40 bytes");
                self.chunks.push(Vec::with_capacity(capacity));
            }
            Some((false, capacity)) => {
                let last = self.chunks.last_mut().expect("a chunk");
                last.reserve_exact(capacity - last.len());
            }
        }
        let number = self.chunks.len() - 1;
        let chunk = &mut self.chunks[number];
        let id = (number as u64) << CHUNK_BITS | chunk.len() as u64;
        chunk.extend_from_slice(&0u32.to_le_bytes());
        if key.len() < 128 {
            chunk.push(key.len() as u8);
        } else {
            chunk.extend_from_slice(&[key.len() as u8 | 128, (key.len() >> 7) as u8]);
        }
        chunk.extend_from_slice(key);
        self.stored += 1;
        self.place(id, hash);
        self.set_depth(id, depth);
        id
    }

    fn place(&mut self, id: Id, hash: u64) {
        let mut at = self.home(hash);
        while self.slot(at).0 != EMPTY {
            at += 1;
            if at == self.slots {
                at = 0;
            }
        }
        let s = &mut self.table[at * SLOT..at * SLOT + SLOT];
        s[..OFFSET_BYTES].copy_from_slice(&id.to_le_bytes()[..OFFSET_BYTES]);
        s[OFFSET_BYTES] = hash as u8;
    }

    fn grow_table(&mut self) {
        self.slots = self.slots / 2 * 3;
        self.table = Vec::new(); // free the old table before the new one is made
        self.table = Self::empty_table(self.slots);
        for number in 0..self.chunks.len() {
            let mut at = 0;
            while at < self.chunks[number].len() {
                let (key, next) = Self::record(&self.chunks[number], at);
                let hash = hash_key(key);
                self.place((number as u64) << CHUNK_BITS | at as u64, hash);
                at = next;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_finds_what_it_holds_and_nothing_else() {
        let mut store = Store::new();
        store.start_run();
        let key_of = |i: u32| {
            let mut key = i.to_le_bytes().to_vec();
            // keys of several lengths, some past 128 bytes (a two-byte length)
            key.resize(4 + if i % 97 == 0 { 200 } else { i as usize % 5 }, 0xAB);
            key
        };
        let mut ids = Vec::new();
        // enough for several chunks
        for i in 0..1_000_000u32 {
            let key = key_of(i);
            let h = hash_key(&key);
            if i % 7 == 0 {
                assert!(store.find(&key, h).is_none());
            }
            ids.push(store.insert(&key, h, -1));
        }
        assert!(store.chunks.len() > 2);
        assert_eq!(store.len(), 1_000_000);
        for (i, &id) in ids.iter().enumerate() {
            let key = key_of(i as u32);
            assert_eq!(store.find(&key, hash_key(&key)), Some(id));
            assert_eq!(store.key_of(id), &key[..]);
            assert!(store.seen_in_this_run(id) && !store.is_lost(id) && store.depth(id) == -1);
        }
        assert!(store.find(b"nope", hash_key(b"nope")).is_none());
        store.set_lost(ids[7]);
        store.start_run();
        assert!(store.is_lost(ids[7]) && !store.is_lost(ids[8]) && !store.seen_in_this_run(ids[7]));
        // records, the table at most three quarters full, and little room to spare
        let records: usize = (0..1_000_000u32).map(|i| record_len(key_of(i).len())).sum();
        assert!(store.bytes() < records + store.table.len() + CHUNK, "{}", store.bytes());
    }

    #[test]
    fn an_open_position_holds_its_number_and_closes_seen() {
        let mut store = Store::new();
        store.start_run();
        let id = store.insert(b"a", hash_key(b"a"), 5);
        assert!(store.seen_in_this_run(id));
        assert_eq!(store.depth(id), 5);
        store.set_lost(id);
        store.set_depth(id, -1);
        assert!(store.seen_in_this_run(id) && store.is_lost(id) && store.depth(id) == -1);
        store.start_run();
        assert!(!store.seen_in_this_run(id) && store.is_lost(id));
        store.mark_seen(id, 3);
        assert!(store.seen_in_this_run(id) && store.is_lost(id) && store.depth(id) == 3);
    }

    #[test]
    fn the_restart_counter_wraps_without_false_sightings() {
        let mut store = Store::new();
        store.start_run();
        let h = hash_key(b"a");
        let id = store.insert(b"a", h, -1);
        let other = store.insert(b"b", hash_key(b"b"), -1);
        store.set_lost(other);
        store.run = LOW - 2;
        for _ in 0..5 {
            store.start_run();
            assert!(!store.seen_in_this_run(id));
            assert!(store.is_lost(other));
        }
        assert!(store.run < 5);
        store.mark_seen(id, 3);
        assert!(store.seen_in_this_run(id));
        assert_eq!(store.depth(id), 3);
        store.set_depth(id, -1);
        assert_eq!(store.depth(id), -1);
        assert!(store.seen_in_this_run(id) && !store.seen_in_this_run(other));
    }
}
