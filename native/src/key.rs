//! Position keys (a port of `SolverRules.key` and `exact_key` in
//! `patience/solver/rules.py`).
//!
//! A key is exact: two positions share a key only when the rules cannot tell them apart
//! (card attributes no rule reads dropped, piles of symmetric groups sorted, a pile no rule
//! reads below its top keyed by its top and size), never by a hash alone, because a verdict
//! "unwinnable" is a proof. A key is first written one byte a card, each pile led by its
//! length (the same parts as Python's key, so both merge the same positions), then packed:
//! each card in the bits its translated values need (`card_bits`: 4 when only ranks are
//! read, 6 with suits, 7 with face-down cards as well), each length in the bits the deal's
//! card count needs. The packing is a fixed injective code, so it merges nothing more.
//!
//! The keys are stored by `store.rs`.

use crate::moves::Position;
use crate::program::KeyRules;

/// How a pile is keyed (`KeyRules::views`): all its cards, its top card, or its top card
/// and its size.
pub const VIEW_ALL: u8 = 0;
pub const VIEW_TOP: u8 = 1;
pub const VIEW_TOP_AND_SIZE: u8 = 2;

/// The bits that hold every value up to `max`.
fn bits_for(max: usize) -> u32 {
    (usize::BITS - max.leading_zeros()).max(1)
}

/// Writes values of a few bits each into bytes, lowest bits first.
struct BitWriter<'o> {
    out: &'o mut Vec<u8>,
    acc: u64,
    filled: u32,
}

impl<'o> BitWriter<'o> {
    /// Add `value` (at most 32 bits); four bytes leave at once.
    #[inline]
    fn put(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 32 && value >> bits == 0);
        self.acc |= value << self.filled;
        self.filled += bits;
        if self.filled >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.filled -= 32;
        }
    }

    fn finish(self) {
        let bytes = self.filled.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
    }
}

/// The packing of one search's keys: the card code and the widths.
#[derive(Debug, Clone)]
pub struct Packing {
    /// translated card value -> its code (`u8::MAX`: a value no card of the deal has)
    code: [u8; 256],
    card_bits: u32,
    length_bits: u32,
}

impl Packing {
    /// The packing for the positions of a search from `root`: every card value the table
    /// can give a card of rank 0–15 (face down too when some pile holds face-down cards),
    /// and lengths up to the deal's card count (or the redeal limit, for the counter pile).
    pub fn new(rules: &KeyRules, face_down: bool, root: &Position, redeal_limit: usize) -> Packing {
        let mut seen = [false; 256];
        for card in 0..64usize {
            seen[rules.card_table[card] as usize] = true;
            if face_down {
                seen[rules.card_table[card | 64] as usize] = true;
            }
        }
        let mut code = [u8::MAX; 256];
        let mut next = 0u8;
        for (value, &present) in seen.iter().enumerate() {
            if present {
                code[value] = next;
                next += 1;
            }
        }
        let cards: usize = root.piles.iter().map(Vec::len).sum::<usize>() + root.stock.len();
        Packing {
            code,
            card_bits: bits_for(next.saturating_sub(1) as usize),
            length_bits: bits_for(cards.max(redeal_limit)),
        }
    }
}

/// Builds keys into a reusable buffer.
pub struct KeyMaker<'a> {
    rules: &'a KeyRules,
    exact: bool,
    packing: Option<Packing>,
    /// a card -> what the key shows of it: the card table, or once packing, its code
    translate: [u8; 256],
    parts: Vec<(usize, usize)>, // (start, len) of each pile's translated cards in `cards`
    cards: Vec<u8>,
    order: Vec<usize>,
    /// each pile's signature, for the piles of sorted groups (`sort_piles`)
    signed: Vec<u64>,
}

/// The values a pile shows in its key (`split`'s part): its translated cards, its top, or
/// its top and size.
#[inline]
fn part_values<'p>(
    pile: &'p [u8],
    view: u8,
    table: &'p [u8; 256],
) -> impl Iterator<Item = u8> + 'p {
    let (cards, size): (&[u8], Option<u8>) = match (view, pile.last()) {
        (VIEW_ALL, _) => (pile, None),
        (_, None) => (&[], None),
        (VIEW_TOP, Some(_)) => (&pile[pile.len() - 1..], None),
        (_, Some(_)) => (&pile[pile.len() - 1..], Some(pile.len() as u8)),
    };
    cards.iter().map(move |&c| table[c as usize]).chain(size)
}

/// A pile's signature for sorting: the first seven values of its part, each plus one in
/// 9 bits, the first most significant, 0 where the part has ended. Signatures compare as
/// the parts' beginnings do (a part that ends first is smaller); when the last 9 bits are
/// 0 the part ended inside the signature, so equal such signatures mean equal parts.
#[inline]
fn signature(pile: &[u8], view: u8, table: &[u8; 256]) -> u64 {
    let mut sig = 0u64;
    let mut n = 0;
    for value in part_values(pile, view, table).take(7) {
        sig = sig << 9 | (value as u64 + 1);
        n += 1;
    }
    sig << (9 * (7 - n))
}

/// The lexicographic order of two piles' parts.
fn part_cmp(a: &[u8], b: &[u8], view: u8, table: &[u8; 256]) -> std::cmp::Ordering {
    part_values(a, view, table).cmp(part_values(b, view, table))
}

impl<'a> KeyMaker<'a> {
    pub fn new(rules: &'a KeyRules, exact: bool) -> KeyMaker<'a> {
        KeyMaker {
            rules,
            exact,
            packing: None,
            translate: rules.card_table,
            parts: Vec::new(),
            cards: Vec::new(),
            order: Vec::new(),
            signed: Vec::new(),
        }
    }

    /// Pack the keys of a search from `root` from now on (exact keys are never packed).
    /// Called once, before the first key of a store, since the packing must not change.
    pub fn pack_for(&mut self, root: &Position, face_down: bool, redeal_limit: usize) {
        if !self.exact && self.packing.is_none() {
            let packing = Packing::new(self.rules, face_down, root, redeal_limit);
            for (card, slot) in self.translate.iter_mut().enumerate() {
                // injective on the values the table gives, so it merges nothing more
                *slot = packing.code[self.rules.card_table[card] as usize];
            }
            self.packing = Some(packing);
        }
    }

    /// The key of `pos`, written into `out` (cleared first).
    pub fn key(&mut self, pos: &Position, out: &mut Vec<u8>) {
        if self.exact {
            out.clear();
            for pile in &pos.piles {
                out.push(pile.len() as u8);
                out.extend_from_slice(pile);
            }
            out.push(0xFE);
            out.extend_from_slice(&pos.stock);
            return;
        }
        if self.packing.is_some() {
            if self.sorts(pos) {
                self.sort_piles(pos);
                self.write_direct(pos, Some(&self.order), out);
            } else {
                self.write_direct(pos, None, out);
            }
            return;
        }
        self.split(pos);
        if self.packing.is_some() {
            self.write_packed(pos, out);
        } else {
            self.write_bytes(pos, out);
        }
    }

    /// Whether some piles of `pos` are sorted in its key (`split` orders them).
    #[inline]
    fn sorts(&self, pos: &Position) -> bool {
        let rules = self.rules;
        // as `split` decides: the groups always sorted (with the stock keyed by its cards
        // too, since solver 1.4), and those sorted once the stock is out (not then)
        !rules.always_sorted.is_empty()
            || (!rules.stock_by_cards && pos.stock.is_empty()
                && !rules.sorted_when_stock_empty.is_empty())
    }

    /// The order of the piles in the key (symmetric groups sorted, as `split` sorts them)
    /// into `order`, straight from the piles: each pile of a sorted group gets a
    /// signature (`signature`), its part's first seven values, so that comparing
    /// signatures compares the parts' beginnings lexicographically; only equal signatures
    /// of parts longer than that compare the whole parts. The sort is an insertion sort
    /// that starts from the order of the previous key: the search asks for the keys of a
    /// position's children one after another, a move changes a pile or two, so that order
    /// is nearly right and the sort makes about one comparison a pile. Each group's slots
    /// of `order` always hold its own piles, and piles that compare equal have equal
    /// parts, so where the sort starts changes no key.
    fn sort_piles(&mut self, pos: &Position) {
        let piles = &pos.piles;
        let rules = self.rules;
        let later: &[(usize, usize)] = if rules.stock_by_cards || !pos.stock.is_empty() {
            &[]
        } else {
            &rules.sorted_when_stock_empty
        };
        if self.order.len() != piles.len() {
            self.order.clear();
            self.order.extend(0..piles.len());
            self.signed.resize(piles.len(), 0);
        }
        if later.is_empty() {
            // groups sorted only once the stock is out keep their piles' order now (the
            // previous key may have sorted them)
            for &(start, stop) in &rules.sorted_when_stock_empty {
                let stop = stop.min(piles.len());
                for (slot, i) in self.order[start.min(stop)..stop].iter_mut().zip(start..) {
                    *slot = i;
                }
            }
        }
        let table = &self.translate;
        for &(start, stop) in rules.always_sorted.iter().chain(later) {
            let stop = stop.min(piles.len());
            if start + 1 >= stop {
                continue;
            }
            // a group's piles share a view
            let view = rules.views.get(start).copied().unwrap_or(VIEW_ALL);
            let sigs = &mut self.signed;
            for i in start..stop {
                sigs[i] = signature(&piles[i], view, table);
            }
            let sigs = &self.signed;
            let less = |a: usize, b: usize| match sigs[a].cmp(&sigs[b]) {
                std::cmp::Ordering::Equal if sigs[a] & 0x1FF != 0 => {
                    part_cmp(&piles[a], &piles[b], view, table).is_lt()
                }
                order => order.is_lt(),
            };
            let group = &mut self.order[start..stop];
            for k in 1..group.len() {
                let pile = group[k];
                let mut at = k;
                while at > 0 && less(pile, group[at - 1]) {
                    group[at] = group[at - 1];
                    at -= 1;
                }
                group[at] = pile;
            }
        }
    }

    /// `write_packed` of a position straight from the piles, in their order or in
    /// `order`: the same bits, without the parts `split` writes first (a unit test checks
    /// that both give the same bytes).
    fn write_direct(&self, pos: &Position, order: Option<&[usize]>, out: &mut Vec<u8>) {
        let packing = self.packing.as_ref().expect("packing chosen");
        let (cb, lb) = (packing.card_bits, packing.length_bits);
        let table = &self.translate;
        out.clear();
        let cards: usize = pos.piles.iter().map(Vec::len).sum();
        let bits = pos.piles.len() * (lb as usize + 1) + cards * cb as usize
            + lb as usize + pos.stock.len() * 7;
        out.reserve(bits / 8 + 8);
        let mut w = BitWriter { out, acc: 0, filled: 0 };
        let views = &self.rules.views;
        for j in 0..pos.piles.len() {
            let pile = &pos.piles[order.map_or(j, |o| o[j])];
            match views.get(j).copied().unwrap_or(VIEW_ALL) {
                VIEW_TOP => match pile.last() {
                    None => w.put(0, 1),
                    Some(&top) => w.put(1 | (table[top as usize] as u64) << 1, 1 + cb),
                },
                VIEW_TOP_AND_SIZE => match pile.last() {
                    None => w.put(0, lb),
                    Some(&top) => {
                        w.put(pile.len() as u8 as u64 | (table[top as usize] as u64) << lb, lb + cb)
                    }
                },
                _ => {
                    w.put(pile.len() as u64, lb);
                    // two cards a step: at most 2 x 7 bits
                    let mut pairs = pile.chunks_exact(2);
                    for pair in &mut pairs {
                        let two = table[pair[0] as usize] as u64
                            | (table[pair[1] as usize] as u64) << cb;
                        w.put(two, 2 * cb);
                    }
                    if let [last] = pairs.remainder() {
                        w.put(table[*last as usize] as u64, cb);
                    }
                }
            }
        }
        w.put(pos.stock.len() as u64, lb);
        if self.rules.stock_by_cards {
            for &card in &pos.stock {
                w.put(card as u64, 7);
            }
        }
        w.finish();
    }

    /// Each pile's part (translated cards, or top and size) into `cards` and `parts`, and
    /// the order of the piles in the key (symmetric groups sorted) into `order`.
    fn split(&mut self, pos: &Position) {
        let piles = &pos.piles;
        let rules = self.rules;
        let table = &self.translate;
        let sorting: &[(usize, usize)] = &rules.always_sorted;
        let later: &[(usize, usize)] = if rules.stock_by_cards || !pos.stock.is_empty() {
            &[]
        } else {
            &rules.sorted_when_stock_empty
        };
        // a pile keyed by its top and size shows two values, even with one card
        let total: usize = piles.iter().map(|p| p.len().max(2)).sum();
        self.cards.resize(total, 0);
        self.parts.clear();
        let mut at = 0;
        for (i, pile) in piles.iter().enumerate() {
            let view = rules.views.get(i).copied().unwrap_or(VIEW_ALL);
            let shown: usize = match (view, pile.last()) {
                (VIEW_ALL, _) => {
                    for (d, &c) in self.cards[at..at + pile.len()].iter_mut().zip(pile.iter()) {
                        *d = table[c as usize];
                    }
                    pile.len()
                }
                (_, None) => 0,
                (VIEW_TOP, Some(&top)) => {
                    self.cards[at] = table[top as usize];
                    1
                }
                (_, Some(&top)) => {
                    self.cards[at] = table[top as usize];
                    self.cards[at + 1] = pile.len() as u8;
                    2
                }
            };
            self.parts.push((at, shown));
            at += shown;
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
    }

    /// The key one byte a card: the parts of Python's key, each led by its length, then the
    /// stock's length (two bytes), or with redeals 0xFE and its cards. Packing this
    /// injectively (`write_packed`) keeps the same equivalence.
    fn write_bytes(&self, pos: &Position, out: &mut Vec<u8>) {
        out.clear();
        for &i in &self.order {
            let (start, len) = self.parts[i];
            out.push(len as u8);
            out.extend_from_slice(&self.cards[start..start + len]);
        }
        if self.rules.stock_by_cards {
            out.push(0xFE);
            out.extend_from_slice(&pos.stock);
        } else {
            out.extend_from_slice(&(pos.stock.len() as u16).to_be_bytes());
        }
    }

    /// The same key packed: a whole pile as its length (`length_bits`) and its cards
    /// (`card_bits` each, by the card code); a pile keyed by its top as one bit (has a top)
    /// and the top; by its top and size as the size and, when not empty, the top; then the
    /// stock's length, and with redeals its cards (7 bits each). Sorting permutes piles of
    /// one group only, and a group's piles share a view, so pile `j` of the key has the
    /// view of pile `j` of the position.
    fn write_packed(&self, pos: &Position, out: &mut Vec<u8>) {
        let packing = self.packing.as_ref().expect("packing chosen");
        let (cb, lb) = (packing.card_bits, packing.length_bits);
        out.clear();
        let mut w = BitWriter { out, acc: 0, filled: 0 };
        for (j, &i) in self.order.iter().enumerate() {
            let (start, len) = self.parts[i];
            let part = &self.cards[start..start + len];
            match self.rules.views.get(j).copied().unwrap_or(VIEW_ALL) {
                VIEW_TOP => {
                    w.put(len as u64, 1);
                    if let Some(&top) = part.first() {
                        w.put(top as u64, cb);
                    }
                }
                VIEW_TOP_AND_SIZE => {
                    if len == 0 {
                        w.put(0, lb);
                    } else {
                        w.put(part[1] as u64, lb);
                        w.put(part[0] as u64, cb);
                    }
                }
                _ => {
                    w.put(len as u64, lb);
                    for &card in part {
                        debug_assert!(card != u8::MAX, "a card outside the packing's code");
                        w.put(card as u64, cb);
                    }
                }
            }
        }
        w.put(pos.stock.len() as u64, lb);
        if self.rules.stock_by_cards {
            for &card in &pos.stock {
                debug_assert!(card < 128);
                w.put(card as u64, 7); // the cards themselves, as Python's key has them
            }
        }
        w.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    fn identity_rules(views: Vec<u8>) -> KeyRules {
        let mut table = [0u8; 256];
        for (i, t) in table.iter_mut().enumerate() {
            *t = i as u8;
        }
        KeyRules {
            card_table: table,
            always_sorted: vec![],
            sorted_when_stock_empty: vec![],
            stock_by_cards: false,
            views,
        }
    }

    #[test]
    fn symmetric_piles_share_a_key_once_sorted() {
        let mut rules = identity_rules(vec![]);
        rules.always_sorted = vec![(0, 2)];
        let mut maker = KeyMaker::new(&rules, false);
        let a = Position { piles: vec![vec![4, 8], vec![12]], stock: vec![] };
        let b = Position { piles: vec![vec![12], vec![4, 8]], stock: vec![] };
        let (mut ka, mut kb) = (Vec::new(), Vec::new());
        maker.pack_for(&a, false, 0);
        maker.key(&a, &mut ka);
        maker.key(&b, &mut kb);
        assert_eq!(ka, kb);
        let mut exact = KeyMaker::new(&rules, true);
        exact.key(&a, &mut ka);
        exact.key(&b, &mut kb);
        assert_ne!(ka, kb);
    }

    /// Undo `write_packed` (for the tests: the search never needs to), giving the key
    /// one byte a card code.
    fn unpack(p: &Packing, packed: &[u8], views: &[u8], stock_by_cards: bool) -> Vec<u8> {
        let decode: Vec<u8> = (0..=255).collect();
        let mut at = 0usize;
        let mut get = |bits: u32| -> u64 {
            let mut v = 0u64;
            for i in 0..bits as usize {
                let bit = (packed[(at + i) / 8] >> ((at + i) % 8)) & 1;
                v |= (bit as u64) << i;
            }
            at += bits as usize;
            v
        };
        let mut out = Vec::new();
        for &view in views {
            match view {
                VIEW_TOP => {
                    if get(1) == 1 {
                        out.extend_from_slice(&[1, decode[get(p.card_bits) as usize]]);
                    } else {
                        out.push(0);
                    }
                }
                VIEW_TOP_AND_SIZE => {
                    let size = get(p.length_bits) as u8;
                    if size == 0 {
                        out.push(0);
                    } else {
                        out.extend_from_slice(&[2, decode[get(p.card_bits) as usize], size]);
                    }
                }
                _ => {
                    let len = get(p.length_bits) as usize;
                    out.push(len as u8);
                    for _ in 0..len {
                        out.push(decode[get(p.card_bits) as usize]);
                    }
                }
            }
        }
        let n = get(p.length_bits);
        if stock_by_cards {
            out.push(0xFE);
            for _ in 0..n {
                out.push(get(7) as u8);
            }
        } else {
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        out
    }

    /// A small deterministic generator for the tests.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *state >> 33
    }

    #[test]
    fn packed_keys_round_trip_and_stay_distinct() {
        // ranks and suits read, face-down cards: 7 bits a card; piles of every view
        let mut identity = [0u8; 256];
        let mut ranks = [0u8; 256]; // suits not read: a card shows its rank (and face)
        for i in 0..256 {
            identity[i] = i as u8;
            ranks[i] = if i < 128 { (i & 64 | i & 60) as u8 } else { i as u8 };
        }
        for (table, bits) in [(identity, 7), (ranks, 5)] {
        for stock_by_cards in [false, true] {
        // a sorted group too: the straight path must not be taken where split sorts
        for sorted in [false, true] {
            let views = vec![VIEW_ALL, VIEW_ALL, VIEW_ALL, VIEW_TOP, VIEW_TOP_AND_SIZE, VIEW_TOP_AND_SIZE];
            let rules = KeyRules {
                card_table: table,
                // a group of whole piles, and one of piles keyed by their top and size
                // sorted only once the stock is out (the keys before sorted it or not)
                always_sorted: if sorted { vec![(0, 3)] } else { vec![] },
                sorted_when_stock_empty: if sorted { vec![(4, 6)] } else { vec![] },
                stock_by_cards,
                views: views.clone(),
            };
            let root = Position { piles: vec![(0..52).map(|c| 4 + c).collect()], stock: vec![] };
            let mut maker = KeyMaker::new(&rules, false);
            maker.pack_for(&root, true, 0);
            let mut plain = KeyMaker::new(&rules, false); // one byte a translated card
            let packing = maker.packing.clone().expect("packed");
            assert_eq!((packing.card_bits, packing.length_bits), (bits, 6));
            let mut state = 7u64;
            let mut seen: FxHashMap<Vec<u8>, Vec<u8>> = FxHashMap::default();
            let (mut key, mut bytes) = (Vec::new(), Vec::new());
            for _ in 0..20_000 {
                let mut piles: Vec<Vec<u8>> = Vec::new();
                for _ in 0..views.len() {
                    // now and then a long pile: its cards fill several pieces
                    let len = (next(&mut state) % if next(&mut state) % 8 == 0 { 16 } else { 5 }) as usize;
                    // now and then a pile of two cards only: long common beginnings, for
                    // the sort's signatures to tie and compare the whole piles
                    let narrow = next(&mut state) % 3 == 0;
                    piles.push((0..len).map(|_| {
                        let card = 4 + (next(&mut state) % if narrow { 2 } else { 52 }) as u8;
                        if next(&mut state) % 4 == 0 { card | 64 } else { card }
                    }).collect());
                }
                let stock: Vec<u8> = (0..next(&mut state) % 4).map(|_| 4 + (next(&mut state) % 52) as u8).collect();
                let pos = Position { piles, stock };
                maker.key(&pos, &mut key);
                let mut packed = Vec::new();
                maker.split(&pos);
                maker.write_packed(&pos, &mut packed);
                assert_eq!(key, packed, "written straight from the piles, the same bytes");
                maker.write_bytes(&pos, &mut bytes);
                assert_eq!(unpack(&packing, &key, &views, stock_by_cards), bytes);
                plain.key(&pos, &mut bytes);
                if let Some(before) = seen.insert(key.clone(), bytes.clone()) {
                    assert_eq!(before, bytes, "two byte keys packed alike");
                }
            }
            // and the other way: as many distinct packed keys as distinct byte keys
            let distinct: std::collections::HashSet<&Vec<u8>> = seen.values().collect();
            assert_eq!(distinct.len(), seen.len());
            assert!(seen.len() > 10_000);
        }
        }
        }
    }

    #[test]
    fn a_pile_keyed_by_its_top_forgets_what_lies_below() {
        let rules = identity_rules(vec![VIEW_ALL, VIEW_TOP, VIEW_TOP_AND_SIZE]);
        let mut maker = KeyMaker::new(&rules, false);
        let a = Position { piles: vec![vec![4], vec![8, 9, 10], vec![12, 13]], stock: vec![] };
        maker.pack_for(&a, false, 0);
        let key = |maker: &mut KeyMaker, piles: Vec<Vec<u8>>| {
            let mut out = Vec::new();
            maker.key(&Position { piles, stock: vec![] }, &mut out);
            out
        };
        let ka = key(&mut maker, a.piles.clone());
        assert_eq!(ka, key(&mut maker, vec![vec![4], vec![20, 10], vec![30, 13]]));
        assert_ne!(ka, key(&mut maker, vec![vec![4], vec![20, 10], vec![30, 31, 13]]));
        assert_ne!(ka, key(&mut maker, vec![vec![4], vec![20, 11], vec![30, 13]]));
        assert_ne!(ka, key(&mut maker, vec![vec![4], vec![], vec![30, 13]]));
        assert_ne!(ka, key(&mut maker, vec![vec![5], vec![8, 9, 10], vec![12, 13]]));
    }
}
