//! Numbered parts: the key code of every solve (`key.rs`'s `write_numbered`).
//!
//! A pile's *part* is what a key shows of it (`key.rs`): its cards through the card table,
//! or its top, or its top and size; the stock's part is its length or, when the stock is
//! keyed by its cards, its cards. A search meets few distinct parts: after 2·10^6
//! positions of Spider deal 1 its ten columns had shown 1,166 distinct cards-in-order
//! among 18 million, FreeCell deal 3's 3,037, Klondike deal 1's 917 (9,213 for Spider
//! after 2·10^7 positions). So a key can write each part as its number in a table of the
//! parts seen before, a few bits, instead of its cards.
//!
//! Each *group* of piles has a table (`PartTable`): a sorted group (its piles symmetric,
//! sorted in every key or once the stock is out) one for all its piles, every other pile
//! one of its own, the stock one. A part gets the next number of its group's table the
//! first time a key shows it and keeps it for the whole solve (the tables live as long as
//! the store), so a part's number is a function of the part, and a key made of numbers is
//! as exact as one made of cards: two positions share a key only when every group shows
//! the same parts (a sorted group: the same parts in some order). The numbers of a sorted
//! group are sorted, which is as canonical as sorting its parts.
//!
//! A number `x` is written in Elias's gamma code of `x + 1` (2⌊log2(x + 1)⌋ + 1 bits: the
//! first parts a table saw, those of the root and near it, cost a bit or three), a sorted
//! group as its first number and then the gaps between neighbours (most of its piles keep
//! their parts from position to position, so the gaps are small: an empty pile twice is a
//! gap of 0, a bit).
//!
//! A group whose piles show all their cards numbers its parts in a trie instead
//! (`PartTrie`): a part's number is the node its cards reach one at a time, and each pile
//! keeps the nodes of its cards' beginnings, so a pile that changed at its top is numbered
//! from the cards it kept and a step a card it gained.

use crate::moves::{Position, Touched};
use crate::key::{VIEW_ALL, VIEW_TOP};
use crate::program::KeyRules;

/// A part's hash: its bytes eight at a time (the last word padded with zeros, the length
/// mixed in), multiplied and folded; parts are short (a few cards) and tables small.
#[inline]
fn hash_part(part: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (part.len() as u64).wrapping_mul(K);
    let mut words = part.chunks_exact(8);
    for word in &mut words {
        h = (h ^ u64::from_le_bytes(word.try_into().expect("8 bytes"))).wrapping_mul(K).rotate_left(29);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(last)).wrapping_mul(K);
    }
    h ^= h >> 32;
    h.wrapping_mul(K) ^ (h >> 29)
}

/// Whether two parts (or two keys) are the same (a loop, not a call of the C library's
/// `memcmp`: parts and keys are a few bytes).
#[inline(always)]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// How many cards `a` and `b` share from their bottoms.
#[inline]
fn shared(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut at = 0;
    while at + 8 <= n {
        let (x, y) = (u64::from_le_bytes(a[at..at + 8].try_into().expect("8 bytes")),
                      u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes")));
        if x != y {
            return at + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + a[at..].iter().zip(&b[at..]).take_while(|(x, y)| x == y).count()
}

/// A table of parts, numbered in the order they were first shown.
#[derive(Default)]
pub struct PartTable {
    /// the parts, one after another
    parts: Vec<u8>,
    /// where part `n` ends in `parts` (it starts where part `n - 1` ends)
    ends: Vec<u32>,
    /// open addressing: 0 (empty) or a part's number plus one in the low 32 bits and the
    /// high 32 bits of its hash above
    slots: Vec<u64>,
    /// the parts of at most one byte (a top card, an empty pile): their numbers plus one
    /// (0: not seen) by the byte plus one (0: the empty part), without hashing
    short: Vec<u32>,
}

const TAG: u64 = 0xFFFF_FFFF_0000_0000;
const FIRST_SLOTS: usize = 16;

impl PartTable {
    pub fn new() -> PartTable {
        PartTable { parts: Vec::new(), ends: Vec::new(), slots: vec![0; FIRST_SLOTS], short: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Part number `n`.
    #[inline]
    pub fn part(&self, n: u32) -> &[u8] {
        let n = n as usize;
        let start = if n == 0 { 0 } else { self.ends[n - 1] as usize };
        &self.parts[start..self.ends[n] as usize]
    }

    /// The number of `part`, given the next number if the table has not seen it.
    #[inline]
    pub fn number(&mut self, part: &[u8]) -> u32 {
        if part.len() <= 1 {
            let at = part.first().map_or(0, |&b| b as usize + 1);
            if self.short.is_empty() {
                self.short = vec![0; 257];
            }
            return match self.short[at] {
                0 => {
                    let n = self.number_long(part);
                    self.short[at] = n + 1;
                    n
                }
                known => known - 1,
            };
        }
        self.number_long(part)
    }

    /// `number`, by the part's hash.
    #[inline(never)]
    fn number_long(&mut self, part: &[u8]) -> u32 {
        let hash = hash_part(part);
        let tag = hash & TAG;
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                break;
            }
            if slot & TAG == tag && same(self.part((slot as u32) - 1), part) {
                return (slot as u32) - 1;
            }
            at = (at + 1) & mask;
        }
        // a number below 2^32 - 1, so that its code (`put_number`) has at most 63 bits
        assert!(self.ends.len() < u32::MAX as usize - 1 && self.parts.len() + part.len() <= u32::MAX as usize,
                "a part table past 2^32 parts or bytes");
        let n = self.ends.len() as u32;
        self.parts.extend_from_slice(part);
        self.ends.push(self.parts.len() as u32);
        self.slots[at] = tag | (n as u64 + 1);
        if self.ends.len() * 4 > self.slots.len() * 3 {
            self.grow();
        }
        n
    }

    /// Twice the slots, filled again from the parts.
    fn grow(&mut self) {
        let slots = self.slots.len() * 2;
        self.slots = Vec::new(); // the old slots freed before the new are made
        self.slots = vec![0; slots];
        let mask = slots - 1;
        for n in 0..self.ends.len() as u32 {
            let hash = hash_part(self.part(n));
            let mut at = hash as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = hash & TAG | (n as u64 + 1);
        }
    }

    /// The bytes the table holds, as allocated.
    pub fn bytes(&self) -> usize {
        self.parts.capacity() + self.ends.capacity() * 4 + self.slots.capacity() * 8 + self.short.capacity() * 4
    }

    /// At most the bytes the table holds once it has taken parts of `more` bytes in all,
    /// `count` of them: each vector grown to twice its room where it would pass it (a
    /// `Vec` doubles), the slots doubled where they would pass three quarters full.
    pub fn bytes_after(&self, count: usize, more: usize) -> usize {
        let grown = |len: usize, capacity: usize, add: usize| {
            if len + add > capacity { (2 * capacity).max(len + add).max(8) } else { capacity }
        };
        let slots = if (self.ends.len() + count) * 4 > self.slots.len() * 3 { 2 * self.slots.len() } else { self.slots.len() };
        grown(self.parts.len(), self.parts.capacity(), more) + 4 * grown(self.ends.len(), self.ends.capacity(), count)
            + 8 * slots + 4 * 257
    }
}

/// The parts of a group whose piles show all their cards, as a trie: a part's number is
/// its node, reached from the empty part (node 0) one card at a time. A pile changes at
/// its top, so its part's number comes from the number of the cards it kept
/// (`Parts::refresh`) and a step for each card it gained, without reading the part whole.
/// The node of a sequence of cards is the same whoever reaches it, so a number is still a
/// function of the part. Every node is numbered, shown as a part or not (the cards a run
/// moved together passed through).
pub struct PartTrie {
    /// open addressing: 0 (empty), or an edge's node plus one above its card's 8 bits
    edges: Vec<u64>,
    /// the node each edge leads to
    heads: Vec<u32>,
    /// log2 of the slots
    bits: u32,
    nodes: u32,
    /// each node's parent and card (the tests read parts back)
    #[cfg(test)]
    parents: Vec<(u32, u8)>,
}

const FIRST_EDGE_BITS: u32 = 4;

impl PartTrie {
    pub fn new() -> PartTrie {
        let slots = 1 << FIRST_EDGE_BITS;
        PartTrie {
            edges: vec![0; slots],
            heads: vec![0; slots],
            bits: FIRST_EDGE_BITS,
            nodes: 1,
            #[cfg(test)]
            parents: vec![(0, 0)],
        }
    }

    /// The cards of node `n`'s part.
    #[cfg(test)]
    pub fn part(&self, mut n: u32) -> Vec<u8> {
        let mut cards = Vec::new();
        while n != 0 {
            let (parent, card) = self.parents[n as usize];
            cards.push(card);
            n = parent;
        }
        cards.reverse();
        cards
    }

    /// Its nodes (the parts it numbers).
    pub fn nodes(&self) -> usize {
        self.nodes as usize
    }

    #[inline(always)]
    fn home(edge: u64, bits: u32) -> usize {
        (edge.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// The node of `node`'s cards and then `card`, numbered now if new.
    #[inline]
    pub fn child(&mut self, node: u32, card: u8) -> u32 {
        let edge = (node as u64 + 1) << 8 | card as u64;
        let mask = self.edges.len() - 1;
        let mut at = PartTrie::home(edge, self.bits);
        loop {
            match self.edges[at] {
                0 => break,
                e if e == edge => return self.heads[at],
                _ => at = (at + 1) & mask,
            }
        }
        // a number below 2^32 - 1, so that its code (`put_number`) has at most 63 bits
        assert!(self.nodes < u32::MAX - 1, "a part trie past 2^32 nodes");
        let n = self.nodes;
        self.nodes += 1;
        self.edges[at] = edge;
        self.heads[at] = n;
        #[cfg(test)]
        self.parents.push((node, card));
        if (self.nodes as usize) * 4 > self.edges.len() * 3 {
            self.grow();
        }
        n
    }

    /// Twice the slots, filled again from the edges.
    fn grow(&mut self) {
        let bits = self.bits + 1;
        let (edges, heads) = (std::mem::take(&mut self.edges), std::mem::take(&mut self.heads));
        self.edges = vec![0; 1 << bits];
        self.heads = vec![0; 1 << bits];
        self.bits = bits;
        let mask = self.edges.len() - 1;
        for (&edge, &head) in edges.iter().zip(&heads) {
            if edge != 0 {
                let mut at = PartTrie::home(edge, bits);
                while self.edges[at] != 0 {
                    at = (at + 1) & mask;
                }
                self.edges[at] = edge;
                self.heads[at] = head;
            }
        }
    }

    /// The bytes the trie holds, as allocated.
    pub fn bytes(&self) -> usize {
        self.edges.capacity() * 8 + self.heads.capacity() * 4
    }

    /// At most the bytes it holds once it has taken `count` nodes more: the slots doubled
    /// where they would pass three quarters full (the old ones freed after the new are
    /// made, so both counted).
    pub fn bytes_after(&self, count: usize) -> usize {
        if (self.nodes as usize + count) * 4 > self.edges.len() * 3 {
            let mut slots = self.edges.len();
            while (self.nodes as usize + count) * 4 > slots * 3 {
                slots *= 2;
            }
            // the last doubling's old slots beside the new
            slots / 2 * 12 + slots * 12
        } else {
            self.bytes()
        }
    }
}

impl Default for PartTrie {
    fn default() -> PartTrie {
        PartTrie::new()
    }
}

/// How a group of piles is ordered in a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// a single pile, or a group never sorted
    Kept,
    Sorted,
    /// sorted once the stock is out (unless the stock is keyed by its cards)
    SortedWhenStockOut,
}

/// A group of piles `start..stop` in a key, with its table and its order.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    pub start: usize,
    pub stop: usize,
    pub order: Order,
}

impl Group {
    /// Whether its piles are sorted in some keys: two piles or more, not kept in order.
    pub fn sorts(&self) -> bool {
        self.order != Order::Kept && self.stop - self.start > 1
    }
}

/// The numbered parts of one solve's keys: the tables, and each pile's part's number as
/// the last key read it (kept between keys: a key remakes the numbers of the piles a move
/// touched).
pub struct Parts {
    pub groups: Vec<Group>,
    /// a table a group, in `groups`' order, and the stock's last
    pub tables: Vec<PartTable>,
    /// a trie a group whose piles show all their cards (`PartTrie`; their table stays
    /// empty), in `groups`' order
    tries: Vec<Option<PartTrie>>,
    /// each pile of such a group: its cards as its number was last made, and the node of
    /// each of their beginnings (`path[i]`: of the first `i` cards)
    seen: Vec<Vec<u8>>,
    path: Vec<Vec<u32>>,
    /// each pile's group
    group_of: Vec<usize>,
    /// each pile's part's number, as the last key read it, and the number it had before
    /// (a pile touched by a take-back often shows its part of before again: then it is
    /// compared with that part, not looked up)
    pub numbers: Vec<u32>,
    before: Vec<u32>,
    /// the stock's part as the last key read it, and its number (None: not read yet)
    stock: Option<(Vec<u8>, u32)>,
    /// where the stock shows its length: the number of each length seen (u32::MAX: none
    /// yet), without hashing the part
    stock_lengths: Vec<u32>,
    pub stock_by_cards: bool,
    /// a part being made
    scratch: Vec<u8>,
    /// each sorted group's numbers in increasing order, in the group's slots (`sorted`),
    /// the pile at each slot (`order`) and each pile's slot (`slot`): kept sorted as the
    /// numbers change (`resort`), so that a key writes a sorted group without sorting it
    pub sorted: Vec<u32>,
    order: Vec<usize>,
    slot: Vec<usize>,
    /// whether each pile's group is sorted in some keys (a group of two piles or more)
    in_sorted_group: Vec<bool>,
    /// whether each pile shows only its top card (outside a trie): its part is at most a
    /// byte, numbered by `PartTable::number`'s table of short parts without being made
    top_only: Vec<bool>,
    /// the words of a `Touched` that name piles (the others are never read)
    words: usize,
    /// for each table, the parts a key may number in it at most (a pile each, the stock's
    /// one), and the most bytes a part has (`bytes_after_next_key`)
    per_key: Vec<usize>,
    most_part: usize,
    /// `bytes_after_next_key`, and the parts the tables held when it was reckoned
    bound: std::cell::Cell<(usize, usize)>,
}

impl Parts {
    /// The groups of `rules` over `piles` piles: the sorted groups, every other pile alone;
    /// `cards`: the most cards a pile or the stock may hold.
    pub fn new(rules: &KeyRules, piles: usize, cards: usize) -> Parts {
        let mut groups = Vec::new();
        let mut j = 0;
        while j < piles {
            let sorted = |ranges: &[(usize, usize)]| ranges.iter().copied().find(|&(start, stop)| start == j && stop > j + 1);
            let group = match (sorted(&rules.always_sorted), sorted(&rules.sorted_when_stock_empty)) {
                (Some((_, stop)), _) => Group { start: j, stop: stop.min(piles), order: Order::Sorted },
                (None, Some((_, stop))) => Group { start: j, stop: stop.min(piles), order: Order::SortedWhenStockOut },
                (None, None) => Group { start: j, stop: j + 1, order: Order::Kept },
            };
            j = group.stop;
            groups.push(group);
        }
        let mut group_of = vec![0; piles];
        for (g, group) in groups.iter().enumerate() {
            for slot in &mut group_of[group.start..group.stop] {
                *slot = g;
            }
        }
        let mut per_key = vec![0usize; groups.len() + 1];
        for &g in &group_of {
            per_key[g] += 1;
        }
        per_key[groups.len()] = 1;
        let shows_all = |pile: usize| rules.views.get(pile).is_none_or(|&view| view == VIEW_ALL);
        let tries: Vec<Option<PartTrie>> = groups.iter()
            .map(|group| (group.start..group.stop).all(shows_all).then(PartTrie::new))
            .collect();
        let most_part = cards.max(2);
        let in_trie = |pile: usize| tries[group_of[pile]].is_some();
        let top_only = (0..piles).map(|p| !in_trie(p) && rules.views.get(p) == Some(&VIEW_TOP)).collect();
        Parts {
            seen: (0..piles).map(|p| if in_trie(p) { Vec::with_capacity(most_part) } else { Vec::new() }).collect(),
            path: (0..piles).map(|p| if in_trie(p) { let mut path = Vec::with_capacity(most_part + 1); path.push(0); path } else { Vec::new() }).collect(),
            tries,
            tables: (0..=groups.len()).map(|_| PartTable::new()).collect(),
            per_key,
            most_part,
            bound: std::cell::Cell::new((usize::MAX, 0)),
            sorted: vec![u32::MAX; piles],
            order: (0..piles).collect(),
            slot: (0..piles).collect(),
            in_sorted_group: group_of.iter().map(|&g| groups[g].sorts()).collect(),
            top_only,
            words: piles.div_ceil(64),
            groups,
            group_of,
            numbers: vec![u32::MAX; piles],
            before: vec![u32::MAX; piles],
            stock: None,
            stock_lengths: if rules.stock_by_cards { Vec::new() } else { vec![u32::MAX; most_part + 1] },
            stock_by_cards: rules.stock_by_cards,
            scratch: Vec::new(),
        }
    }

    /// Number the parts of the piles `touched` (their parts made by `part`, which writes
    /// a pile's part into the buffer given).
    ///
    /// A pile whose group has a trie keeps the nodes of its cards' beginnings: its number
    /// is the node of the cards it still shares with its cards of before (`card_table`
    /// translating each card), then a step a card.
    #[inline]
    pub fn refresh(&mut self, pos: &Position, touched: Touched, card_table: &[u8; 256],
                   part: impl Fn(usize, &[u8], &mut Vec<u8>)) {
        let n = pos.piles.len().min(self.numbers.len());
        for (word, &bits) in touched.0.iter().take(self.words).enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = word * 64 + bits.trailing_zeros() as usize;
                if i >= n {
                    return;
                }
                bits &= bits - 1;
                if let Some(trie) = &mut self.tries[self.group_of[i]] {
                    let (pile, seen, path) = (&pos.piles[i], &mut self.seen[i], &mut self.path[i]);
                    let kept = shared(seen, pile);
                    seen.truncate(kept);
                    path.truncate(kept + 1);
                    let mut node = path[kept];
                    for &card in &pile[kept..] {
                        node = trie.child(node, card_table[card as usize]);
                        seen.push(card);
                        path.push(node);
                    }
                    if node != self.numbers[i] {
                        self.numbers[i] = node;
                        if self.in_sorted_group[i] {
                            self.resort(i);
                        }
                    }
                    continue;
                }
                if self.top_only[i] {
                    // the part `part` makes, a byte or none, looked up without being made
                    let byte = pos.piles[i].last().map(|&card| [card_table[card as usize]]);
                    let number = self.tables[self.group_of[i]].number(byte.as_ref().map_or(&[], |b| &b[..]));
                    if number == self.numbers[i] {
                        continue;
                    }
                    self.numbers[i] = number;
                    if self.in_sorted_group[i] {
                        self.resort(i);
                    }
                    continue;
                }
                self.scratch.clear();
                part(i, &pos.piles[i], &mut self.scratch);
                let table = &mut self.tables[self.group_of[i]];
                let (now, before) = (self.numbers[i], self.before[i]);
                if before != u32::MAX && same(table.part(before), &self.scratch) {
                    (self.numbers[i], self.before[i]) = (before, now);
                } else if now as usize >= table.len() || !same(table.part(now), &self.scratch) {
                    // (`now` is no number before the first key)
                    self.numbers[i] = table.number(&self.scratch);
                    self.before[i] = if (now as usize) < table.len() { now } else { u32::MAX };
                } else {
                    continue;
                }
                if self.in_sorted_group[i] {
                    self.resort(i);
                }
            }
        }
    }

    /// Take `numbers`, the piles' parts' numbers a key of a position keyed before left
    /// (`KeyMaker::numbers`), as the ones the next key's untouched piles keep. Each sorted
    /// group's order is made again from them.
    pub fn load(&mut self, numbers: &[u32]) {
        self.numbers.copy_from_slice(numbers);
        for group in &self.groups {
            if !group.sorts() {
                continue;
            }
            let (start, stop) = (group.start, group.stop);
            self.order[start..stop].sort_unstable_by_key(|&pile| numbers[pile]);
            for at in start..stop {
                let pile = self.order[at];
                self.sorted[at] = numbers[pile];
                self.slot[pile] = at;
            }
        }
    }

    /// Move pile `pile`'s slot in its sorted group to where its new number belongs: a move
    /// changes a pile or two, each by a few places, where sorting the group again would
    /// compare every pile (equal numbers may stand in any order: a key writes numbers).
    #[inline]
    fn resort(&mut self, pile: usize) {
        let group = self.groups[self.group_of[pile]];
        let x = self.numbers[pile];
        let mut at = self.slot[pile];
        self.sorted[at] = x;
        while at > group.start && self.sorted[at - 1] > x {
            self.shift(at - 1, at);
            at -= 1;
        }
        while at + 1 < group.stop && self.sorted[at + 1] < x {
            self.shift(at + 1, at);
            at += 1;
        }
        self.sorted[at] = x;
        self.order[at] = pile;
        self.slot[pile] = at;
    }

    /// The pile at slot `from` (and its number) to slot `to`.
    #[inline(always)]
    fn shift(&mut self, from: usize, to: usize) {
        let moved = self.order[from];
        self.sorted[to] = self.sorted[from];
        self.order[to] = moved;
        self.slot[moved] = to;
    }

    /// The number of the stock's part (its length, or its cards).
    #[inline]
    pub fn stock_number(&mut self, stock: &[u8]) -> u32 {
        if !self.stock_by_cards {
            if let Some(&number) = self.stock_lengths.get(stock.len()).filter(|&&n| n != u32::MAX) {
                return number;
            }
        }
        let len = (stock.len() as u16).to_le_bytes();
        let part: &[u8] = if self.stock_by_cards { stock } else { &len };
        match &self.stock {
            Some((kept, number)) if same(kept, part) => *number,
            _ => {
                let number = self.tables.last_mut().expect("the stock's table").number(part);
                if !self.stock_by_cards {
                    if self.stock_lengths.len() <= stock.len() {
                        self.stock_lengths.resize(stock.len() + 1, u32::MAX);
                    }
                    self.stock_lengths[stock.len()] = number;
                }
                let mut kept = self.stock.take().map(|(kept, _)| kept).unwrap_or_default();
                kept.clear();
                kept.extend_from_slice(part);
                self.stock = Some((kept, number));
                number
            }
        }
    }

    /// Whether the piles of `group` are sorted in the key of a position whose stock is
    /// `stock` (as `split` sorts them: a group sorted once the stock is out stays in its
    /// order where the stock is keyed by its cards).
    #[inline]
    pub fn sorts_now(group: &Group, stock_by_cards: bool, stock: &[u8]) -> bool {
        group.sorts() && match group.order {
            Order::Kept => false,
            Order::Sorted => true,
            Order::SortedWhenStockOut => !stock_by_cards && stock.is_empty(),
        }
    }

    /// Whether group `g`'s parts are numbered in a trie.
    #[cfg(test)]
    pub fn has_trie(&self, g: usize) -> bool {
        self.tries[g].is_some()
    }

    /// The part numbered `n` in group `g`'s table or trie.
    #[cfg(test)]
    pub fn part(&self, g: usize, n: u32) -> Vec<u8> {
        match &self.tries[g] {
            Some(trie) => trie.part(n),
            None => self.tables[g].part(n).to_vec(),
        }
    }

    /// The bytes the tables hold, as allocated.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(PartTable::bytes).sum::<usize>()
            + self.tries.iter().flatten().map(PartTrie::bytes).sum::<usize>()
            + self.seen.iter().map(Vec::capacity).sum::<usize>()
            + self.path.iter().map(|path| path.capacity() * 4).sum::<usize>()
            + self.stock_lengths.capacity() * 4
    }

    /// At most the bytes the tables hold after the next key, which may number a new part
    /// for each pile and the stock.
    pub fn bytes_after_next_key(&self) -> usize {
        // the tables change only when they take a part (reckoned again then)
        let count = self.count();
        match self.bound.get() {
            (counted, bound) if counted == count => bound,
            _ => {
                // a trie takes at most a node a card of each of its piles (their `seen` and
                // `path` made with room for every card)
                let bound = self.tables.iter().zip(&self.per_key).zip(self.tries.iter().chain([&None]))
                    .map(|((t, &c), trie)| match trie {
                        Some(trie) => trie.bytes_after(c * self.most_part) + t.bytes(),
                        None => t.bytes_after(c, c * self.most_part),
                    })
                    .sum::<usize>()
                    + self.seen.iter().map(Vec::capacity).sum::<usize>()
                    + self.path.iter().map(|path| path.capacity() * 4).sum::<usize>()
                    + self.stock_lengths.capacity() * 4;
                self.bound.set((count, bound));
                bound
            }
        }
    }

    /// The parts the tables hold.
    pub fn count(&self) -> usize {
        self.tables.iter().map(PartTable::len).sum::<usize>() + self.tries.iter().flatten().map(PartTrie::nodes).sum::<usize>()
    }
}

/// Write `x` in Elias's gamma code of `x + 1` through `put(value, bits)`, lowest bits
/// first: ⌊log2(x + 1)⌋ zeros, a one, then the ⌊log2(x + 1)⌋ low bits of `x + 1` (the
/// numbers below 256, nearly all of them, from a table).
#[inline(always)]
pub fn put_number(x: u32, mut put: impl FnMut(u64, u32)) {
    if x < 256 {
        let code = SMALL_CODES[x as usize];
        put((code & 0xFF_FFFF) as u64, code >> 24);
    } else {
        let (value, bits) = gamma(x);
        put(value, bits);
    }
}

/// The gamma code of `x + 1` (`put_number`): its bits, lowest first, and how many.
const fn gamma(x: u32) -> (u64, u32) {
    let v = x as u64 + 1;
    let high = 63 - v.leading_zeros(); // v's bits less one
    (1 << high | (v & ((1 << high) - 1)) << (high + 1), 2 * high + 1)
}

/// The codes of the numbers below 256: the bits (at most 17) in the low 24 bits, how many
/// in the high 8.
const SMALL_CODES: [u32; 256] = {
    let mut codes = [0u32; 256];
    let mut x = 0;
    while x < 256 {
        let (value, bits) = gamma(x as u32);
        codes[x] = (bits << 24) | value as u32;
        x += 1;
    }
    codes
};

/// Read a number `put_number` wrote from `get(bits)` (the next `bits` bits, lowest first).
#[cfg(test)]
pub fn get_number(get: &mut dyn FnMut(u32) -> u64) -> u32 {
    let mut high = 0;
    while get(1) == 0 {
        high += 1;
    }
    ((1u64 << high | get(high)) - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_numbers_each_part_once_in_the_order_first_shown() {
        let mut table = PartTable::new();
        let parts: Vec<Vec<u8>> = (0..5_000u32).map(|i| {
            let mut part = i.to_le_bytes().to_vec();
            part.truncate(1 + i as usize % 4);
            part.resize(part.len() + (i as usize % 7), 0x5A);
            part
        }).collect();
        let mut first: Vec<(Vec<u8>, u32)> = Vec::new();
        for round in 0..3 {
            for part in &parts {
                let n = table.number(part);
                if round == 0 && !first.iter().any(|(p, _)| p == part) {
                    assert_eq!(n as usize, first.len());
                    first.push((part.clone(), n));
                }
                assert_eq!(table.part(n), part.as_slice());
            }
        }
        assert_eq!(table.len(), first.len());
        assert_eq!(table.number(&[]), first.len() as u32); // the empty part is a part too
        assert!(table.bytes() <= table.bytes_after(1, 1));
    }

    #[test]
    fn numbers_round_trip_through_their_code() {
        let values: Vec<u32> = (0..2_000).chain([65_535, 65_536, 1 << 20, u32::MAX - 2]).collect();
        let mut bits: Vec<bool> = Vec::new();
        for &x in &values {
            put_number(x, |value, n| {
                assert!(n <= 63);
                bits.extend((0..n).map(|i| value >> i & 1 != 0));
            });
        }
        let mut at = 0;
        let mut get = |n: u32| {
            let value = (0..n).fold(0u64, |v, i| v | (bits[at + i as usize] as u64) << i);
            at += n as usize;
            value
        };
        for &x in &values {
            assert_eq!(get_number(&mut get), x);
        }
        // 0 is a bit, 1 and 2 three, 3 to 6 five
        let cost = |x: u32| {
            let mut n = 0;
            put_number(x, |_, b| n += b);
            n
        };
        assert_eq!([cost(0), cost(1), cost(2), cost(3), cost(6), cost(7)], [1, 3, 3, 5, 5, 7]);
    }
}
