//! Position keys (a port of `SolverRules.key` and `exact_key` in
//! `patience/solver/rules.py`).
//!
//! A key is exact: two positions share a key only when the rules cannot tell them apart
//! (card attributes no rule reads dropped, piles of symmetric groups sorted, a pile no rule
//! reads below its top keyed by its top and size), never by a hash alone, because a verdict
//! "unwinnable" is a proof. A key is first written one byte a card, each pile led by its
//! length (the same parts as Python's key, so both merge the same positions), then packed,
//! straight from the piles. On a deal of one deck whose cards the card table tells apart
//! the packing is the deck code (`write_deck`): each card its rank among the deck's cards
//! not yet written, in mixed radix (`DeckDigits`, about log2(n!) bits for n cards), and
//! the lengths of many piles in unary. Otherwise, and for the positions the deck code cannot
//! write, the plain code (`write_plain`): each card in the bits its translated values need
//! (`card_bits`: 4 when only ranks are read, 6 with suits, 7 with face-down cards as well),
//! each length in the bits the deal's card count needs. Both are fixed injective codes
//! chosen once per solve (a first bit tells them apart), so they merge nothing more.
//!
//! A solve whose keys are compact (the deck code's solves: big or capped ones) writes
//! four things shorter in either code, each a function of the byte key and decodable
//! given the root: a whole pile that begins like a root pile of its group as that pile's
//! number and the cards shared (`write_reference`), the cards left as runs in suit or in
//! rank where that is shorter (`run_mode`), and the stock keyed by its cards and a
//! redeal's waste as subsequences of the root's stock (`write_subsequence`).
//!
//! The keys are stored by `store.rs`.

use crate::moves::{Position, Touched};
use crate::program::{KeyRules, FACE_DOWN};

/// How a pile is keyed (`KeyRules::views`): all its cards, its top card, or its top card
/// and its size.
pub const VIEW_ALL: u8 = 0;
pub const VIEW_TOP: u8 = 1;
pub const VIEW_TOP_AND_SIZE: u8 = 2;

/// The bits that hold every value up to `max`.
fn bits_for(max: usize) -> u32 {
    (usize::BITS - max.leading_zeros()).max(1)
}

/// Where the plain code writes a pile's part: the key's bytes (`BitWriter`), or a pile's
/// kept code (`PileCode`).
trait Sink {
    /// Add `value`, in `bits` bits (at most 64) after those added before.
    fn put(&mut self, value: u64, bits: u32);
}

/// Writes values of a few bits each into bytes, lowest bits first.
struct BitWriter<'o> {
    out: &'o mut Vec<u8>,
    acc: u64,
    filled: u32,
}

impl Sink for BitWriter<'_> {
    /// Eight bytes leave at once (the bytes are the same whatever leaves when: the bits in
    /// order, lowest first, and `finish` the last byte begun).
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
}

impl BitWriter<'_> {

    fn finish(self) {
        let bytes = self.filled.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
    }
}

/// A pile's part in the plain code, kept between keys (`KeyMaker::codes`): its bits, lowest
/// first, and how many; a part longer than `PileCode::MAX` bits is not kept (`LONG`) and is
/// written from the pile.
#[derive(Debug, Clone, Copy, Default)]
struct PileCode {
    bits: u128,
    len: u32,
}

impl PileCode {
    const MAX: u32 = 128;
    const LONG: PileCode = PileCode { bits: 0, len: u32::MAX };
}

impl Sink for PileCode {
    #[inline(always)]
    fn put(&mut self, value: u64, bits: u32) {
        debug_assert!(self.len + bits <= PileCode::MAX);
        self.bits |= (value as u128) << self.len;
        self.len += bits;
    }
}

/// The bits of a pile's part in the plain code (`plain_part`).
#[inline]
fn plain_part_bits(pile: &[u8], view: u8, packing: &Packing) -> u32 {
    let (cb, lb) = (packing.card_bits, packing.length_bits);
    match (view, pile.is_empty()) {
        (VIEW_TOP, true) => 1,
        (VIEW_TOP, false) => 1 + cb,
        (VIEW_TOP_AND_SIZE, true) => lb,
        (VIEW_TOP_AND_SIZE, false) => lb + cb,
        _ => lb + pile.len() as u32 * cb,
    }
}

/// A pile's part in the plain code: a whole pile as its length (`length_bits`) and its
/// cards (`card_bits` each, by the card code, `table`); a pile keyed by its top as one bit
/// (has a top) and the top; by its top and size as the size and, when not empty, the top.
#[inline(always)]
fn plain_part<S: Sink>(w: &mut S, pile: &[u8], view: u8, packing: &Packing, table: &[u8; 256]) {
    let (cb, lb) = (packing.card_bits, packing.length_bits);
    match view {
        VIEW_TOP => match pile.last() {
            None => w.put(0, 1),
            Some(&top) => w.put(1 | (table[top as usize] as u64) << 1, 1 + cb),
        },
        VIEW_TOP_AND_SIZE => match pile.last() {
            None => w.put(0, lb),
            Some(&top) => w.put(pile.len() as u8 as u64 | (table[top as usize] as u64) << lb, lb + cb),
        },
        _ => {
            w.put(pile.len() as u64, lb);
            // two cards a step: at most 2 x 7 bits
            let mut pairs = pile.chunks_exact(2);
            for pair in &mut pairs {
                let two = table[pair[0] as usize] as u64 | (table[pair[1] as usize] as u64) << cb;
                w.put(two, 2 * cb);
            }
            if let [last] = pairs.remainder() {
                w.put(table[*last as usize] as u64, cb);
            }
        }
    }
}

/// A pile's part in the plain code to keep (`KeyMaker::codes`): `plain_part`'s bits, a
/// whole pile of at most 64 of them made in a 64-bit word, card by card; `LONG` past
/// `PileCode::MAX` bits.
#[inline]
fn pile_code(pile: &[u8], view: u8, packing: &Packing, table: &[u8; 256]) -> PileCode {
    let len = plain_part_bits(pile, view, packing);
    if view == VIEW_ALL && len <= 64 {
        // the length, then each card in `card_bits`, lowest first: `plain_part`'s bits
        let (mut bits, mut at) = (pile.len() as u64, packing.length_bits);
        for &card in pile {
            bits |= (table[card as usize] as u64) << at;
            at += packing.card_bits;
        }
        return PileCode { bits: bits as u128, len };
    }
    if len > PileCode::MAX {
        return PileCode::LONG;
    }
    let mut code = PileCode::default();
    plain_part(&mut code, pile, view, packing, table);
    code
}

/// The packing of one search's keys: the card code, the widths, and when the deal allows
/// it the deck code (see `Packing::new`).
#[derive(Debug, Clone)]
pub struct Packing {
    /// translated card value -> its code (`u8::MAX`: a value no card of the deal has)
    code: [u8; 256],
    card_bits: u32,
    length_bits: u32,
    /// card code -> the card's number in the deck, times two, plus one when face down (if
    /// faces are coded), or `u8::MAX`: no card of the deck shows that code
    #[cfg_attr(not(test), allow(dead_code))]
    deck_card: [u8; 256],
    /// a card as positions hold it -> its number in the deck as a bit (0: no card of the
    /// deck), and its face (1: face down, when faces are coded): `deck_card` of its code
    deck_bit: [u64; 256],
    deck_face: [u8; 256],
    /// the digits that open a new chunk, each digit's weight, the bits of a chunk
    /// (`deck_chunks`)
    chunks: u64,
    weights: [u64; 64],
    span_bits: [u8; 65],
    /// the deck's cards, for the deck code; 0 when the deal does not allow it
    deck: u32,
    /// whether a card's digit in the deck code carries its face
    faces: bool,
    /// whether the deck code writes the lengths of whole piles in unary
    unary: bool,
    /// the redeal counter's pile (a pile of `0`s): the deck code writes its length alone
    counter: Option<usize>,
    /// whether the processor counts bits in one instruction (`write_deck_popcnt`)
    popcnt: bool,
    /// the runs of whole piles (`run_mode`): a card one rank below the card it lies on, of
    /// the same suit (and face), shows a card code this much lower; 0 when keys do not
    /// code runs (a solve that stays small, or a card table where a rank lower is no
    /// higher code)
    step: u8,
    /// rank runs (`RANK`): for each card code, the codes of the cards one rank lower with
    /// the same face, of any suit (at most four), how many, and the bits of a choice among
    /// them (0: no rank runs, the table tells no suits apart or keys do not code runs)
    lower: Box<[[u8; 4]; 256]>,
    lower_count: Box<[u8; 256]>,
    rank_bits: u32,
    /// for each pile (by its place in the key), the root piles it may begin like
    /// (`Packing::reference`), or none
    references: Vec<Option<std::sync::Arc<References>>>,
    /// the root position's stock, when keys are compact and the stock is keyed by its
    /// cards (`write_stock`)
    root_stock: Option<Vec<u8>>,
    /// the redeal's waste (empty at the root, in no sorted group), when keys are compact
    /// (`write_subsequence`), and the root's stock as card codes in the order it is dealt
    waste: Option<usize>,
    waste_codes: Vec<u8>,
    /// whether keys are compact (`Packing::new`'s `compact`): the plain code's parts are
    /// then written with root piles, runs and subsequences, and not kept between keys
    compact: bool,
    /// compact keys in the plain code: each card code as a literal (`put_literal`), its
    /// bits (low 24) and how many (high 8): the deal's cards face up (`up_count` letters,
    /// `up_bits` bits each) and the other codes behind an escape, one of the spare values
    /// of `up_bits` and `escape_bits` more; or the card code in `card_bits`
    literal: Box<[u32; 256]>,
    /// card code -> its letter (the deal's cards face up first, then the other codes)
    #[cfg_attr(not(test), allow(dead_code))]
    letter: [u8; 256],
    #[cfg_attr(not(test), allow(dead_code))]
    up_count: u32,
    /// 0 when literals are plain card codes
    up_bits: u32,
    /// compact keys in the plain code with rank runs: each run mode in 2 bits (`mode_bits`;
    /// a two-deck game's columns are mostly runs in rank, which the prefix code gives 3)
    even_modes: bool,
    #[cfg_attr(not(test), allow(dead_code))]
    escape_bits: u32,
    /// compact keys in the plain code: a whole pile's length below 2^`short_length_bits`
    /// is a 0 and the length in those bits, any other a 1 and the length in `length_bits`
    /// (0: always `length_bits`)
    short_length_bits: u32,
}

/// The face-up alphabet of compact keys in the plain code (`Packing::literal`): the codes
/// in `deal` (the deal's cards face up) are letters `0..deal.len()` in `up_bits` bits, the
/// other codes below `codes` an escape (a value of `up_bits` bits past the letters) and
/// `escape_bits` bits; where that saves nothing (no value to spare, or no bit saved), each
/// code in `card_bits`. The literals, the letters, `up_bits` (0 without the alphabet) and
/// `escape_bits`.
fn face_up_alphabet(deal: &[bool; 256], codes: usize, card_bits: u32) -> (Box<[u32; 256]>, [u8; 256], u32, u32) {
    let mut literal = Box::new([0u32; 256]);
    let mut letter = [0u8; 256];
    let up = (0..codes).filter(|&c| deal[c]).count();
    let up_bits = bits_for(up.saturating_sub(1));
    let spare = (1usize << up_bits) - up;
    let others = codes - up;
    let escape_bits = if others <= spare { 0 } else { bits_for(others.div_ceil(spare.max(1)) - 1) };
    if up == 0 || spare == 0 || up_bits >= card_bits {
        for c in 0..256 {
            letter[c] = c as u8;
            literal[c] = (card_bits << 24) | c as u32;
        }
        return (literal, letter, 0, 0);
    }
    let (mut next_up, mut next_other) = (0usize, up);
    for c in 0..codes {
        let l = if deal[c] { &mut next_up } else { &mut next_other };
        letter[c] = *l as u8;
        literal[c] = if *l < up {
            (up_bits << 24) | *l as u32
        } else {
            let v = *l - up;
            ((up_bits + escape_bits) << 24) | ((v & ((1 << escape_bits) - 1)) << up_bits | (up + (v >> escape_bits))) as u32
        };
        *l += 1;
    }
    (literal, letter, up_bits, escape_bits)
}

/// Write the card code `code` as a literal of compact keys in the plain code
/// (`Packing::literal`).
#[inline(always)]
fn put_literal(packing: &Packing, code: u8, w: &mut BitWriter) {
    let literal = packing.literal[code as usize];
    w.put((literal & 0xFF_FFFF) as u64, literal >> 24);
}

/// Write a whole pile's length in compact keys in the plain code
/// (`Packing::short_length_bits`).
#[inline(always)]
fn put_length(packing: &Packing, len: usize, w: &mut BitWriter) {
    let short = packing.short_length_bits;
    if short == 0 {
        w.put(len as u64, packing.length_bits);
    } else if len >> short == 0 {
        w.put((len as u64) << 1, 1 + short);
    } else {
        w.put(1 | (len as u64) << 1, 1 + packing.length_bits);
    }
}

/// The root piles that the whole piles of one group (a sorted group, or a single pile)
/// may begin like: a pile whose first cards are the first cards of one of them is written
/// as which one and how many (`KeyMaker::reference`), a function of its card codes.
#[derive(Debug)]
pub(crate) struct References {
    /// each root pile of the group, as card codes
    parts: Vec<Vec<u8>>,
    /// the same cards face up, as card codes: where a root pile's card shows another code
    /// face up, a pile whose cards after those it shares with the root pile begin with
    /// that card face up (turned up since) is written so (`KeyMaker::reference`)
    turned: Vec<Vec<u8>>,
    /// whether some card of those root piles shows another code face up
    turns: bool,
    /// a card code -> the root piles of the group (a bit each) whose first card shows it
    by_first: [u64; 256],
    /// the bits of the root pile's number in the group, and of the cards shared
    pile_bits: u32,
    count_bits: u32,
}

/// Fewer shared cards than this are written card by card.
const SHARED_FROM: usize = 2;

/// Whether a pile of `len` cards that shares `shared` cards with root pile `r` of `group`
/// gets a bit for its next card turned up: it has a next card, and the root pile's next
/// card shows another code face up.
#[inline(always)]
fn turns(group: &References, r: usize, shared: usize, len: usize) -> bool {
    group.turns && len > shared && group.parts[r].get(shared).is_some_and(|&c| c != group.turned[r][shared])
}

/// How a whole pile of two cards or more is written when keys code runs: its cards one by
/// one (`PLAIN`), or as runs going down (`DOWN`: each card after the first a bit, 1 when
/// its code is the code below it less `Packing::step`, 0 and the card otherwise) or up.
const PLAIN: u8 = 0;
const DOWN: u8 = 1;
const UP: u8 = 2;
/// runs going down in rank, any suit: a card that continues one is a bit and its place
/// among the cards one rank lower than the card below it (`Packing::lower`)
const RANK: u8 = 3;

/// The cheaper way to write a whole pile whose card codes are `codes` (`PLAIN`, `DOWN`,
/// `UP` or `RANK`), a function of the codes alone (so of the byte key): a card that
/// continues a run costs a bit (and its place among the lower cards, for `RANK`), a card
/// outside the runs one bit more than in `PLAIN`, where a card costs `literal` bits.
#[inline]
fn run_mode(pile: &[u8], table: &[u8; 256], packing: &Packing, literal: usize) -> u8 {
    let step = packing.step as i16;
    let (mut down, mut up, mut rank) = (0usize, 0usize, 0usize);
    for pair in pile.windows(2) {
        let (below, above) = (table[pair[0] as usize], table[pair[1] as usize]);
        down += (above as i16 == below as i16 - step) as usize;
        up += (above as i16 == below as i16 + step) as usize;
        if packing.rank_bits > 0 {
            let lower = &packing.lower[below as usize][..packing.lower_count[below as usize] as usize];
            rank += lower.contains(&above) as usize;
        }
    }
    let next = pile.len() - 1;
    // the bits of the mode and of the cards after the first
    let cost = |mode: u8, runs: usize, each: usize| {
        mode_bits(packing, mode).1 as usize + next + runs * each + (next - runs) * literal
    };
    let mut best = (1 + next * literal, PLAIN);
    for (mode, runs, each) in [(DOWN, down, 0), (UP, up, 0), (RANK, rank, packing.rank_bits as usize)] {
        if runs > 0 && (mode != RANK || packing.rank_bits > 0) && cost(mode, runs, each) < best.0 {
            best = (cost(mode, runs, each), mode);
        }
    }
    best.1
}

/// Choose the run mode of a whole pile's cards (`run_mode`, each card written alone
/// costing `card_cost` bits) and write it, where keys code runs and two cards or more are
/// left; else `PLAIN`, writing nothing.
#[inline(always)]
fn put_run_mode(packing: &Packing, cards: &[u8], table: &[u8; 256], card_cost: usize,
                w: &mut BitWriter) -> u8 {
    if packing.step == 0 || cards.len() < 2 {
        return PLAIN;
    }
    let mode = run_mode(cards, table, packing, card_cost);
    let (bits, n) = mode_bits(packing, mode);
    w.put(bits, n);
    mode
}

/// Whether `above` continues the run (of `mode`) from `below`, both card codes: the bits
/// that say so (a 1, and for `RANK` its place among the lower cards) and how many.
#[inline(always)]
fn continues(packing: &Packing, below: u8, above: u8, mode: u8) -> Option<(u64, u32)> {
    let step = packing.step as i16;
    match mode {
        DOWN => (above as i16 == below as i16 - step).then_some((1, 1)),
        UP => (above as i16 == below as i16 + step).then_some((1, 1)),
        _ => {
            let lower = &packing.lower[below as usize][..packing.lower_count[below as usize] as usize];
            let at = lower.iter().position(|&c| c == above)?;
            Some((1 | (at as u64) << 1, 1 + packing.rank_bits))
        }
    }
}

/// A whole pile's run mode as written, a prefix code: `PLAIN` 0, `DOWN` 10, `UP` 11 (110
/// where there are rank runs), `RANK` 111; or where `Packing::even_modes`, the mode in 2
/// bits; its bits and how many.
#[inline(always)]
fn mode_bits(packing: &Packing, mode: u8) -> (u64, u32) {
    if packing.even_modes {
        return (mode as u64, 2);
    }
    match mode {
        PLAIN => (0, 1),
        DOWN => (0b01, 2),
        UP if packing.rank_bits == 0 => (0b11, 2),
        UP => (0b011, 3),
        _ => (0b111, 3),
    }
}

impl Packing {
    /// The packing for the positions of a search from `root`: every card value the table
    /// can give a card of rank 0–15 (face down too when some pile holds face-down cards),
    /// and lengths up to the deal's card count (or the redeal limit, for the counter pile).
    ///
    /// The deck code needs a deal of at most 64 cards, no two alike (one deck), whose
    /// values (face up, and face down too when piles hold face-down cards) all differ in the
    /// card table: then a value names one card of the deck (and its face), and a key can
    /// write each card as its rank among the deck's cards not yet written (`DeckDigits`).
    /// It is chosen only when the deck's digits take fewer bits than `card_bits` a card
    /// (not so when only ranks are read). It writes whole piles' lengths in unary (`n`
    /// ones and a zero) when that costs fewer bits at worst (every card in them, each pile
    /// one bit more) than `length_bits` each.
    pub fn new(
        rules: &KeyRules,
        face_down: bool,
        root: &Position,
        redeal_limit: usize,
        counter: Option<usize>,
        waste: Option<usize>,
        compact: bool,
    ) -> Packing {
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
        let length_bits = bits_for(cards.max(redeal_limit));
        // the deck: the cards of the deal, face up (bit 64 off)
        let mut one_deck = compact && cards <= 64; // the deck code only if `compact`
        let mut in_deck = 0u64;
        let dealt = root.piles.iter().enumerate().filter(|&(i, _)| Some(i) != counter);
        for &card in dealt.flat_map(|(_, pile)| pile).chain(&root.stock) {
            let bit = 1u64 << (card & 63);
            one_deck &= in_deck & bit == 0;
            in_deck |= bit;
        }
        let mut deck_card = [u8::MAX; 256];
        let mut deck = 0u32;
        let faces: &[u8] = if face_down { &[0, FACE_DOWN] } else { &[0] };
        for card in (0..64u8).filter(|&c| in_deck & 1 << c != 0) {
            for (f, &face) in faces.iter().enumerate() {
                let c = code[rules.card_table[(card | face) as usize] as usize] as usize;
                one_deck &= deck_card[c] == u8::MAX; // no two (card, face) show one value
                deck_card[c] = (deck as u8) << 1 | f as u8;
            }
            deck += 1;
        }
        if !one_deck {
            deck = 0;
            deck_card = [u8::MAX; 256];
        }
        let whole_piles = (0..root.piles.len().max(rules.views.len()))
            .filter(|&i| rules.views.get(i).copied().unwrap_or(VIEW_ALL) == VIEW_ALL && Some(i) != counter)
            .count();
        // the deck code only where it is shorter: a deck of few classes of many cards each
        // (only ranks read, say) costs fewer bits a card in the plain code
        let card_bits = bits_for(next.saturating_sub(1) as usize);
        let (chunks, _, span_bits) = deck_chunks(deck, face_down);
        let deck_bits: u32 = (0..deck).filter(|&k| chunks >> k & 1 != 0)
            .map(|k| span_bits[k as usize] as u32)
            .sum::<u32>() + span_bits[deck as usize] as u32;
        if deck_bits >= deck * card_bits {
            deck = 0;
            deck_card = [u8::MAX; 256];
        }
        let (mut deck_bit, mut deck_face) = ([0u64; 256], [0u8; 256]);
        for card in 0..256 {
            let number = deck_card[code[rules.card_table[card] as usize] as usize];
            if number != u8::MAX {
                (deck_bit[card], deck_face[card]) = (1 << (number >> 1), number & 1);
            }
        }
        let (chunks, weights, span_bits) = deck_chunks(deck, face_down);
        // the step of a run: the codes of the two of clubs and the ace of clubs (rank * 4 +
        // suit), if the two's is the higher (any step keeps the code injective: it only
        // decides which piles are written as runs cheaply)
        let ace = code[rules.card_table[4] as usize] as i16;
        let two = code[rules.card_table[8] as usize] as i16;
        let step = if compact && two > ace { (two - ace) as u8 } else { 0 };
        // the cards one rank lower (card = rank * 4 + suit), same face, any suit
        let mut lower = Box::new([[0u8; 4]; 256]);
        let mut lower_count = Box::new([0u8; 256]);
        let mut fits = true;
        for card in 8..64u8 {
            for &face in faces {
                let x = code[rules.card_table[(card | face) as usize] as usize] as usize;
                for suit in 0..4 {
                    let y = code[rules.card_table[((card - 4) & !3 | suit | face) as usize] as usize];
                    let n = lower_count[x] as usize;
                    if !lower[x][..n].contains(&y) {
                        if n == 4 {
                            fits = false;
                        } else {
                            lower[x][n] = y;
                            lower_count[x] += 1;
                        }
                    }
                }
            }
        }
        let most = lower_count.iter().copied().max().unwrap_or(0) as usize;
        let rank_bits = if step > 0 && fits && most >= 2 { bits_for(most - 1) } else { 0 };
        // the groups a whole pile may find its root pile in: its sorted group, or itself
        let slots = root.piles.len();
        let mut references: Vec<Option<std::sync::Arc<References>>> = vec![None; slots];
        if compact {
            let mut groups: Vec<(usize, usize)> = Vec::new();
            for &(start, stop) in rules.always_sorted.iter().chain(&rules.sorted_when_stock_empty) {
                groups.push((start.min(slots), stop.min(slots)));
            }
            for j in 0..slots {
                if !groups.iter().any(|&(start, stop)| start <= j && j < stop) {
                    groups.push((j, j + 1));
                }
            }
            for (start, stop) in groups {
                let whole = (start..stop).all(|j| rules.views.get(j).copied().unwrap_or(VIEW_ALL) == VIEW_ALL
                    && Some(j) != counter);
                let longest = (start..stop).map(|j| root.piles[j].len()).max().unwrap_or(0);
                if !whole || stop - start > 64 || longest < SHARED_FROM {
                    continue;
                }
                let parts: Vec<Vec<u8>> = (start..stop)
                    .map(|j| root.piles[j].iter().map(|&c| code[rules.card_table[c as usize] as usize]).collect())
                    .collect();
                let turned: Vec<Vec<u8>> = (start..stop)
                    .map(|j| root.piles[j].iter()
                        .map(|&c| code[rules.card_table[(c & !FACE_DOWN) as usize] as usize]).collect())
                    .collect();
                let mut by_first = [0u64; 256];
                for (r, part) in parts.iter().enumerate() {
                    if let Some(&first) = part.first() {
                        by_first[first as usize] |= 1 << r;
                    }
                }
                let group = std::sync::Arc::new(References {
                    turns: parts != turned,
                    parts,
                    turned,
                    by_first,
                    pile_bits: bits_for(stop - start - 1) * (stop - start > 1) as u32,
                    count_bits: bits_for(longest),
                });
                for slot in &mut references[start..stop] {
                    *slot = Some(group.clone());
                }
            }
        }
        // compact keys in the plain code: literals in the deal's face-up alphabet, short
        // lengths of whole piles in fewer bits (below twice the cards a whole pile holds on
        // average, about)
        let mut deal = [false; 256];
        if compact {
            let dealt = root.piles.iter().enumerate().filter(|&(i, _)| Some(i) != counter);
            for &card in dealt.flat_map(|(_, pile)| pile).chain(&root.stock) {
                deal[code[rules.card_table[(card & !FACE_DOWN) as usize] as usize] as usize] = true;
            }
        }
        let (literal, letter, up_bits, escape_bits) = face_up_alphabet(&deal, next as usize, card_bits);
        let short = bits_for(cards / whole_piles.max(1));
        let short_length_bits = if compact && short + 1 < length_bits { short } else { 0 };
        Packing {
            literal,
            letter,
            up_count: deal.iter().filter(|&&d| d).count() as u32,
            up_bits,
            even_modes: compact && deck == 0 && rank_bits > 0,
            escape_bits,
            short_length_bits,
            code,
            card_bits,
            length_bits,
            deck_card,
            deck_bit,
            deck_face,
            chunks,
            weights,
            span_bits,
            deck,
            faces: face_down,
            unary: cards + whole_piles < whole_piles * length_bits as usize,
            counter,
            #[cfg(target_arch = "x86_64")]
            popcnt: std::arch::is_x86_feature_detected!("popcnt"),
            #[cfg(not(target_arch = "x86_64"))]
            popcnt: false,
            step,
            lower,
            lower_count,
            rank_bits,
            references,
            root_stock: (compact && rules.stock_by_cards).then(|| root.stock.clone()),
            waste: waste.filter(|&w| compact && w < slots && root.piles[w].is_empty()
                && rules.views.get(w).copied().unwrap_or(VIEW_ALL) == VIEW_ALL
                && !rules.always_sorted.iter().chain(&rules.sorted_when_stock_empty)
                    .any(|&(start, stop)| start <= w && w < stop)),
            waste_codes: root.stock.iter().rev().map(|&c| code[rules.card_table[c as usize] as usize]).collect(),
            compact,
        }
    }
}

/// The cards of a key in the deck code. A card's digit is its rank among the deck's cards
/// not yet written (times two, plus its face, when faces are coded), in radix the number of
/// those cards (times two): `n` cards cost about log2(n!) bits instead of `n` times
/// `card_bits`. The k-th digit's radix is the deck's size less k whatever the cards, so
/// where the digits' 64-bit chunks end is fixed per deal (`Packing::chunks`): a chunk is
/// its digits in mixed radix, the first least significant (each digit times the product of
/// the radices before it in its chunk, `Packing::weights`, fixed too, so no product waits
/// on the one before), closed before the digit whose radix would overflow it and written
/// (in `span_bits`, the bits its radices' product needs) when the next digit opens a new
/// chunk, or at the key's end. A reader that has read the
/// key up to a chunk knows how many digits came before it, so it can split the chunks
/// again and take the digits out of each.
struct DeckDigits {
    /// the deck's cards not yet written, a bit each, and how many
    left: u64,
    count: u32,
    /// the open chunk
    acc: u64,
}

impl DeckDigits {
    fn new(deck: u32) -> DeckDigits {
        let left = if deck >= 64 { u64::MAX } else { (1u64 << deck) - 1 };
        DeckDigits { left, count: deck, acc: 0 }
    }

    /// Add the card `card` (a card as the position holds it); false when it is no card of
    /// the deck or one already written (then the key is written in the plain code).
    #[inline(always)]
    fn card(&mut self, packing: &Packing, w: &mut BitWriter, card: u8) -> bool {
        let bit = packing.deck_bit[card as usize];
        if self.left & bit == 0 {
            return false; // no card of the deck (0), or one written already
        }
        let face = packing.deck_face[card as usize];
        let written = packing.deck - self.count;
        if packing.chunks >> written & 1 != 0 {
            self.close(packing, w, written);
        }
        let rank = (self.left & (bit - 1)).count_ones() as u64;
        let digit = rank << packing.faces as u32 | face as u64;
        self.left ^= bit;
        self.count -= 1;
        self.acc += digit * packing.weights[written as usize];
        true
    }

    /// Write the open chunk, `written` digits into the key.
    #[inline(always)]
    fn close(&mut self, packing: &Packing, w: &mut BitWriter, written: u32) {
        let bits = packing.span_bits[written as usize] as u32;
        w.put(self.acc & 0xFFFF_FFFF, bits.min(32));
        if bits > 32 {
            w.put(self.acc >> 32, bits - 32);
        }
        self.acc = 0;
    }

    #[inline(always)]
    fn finish(mut self, packing: &Packing, w: &mut BitWriter) {
        let written = packing.deck - self.count;
        self.close(packing, w, written);
    }
}

/// The bits of a chunk whose radices multiply to `product`: every value below it.
fn chunk_bits(product: u64) -> u32 {
    u64::BITS - (product - 1).leading_zeros()
}

/// The deck code's chunks for a deck of `deck` cards: the digits that open a new chunk (a
/// bit each), each digit's weight in its chunk, and for each count of digits written, the
/// bits of the chunk they leave open.
fn deck_chunks(deck: u32, faces: bool) -> (u64, [u64; 64], [u8; 65]) {
    let (mut opens, mut weights, mut span_bits) = (0u64, [0u64; 64], [0u8; 65]);
    let mut product = 1u64;
    for k in 0..deck {
        let radix = ((deck - k) as u64) << faces as u32;
        product = match product.checked_mul(radix) {
            Some(p) => {
                weights[k as usize] = product;
                p
            }
            None => {
                opens |= 1 << k;
                weights[k as usize] = 1;
                radix
            }
        };
        span_bits[k as usize + 1] = chunk_bits(product) as u8;
    }
    (opens, weights, span_bits)
}

/// `cards` as a subsequence of `reference` when it is one and that is shorter than
/// `bits` a card: a bit, 1, then for each card of `reference` up to the last one `cards`
/// holds, a bit, 1 for those it holds (the first match, card by card; the number of cards,
/// written before, says when to stop); true. Else a bit, 0, and false (the caller writes
/// the cards).
#[inline]
fn write_subsequence(reference: &[u8], cards: &[u8], map: impl Fn(u8) -> u8, bits: u32, w: &mut BitWriter) -> bool {
    let (mut matched, mut upto) = (0, 0);
    for (i, &card) in reference.iter().enumerate() {
        if matched == cards.len() {
            break;
        }
        if map(cards[matched]) == card {
            matched += 1;
            upto = i + 1;
        }
    }
    if matched < cards.len() || upto >= bits as usize * cards.len() {
        w.put(0, 1);
        return false;
    }
    w.put(1, 1);
    let mut at = 0;
    for part in reference[..upto].chunks(32) {
        let mut mask = 0u64;
        for (i, &card) in part.iter().enumerate() {
            if cards.get(at).map(|&c| map(c)) == Some(card) {
                mask |= 1 << i;
                at += 1;
            }
        }
        w.put(mask, part.len() as u32);
    }
    true
}

/// The stock's cards, where the stock is keyed by them: 7 bits each, or when keys are
/// compact as a subsequence of the root's stock (`write_subsequence`) where it is one: a
/// redeal turns the waste back in the order it came, so a Klondike stock keeps the root's
/// order, less the cards played from the waste.
#[inline]
fn write_stock(packing: &Packing, stock: &[u8], w: &mut BitWriter) {
    if let Some(root) = &packing.root_stock {
        if write_subsequence(root, stock, |c| c, 7, w) {
            return;
        }
    }
    for &card in stock {
        w.put(card as u64, 7);
    }
}

/// The end of a key in the plain code: the stock's length, and with redeals
/// (`stock_by_cards`) its cards (`write_stock`); then the last byte begun.
#[inline(always)]
fn write_stock_part(packing: &Packing, stock_by_cards: bool, pos: &Position, mut w: BitWriter) {
    w.put(pos.stock.len() as u64, packing.length_bits);
    if stock_by_cards {
        write_stock(packing, &pos.stock, &mut w);
    }
    w.finish();
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
    /// what is kept of each pile between keys, as the pile was when a key last read it
    /// (`refresh`): its signature, for the piles of sorted groups (`sort_piles`), and its
    /// part in the plain code (when the packing has no deck code)
    signed: Vec<u64>,
    /// `sort_piles`'s scratch, a slot a pile: a group's signatures in the order being
    /// sorted
    sorting: Vec<u64>,
    codes: Vec<PileCode>,
    /// which piles belong to a sorted group (always or once the stock is out)
    sorted: Vec<bool>,
    /// piles whose kept signature and code are out of date whatever the next key is told
    stale: Touched,
    /// the most bytes a packed key of this search takes (`pack_for`)
    most_bytes: usize,
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
    if view == VIEW_ALL {
        // the part is the pile's cards: the same values, without the iterator's chain
        let shown = &pile[..pile.len().min(7)];
        let mut sig = 0u64;
        for &card in shown {
            sig = sig << 9 | (table[card as usize] as u64 + 1);
        }
        return sig << (9 * (7 - shown.len()));
    }
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
            sorting: Vec::new(),
            codes: Vec::new(),
            sorted: Vec::new(),
            stale: Touched::ALL,
            most_bytes: 0,
        }
    }

    /// Pack the keys of a search from `root` from now on (exact keys are never packed).
    /// Called once, before the first key of a store, since the packing must not change.
    pub fn pack_for(
        &mut self,
        root: &Position,
        face_down: bool,
        redeal_limit: usize,
        counter: Option<usize>,
        waste: Option<usize>,
        compact: bool,
    ) {
        if !self.exact && self.packing.is_none() {
            let packing = Packing::new(self.rules, face_down, root, redeal_limit, counter, waste, compact);
            for (card, slot) in self.translate.iter_mut().enumerate() {
                // injective on the values the table gives, so it merges nothing more
                *slot = packing.code[self.rules.card_table[card] as usize];
            }
            // every pile led by its length and shown whole, each card a digit of at most 7
            // bits or 7 bits (the stock's), each chunk rounded up: a bound, for `reserve`
            let cards = root.piles.iter().map(Vec::len).sum::<usize>() + root.stock.len() + redeal_limit;
            let lengths = root.piles.len() + 1;
            self.most_bytes = (lengths * (packing.length_bits as usize + 2) + cards * 8) / 8 + 32;
            self.packing = Some(packing);
            self.stale = Touched::ALL; // the card code changed what the piles show
        }
    }

    /// Mark pile `pile`'s kept part out of date: the position a key read last changed it
    /// without play and take back telling (`classify`'s waste turned back into the stock).
    pub fn forget(&mut self, pile: usize) {
        self.stale.mark(pile);
    }

    /// Bring what is kept of each pile (`signed`, `codes`) up to date: the piles `touched`,
    /// and those marked stale, changed since the last key; the others are as that key read
    /// them.
    fn refresh(&mut self, pos: &Position, mut touched: Touched) {
        let n = pos.piles.len();
        touched.add(std::mem::replace(&mut self.stale, Touched::NONE));
        if self.codes.len() != n {
            let rules = self.rules;
            self.codes.clear();
            self.codes.resize(n, PileCode::LONG);
            self.signed.clear();
            self.signed.resize(n, 0);
            self.sorted.clear();
            self.sorted.resize(n, false);
            for &(start, stop) in rules.always_sorted.iter().chain(&rules.sorted_when_stock_empty) {
                for flag in &mut self.sorted[start.min(n)..stop.min(n)] {
                    *flag = true;
                }
            }
            touched = Touched::ALL;
        }
        let packing = self.packing.as_ref().expect("packing chosen");
        let plain = !packing.compact;
        let views = &self.rules.views;
        for (word, &bits) in touched.0.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = word * 64 + bits.trailing_zeros() as usize;
                if i >= n {
                    break;
                }
                bits &= bits - 1;
                let pile = &pos.piles[i];
                let view = views.get(i).copied().unwrap_or(VIEW_ALL);
                if self.sorted[i] {
                    self.signed[i] = signature(pile, view, &self.translate);
                }
                if plain {
                    self.codes[i] = pile_code(pile, view, packing, &self.translate);
                }
            }
        }
    }

    /// The key of `pos`, written into `out` (cleared first).
    pub fn key(&mut self, pos: &Position, out: &mut Vec<u8>) {
        self.key_touched(pos, Touched::ALL, out);
    }

    /// The key of `pos`, a position that differs from the one this maker keyed last in the
    /// piles `touched` at most (`Stacks::take_touched`): only their parts are made again.
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
        if self.packing.is_some() {
            self.refresh(pos, touched);
            if self.sorts(pos) {
                self.sort_piles(pos);
                self.write_direct(pos, Some(&self.order), true, out);
            } else {
                self.write_direct(pos, None, true, out);
            }
            #[cfg(debug_assertions)]
            {
                // the same bytes as a key made from nothing
                let mut fresh = Vec::new();
                self.split(pos);
                self.write_direct(pos, Some(&self.order), false, &mut fresh);
                assert_eq!(*out, fresh, "a key kept up to date is the key made afresh");
            }
            return;
        }
        // unpacked: one byte a card, the key the packings are tested against (a search
        // packs from its first key: `pack_for` comes before it)
        self.split(pos);
        self.write_bytes(pos, out);
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
        }
        // (`split` also sets `order`, so the scratch is sized on its own)
        if self.sorting.len() != piles.len() {
            self.sorting.resize(piles.len(), 0);
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
            // a group's piles share a view; their signatures are kept (`refresh`)
            let view = rules.views.get(start).copied().unwrap_or(VIEW_ALL);
            let sigs = &self.signed;
            let less = |a: usize, sig_a: u64, b: usize, sig_b: u64| match sig_a.cmp(&sig_b) {
                std::cmp::Ordering::Equal if sig_a & 0x1FF != 0 => {
                    part_cmp(&piles[a], &piles[b], view, table).is_lt()
                }
                order => order.is_lt(),
            };
            let group = &mut self.order[start..stop];
            // the signatures copied in the group's order and moved with its piles: a
            // comparison reads two neighbours of a small array instead of going through
            // the pile numbers
            let signed = &mut self.sorting[..group.len()];
            for (sig, &pile) in signed.iter_mut().zip(group.iter()) {
                *sig = sigs[pile];
            }
            for k in 1..group.len() {
                let (pile, sig) = (group[k], signed[k]);
                let mut at = k;
                while at > 0 && less(pile, sig, group[at - 1], signed[at - 1]) {
                    group[at] = group[at - 1];
                    signed[at] = signed[at - 1];
                    at -= 1;
                }
                group[at] = pile;
                signed[at] = sig;
            }
        }
    }

    /// The packed key of a position straight from the piles, in their order or in
    /// `order`: in the deck code (`write_deck`) when the packing has one and the position's
    /// cards allow it, else in the plain code (`write_plain`; from the kept parts when
    /// `kept`); with a deck code, a first bit says which (0: the deck code).
    fn write_direct(&self, pos: &Position, order: Option<&[usize]>, kept: bool, out: &mut Vec<u8>) {
        let packing = self.packing.as_ref().expect("packing chosen");
        out.clear();
        if packing.deck > 0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the processor has the instruction (`Packing::new` asked it)
            let written = if packing.popcnt {
                unsafe { self.write_deck_popcnt(packing, pos, order, out) }
            } else {
                self.write_deck(packing, pos, order, out)
            };
            #[cfg(not(target_arch = "x86_64"))]
            let written = self.write_deck(packing, pos, order, out);
            if written {
                return;
            }
            out.clear();
        }
        // the parts are kept only where keys are not compact (no deck code, runs, root
        // piles or waste subsequences)
        if kept && !packing.compact {
            match order {
                Some(order) => self.write_kept(packing, pos, order.iter().copied(), out),
                None => self.write_kept(packing, pos, 0..pos.piles.len(), out),
            }
        } else {
            self.write_plain(packing, pos, order, out);
        }
    }

    /// `write_deck` compiled with the processor's population count (a card's rank among
    /// the cards left is one), where the build's baseline x86-64 lacks it: a fifth faster.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn write_deck_popcnt(&self, packing: &Packing, pos: &Position, order: Option<&[usize]>, out: &mut Vec<u8>) -> bool {
        self.write_deck(packing, pos, order, out)
    }

    /// The deck code: the piles as in the plain code but a whole pile's length in unary
    /// when `unary` says so, the counter pile by its length alone, each card shown a digit
    /// of `DeckDigits` (its chunks written as they close). False (`out` holding rubbish) when
    /// a card shown is no card of the deck, or one shown twice: that depends on the values
    /// shown only, so a position's code stays a function of its byte key, and the first bit
    /// keeps the two codes apart.
    #[inline(always)]
    fn write_deck(&self, packing: &Packing, pos: &Position, order: Option<&[usize]>, out: &mut Vec<u8>) -> bool {
        let lb = packing.length_bits;
        out.reserve(self.most_bytes);
        let mut w = BitWriter { out, acc: 0, filled: 0 };
        w.put(0, 1);
        let mut digits = DeckDigits::new(packing.deck);
        let views = &self.rules.views;
        for j in 0..pos.piles.len() {
            let pile = &pos.piles[order.map_or(j, |o| o[j])];
            match views.get(j).copied().unwrap_or(VIEW_ALL) {
                VIEW_TOP => match pile.last() {
                    None => w.put(0, 1),
                    Some(&top) => {
                        w.put(1, 1);
                        if !digits.card(packing, &mut w, top) {
                            return false;
                        }
                    }
                },
                VIEW_TOP_AND_SIZE => match pile.last() {
                    None => w.put(0, lb),
                    Some(&top) => {
                        w.put(pile.len() as u8 as u64, lb);
                        if !digits.card(packing, &mut w, top) {
                            return false;
                        }
                    }
                },
                _ if packing.counter == Some(j) => w.put(pile.len() as u64, lb),
                _ => {
                    if packing.unary {
                        let mut n = pile.len() as u32;
                        while n >= 32 {
                            w.put(u32::MAX as u64, 32);
                            n -= 32;
                        }
                        w.put((1 << n) - 1, n + 1);
                    } else {
                        w.put(pile.len() as u64, lb);
                    }
                    let rest = self.write_reference(packing, j, pile, &mut w);
                    if !self.write_deck_cards(packing, rest, &mut w, &mut digits) {
                        return false;
                    }
                }
            }
        }
        w.put(pos.stock.len() as u64, lb);
        if self.rules.stock_by_cards {
            write_stock(packing, &pos.stock, &mut w);
        }
        digits.finish(packing, &mut w);
        w.finish();
        true
    }

    /// The plain code: each pile's part (`plain_part`: a whole pile as its length and its
    /// cards, a pile keyed by its top as one bit and the top, by its top and size as the
    /// size and the top); then the stock's length, and with redeals its cards (7 bits
    /// each), as Python's key has them. Sorting permutes piles of one group only, and a
    /// group's piles share a view, so pile `j` of the key has the view of pile `j` of the
    /// position.
    fn write_plain(&self, packing: &Packing, pos: &Position, order: Option<&[usize]>, out: &mut Vec<u8>) {
        out.reserve(self.most_bytes);
        let mut w = BitWriter { out, acc: 0, filled: 0 };
        if packing.deck > 0 {
            w.put(1, 1);
        }
        let views = &self.rules.views;
        for j in 0..pos.piles.len() {
            let pile = &pos.piles[order.map_or(j, |o| o[j])];
            let view = views.get(j).copied().unwrap_or(VIEW_ALL);
            if packing.compact {
                // root piles, runs, the waste, short lengths and face-up literals (compact
                // keys): never kept
                self.write_compact_part(packing, j, pile, view, &mut w);
            } else {
                plain_part(&mut w, pile, view, packing, &self.translate);
            }
        }
        write_stock_part(packing, self.rules.stock_by_cards, pos, w);
    }

    /// `write_plain` from the parts kept by `refresh` (keys that are not compact), the
    /// piles in the key's order `piles`; a part past `PileCode::MAX` bits is written from
    /// its pile.
    #[inline(always)]
    fn write_kept(&self, packing: &Packing, pos: &Position, piles: impl Iterator<Item = usize>,
                  out: &mut Vec<u8>) {
        out.reserve(self.most_bytes);
        let mut w = BitWriter { out, acc: 0, filled: 0 };
        if packing.deck > 0 {
            w.put(1, 1);
        }
        let views = &self.rules.views;
        for (j, i) in piles.enumerate() {
            let code = self.codes[i];
            if code.len <= 64 {
                w.put(code.bits as u64, code.len);
            } else if code.len <= PileCode::MAX {
                w.put(code.bits as u64, 64);
                w.put((code.bits >> 64) as u64, code.len - 64);
            } else {
                let view = views.get(j).copied().unwrap_or(VIEW_ALL);
                plain_part(&mut w, &pos.piles[i], view, packing, &self.translate);
            }
        }
        write_stock_part(packing, self.rules.stock_by_cards, pos, w);
    }

    /// A pile's part in the plain code of compact keys: a whole pile as its length
    /// (`put_length`), then its root pile (`write_reference`) and its cards
    /// (`write_plain_cards`); a pile keyed by its top as a bit (has a top) and the top as a
    /// literal (`put_literal`); by its top and size as a bit (not empty), the size and the top.
    #[inline]
    fn write_compact_part(&self, packing: &Packing, j: usize, pile: &[u8], view: u8, w: &mut BitWriter) {
        match (view, pile.last()) {
            (VIEW_ALL, _) => {
                put_length(packing, pile.len(), w);
                let rest = self.write_reference(packing, j, pile, w);
                self.write_plain_cards(packing, rest, w);
            }
            (_, None) => w.put(0, 1),
            (VIEW_TOP, Some(&top)) => {
                w.put(1, 1);
                put_literal(packing, self.translate[top as usize], w);
            }
            (_, Some(&top)) => {
                w.put(1 | (pile.len() as u8 as u64) << 1, 1 + packing.length_bits);
                put_literal(packing, self.translate[top as usize], w);
            }
        }
    }

    /// The root pile of `group` that the whole pile `pile` begins like and how many cards
    /// they share (the root pile that shares the most, the first of those), and whether
    /// the pile's next card is the root pile's next card turned up (`turns`), when the
    /// cards covered so are at least `SHARED_FROM`; a function of the pile's card codes.
    #[inline]
    fn reference(&self, group: &References, pile: &[u8]) -> Option<(usize, usize, bool)> {
        let table = &self.translate;
        let mut candidates = group.by_first[table[*pile.first()? as usize] as usize];
        let mut best: Option<(usize, usize)> = None;
        while candidates != 0 {
            let r = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let shared = group.parts[r].iter().zip(pile)
                .take_while(|&(&root, &card)| root == table[card as usize])
                .count();
            if best.is_none_or(|(_, most)| shared > most) {
                best = Some((r, shared));
            }
        }
        let (r, shared) = best?;
        let turned = turns(group, r, shared, pile.len())
            && group.turned[r][shared] == table[pile[shared] as usize];
        (shared + turned as usize >= SHARED_FROM).then_some((r, shared, turned))
    }

    /// For a whole pile of at least `SHARED_FROM` cards at place `j` of the key, where the
    /// packing has root piles for it: a bit, 1 when it begins like one of them
    /// (`reference`), followed by that pile's number in its group, the cards they share
    /// and, where the pile has a next card and the root pile's next card shows another
    /// code face up, a bit: 1 when the pile's next card is that card turned up. The cards
    /// left to write.
    /// The redeal's waste instead (`Packing::waste`), when keys are compact: as a
    /// subsequence of the root's stock in the order it is dealt, where it is one (then no
    /// card is left to write).
    #[inline]
    fn write_reference<'p>(&self, packing: &Packing, j: usize, pile: &'p [u8], w: &mut BitWriter) -> &'p [u8] {
        if packing.waste == Some(j) && !pile.is_empty() {
            let table = &self.translate;
            let written = write_subsequence(&packing.waste_codes, pile, |c| table[c as usize], 4, w);
            return if written { &[] } else { pile };
        }
        match packing.references.get(j) {
            Some(Some(group)) if pile.len() >= SHARED_FROM => match self.reference(group, pile) {
                Some((r, shared, turned)) => {
                    w.put(1 | (r as u64) << 1 | (shared as u64) << (1 + group.pile_bits),
                          1 + group.pile_bits + group.count_bits);
                    if turns(group, r, shared, pile.len()) {
                        w.put(turned as u64, 1);
                    }
                    &pile[shared + turned as usize..]
                }
                None => {
                    w.put(0, 1);
                    pile
                }
            },
            _ => pile,
        }
    }

    /// The cards of a whole pile (after those `write_reference` wrote) in the plain code of
    /// compact keys: where keys code runs and two cards or more are left, their `run_mode`
    /// (`mode_bits`), then card by card (each a literal, `put_literal`) or the first card
    /// and, for each next one, the bits that say it continues the run (`continues`), or 0
    /// and the card.
    #[inline]
    fn write_plain_cards(&self, packing: &Packing, cards: &[u8], w: &mut BitWriter) {
        let table = &self.translate;
        let cost = if packing.up_bits > 0 { packing.up_bits } else { packing.card_bits };
        let mode = put_run_mode(packing, cards, table, cost as usize, w);
        if mode == PLAIN {
            // two cards a step: at most 2 x 24 bits
            let mut pairs = cards.chunks_exact(2);
            for pair in &mut pairs {
                let (a, b) = (packing.literal[table[pair[0] as usize] as usize], packing.literal[table[pair[1] as usize] as usize]);
                w.put((a & 0xFF_FFFF) as u64 | ((b & 0xFF_FFFF) as u64) << (a >> 24), (a >> 24) + (b >> 24));
            }
            if let [last] = pairs.remainder() {
                put_literal(packing, table[*last as usize], w);
            }
        } else {
            put_literal(packing, table[cards[0] as usize], w);
            for pair in cards.windows(2) {
                let (below, above) = (table[pair[0] as usize], table[pair[1] as usize]);
                match continues(packing, below, above, mode) {
                    Some((bits, n)) => w.put(bits, n),
                    None => {
                        let literal = packing.literal[above as usize];
                        w.put(((literal & 0xFF_FFFF) as u64) << 1, 1 + (literal >> 24));
                    }
                }
            }
        }
    }

    /// `write_plain_cards` in the deck code: each card written a digit (`DeckDigits`); a
    /// card that continues a run is no digit (the cards not yet written still hold it,
    /// which costs no bits: a digit's radix is fixed by how many digits came before it).
    /// False when a card written is no card of the deck, or one written already.
    #[inline(always)]
    fn write_deck_cards(&self, packing: &Packing, cards: &[u8], w: &mut BitWriter, digits: &mut DeckDigits) -> bool {
        let table = &self.translate;
        let mode = put_run_mode(packing, cards, table, 5, w);
        if mode == PLAIN {
            for &card in cards {
                if !digits.card(packing, w, card) {
                    return false;
                }
            }
            return true;
        }
        if !digits.card(packing, w, cards[0]) {
            return false;
        }
        for pair in cards.windows(2) {
            match continues(packing, table[pair[0] as usize], table[pair[1] as usize], mode) {
                Some((bits, n)) => w.put(bits, n),
                None => {
                    w.put(0, 1);
                    if !digits.card(packing, w, pair[1]) {
                        return false;
                    }
                }
            }
        }
        true
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

    /// The same key packed from the parts `split` made and the order it chose: the bytes
    /// `write_direct` writes in that order (a unit test checks that this order gives the
    /// keys of `sort_piles`'s).
    #[cfg(test)]
    fn write_packed(&self, pos: &Position, out: &mut Vec<u8>) {
        self.write_direct(pos, Some(&self.order), false, out);
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
        maker.pack_for(&a, false, 0, None, None, true);
        maker.key(&a, &mut ka);
        maker.key(&b, &mut kb);
        assert_eq!(ka, kb);
        let mut exact = KeyMaker::new(&rules, true);
        exact.key(&a, &mut ka);
        exact.key(&b, &mut kb);
        assert_ne!(ka, kb);
    }

    /// One card of a whole pile as the key writes it: a card code, the next digit of the
    /// deck code, or a card that continues a run from the card below it.
    #[derive(Clone, Copy)]
    enum Written {
        Code(u8),
        Digit,
        Continues(u8, usize), // the mode, and for RANK the place among the lower cards
    }

    /// Read a whole pile's cards after its length (`write_reference`, then
    /// `write_plain_cards` or `write_deck_cards`): `literal` reads a card written whole.
    fn read_whole(p: &Packing, j: usize, len: usize, get: &mut dyn FnMut(u32) -> u64,
                  literal: &mut dyn FnMut(&mut dyn FnMut(u32) -> u64) -> Written) -> Vec<Written> {
        let mut out = Vec::new();
        if p.waste == Some(j) && len > 0 {
            if get(1) == 1 {
                for &code in &p.waste_codes {
                    if out.len() == len {
                        break;
                    }
                    if get(1) == 1 {
                        out.push(Written::Code(code));
                    }
                }
                assert_eq!(out.len(), len);
                return out;
            }
        } else if let Some(Some(group)) = p.references.get(j) {
            if len >= SHARED_FROM && get(1) == 1 {
                let r = get(group.pile_bits) as usize;
                let shared = get(group.count_bits) as usize;
                out.extend(group.parts[r][..shared].iter().map(|&c| Written::Code(c)));
                if turns(group, r, shared, len) && get(1) == 1 {
                    out.push(Written::Code(group.turned[r][shared]));
                }
                assert!(out.len() >= SHARED_FROM);
            }
        }
        let rest = len - out.len();
        let mode = if p.step > 0 && rest >= 2 && p.even_modes {
            get(2) as u8
        } else if p.step == 0 || rest < 2 || get(1) == 0 {
            PLAIN
        } else if get(1) == 0 {
            DOWN
        } else if p.rank_bits == 0 || get(1) == 0 {
            UP
        } else {
            RANK
        };
        for k in 0..rest {
            if mode != PLAIN && k > 0 && get(1) == 1 {
                let at = if mode == RANK { get(p.rank_bits) as usize } else { 0 };
                out.push(Written::Continues(mode, at));
            } else {
                let card = literal(get);
                out.push(card);
            }
        }
        out
    }

    /// The stock's `n` cards as `write_stock` wrote them.
    fn read_stock(p: &Packing, n: usize, get: &mut dyn FnMut(u32) -> u64) -> Vec<u8> {
        match &p.root_stock {
            Some(root) if get(1) == 1 => {
                let mut cards = Vec::new();
                for &card in root {
                    if cards.len() == n {
                        break;
                    }
                    if get(1) == 1 {
                        cards.push(card);
                    }
                }
                assert_eq!(cards.len(), n);
                cards
            }
            _ => (0..n).map(|_| get(7) as u8).collect(),
        }
    }

    /// The codes of a whole pile read by `read_whole`, its digits taken from `digits`.
    fn resolve(p: &Packing, cards: &[Written], digits: &mut dyn Iterator<Item = u8>) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        for &card in cards {
            let code = match card {
                Written::Code(code) => code,
                Written::Digit => digits.next().expect("a digit"),
                Written::Continues(mode, at) => {
                    let below = *out.last().expect("a card below");
                    match mode {
                        DOWN => (below as i16 - p.step as i16) as u8,
                        UP => (below as i16 + p.step as i16) as u8,
                        _ => {
                            assert!(at < p.lower_count[below as usize] as usize);
                            p.lower[below as usize][at]
                        }
                    }
                }
            };
            out.push(code);
        }
        out
    }

    /// Undo `write_direct` (for the tests: the search never needs to), giving the key
    /// one byte a card code, as `write_bytes` writes it.
    fn unpack(p: &Packing, packed: &[u8], views: &[u8], stock_by_cards: bool) -> Vec<u8> {
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
        if p.deck > 0 && get(1) == 0 {
            return unpack_deck(p, &mut get, views, stock_by_cards);
        }
        // compact keys: the face-up alphabet's literals (`put_literal`), short lengths
        // (`put_length`), a top and size pile's bit
        assert!(p.compact);
        let literal = |get: &mut dyn FnMut(u32) -> u64| -> u8 {
            if p.up_bits == 0 {
                return get(p.card_bits) as u8;
            }
            let (up, a) = (p.up_count as u64, get(p.up_bits));
            let letter = if a < up { a } else { up + ((a - up) << p.escape_bits | get(p.escape_bits)) };
            let codes: Vec<usize> = (0..256).filter(|&c| p.literal[c] >> 24 != 0 && p.letter[c] as u64 == letter).collect();
            assert_eq!(codes.len(), 1, "a letter names one code");
            codes[0] as u8
        };
        let mut out = Vec::new();
        for (j, &view) in views.iter().enumerate() {
            match view {
                VIEW_TOP => {
                    if get(1) == 1 {
                        let top = literal(&mut get);
                        out.extend_from_slice(&[1, top]);
                    } else {
                        out.push(0);
                    }
                }
                VIEW_TOP_AND_SIZE => {
                    if get(1) == 0 {
                        out.push(0);
                    } else {
                        let size = get(p.length_bits) as u8;
                        assert!(size > 0);
                        let top = literal(&mut get);
                        out.extend_from_slice(&[2, top, size]);
                    }
                }
                _ => {
                    let len = if p.short_length_bits > 0 && get(1) == 0 {
                        get(p.short_length_bits)
                    } else {
                        get(p.length_bits)
                    } as usize;
                    let cards = read_whole(p, j, len, &mut get, &mut |get| Written::Code(literal(get)));
                    out.push(len as u8);
                    out.extend(resolve(p, &cards, &mut std::iter::empty()));
                }
            }
        }
        let n = get(p.length_bits);
        if stock_by_cards {
            out.push(0xFE);
            out.extend(read_stock(p, n as usize, &mut get));
        } else {
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        out
    }

    /// `unpack` of a key in the deck code, after its first bit.
    fn unpack_deck(p: &Packing, get: &mut dyn FnMut(u32) -> u64, views: &[u8], stock_by_cards: bool) -> Vec<u8> {
        // first the shape (each pile's view and cards) and the chunks, read where the
        // digit that opens the next one comes, and the last at the end
        let mut shape: Vec<(u8, usize, Vec<Written>)> = Vec::new();
        let chunks = std::cell::RefCell::new(Vec::new());
        let digits = std::cell::Cell::new(0u32);
        let digit = |get: &mut dyn FnMut(u32) -> u64| {
            let d = digits.get();
            if p.chunks >> d & 1 != 0 {
                chunks.borrow_mut().push((d, get(p.span_bits[d as usize] as u32)));
            }
            digits.set(d + 1);
            Written::Digit
        };
        for (j, &view) in views.iter().enumerate() {
            let (len, cards) = match view {
                VIEW_TOP | VIEW_TOP_AND_SIZE => {
                    let len = get(if view == VIEW_TOP { 1 } else { p.length_bits }) as usize;
                    (len, if len > 0 { vec![digit(get)] } else { vec![] })
                }
                _ => {
                    let len = if p.unary {
                        let mut n = 0;
                        while get(1) == 1 {
                            n += 1;
                        }
                        n
                    } else {
                        get(p.length_bits) as usize
                    };
                    (len, read_whole(p, j, len, get, &mut |get| digit(get)))
                }
            };
            shape.push((view, len, cards));
        }
        let stock = get(p.length_bits) as usize;
        let stock_cards: Vec<u8> = if stock_by_cards { read_stock(p, stock, get) } else { vec![] };
        let digits = digits.get();
        let mut chunks = chunks.into_inner();
        chunks.push((digits, get(p.span_bits[digits as usize] as u32)));
        // then each chunk's digits, the first least significant
        let face = p.faces as u64;
        let radix = |k: u32| (p.deck as u64 - k as u64) << face;
        let mut values = vec![0u64; digits as usize];
        let mut start = 0;
        for (end, mut chunk) in chunks {
            for k in start..end {
                values[k as usize] = chunk % radix(k);
                chunk /= radix(k);
            }
            assert_eq!(chunk, 0, "a chunk holds its digits only");
            start = end;
        }
        let mut code_of = [u8::MAX; 256];
        for (code, &number) in p.deck_card.iter().enumerate() {
            if number != u8::MAX {
                code_of[number as usize] = code as u8;
            }
        }
        let mut left: Vec<u8> = (0..p.deck as u8).collect();
        let mut cards = values.into_iter().map(|digit| {
            let card = left.remove((digit >> face) as usize);
            code_of[((card as u64) << 1 | digit & face) as usize]
        });
        let mut out = Vec::new();
        for (view, len, written) in shape {
            let codes = resolve(p, &written, &mut cards);
            match (view, len) {
                (_, 0) => out.push(0),
                (VIEW_TOP, _) => out.extend_from_slice(&[1, codes[0]]),
                (VIEW_TOP_AND_SIZE, _) => out.extend_from_slice(&[2, codes[0], len as u8]),
                _ => {
                    out.push(len as u8);
                    out.extend(codes);
                }
            }
        }
        if stock_by_cards {
            out.push(0xFE);
            out.extend_from_slice(&stock_cards);
        } else {
            out.extend_from_slice(&(stock as u16).to_be_bytes());
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
        // a few whole piles (lengths in `length_bits`) or many (in unary)
        let few = vec![VIEW_ALL, VIEW_ALL, VIEW_ALL, VIEW_TOP, VIEW_TOP_AND_SIZE, VIEW_TOP_AND_SIZE];
        let mut many = vec![VIEW_ALL; 12];
        many.extend_from_slice(&[VIEW_TOP, VIEW_TOP_AND_SIZE, VIEW_TOP_AND_SIZE]);
        // (face-down cards or not: with them the deck code writes each card's face)
        // one deck or two (each card twice: more than the deck code's 64 cards)
        // (ranks only: 13 classes of four cards, shorter in the plain code)
        let cases = [(identity, true, 7, 1, true), (identity, false, 6, 1, true), (ranks, true, 5, 1, false),
                     (identity, true, 7, 2, false)];
        for (table, face_down, bits, decks, deck_code) in cases {
        for (views, unary) in [(&few, false), (&many, true)] {
        for stock_by_cards in [false, true] {
        // a sorted group too: the straight path must not be taken where split sorts
        for sorted in [false, true] {
            let n = views.len();
            let rules = KeyRules {
                card_table: table,
                // a group of whole piles, and one of piles keyed by their top and size
                // sorted only once the stock is out (the keys before sorted it or not)
                always_sorted: if sorted { vec![(0, n - 3)] } else { vec![] },
                sorted_when_stock_empty: if sorted { vec![(n - 2, n)] } else { vec![] },
                stock_by_cards,
                views: views.clone(),
            };
            // the root: a deal of the deck(s) into the piles (all but each top face down,
            // where piles hold face-down cards), the rest in the stock
            let mut state = 3u64;
            let mut deck: Vec<u8> = (0..52 * decks).map(|c| 4 + (c % 52) as u8).collect();
            for i in (1..deck.len()).rev() {
                deck.swap(i, (next(&mut state) % (i as u64 + 1)) as usize);
            }
            // the last whole pile a redeal's waste (empty at the root): written as cards of
            // the root's stock where it can be (unless it is in a sorted group)
            let waste = n - 4;
            let root_piles: Vec<Vec<u8>> = (0..views.len()).map(|i| {
                if i == waste {
                    return vec![];
                }
                let len = 1 + (i + next(&mut state) as usize) % 6;
                let mut pile: Vec<u8> = deck.split_off(deck.len() - len);
                for card in &mut pile[..len - 1] {
                    *card |= if face_down { 64 } else { 0 };
                }
                pile
            }).collect();
            let root = Position { piles: root_piles, stock: deck };
            let mut maker = KeyMaker::new(&rules, false);
            maker.pack_for(&root, face_down, 0, None, Some(waste), true);
            let mut plain = KeyMaker::new(&rules, false); // one byte a translated card
            let packing = maker.packing.clone().expect("packed");
            assert_eq!((packing.card_bits, packing.length_bits), (bits, 5 + decks as u32));
            assert_eq!((packing.deck, packing.unary), (if deck_code { 52 * decks as u32 } else { 0 }, unary && decks == 1));
            // the face-up alphabet where piles hold face-down cards (the codes face up are
            // the deal's cards and more), short lengths where many piles share the cards
            assert_eq!(packing.up_bits > 0, face_down);
            assert_eq!(packing.short_length_bits > 0, unary);
            // a solve that will stay small keeps the plain code, the faster one to write
            let plain_only = Packing::new(&rules, face_down, &root, 0, None, Some(waste), false);
            assert_eq!((plain_only.deck, plain_only.card_bits), (0, bits));
            let mut state = 7u64;
            let mut seen: FxHashMap<Vec<u8>, Vec<u8>> = FxHashMap::default();
            let (mut key, mut bytes) = (Vec::new(), Vec::new());
            let (mut in_deck_code, mut referenced, mut in_runs, mut in_rank_runs) = (0, 0, 0, 0);
            let mut turned_up = 0;
            for round in 0..20_000 {
                // every other position dealt from the deck (each card once, as in play:
                // the deck code), the others drawn with repeats (the plain code)
                let dealt = round % 2 == 0;
                let mut deck: Vec<u8> = (0..52 * decks).map(|c| 4 + (c % 52) as u8).collect();
                for i in (1..deck.len()).rev() {
                    deck.swap(i, (next(&mut state) % (i as u64 + 1)) as usize);
                }
                let mut piles: Vec<Vec<u8>> = Vec::new();
                // a card of the deck, taken out of it (dealt positions: each card once)
                let take = |deck: &mut Vec<u8>, card: u8| -> bool {
                    match deck.iter().position(|&c| c == card & 63) {
                        Some(at) => {
                            deck.swap_remove(at);
                            true
                        }
                        None => !dealt,
                    }
                };
                for i in 0..views.len() {
                    // now and then a long pile: its cards fill several pieces
                    let len = (next(&mut state) % if next(&mut state) % 8 == 0 { 16 } else { 5 }) as usize;
                    // now and then a pile of two cards only: long common beginnings, for
                    // the sort's signatures to tie and compare the whole piles
                    let narrow = next(&mut state) % 3 == 0;
                    let mut pile: Vec<u8> = Vec::new();
                    if i == waste && next(&mut state) % 2 == 0 {
                        // cards dealt from the root's stock, some played since
                        for &card in root.stock.iter().rev() {
                            if pile.len() < len && next(&mut state) % 3 != 0 && take(&mut deck, card) {
                                pile.push(card);
                            }
                        }
                    }
                    // now and then the root pile's first cards (written as the root pile
                    // and how many: `write_reference`), of this pile or another one
                    if next(&mut state) % 3 == 0 {
                        let from = &root.piles[if next(&mut state) % 4 == 0 { next(&mut state) as usize % views.len() } else { i }];
                        let shared = next(&mut state) as usize % (from.len() + 1);
                        for &card in from.iter().take(shared) {
                            if !take(&mut deck, card) {
                                break;
                            }
                            pile.push(card);
                        }
                        // now and then the root pile's next card, turned up since
                        if let Some(&card) = from.get(pile.len()).filter(|_| next(&mut state) % 2 == 0) {
                            if take(&mut deck, card) {
                                pile.push(card & !FACE_DOWN);
                            }
                        }
                    }
                    // now and then runs (`run_mode`): a card of the same suit and face, a
                    // rank lower or higher than the one below it
                    let run = next(&mut state) % 3; // 1: down, 2: up
                    while pile.len() < len {
                        let below = pile.last().copied();
                        let card = match below {
                            Some(below) if run > 0 && next(&mut state) % 6 != 0 => {
                                let card = if run == 1 { below.wrapping_sub(4) } else { below + 4 };
                                // half the runs down change suit (a rank run)
                                let card = if run == 1 && next(&mut state) % 2 == 0 {
                                    card & !3 | (next(&mut state) % 4) as u8
                                } else {
                                    card
                                };
                                if card & 63 < 4 || card & 63 >= 56 || !take(&mut deck, card) {
                                    break;
                                }
                                card
                            }
                            _ => {
                                let card = if dealt {
                                    match deck.pop() {
                                        Some(card) => card,
                                        None => break,
                                    }
                                } else {
                                    4 + (next(&mut state) % if narrow { 2 } else { 52 }) as u8
                                };
                                if face_down && next(&mut state) % 4 == 0 { card | 64 } else { card }
                            }
                        };
                        pile.push(card);
                    }
                    piles.push(pile);
                }
                // the stock: a few cards drawn, or the root's stock with cards taken out
                let stock: Vec<u8> = if next(&mut state) % 2 == 0 {
                    (0..next(&mut state) % 4).map(|_| 4 + (next(&mut state) % 52) as u8).collect()
                } else {
                    root.stock.iter().copied().filter(|_| next(&mut state) % 3 != 0).collect()
                };
                let pos = Position { piles, stock };
                maker.key(&pos, &mut key);
                in_deck_code += (deck_code && key[0] & 1 == 0) as usize;
                let mut packed = Vec::new();
                maker.split(&pos);
                maker.write_packed(&pos, &mut packed);
                assert_eq!(key, packed, "written straight from the piles, the same bytes");
                maker.write_bytes(&pos, &mut bytes);
                assert_eq!(unpack(&packing, &key, &views, stock_by_cards), bytes);
                for (j, &i) in maker.order.iter().enumerate() {
                    let pile = &pos.piles[i];
                    if let (Some(Some(group)), true) = (packing.references.get(j), pile.len() >= SHARED_FROM) {
                        let found = maker.reference(group, pile);
                        referenced += found.is_some() as usize;
                        turned_up += found.is_some_and(|(_, _, turned)| turned) as usize;
                    }
                    in_runs += (pile.len() >= 2 && run_mode(pile, &maker.translate, &packing, 5) != PLAIN) as usize;
                    in_rank_runs += (pile.len() >= 2 && run_mode(pile, &maker.translate, &packing, 5) == RANK) as usize;
                }
                plain.key(&pos, &mut bytes);
                if let Some(before) = seen.insert(key.clone(), bytes.clone()) {
                    assert_eq!(before, bytes, "two byte keys packed alike");
                }
            }
            // the dealt positions (and a few drawn without a repeat) in the deck code
            assert!(in_deck_code >= if deck_code { 10_000 } else { 0 }, "{in_deck_code}");
            // runs and root piles were written so
            assert!(packing.step > 0 && packing.references.iter().any(Option::is_some));
            assert!(referenced > 1_000 && in_runs > 1_000, "{referenced} {in_runs}");
            // and a root pile's next card turned up, where piles hold face-down cards
            assert!(!face_down || turned_up > 1_000, "{turned_up}");
            // runs in rank, any suit, where the card table reads suits
            assert!(packing.rank_bits == 0 || in_rank_runs > 1_000, "{in_rank_runs}");
            // and the other way: as many distinct packed keys as distinct byte keys
            let distinct: std::collections::HashSet<&Vec<u8>> = seen.values().collect();
            assert_eq!(distinct.len(), seen.len());
            assert!(seen.len() > 10_000);
        }
        }
        }
        }
    }

    #[test]
    fn a_key_remade_for_the_touched_piles_is_the_key_made_afresh() {
        // piles of every view, a group always sorted and one sorted once the stock is out,
        // short piles and long ones (past a kept part's 128 bits), both codes
        let mut identity = [0u8; 256];
        for (i, t) in identity.iter_mut().enumerate() {
            *t = i as u8;
        }
        let mut views = vec![VIEW_ALL; 10];
        views.extend_from_slice(&[VIEW_TOP, VIEW_TOP, VIEW_TOP_AND_SIZE, VIEW_TOP_AND_SIZE]);
        for (compact, always) in [(false, true), (true, true), (false, false)] {
            let rules = KeyRules {
                card_table: identity,
                // (without a group always sorted, no key sorts while the stock is out)
                always_sorted: if always { vec![(0, 6)] } else { vec![] },
                sorted_when_stock_empty: vec![(12, 14)],
                stock_by_cards: false,
                views: views.clone(),
            };
            let mut deck: Vec<u8> = (0..52).map(|c| 4 + c as u8).collect();
            let mut state = 11u64;
            let mut piles: Vec<Vec<u8>> = vec![Vec::new(); views.len()];
            for (i, card) in deck.drain(..).enumerate() {
                piles[i % views.len()].push(card);
            }
            let mut pos = Position { piles, stock: vec![1, 2, 3] };
            let root = pos.clone();
            let mut kept = KeyMaker::new(&rules, false);
            kept.pack_for(&root, false, 0, None, None, compact);
            let (mut key, mut fresh) = (Vec::new(), Vec::new());
            kept.key(&pos, &mut key);
            for round in 0..20_000 {
                // move a few runs between piles (now and then a long one onto one pile),
                // marking what changed; now and then the stock runs out or comes back
                let mut touched = Touched::NONE;
                for _ in 0..1 + next(&mut state) % 3 {
                    let n = views.len() as u64;
                    let (s, t) = ((next(&mut state) % n) as usize, (next(&mut state) % n) as usize);
                    let most = if round % 50 == 0 { 40 } else { 3 };
                    let k = (next(&mut state) % most) as usize % (pos.piles[s].len() + 1);
                    if s != t && k > 0 {
                        let cut = pos.piles[s].len() - k;
                        let run: Vec<u8> = pos.piles[s].drain(cut..).collect();
                        pos.piles[t].extend(run);
                        touched.mark(s);
                        touched.mark(t);
                    }
                }
                if next(&mut state) % 20 == 0 {
                    pos.stock = if pos.stock.is_empty() { vec![1, 2, 3] } else { vec![] };
                }
                kept.key_touched(&pos, touched, &mut key);
                let mut afresh = KeyMaker::new(&rules, false);
                afresh.pack_for(&root, false, 0, None, None, compact);
                afresh.key(&pos, &mut fresh);
                assert_eq!(key, fresh, "round {round}");
            }
        }
    }

    #[test]
    fn a_pile_keyed_by_its_top_forgets_what_lies_below() {
        let rules = identity_rules(vec![VIEW_ALL, VIEW_TOP, VIEW_TOP_AND_SIZE]);
        let mut maker = KeyMaker::new(&rules, false);
        let a = Position { piles: vec![vec![4], vec![8, 9, 10], vec![12, 13]], stock: vec![] };
        maker.pack_for(&a, false, 0, None, None, true);
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
