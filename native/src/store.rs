//! The table of stored positions (the transposition table): every key the search has
//! stored, whether it is proven lost and the restart that last saw it.
//!
//! A stored position is a record in a byte arena: a 4-byte word (proven lost, open, and
//! the restart that last saw it or, while it is open, its number on the search's stack of
//! open positions), the key's length (one byte, two from 128 on) and the key. A record's
//! offset in the arena is the position's id. The arena is a list of chunks of at most
//! 4 MiB, the last one grown by a quarter (so that only it has room to spare, and ids never
//! move); a record never straddles two chunks. An open-addressing table of 5-byte slots
//! finds them: a record's id plus one in the low `id_bits` bits (as few as the arena's ids
//! need, 24 at first, more as it grows: the table is then filled again) and the rest, 16
//! bits at first and fewer as the arena grows, from its key's hash; 0 is an empty slot.
//! The table is at most three quarters full and doubles, from 2^20 slots grows by a
//! quarter, or with a memory cap (`set_cap`) fills up to 95% where growing it would pass
//! the cap.

/// A stored position: its record's offset in the arena (chunk number, then the offset in
/// the chunk, `CHUNK_BITS` bits).
pub type Id = u64;

/// the record's word: proven lost
const LOST: u32 = 1 << 31;
/// the record's word: open (on the stack of open positions); the low bits are then its
/// number there, not the restart that saw it (the current one, since open positions of
/// earlier restarts are closed when a restart begins)
const OPEN: u32 = 1 << 30;
/// The guided searches a solve runs side by side (`guided.rs`), each with its mark.
pub const FLARES: usize = 2;
/// the record's word: the guided search `f` has reached it, `FIRST_GUIDED << f`
/// (`guided.rs`; they share the store of their solve's restarts)
const FIRST_GUIDED: u32 = 1 << 28;
/// the record's word: the marks of every guided search
const GUIDED: u32 = OPEN - FIRST_GUIDED;
const _: () = assert!(FIRST_GUIDED << FLARES == OPEN, "a mark for each guided search");
/// the low bits of the word: the restart, or the open position's number
const LOW: u32 = FIRST_GUIDED - 1;
/// the bits of the word a restart's marks keep: proven lost, reached by a guided search
const KEPT: u32 = LOST | GUIDED;
const HEADER: usize = 4;

const CHUNK_BITS: u32 = 22;
const CHUNK: usize = 1 << CHUNK_BITS;
const FIRST_CHUNK: usize = 1 << 12;

/// a slot: 40 bits, the record's id plus one (0: empty) and bits of its key's hash
const SLOT: usize = 5;
const SLOT_MASK: u64 = (1 << (8 * SLOT)) - 1;
/// the bits of a slot that hold an id at first (ids below 16 MiB)
const FIRST_ID_BITS: u32 = 24;
/// a table of fewer slots doubles, a bigger one grows by a quarter (`grown_slots`): 20 MiB
/// of slots, about three million positions
const SMALL: usize = 1 << 22;

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
    /// `slots` slots of `SLOT` bytes each, and 3 bytes more (a slot is read as 8 bytes)
    table: Vec<u8>,
    slots: usize,
    /// the low bits of a slot that hold the id plus one; the others hold hash bits
    id_bits: u32,
    stored: usize,
    run: u32,
    /// the memory cap, if any: the table then fills up to 95% rather than pass it
    cap: Option<usize>,
    /// the chunks' capacities, summed (`bytes` is asked before every position stored)
    chunk_bytes: usize,
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
        Store {
            chunks: Vec::new(),
            table: Self::empty_table(slots),
            slots,
            id_bits: FIRST_ID_BITS,
            stored: 0,
            run: 0,
            cap: None,
            chunk_bytes: 0,
        }
    }

    fn empty_table(slots: usize) -> Vec<u8> {
        vec![0u8; slots * SLOT + 8 - SLOT]
    }

    /// The memory cap of the search (`Limits::max_memory`): where growing the table would
    /// pass it, the table fills up to 95% first.
    pub fn set_cap(&mut self, cap: Option<usize>) {
        self.cap = cap;
    }

    pub fn len(&self) -> usize {
        self.stored
    }

    pub fn is_empty(&self) -> bool {
        self.stored == 0
    }

    /// The bytes the store holds (chunks, their list and the table), as allocated.
    pub fn bytes(&self) -> usize {
        debug_assert_eq!(self.chunk_bytes, self.chunks.iter().map(Vec::capacity).sum::<usize>());
        self.chunk_bytes
            + self.chunks.capacity() * std::mem::size_of::<Vec<u8>>()
            + self.table.capacity()
    }

    /// The bytes of the records stored (words, lengths and keys), without room to spare.
    pub fn record_bytes(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
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
        if self.must_grow_table(key_len) {
            more += self.grown_slots().saturating_sub(self.slots) * SLOT; // the old table is freed before the new is made
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
            // the counter wraps: forget every record's restart (once per 2^29 - 1)
            self.keep_bits(KEPT);
            self.run = 0;
        }
        self.run += 1;
    }

    /// Keep only the bits `mask` of every record's word (one pass over the records).
    fn keep_bits(&mut self, mask: u32) {
        for chunk in &mut self.chunks {
            let mut at = 0;
            while at < chunk.len() {
                let word = u32::from_le_bytes(chunk[at..at + HEADER].try_into().expect("a word"));
                chunk[at..at + HEADER].copy_from_slice(&(word & mask).to_le_bytes());
                at = Self::record(chunk, at).1;
            }
        }
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

    /// Whether the guided search `flare` (below `FLARES`) has reached `id`.
    #[inline]
    pub fn is_guided(&self, id: Id, flare: usize) -> bool {
        self.word_at(id) & FIRST_GUIDED << flare != 0
    }

    pub fn set_guided(&mut self, id: Id, flare: usize) {
        debug_assert!(flare < FLARES);
        let word = self.word_at(id);
        self.set_word(id, word | FIRST_GUIDED << flare);
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
        let kept = self.word_at(id) & KEPT;
        let low = if depth < 0 {
            self.run
        } else {
            assert!((depth as u32) <= LOW, "more than 2^28 open positions");
            OPEN | depth as u32
        };
        self.set_word(id, kept | low);
    }

    #[inline]
    fn home(&self, hash: u64) -> usize {
        (((hash >> 32) * self.slots as u64) >> 32) as usize
    }

    /// The slot at `at`: 0 (empty), or a record's id plus one and bits of its hash.
    #[inline]
    fn slot(&self, at: usize) -> u64 {
        let bytes = &self.table[at * SLOT..at * SLOT + 8];
        u64::from_le_bytes(bytes.try_into().expect("8 bytes")) & SLOT_MASK
    }

    /// The hash bits a slot keeps (those above the id's).
    #[inline]
    fn tag(&self, hash: u64) -> u64 {
        (hash << self.id_bits) & SLOT_MASK
    }

    /// The id of `key`, if stored.
    pub fn find(&self, key: &[u8], hash: u64) -> Option<Id> {
        let tag = self.tag(hash);
        let ids = (1u64 << self.id_bits) - 1;
        let mut at = self.home(hash);
        loop {
            let slot = self.slot(at);
            if slot == 0 {
                return None;
            }
            if slot & !ids == tag && crate::parts::same(self.key_of((slot & ids) - 1), key) {
                return Some((slot & ids) - 1);
            }
            at += 1;
            if at == self.slots {
                at = 0;
            }
        }
    }

    /// The slots of the table once grown: twice as many while it is small (below `SMALL`
    /// slots: each position placed about twice over the growth, not three times, where the
    /// bytes matter little), then a quarter more, so that a big table is three fifths to
    /// three quarters full (6.7–8.3 bytes a position; growing by half, one half to three
    /// quarters, 6.7–10), for twice the refilling (each position placed about four times
    /// over a big search, not two).
    fn grown_slots(&self) -> usize {
        if self.slots < SMALL {
            self.slots * 2
        } else {
            self.slots + self.slots / 4
        }
    }

    /// Whether the next insertion (of a key of `key_len` bytes) grows the table: past
    /// three quarters full, unless a memory cap would be passed and it is below 95% full.
    fn must_grow_table(&self, key_len: usize) -> bool {
        if (self.stored + 1) * 4 <= self.slots * 3 {
            return false; // at most three quarters full
        }
        match self.cap {
            Some(cap) if (self.stored + 1) * 20 <= self.slots * 19 => {
                let record = match self.room(record_len(key_len)) {
                    None => 0,
                    Some((true, capacity)) => capacity,
                    Some((false, capacity)) => capacity - self.chunks.last().map_or(0, Vec::capacity),
                };
                self.bytes() + record + self.grown_slots().saturating_sub(self.slots) * SLOT <= cap
            }
            _ => true,
        }
    }

    /// Store `key` (not stored yet), seen in the current restart at `depth` (or -1); its
    /// id.
    pub fn insert(&mut self, key: &[u8], hash: u64, depth: i32) -> Id {
        if self.must_grow_table(key.len()) {
            self.fill_table(self.grown_slots(), self.id_bits);
        }
        let need = record_len(key.len());
        assert!(key.len() < 1 << 14, "a key of more than 2^14 bytes");
        match self.room(need) {
            None => {}
            Some((true, capacity)) => {
                assert!(self.chunks.len() < 1 << (40 - CHUNK_BITS), "the arena passed 2^40 bytes");
                self.chunks.push(Vec::with_capacity(capacity));
                self.chunk_bytes += self.chunks.last().map_or(0, Vec::capacity);
            }
            Some((false, capacity)) => {
                let last = self.chunks.last_mut().expect("a chunk");
                let before = last.capacity();
                last.reserve_exact(capacity - last.len());
                self.chunk_bytes += last.capacity() - before;
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
        if id + 1 >= 1 << self.id_bits {
            // the ids outgrow their bits: two more (hash bits fewer), the same slots,
            // filled again from the arena (this record too)
            let id_bits = (self.id_bits + 2).min(8 * SLOT as u32);
            self.fill_table(self.slots, id_bits);
        } else {
            self.place(id, hash);
        }
        self.set_depth(id, depth);
        id
    }

    fn place(&mut self, id: Id, hash: u64) {
        let mut at = self.home(hash);
        while self.slot(at) != 0 {
            at += 1;
            if at == self.slots {
                at = 0;
            }
        }
        let slot = (id + 1) | self.tag(hash);
        self.table[at * SLOT..at * SLOT + SLOT].copy_from_slice(&slot.to_le_bytes()[..SLOT]);
    }

    /// A new table of `slots` slots, ids in `id_bits` bits, filled from the arena.
    ///
    /// The records are read in order and placed `AHEAD` records later, their home slots
    /// fetched meanwhile: each placement is a cache miss in a big table, and this way
    /// several are under way at once (the table is the same as placing them one by one).
    fn fill_table(&mut self, slots: usize, id_bits: u32) {
        const AHEAD: usize = 16;
        self.slots = slots;
        self.id_bits = id_bits;
        self.table = Vec::new(); // free the old table before the new one is made
        self.table = Self::empty_table(self.slots);
        let mut waiting = [(0 as Id, 0u64); AHEAD];
        let mut read = 0usize;
        for number in 0..self.chunks.len() {
            let mut at = 0;
            while at < self.chunks[number].len() {
                let (key, next) = Self::record(&self.chunks[number], at);
                let hash = hash_key(key);
                self.prefetch(self.home(hash));
                let turn = &mut waiting[read % AHEAD];
                let (id, earlier) = std::mem::replace(turn, ((number as u64) << CHUNK_BITS | at as u64, hash));
                if read >= AHEAD {
                    self.place(id, earlier);
                }
                read += 1;
                at = next;
            }
        }
        for left in read.saturating_sub(AHEAD)..read {
            let (id, hash) = waiting[left % AHEAD];
            self.place(id, hash);
        }
    }

    /// Ask the processor to fetch slot `at`'s cache line (a hint: it changes nothing).
    #[inline]
    fn prefetch(&self, at: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let line = self.table[at * SLOT..].as_ptr();
            // SAFETY: a prefetch only hints the cache; `line` points into the table
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line as *const i8);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
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
            key.resize(4 + if i.is_multiple_of(97) { 200 } else { i as usize % 5 }, 0xAB);
            key
        };
        let mut ids = Vec::new();
        // enough for several chunks, and for the ids to outgrow their first 24 bits
        for i in 0..1_600_000u32 {
            let key = key_of(i);
            let h = hash_key(&key);
            if i % 7 == 0 {
                assert!(store.find(&key, h).is_none());
            }
            ids.push(store.insert(&key, h, -1));
        }
        assert!(store.chunks.len() > 2);
        assert!(store.id_bits > FIRST_ID_BITS, "{}", store.id_bits);
        assert_eq!(store.len(), 1_600_000);
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
        let records: usize = (0..1_600_000u32).map(|i| record_len(key_of(i).len())).sum();
        assert!(store.bytes() < records + store.table.len() + CHUNK, "{}", store.bytes());
        assert!(store.stored * 4 <= store.slots * 3);
    }

    #[test]
    fn a_table_filled_again_is_the_table_placed_one_by_one() {
        let mut store = Store::new();
        store.start_run();
        for i in 0..50_000u32 {
            let key = i.to_le_bytes()[..1 + i as usize % 4].to_vec();
            if store.find(&key, hash_key(&key)).is_none() {
                store.insert(&key, hash_key(&key), -1);
            }
        }
        for (slots, id_bits) in [(store.slots, store.id_bits), (store.slots * 2, store.id_bits + 2)] {
            store.fill_table(slots, id_bits);
            let filled = store.table.clone();
            store.table = Store::empty_table(slots);
            for number in 0..store.chunks.len() {
                let mut at = 0;
                while at < store.chunks[number].len() {
                    let (key, next) = Store::record(&store.chunks[number], at);
                    let hash = hash_key(key);
                    store.place((number as u64) << CHUNK_BITS | at as u64, hash);
                    at = next;
                }
            }
            assert!(filled == store.table, "the refill placed records elsewhere");
        }
    }

    #[test]
    fn a_capped_table_fills_to_95_percent_before_passing_the_cap() {
        let key_of = |i: u32| i.to_le_bytes().to_vec();
        let fill = |cap: Option<usize>, n: u32| {
            let mut store = Store::new();
            store.set_cap(cap);
            store.start_run();
            let mut grown_past_cap = false;
            for i in 0..n {
                let key = key_of(i);
                if cap.is_some_and(|cap| store.bytes() + store.growth(key.len()) > cap) {
                    grown_past_cap = true;
                    break; // the search ends here as `unknown`
                }
                store.insert(&key, hash_key(&key), -1);
                assert!(cap.is_none_or(|cap| store.bytes() <= cap));
            }
            (store, grown_past_cap)
        };
        let (free, _) = fill(None, 200_000);
        // a cap just under what the free store grew to: the table fills past 3/4 instead
        let cap = free.bytes() - 1;
        let (capped, stopped) = fill(Some(cap), 200_000);
        assert!(capped.stored * 4 > capped.slots * 3 && capped.stored * 20 <= capped.slots * 19 + 20);
        assert!(capped.stored >= 150_000 || stopped);
        for i in 0..capped.stored as u32 {
            let key = key_of(i);
            assert!(capped.find(&key, hash_key(&key)).is_some());
        }
        // a small cap: stopped before it, nothing past it
        let (small, stopped) = fill(Some(100_000), 200_000);
        assert!(stopped && small.bytes() <= 100_000 && small.stored > 1_000);
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
        store.set_guided(other, 1);
        store.run = LOW - 2;
        for _ in 0..5 {
            store.start_run();
            assert!(!store.seen_in_this_run(id));
            assert!(store.is_lost(other) && store.is_guided(other, 1) && !store.is_guided(other, 0));
            assert!(!store.is_guided(id, 0) && !store.is_guided(id, 1));
        }
        assert!(store.run < 5);
        store.mark_seen(id, 3);
        assert!(store.seen_in_this_run(id));
        assert_eq!(store.depth(id), 3);
        store.set_depth(id, -1);
        assert_eq!(store.depth(id), -1);
        assert!(store.seen_in_this_run(id) && !store.seen_in_this_run(other));
    }

    #[test]
    fn the_guided_mark_outlives_a_restart_opening_and_closing_a_position() {
        let mut store = Store::new();
        store.start_run();
        let id = store.insert(b"a", hash_key(b"a"), -1);
        store.set_guided(id, 0);
        store.start_run();
        store.mark_seen(id, LOW as i32); // the deepest number an open position may have
        assert_eq!(store.depth(id), LOW as i32);
        assert!(store.is_guided(id, 0) && !store.is_guided(id, 1) && !store.is_lost(id));
        store.set_guided(id, 1);
        assert_eq!(store.depth(id), LOW as i32);
        store.set_depth(id, -1);
        store.set_lost(id);
        assert!(store.is_guided(id, 0) && store.is_guided(id, 1) && store.is_lost(id) && store.seen_in_this_run(id));
    }
}
