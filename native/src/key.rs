//! Position keys (a port of `SolverRules.key` and `exact_key` in
//! `patience/solver/rules.py`).
//!
//! A key is exact: two positions share a key only when the rules cannot tell them apart
//! (card attributes no rule reads dropped, piles of symmetric groups sorted, a pile no rule
//! reads below its top keyed by its top and size), never by a hash alone, because a verdict
//! "unwinnable" is a proof. Each pile shows a *part* in its key, as Python's key has it: its
//! cards through the card table, or its top, or its top and size (`split`); the stock shows
//! its length or, with redeals, its cards. A search's keys are written in the *numbered
//! code* (`write_numbered`): each part as its number in a table of the parts its group of
//! piles has shown (`parts.rs`), in a gamma code, a sorted group as its numbers sorted. A
//! search meets few distinct parts (Spider deal 1: 1,211 after 2·10^6 positions), so a key
//! takes a few bits a pile: Spider's 17 bytes, FreeCell's 18 (59 and 33 in the codes of
//! cards before it, 2026-12-04).
//!
//! Before a search packs (`pack_for`), a key is written one byte a card, each pile led by
//! its length (`write_bytes`): the same parts as Python's key, the reference the numbered
//! code is tested against. The exact reference search keys the piles as they are.
//!
//! The keys are stored by `store.rs`.

use crate::moves::{Position, Touched};
use crate::parts::{put_number, Parts};
use crate::program::KeyRules;

/// How a pile is keyed (`KeyRules::views`): all its cards, its top card, or its top card
/// and its size.
pub const VIEW_ALL: u8 = 0;
pub const VIEW_TOP: u8 = 1;
pub const VIEW_TOP_AND_SIZE: u8 = 2;

/// Writes values of a few bits each into bytes, lowest bits first.
struct BitWriter<'o> {
    out: &'o mut Vec<u8>,
    acc: u64,
    filled: u32,
}

impl BitWriter<'_> {
    /// Add `value`, in `bits` bits (at most 64) after those added before. Eight bytes
    /// leave at once (the bytes are the same whatever leaves when: the bits in order,
    /// lowest first, and `finish` the last byte begun).
    #[inline(always)]
    fn put(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 64 && (bits == 64 || value >> bits == 0));
        self.acc |= value << self.filled;
        let filled = self.filled + bits;
        if filled >= 64 {
            self.out.extend_from_slice(&self.acc.to_le_bytes());
            // the bits of `value` that did not fit
            self.acc = if self.filled == 0 { 0 } else { value >> (64 - self.filled) };
            self.filled = filled - 64;
        } else {
            self.filled = filled;
        }
    }

    fn finish(self) {
        // the whole word, then the bytes not begun cut off: a copy of a fixed size (a call
        // of the C library's `memcpy` otherwise)
        let bytes = self.filled.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes());
        self.out.truncate(self.out.len() - 8 + bytes);
    }
}

/// What a key shows of pile `i` (its part), after what `out` holds: its cards through the
/// card `table`, or its top, or its top and size, as its view in `views` says.
#[inline(always)]
fn write_part(views: &[u8], table: &[u8; 256], i: usize, pile: &[u8], out: &mut Vec<u8>) {
    match (views.get(i).copied().unwrap_or(VIEW_ALL), pile.last()) {
        (VIEW_ALL, _) => out.extend(pile.iter().map(|&c| table[c as usize])),
        (_, None) => {}
        (VIEW_TOP, Some(&top)) => out.push(table[top as usize]),
        (_, Some(&top)) => {
            out.push(table[top as usize]);
            out.push(pile.len() as u8);
        }
    }
}

pub struct KeyMaker<'a> {
    rules: &'a KeyRules,
    exact: bool,
    /// a card -> what the key shows of it: the card table
    translate: [u8; 256],
    /// `split`'s: (start, len) of each pile's part in `cards`, and the piles' order
    parts: Vec<(usize, usize)>,
    cards: Vec<u8>,
    order: Vec<usize>,
    /// the numbered parts, once the search packs (`pack_for`)
    numbered: Option<Parts>,
    /// piles whose kept numbers are out of date whatever the next key is told
    stale: Touched,
    /// the most bytes a numbered key of this search takes
    most_bytes: usize,
}

impl<'a> KeyMaker<'a> {
    pub fn new(rules: &'a KeyRules, exact: bool) -> KeyMaker<'a> {
        KeyMaker {
            rules,
            exact,
            translate: rules.card_table,
            parts: Vec::new(),
            cards: Vec::new(),
            order: Vec::new(),
            numbered: None,
            stale: Touched::ALL,
            most_bytes: 0,
        }
    }

    /// Write the keys of a search from `root` in the numbered code from now on (exact keys
    /// never are). Called once, before the first key of a store: the tables of parts live
    /// as long as the store, since a stored key means nothing without them.
    pub fn pack_for(&mut self, root: &Position) {
        if self.exact || self.numbered.is_some() {
            return;
        }
        let cards = root.piles.iter().map(Vec::len).sum::<usize>() + root.stock.len();
        self.numbered = Some(Parts::new(self.rules, root.piles.len(), cards));
        // a number in at most 63 bits a pile and the stock
        self.most_bytes = (root.piles.len() + 1) * 8 + 8;
        self.stale = Touched::ALL;
    }

    /// The bytes the tables of numbered parts hold, as allocated.
    pub fn bytes(&self) -> usize {
        self.numbered.as_ref().map_or(0, Parts::bytes)
    }

    /// At most the bytes those tables hold once the next key is made.
    pub fn bytes_after_next_key(&self) -> usize {
        self.numbered.as_ref().map_or(0, Parts::bytes_after_next_key)
    }

    /// The parts those tables hold.
    pub fn parts(&self) -> usize {
        self.numbered.as_ref().map_or(0, Parts::count)
    }

    /// Mark pile `pile`'s kept number out of date: the position a key read last changed it
    /// without play and take back telling (`classify`'s waste turned back into the stock).
    pub fn forget(&mut self, pile: usize) {
        self.stale.mark(pile);
    }

    /// The numbers of the parts of the position keyed last, and the piles whose numbers
    /// are out of date (None where keys are not numbered): `load` takes them back.
    pub fn numbers(&self) -> Option<(&[u32], Touched)> {
        self.numbered.as_ref().map(|parts| (&parts.numbers[..], self.stale))
    }

    /// Read the next key against a position keyed before, not the last one: the numbers
    /// and stale piles `numbers` gave for it.
    pub fn load(&mut self, numbers: &[u32], stale: Touched) {
        if let Some(parts) = self.numbered.as_mut() {
            parts.load(numbers);
            self.stale = stale;
        }
    }

    /// The key of `pos`, written into `out` (cleared first).
    pub fn key(&mut self, pos: &Position, out: &mut Vec<u8>) {
        self.key_touched(pos, Touched::ALL, out);
    }

    /// The key of `pos`, a position that differs from the one this maker keyed last in the
    /// piles `touched` at most (`Stacks::take_touched`): only their parts are numbered again.
    pub fn key_touched(&mut self, pos: &Position, touched: Touched, out: &mut Vec<u8>) {
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
        if self.numbered.is_none() {
            // unpacked: one byte a card, the key the numbered code is tested against
            self.split(pos);
            self.write_bytes(pos, out);
            return;
        }
        let mut touched = touched;
        touched.add(std::mem::replace(&mut self.stale, Touched::NONE));
        self.number_parts(pos, touched);
        self.write_numbered(pos, out);
        #[cfg(debug_assertions)]
        {
            // the same numbers as the parts numbered afresh, and each sorted group's
            // numbers sorted
            let parts = self.numbered.as_ref().expect("numbered");
            let kept = parts.numbers.clone();
            for group in &parts.groups {
                if group.sorts() {
                    let mut numbers = kept[group.start..group.stop].to_vec();
                    numbers.sort_unstable();
                    assert_eq!(numbers, parts.sorted[group.start..group.stop], "a group's numbers kept sorted");
                }
            }
            self.number_parts(pos, Touched::ALL);
            assert_eq!(kept, self.numbered.as_ref().expect("numbered").numbers, "numbers kept up to date");
        }
    }

    /// Number the parts of the piles `touched` (`Parts::refresh`): a pile's part as
    /// `split` makes it, its cards through the card table or its top (and size).
    #[inline]
    fn number_parts(&mut self, pos: &Position, touched: Touched) {
        let (table, views) = (&self.translate, &self.rules.views);
        let parts = self.numbered.as_mut().expect("parts");
        parts.refresh(pos, touched, table, |i, pile, part| write_part(views, table, i, pile, part));
    }

    /// The key in the numbered code (compact keys; `parts.rs`): group by group in the
    /// piles' order, each pile's part's number (`put_number`), a group sorted in this key
    /// as its numbers sorted, the first and then the gaps; then the stock's part's number.
    /// Every number is a gamma code, so the key parses into the same numbers whatever
    /// they mean, and the last one, the stock's, says which groups were sorted: the code
    /// is injective given the tables.
    #[inline]
    fn write_numbered(&mut self, pos: &Position, out: &mut Vec<u8>) {
        let parts = self.numbered.as_mut().expect("parts");
        let stock = parts.stock_number(&pos.stock);
        out.clear();
        out.reserve(self.most_bytes);
        let mut w = BitWriter { out, acc: 0, filled: 0 };
        let Parts { groups, numbers, sorted, .. } = &*parts;
        for group in groups.iter() {
            let (start, stop) = (group.start, group.stop);
            if Parts::sorts_now(group, self.rules.stock_by_cards, &pos.stock) {
                // the group's numbers, kept sorted as they change (`Parts::resort`): the
                // first, then the gaps
                let mut before = 0;
                for &x in &sorted[start..stop] {
                    put_number(x - before, |v, b| w.put(v, b));
                    before = x;
                }
            } else {
                for &x in &numbers[start..stop] {
                    put_number(x, |v, b| w.put(v, b));
                }
            }
        }
        put_number(stock, |v, b| w.put(v, b));
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
        self.cards.clear();
        self.parts.clear();
        for (i, pile) in piles.iter().enumerate() {
            let at = self.cards.len();
            write_part(&rules.views, table, i, pile, &mut self.cards);
            self.parts.push((at, self.cards.len() - at));
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::FACE_DOWN;
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
        maker.pack_for(&a);
        maker.key(&a, &mut ka);
        maker.key(&b, &mut kb);
        assert_eq!(ka, kb);
        let mut exact = KeyMaker::new(&rules, true);
        exact.key(&a, &mut ka);
        exact.key(&b, &mut kb);
        assert_ne!(ka, kb);
    }

    /// A small deterministic generator for the tests.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *state >> 33
    }

    /// The numbers a key in the numbered code holds, read back: each group's parts (a
    /// sorted group's as the parts of its sorted numbers) and the stock's part.
    fn read_numbered(maker: &KeyMaker, key: &[u8]) -> (Vec<Vec<Vec<u8>>>, Vec<u8>) {
        let parts = maker.numbered.as_ref().expect("numbered");
        let mut at = 0usize;
        let mut get = |bits: u32| -> u64 {
            let mut v = 0u64;
            for i in 0..bits as usize {
                v |= (((key[(at + i) / 8] >> ((at + i) % 8)) & 1) as u64) << i;
            }
            at += bits as usize;
            v
        };
        let numbers: Vec<Vec<u32>> = parts.groups.iter()
            .map(|g| (g.start..g.stop).map(|_| crate::parts::get_number(&mut get)).collect())
            .collect();
        let stock_number = crate::parts::get_number(&mut get);
        assert!(at.div_ceil(8) == key.len(), "the key ends with the stock's number");
        let stock = parts.tables.last().expect("the stock's table").part(stock_number).to_vec();
        let stock_cards: Vec<u8> = if maker.rules.stock_by_cards { stock.clone() } else { vec![] };
        let stock_len = if maker.rules.stock_by_cards { stock.len() } else { u16::from_le_bytes([stock[0], stock[1]]) as usize };
        let stock_shown = vec![0u8; stock_len];
        let groups = parts.groups.iter().zip(&numbers).enumerate().map(|(g, (group, numbers))| {
            let sorted = numbers.len() > 1 && Parts::sorts_now(group, maker.rules.stock_by_cards,
                if stock_cards.is_empty() { &stock_shown } else { &stock_cards });
            let mut at = 0;
            numbers.iter().map(|&x| {
                // a sorted group: the first number, then the gaps
                at = if sorted { at + x } else { x };
                parts.part(g, at)
            }).collect()
        }).collect();
        (groups, stock)
    }

    #[test]
    fn numbered_keys_round_trip_and_stay_distinct() {
        // suits read or ranks only, face-down cards, piles of every view, groups sorted
        // always and once the stock is out, the stock keyed by its length or its cards
        let mut identity = [0u8; 256];
        let mut ranks = [0u8; 256];
        for i in 0..256 {
            identity[i] = i as u8;
            ranks[i] = if i < 128 { (i & 64 | i & 60) as u8 } else { i as u8 };
        }
        let mut views = vec![VIEW_ALL; 8];
        views.extend_from_slice(&[VIEW_TOP, VIEW_TOP, VIEW_TOP_AND_SIZE, VIEW_TOP_AND_SIZE]);
        for table in [identity, ranks] {
        for stock_by_cards in [false, true] {
        for sorted in [false, true] {
            let rules = KeyRules {
                card_table: table,
                always_sorted: if sorted { vec![(0, 5)] } else { vec![] },
                sorted_when_stock_empty: if sorted { vec![(10, 12)] } else { vec![] },
                stock_by_cards,
                views: views.clone(),
            };
            let root = Position { piles: vec![vec![4, 5]; views.len()], stock: vec![6, 7] };
            let mut maker = KeyMaker::new(&rules, false);
            maker.pack_for(&root);
            let mut plain = KeyMaker::new(&rules, false); // one byte a translated card
            let mut state = 5u64;
            let mut seen: FxHashMap<Vec<u8>, Vec<u8>> = FxHashMap::default();
            let mut numbered: std::collections::HashSet<(usize, Vec<u8>)> = std::collections::HashSet::new();
            let (mut key, mut bytes) = (Vec::new(), Vec::new());
            for _ in 0..20_000 {
                // short piles of few cards (parts shown again and again, ties in the
                // sorted groups), now and then a long one, cards face down now and then
                let piles: Vec<Vec<u8>> = (0..views.len()).map(|_| {
                    let len = next(&mut state) % if next(&mut state).is_multiple_of(8) { 40 } else { 4 };
                    (0..len).map(|_| {
                        let card = 4 + (next(&mut state) % 6) as u8 * 9;
                        if next(&mut state).is_multiple_of(4) { card | FACE_DOWN } else { card }
                    }).collect()
                }).collect();
                let stock: Vec<u8> = (0..next(&mut state) % 3).map(|_| 4 + (next(&mut state) % 3) as u8).collect();
                let pos = Position { piles, stock };
                maker.key(&pos, &mut key);
                // read back: each group's parts (sorted where the key sorts them) and the
                // stock's, as `split` shows them
                let (groups, stock_part) = read_numbered(&maker, &key);
                plain.split(&pos);
                let parts = maker.numbered.as_ref().expect("numbered");
                for (g, (group, got)) in parts.groups.iter().zip(groups).enumerate() {
                    let mut want: Vec<Vec<u8>> = plain.order[group.start..group.stop].iter()
                        .map(|&i| { let (start, len) = plain.parts[i]; plain.cards[start..start + len].to_vec() })
                        .collect();
                    // what a table numbers: each part shown; a trie, each beginning of one
                    for part in &want {
                        let firsts = if parts.has_trie(g) { 0 } else { part.len() };
                        for end in firsts..=part.len() {
                            numbered.insert((g, part[..end].to_vec()));
                        }
                    }
                    let mut got = got;
                    if Parts::sorts_now(group, stock_by_cards, &pos.stock) {
                        want.sort();
                        got.sort();
                    }
                    assert_eq!(got, want);
                }
                let stock_want = if stock_by_cards { pos.stock.clone() } else { (pos.stock.len() as u16).to_le_bytes().to_vec() };
                assert_eq!(stock_part, stock_want);
                numbered.insert((parts.groups.len(), stock_want));
                plain.key(&pos, &mut bytes);
                if let Some(before) = seen.insert(key.clone(), bytes.clone()) {
                    assert_eq!(before, bytes, "two byte keys numbered alike");
                }
            }
            // as many distinct numbered keys as distinct byte keys, and parts shown again
            let distinct: std::collections::HashSet<&Vec<u8>> = seen.values().collect();
            assert_eq!(distinct.len(), seen.len());
            assert!(seen.len() > 10_000, "{}", seen.len());
            // each numbered once, and parts shown again
            assert_eq!(maker.parts(), numbered.len());
            assert!(maker.parts() < 12 * 20_000 * 4, "{}", maker.parts());
        }
        }
        }
    }

    /// Fourteen piles of every view (each card its own key), a group always sorted and one
    /// sorted once the stock is out, and a deck dealt round them.
    fn mixed_views() -> (KeyRules, Position) {
        let mut identity = [0u8; 256];
        for (i, t) in identity.iter_mut().enumerate() {
            *t = i as u8;
        }
        let mut views = vec![VIEW_ALL; 10];
        views.extend_from_slice(&[VIEW_TOP, VIEW_TOP, VIEW_TOP_AND_SIZE, VIEW_TOP_AND_SIZE]);
        let mut piles: Vec<Vec<u8>> = vec![Vec::new(); views.len()];
        for card in 0..52u8 {
            piles[card as usize % views.len()].push(4 + card);
        }
        let rules = KeyRules {
            card_table: identity,
            always_sorted: vec![(0, 6)],
            sorted_when_stock_empty: vec![(12, 14)],
            stock_by_cards: false,
            views,
        };
        (rules, Position { piles, stock: vec![1, 2, 3] })
    }

    /// Move up to two cards from a pile to another, both chosen at random, marking them.
    fn move_a_run(pos: &mut Position, state: &mut u64, touched: &mut Touched) {
        let n = pos.piles.len() as u64;
        let (s, t) = ((next(state) % n) as usize, (next(state) % n) as usize);
        let k = (next(state) % 3) as usize % (pos.piles[s].len() + 1);
        if s != t && k > 0 {
            let cut = pos.piles[s].len() - k;
            let run: Vec<u8> = pos.piles[s].drain(cut..).collect();
            pos.piles[t].extend(run);
            touched.mark(s);
            touched.mark(t);
        }
    }

    /// Empty the stock, or fill it again, one time in twenty.
    fn toggle_the_stock_now_and_then(pos: &mut Position, state: &mut u64) {
        if next(state).is_multiple_of(20) {
            pos.stock = if pos.stock.is_empty() { vec![1, 2, 3] } else { vec![] };
        }
    }

    /// A maker of numbered keys packed for `pos`, and its key of `pos`.
    fn packed<'r>(rules: &'r KeyRules, pos: &Position) -> (KeyMaker<'r>, Vec<u8>) {
        let mut maker = KeyMaker::new(rules, false);
        maker.pack_for(pos);
        let mut key = Vec::new();
        maker.key(pos, &mut key);
        (maker, key)
    }

    #[test]
    fn a_numbered_key_remade_for_the_touched_piles_is_the_key_made_afresh() {
        // the numbers kept for the piles not touched, a group always sorted (its order kept
        // from key to key) and one sorted once the stock is out, piles of every view
        let (rules, mut pos) = mixed_views();
        let (mut maker, mut key) = packed(&rules, &pos);
        let mut fresh = Vec::new();
        let mut state = 13u64;
        for round in 0..20_000 {
            let mut touched = Touched::NONE;
            for _ in 0..1 + next(&mut state) % 3 {
                move_a_run(&mut pos, &mut state, &mut touched);
            }
            toggle_the_stock_now_and_then(&mut pos, &mut state);
            maker.key_touched(&pos, touched, &mut key);
            maker.key(&pos, &mut fresh);
            assert_eq!(key, fresh, "round {round}");
        }
        assert!(maker.parts() > 1_000);
    }


    #[test]
    fn a_key_read_against_numbers_loaded_back_is_the_key_made_afresh() {
        // the guided search keys a child against its parent's numbers, kept when the
        // parent was keyed and loaded back after other positions were keyed: sorted groups,
        // piles of every view, a pile changed behind the maker's back (`forget`)
        let (rules, mut pos) = mixed_views();
        let views = rules.views.clone();
        let (mut maker, mut key) = packed(&rules, &pos);
        let mut fresh = Vec::new();
        let mut kept: Vec<(Position, Vec<u32>, Touched)> = Vec::new();
        let mut state = 29u64;
        let mut loaded = 0;
        for round in 0..20_000 {
            if !kept.is_empty() && next(&mut state).is_multiple_of(2) {
                let (from, numbers, stale) = kept[next(&mut state) as usize % kept.len()].clone();
                maker.load(&numbers, stale);
                pos = from;
                loaded += 1;
            }
            let mut touched = Touched::NONE;
            move_a_run(&mut pos, &mut state, &mut touched);
            toggle_the_stock_now_and_then(&mut pos, &mut state);
            maker.key_touched(&pos, touched, &mut key);
            if next(&mut state).is_multiple_of(5) {
                let (numbers, stale) = maker.numbers().expect("numbered");
                kept.push((pos.clone(), numbers.to_vec(), stale));
            }
            if next(&mut state).is_multiple_of(11) {
                // a pile changed and the maker told after its key, as the waste of a
                // stock keyed as a cycle
                let pile = (next(&mut state) % views.len() as u64) as usize;
                if let Some(card) = pos.piles[pile].pop() {
                    pos.piles[(pile + 1) % views.len()].push(card);
                    maker.forget(pile);
                    maker.forget((pile + 1) % views.len());
                }
                let (numbers, stale) = maker.numbers().expect("numbered");
                kept.push((pos.clone(), numbers.to_vec(), stale));
            }
            maker.key_touched(&pos, Touched::NONE, &mut key);
            maker.key(&pos, &mut fresh);
            assert_eq!(key, fresh, "round {round}");
        }
        assert!(loaded > 5_000, "{loaded}");
    }

    #[test]
    fn a_pile_keyed_by_its_top_forgets_what_lies_below() {
        let rules = identity_rules(vec![VIEW_ALL, VIEW_TOP, VIEW_TOP_AND_SIZE]);
        let mut maker = KeyMaker::new(&rules, false);
        let a = Position { piles: vec![vec![4], vec![8, 9, 10], vec![12, 13]], stock: vec![] };
        maker.pack_for(&a);
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
