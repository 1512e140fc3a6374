//! Move generation from the rule program, and play / take back: a port of
//! `patience/generator.py` (what it generates, and for forced moves the order it looks in)
//! and of `patience/moves.py` (the deal, the redeal, forced moves, turn-ups).

use crate::filter::{
    row_has, row_union, top_code, Cards, FilterKey, Row, Verdict, CODES, EMPTY_CODE, MAX_NEAR, OTHER_CODE, TARGET_SLOT,
};
use crate::filter::PairFilter;
use crate::program::{
    Discard, Env, Merci, Pairing, Program, SourcePlan, FACE_DOWN, MAX_SCREENED, MAX_SCREEN_KEYS, NO_CARD,
};
use crate::compile::Code;
use crate::wire::Gather;

/// The most piles a program has (`Program::from_json` checks it).
pub const MAX_PILES: usize = 256;

/// What the target filters read of a position: each pile's top-card code
/// (`filter::top_code`) and, when there are at most 64 piles, for each code the piles
/// showing it (a bit each), so that a sparse row's candidates are a few word operations;
/// and where branch filters read neighbours of the target, the same of each pile's
/// neighbour by each of their maps (`Program::near_maps`).
struct Targets<'n> {
    tops: [u8; MAX_PILES],
    piles_by_top: [u64; CODES],
    indexed: bool,
    near: Option<&'n Near>,
}

/// The tops of each pile's neighbours by the branch filters' maps, slot by slot (made
/// apart from `Targets`, and only where some pairing has branches).
struct Near {
    tops: [[u8; MAX_PILES]; MAX_NEAR],
    piles_by_top: [[u64; CODES]; MAX_NEAR],
}

impl Near {
    fn of(pos: &Position, near_maps: &[u16], maps: &[Vec<usize>]) -> Near {
        let mut near = Near { tops: [[EMPTY_CODE; MAX_PILES]; MAX_NEAR], piles_by_top: [[0; CODES]; MAX_NEAR] };
        for (slot, &map) in near_maps.iter().enumerate().take(MAX_NEAR) {
            let map = maps.get(map as usize).map_or(&[][..], Vec::as_slice);
            for t in 0..pos.piles.len() {
                // a pile past the edge (none) reads as an empty pile
                let code = map.get(t).and_then(|&n| pos.piles.get(n)).map_or(EMPTY_CODE, |pile| top_code(pile));
                near.tops[slot][t] = code;
                if t < 64 {
                    near.piles_by_top[slot][code as usize] |= 1 << t;
                }
            }
        }
        near
    }
}

impl<'n> Targets<'n> {
    fn of(pos: &Position, near: Option<&'n Near>) -> Targets<'n> {
        let mut targets = Targets {
            tops: [0; MAX_PILES],
            piles_by_top: [0; CODES],
            indexed: pos.piles.len() <= 64,
            near,
        };
        for (t, (code, pile)) in targets.tops.iter_mut().zip(&pos.piles).enumerate() {
            *code = top_code(pile);
            if t < 64 {
                targets.piles_by_top[*code as usize] |= 1 << t;
            }
        }
        targets
    }

    /// The top code of the pile a branch's slot reads for the target `t`.
    #[inline(always)]
    fn code(&self, slot: u8, t: usize) -> u8 {
        if slot == TARGET_SLOT {
            return self.tops[t];
        }
        match self.near {
            Some(near) if (slot as usize) < MAX_NEAR => near.tops[slot as usize][t],
            _ => OTHER_CODE,
        }
    }

    /// The piles (of the first 64) whose pile read by `slot` shows `code`.
    #[inline(always)]
    fn piles_by(&self, slot: u8, code: u8) -> u64 {
        if slot == TARGET_SLOT {
            return self.piles_by_top[code as usize];
        }
        match self.near {
            Some(near) if (slot as usize) < MAX_NEAR => near.piles_by_top[slot as usize][code as usize],
            _ => u64::MAX,
        }
    }
}

/// A plan's questions for one position, asked before a pairing is set up: may some target
/// of this pairing take a run's key card? For each pairing with a target filter, the key
/// cards that a target of its range may accept by its filter (the union of
/// `TargetFilter::takers` of the targets' tops, less what its branches rule out). A run
/// whose key card is outside that set has no candidate target (`candidates` would find
/// none, and `verdict` says No for every target: the same rows read the other way), so a
/// pairing none of whose runs' key cards is in it has no move and is passed over; nothing
/// else changes. In a screened plan (`SourcePlan::screened`), the sets of the pairings
/// whose key cards lie at one depth are also joined, and a source pile whose key cards are
/// in none of them is passed over before any pairing is set up.
struct Screen {
    /// for each pairing, the key cards its targets may take (all, for a pairing without a
    /// filter)
    takes: [Cards; MAX_SCREENED],
    /// in a screened plan, for each of its key depths (`SourcePlan::key_depths`) the union
    /// of the sets of its pairings whose key cards lie there
    keys: [(usize, Cards); MAX_SCREEN_KEYS],
    depths: usize,
}

impl Screen {
    const ALL: Cards = [u64::MAX; 2];

    fn new() -> Screen {
        Screen { takes: [[0; 2]; MAX_SCREENED], keys: [(0, [0; 2]); MAX_SCREEN_KEYS], depths: 0 }
    }

    /// Read the sets of `plan`'s pairings (`plan.screen`) in this position.
    // kept out of `generate`, whose size decides whether `source_pile` is inlined there
    #[inline(never)]
    fn read(&mut self, plan: &SourcePlan, targets: Option<&Targets>, pos: &Position) {
        for (cards, pairing) in self.takes.iter_mut().zip(&plan.pairings) {
            let Some(filter) = pairing.filter.as_ref() else {
                *cards = Screen::ALL;
                continue;
            };
            // summed in a local (a register), not through `cards`
            let mut sum = [0u64; 2];
            if let (Some(branches), Some(targets)) = (&pairing.branches, targets) {
                // what some branch may let the target take, of what its top lets it
                for t in pairing.start..pairing.stop {
                    let takers = filter.takers(targets.tops[t]);
                    if *takers != [0, 0] {
                        let more = branches.takers(|slot| targets.code(slot, t));
                        sum[0] |= takers[0] & more[0];
                        sum[1] |= takers[1] & more[1];
                    }
                }
            } else if let Some(targets) = targets {
                // the tops read once for the indexed pairings
                for &code in &targets.tops[pairing.start..pairing.stop] {
                    let takers = filter.takers(code);
                    sum[0] |= takers[0];
                    sum[1] |= takers[1];
                }
            } else {
                // else read here (a pairing into a single pile)
                for pile in &pos.piles[pairing.start..pairing.stop] {
                    let takers = filter.takers(top_code(pile));
                    sum[0] |= takers[0];
                    sum[1] |= takers[1];
                }
            }
            *cards = sum;
        }
        self.depths = 0;
        if plan.screened {
            for (key, &depth) in self.keys.iter_mut().zip(&plan.key_depths) {
                *key = (depth, [0; 2]);
            }
            for (cards, pairing) in self.takes.iter().zip(&plan.pairings) {
                let key = &mut self.keys[pairing.depth_slot].1;
                key[0] |= cards[0];
                key[1] |= cards[1];
            }
            self.depths = plan.key_depths.len();
        }
    }

    /// Whether some pairing of a screened plan may move a run of `src` (false: none has a
    /// candidate target).
    #[inline]
    fn may_move(&self, src: &[u8]) -> bool {
        let n = src.len();
        for &(d, cards) in &self.keys[..self.depths] {
            let card = if d == 0 {
                0
            } else if d <= n {
                src[n - d]
            } else {
                return true; // no such card: the filter's "no card" row passes everything
            };
            if has_card(&cards, card) {
                return true;
            }
        }
        false
    }

    /// Whether some run of `ks..=ke` cards of `src` under the pairing numbered `i` has a key
    /// card its targets may take (false: the pairing has no move).
    #[inline(always)]
    fn may_take(&self, i: usize, pairing: &Pairing, src: &[u8], (ks, ke): (usize, usize)) -> bool {
        let (Some(filter), Some(cards)) = (&pairing.filter, self.takes.get(i)) else { return true };
        let ke = if filter.key == FilterKey::RunBottom { ke } else { ks };
        (ks..ke + 1).any(|k| has_card(cards, key_card(filter.key, src, k)))
    }
}

/// The piles `start..stop` (at most 64) that may give a move under `plan`, a bit each from
/// `start`: those as long as its floor (`source_pile` gives nothing for a shorter pile)
/// and, in a screened plan, whose key cards some pairing's targets may take.
#[inline(never)]
fn movers(plan: &SourcePlan, start: usize, stop: usize, screen: Option<&Screen>, piles: &[Vec<u8>]) -> u64 {
    let mut bits = 0u64;
    let piles = &piles[start..stop];
    let floor = plan.floor;
    match screen {
        Some(screen) if plan.screened && screen.depths == 1 && screen.keys[0].0 >= 1 => {
            // one key card, at a depth from the top: the common case, in a few instructions
            let (depth, cards) = screen.keys[0];
            for (i, pile) in piles.iter().enumerate() {
                let n = pile.len();
                let may = n >= floor && (depth > n || has_card(&cards, pile[n - depth]));
                bits |= u64::from(may) << i;
            }
        }
        Some(screen) if plan.screened => {
            for (i, pile) in piles.iter().enumerate() {
                bits |= u64::from(pile.len() >= floor && screen.may_move(pile)) << i;
            }
        }
        _ => {
            for (i, pile) in piles.iter().enumerate() {
                bits |= u64::from(pile.len() >= floor) << i;
            }
        }
    }
    bits
}

/// Whether `card` is in `cards`; a card past 127 always is (the filters' "other" row passes
/// every target).
#[inline(always)]
fn has_card(cards: &Cards, card: u8) -> bool {
    // the word chosen by a select, not an index (which would put `cards` in memory)
    let word = if card & 64 == 0 { cards[0] } else { cards[1] };
    card >= 128 || (word >> (card & 63)) & 1 != 0
}

/// The targets of one pairing to test, in increasing order: the piles of a bit set, or a
/// scan of the target range (skipping the source, and the tops a row rules out).
#[derive(Clone, Copy)]
enum Candidates<'t> {
    Bits(u64),
    Scan { t: usize, stop: usize, skip: usize, row: Option<Row>, tops: &'t [u8] },
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        match self {
            Candidates::Bits(bits) => {
                if *bits == 0 {
                    return None;
                }
                let t = bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                Some(t)
            }
            Candidates::Scan { t, stop, skip, row, tops } => loop {
                if *t >= *stop {
                    return None;
                }
                let at = *t;
                *t += 1;
                if at == *skip {
                    continue;
                }
                if let Some(row) = row {
                    if !row_has(row, tops[at]) {
                        continue;
                    }
                }
                return Some(at);
            },
        }
    }
}

/// The targets of `pairing` that a run of `ks..=ke` cards of pile `s` may go to: all
/// of its range (but `s` itself when it skips itself) unless its filter rules some out.
/// A target ruled out for every one of those sizes has no move of the pairing, so
/// skipping it changes neither the moves nor their order (filter.rs).
#[inline(always)]
fn candidates<'t>(
    pairing: &Pairing,
    s: usize,
    src: &[u8],
    (ks, ke): (usize, usize),
    targets: Option<&'t Targets>,
) -> Candidates<'t> {
    let skip = if pairing.skip_self { s } else { usize::MAX };
    let (filter, targets) = match (&pairing.filter, targets) {
        (Some(filter), Some(targets)) if pairing.indexed => (filter, targets),
        _ => return Candidates::Scan { t: pairing.start, stop: pairing.stop, skip, row: None, tops: &[] },
    };
    let ke = if filter.key == FilterKey::RunBottom { ke } else { ks };
    if targets.indexed {
        let mut bits = 0u64;
        let mut listed = true;
        for k in ks..ke + 1 {
            match filter.listed(key_card(filter.key, src, k)) {
                Some(list) => {
                    for &code in list.codes() {
                        bits |= targets.piles_by_top[code as usize];
                    }
                }
                None => {
                    listed = false;
                    break;
                }
            }
        }
        if listed {
            if let (Some(branches), Some(_)) = (&pairing.branches, targets.near) {
                // the piles some branch may let take one of the runs
                let mut near = 0u64;
                for k in ks..ke + 1 {
                    near |= branches.piles(key_card(filter.key, src, k), |slot, code| targets.piles_by(slot, code));
                }
                bits &= near;
            }
            let (start, stop) = (pairing.start, pairing.stop); // stop <= 64 here
            let below = |n: usize| 1u64.checked_shl(n as u32).map_or(u64::MAX, |b| b - 1);
            let range = below(stop) & !below(start);
            bits &= range;
            if skip < 64 {
                bits &= !(1u64 << skip);
            }
            return Candidates::Bits(bits);
        }
    }
    let mut row: Row = [0; 3];
    for k in ks..ke + 1 {
        row_union(&mut row, filter.row(key_card(filter.key, src, k)));
    }
    Candidates::Scan { t: pairing.start, stop: pairing.stop, skip, row: Some(row), tops: &targets.tops }
}

/// What `pairing`'s filter, then its branches, say of a run of `k` cards of `src` onto
/// pile `t`.
#[inline(always)]
fn verdict(pairing: &Pairing, src: &[u8], k: usize, t: usize, target: &[u8], targets: Option<&Targets>) -> Verdict {
    let Some(filter) = &pairing.filter else { return Verdict::Maybe };
    let card = key_card(filter.key, src, k);
    let verdict = filter.verdict_of(card, top_code(target), k == 1);
    if verdict != Verdict::Maybe || pairing.branches.is_none() {
        return verdict;
    }
    branch_verdict(pairing, card, t, targets)
}

/// What `pairing`'s branches say of a run keyed by `card` onto pile `t` (Maybe without
/// the position's tops).
#[inline(never)]
fn branch_verdict(pairing: &Pairing, card: u8, t: usize, targets: Option<&Targets>) -> Verdict {
    match (&pairing.branches, targets) {
        (Some(branches), Some(targets)) => branches.verdict(card, |slot| targets.code(slot, t)),
        _ => Verdict::Maybe,
    }
}

/// The card a filter's rows are keyed by, for a run of `k` cards of `src`.
#[inline(always)]
fn key_card(key: FilterKey, src: &[u8], k: usize) -> u8 {
    match key {
        FilterKey::RunBottom => {
            if k >= 1 && k <= src.len() {
                src[src.len() - k]
            } else {
                NO_CARD as u8
            }
        }
        FilterKey::RunTop => src.last().copied().unwrap_or(NO_CARD as u8),
        FilterKey::Nothing => 0,
    }
}

/// The top `k` cards of pile `s` onto pile `t`; the deal is `(-1, 0, -1)`, a forced fill
/// from the stock `(-1, 1, t)`, a discard `(-2 - set, cards, target)` (the top card of each
/// pile of the set onto pile `t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub s: i16,
    pub k: i16,
    pub t: i16,
}

pub const DEAL: Move = Move { s: -1, k: 0, t: -1 };
/// the count of a draw of a buried card `(s, DRAW, t)` (`merci`): the card under the top
/// card of pile `s` onto pile `t`, the top card staying (`patience.moves.DRAW`)
pub const DRAW: i16 = -1;
/// a step that turned the top card of pile `s` face up
pub const TURNED: i16 = -2;
/// The message of the `RunawayError` Python is given when `play` stopped at the program's
/// `max_forced_moves` (`MAX_FORCED_MOVES` of `patience/limits.py`): `patience.native` knows
/// the error by its type and raises the kernel's `ForcedMovesError`, in Python's words.
pub const RUNAWAY: &str = "the forced moves after one move went on past the limit";

/// A gap shuffled in among the gathered cards (`stock.gather.gaps: N`,
/// `patience.moves.BLANK`): no card, sorted after every card, never put down.
pub const BLANK: u8 = 0xBF;

/// The deal's undo when it gathered piles (`DealUndo::Gathered`).
const GATHERED: u32 = u32::MAX;

/// The SplitMix64 stream (docs/rules.md, `patience.cards.splitmix64`).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The gathered cards as redeal number `redeal` (1 for the first) of a game seeded `seed`
/// shuffles them (`patience.cards.redeal_shuffle`): in card order, then Fisher–Yates
/// driven by SplitMix64 seeded with the `redeal`-th number of the stream seeded `seed`.
pub fn redeal_shuffle(cards: &mut [u8], seed: u64, redeal: usize) {
    for c in cards.iter_mut() {
        *c &= !FACE_DOWN;
    }
    cards.sort_unstable();
    let mut stream = SplitMix64(seed);
    let mut state = 0;
    for _ in 0..redeal {
        state = stream.next();
    }
    let mut draws = SplitMix64(state);
    for i in (1..cards.len()).rev() {
        let j = (draws.next() % (i as u64 + 1)) as usize;
        cards.swap(i, j);
    }
}

/// How many of `cards` gathered cards each pile receives (`patience.moves.gather_sizes`).
pub fn gather_sizes(mut cards: usize, deal: usize, piles: usize) -> Vec<usize> {
    let extra = cards.saturating_sub(deal * piles);
    (0..piles)
        .map(|i| {
            let size = (deal + extra / piles + usize::from(i < extra % piles)).min(cards);
            cards -= size;
            size
        })
        .collect()
}

/// A gathering redeal's rules on a pile (`Program::gather_keep`, `gather_gaps`) and the
/// place maps they read.
struct GatherRules<'a> {
    keep: Option<&'a Code>,
    gaps: Option<&'a Code>,
    places: &'a [Vec<usize>],
}

impl GatherRules<'_> {
    /// Whether `rule` holds for pile `t` of the position as it is now.
    fn holds(&self, rule: Option<&Code>, pos: &Position, t: usize) -> bool {
        rule.is_some_and(|rule| {
            let mut env = Env::placed(&pos.piles, &pos.stock, self.places);
            env.t = t;
            rule.truth(&mut env)
        })
    }
}

/// Make the gathering redeal (`patience.moves.gather_piles`): the piles `keep` holds for,
/// read in gathering order, stay (each other pile is emptied before the next is read); the
/// packet cut into parcels of `deal` cards, each turned over, dealt a card at a time
/// filling each gathered pile but those `gaps` holds for from the bottom; the piles as they
/// were are kept on the gathered stack.
fn gather_piles(gather: &Gather, rules: &GatherRules, pos: &mut Position, stacks: &mut Stacks) {
    for &p in &gather.piles {
        let pile = &pos.piles[p];
        stacks.gathered.extend(pile.iter().map(|&c| c as u16));
        stacks.gathered.push(pile.len() as u16);
    }
    let mut packet: Vec<u8> = Vec::new();
    let mut gathered: Vec<usize> = Vec::with_capacity(gather.piles.len());
    for &p in &gather.piles {
        if rules.holds(rules.keep, pos, p) {
            continue;
        }
        gathered.push(p);
        let pile = &mut pos.piles[p];
        if gather.shuffle {
            packet.extend(pile.iter().copied());
        } else {
            packet.extend(pile.iter().rev().map(|&c| c & !FACE_DOWN));
        }
        pile.clear();
        stacks.touched.mark(p);
    }
    if rules.gaps.is_some() {
        let gaps: Vec<bool> = gathered.iter().map(|&p| rules.holds(rules.gaps, pos, p)).collect();
        let mut left = gaps.iter();
        gathered.retain(|_| !left.next().copied().unwrap_or(false));
    }
    packet.extend(std::iter::repeat_n(BLANK, gather.blanks));
    if gather.shuffle {
        let seed_pile = &pos.piles[gather.seed.expect("a shuffle seed")];
        let seed = seed_pile.iter().rev().fold(0u64, |seed, &b| seed << 8 | u64::from(b));
        let made = pos.piles[gather.counter.expect("a redeal counter")].len();
        redeal_shuffle(&mut packet, seed, made + 1);
    }
    for parcel in packet.chunks_mut(gather.deal) {
        parcel.reverse();
    }
    let mut start = 0;
    for (&p, size) in gathered.iter().zip(gather_sizes(packet.len(), gather.deal, gathered.len())) {
        let pile = &mut pos.piles[p];
        pile.extend(packet[start..start + size].iter().filter(|&&c| c != BLANK));
        start += size;
        stacks.touched.mark(p);
    }
    if let Some(counter) = gather.counter {
        pos.piles[counter].push(0);
        stacks.touched.mark(counter);
    }
}

impl Move {
    pub fn new(s: usize, k: usize, t: usize) -> Move {
        Move { s: s as i16, k: k as i16, t: t as i16 }
    }

    /// The move that only undoes this one, played with the undo `undo`: its cards back.
    /// None for a deal, a discard or a draw, and after a move that forced more moves or
    /// turned a card (its reverse would not lead back).
    #[inline]
    pub fn reversed(self, undo: &Undo) -> Option<Move> {
        (self.s >= 0 && !self.is_draw() && undo.is_plain()).then_some(Move { s: self.t, k: self.k, t: self.s })
    }

    /// whether the move is a discard (of set `-2 - s`)
    #[inline(always)]
    pub fn is_discard(&self) -> bool {
        self.s < -1
    }

    /// whether the move is a draw of a buried card (`merci`)
    #[inline(always)]
    pub fn is_draw(&self) -> bool {
        self.k == DRAW
    }
}

#[derive(Debug, Clone, Default)]
pub struct Position {
    pub piles: Vec<Vec<u8>>,
    pub stock: Vec<u8>,
}

impl Position {
    /// Become a copy of `other`, in the room this one already has (no allocation where it
    /// suffices: `clone` allocates every pile).
    pub fn copy_from(&mut self, other: &Position) {
        self.piles.clone_from(&other.piles);
        self.stock.clone_from(&other.stock);
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DealUndo {
    None,
    /// how many piles the deal fed (their numbers are on the received stack)
    Received(u32),
    Redealt,
    /// the gathered piles' cards before the redeal are on the gathered stack
    Gathered,
    /// the deal closed gaps first (`close_gaps: deal`): `slides` pairs (source, gap) on the
    /// received stack, then the `fed` piles the deal fed
    Closed { slides: u32, fed: u32 },
}

/// `Undo::deal`'s bit for a deal that closed gaps first: the slides above bit 16, the piles
/// fed below (a program has at most `MAX_PILES` piles)
const CLOSED: u32 = 1 << 31;

/// What taking a move back needs: what the deal did, and how many steps (forced moves and
/// turn-ups) followed, which are on the step stack. Eight bytes (the search keeps one for
/// each position of its path): the deal as 0 (none), 1 (a redeal), `u32::MAX` (a
/// gathering redeal) or 2 and more (the piles it fed, plus two).
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    deal: u32,
    pub steps: u32,
}

impl Undo {
    fn new(deal: DealUndo, steps: u32) -> Undo {
        let deal = match deal {
            DealUndo::None => 0,
            DealUndo::Redealt => 1,
            DealUndo::Gathered => GATHERED,
            DealUndo::Closed { slides, fed } => {
                assert!(slides < 1 << 15 && fed < 1 << 16, "a deal closes and feeds few piles");
                CLOSED | slides << 16 | fed
            }
            DealUndo::Received(fed) => {
                let deal = fed.checked_add(2).expect("a deal feeds fewer than 2^32 - 3 piles");
                assert!(deal < CLOSED, "a deal feeds fewer than 2^31 - 2 piles");
                deal
            }
        };
        Undo { deal, steps }
    }

    pub fn deal(&self) -> DealUndo {
        match self.deal {
            0 => DealUndo::None,
            1 => DealUndo::Redealt,
            GATHERED => DealUndo::Gathered,
            closed if closed & CLOSED != 0 => DealUndo::Closed { slides: closed >> 16 & 0x7FFF, fed: closed & 0xFFFF },
            fed => DealUndo::Received(fed - 2),
        }
    }

    /// The undo as two numbers (the deal, the steps), and back (`path.rs` packs the
    /// shallow positions of a deep path).
    pub fn packed(&self) -> (u32, u32) {
        (self.deal, self.steps)
    }

    pub fn from_packed(deal: u32, steps: u32) -> Undo {
        Undo { deal, steps }
    }

    /// whether the move changed nothing but itself (its exact reverse undoes it)
    pub fn is_plain(&self) -> bool {
        self.deal == 0 && self.steps == 0
    }
}

/// Piles, a bit each: those that play and take back changed since a key last read them
/// (`Stacks::take_touched`), so that the key remakes only their parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Touched(pub [u64; MAX_PILES / 64]);

impl Touched {
    pub const NONE: Touched = Touched([0; MAX_PILES / 64]);
    /// every pile: a position that did not come from the last one keyed by play and take back
    pub const ALL: Touched = Touched([u64::MAX; MAX_PILES / 64]);

    #[inline(always)]
    pub fn mark(&mut self, pile: usize) {
        self.0[pile >> 6] |= 1 << (pile & 63);
    }

    #[inline(always)]
    pub fn has(&self, pile: usize) -> bool {
        self.0[pile >> 6] >> (pile & 63) & 1 != 0
    }

    /// Its piles from `start` up to `stop` (at most `MAX_PILES`), in order.
    #[inline]
    pub fn within(&self, start: usize, stop: usize) -> impl Iterator<Item = usize> + Clone + '_ {
        let below = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        (start >> 6..stop.div_ceil(64).max(start >> 6)).flat_map(move |w| {
            let base = w * 64;
            let mut bits = self.0[w] & below(stop.saturating_sub(base)) & !below(start.saturating_sub(base));
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let at = base + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    at
                })
            })
        })
    }

    /// Whether some pile is in both.
    #[inline(always)]
    pub fn meets(&self, other: &Touched) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    #[inline(always)]
    pub fn add(&mut self, other: Touched) {
        for (word, more) in self.0.iter_mut().zip(other.0) {
            *word |= more;
        }
    }
}

impl Default for Touched {
    fn default() -> Touched {
        Touched::NONE
    }
}

/// The stacks that play and take back share (moves are taken back in reverse order), and
/// the piles they changed since the last `take_touched`.
#[derive(Debug, Default)]
pub struct Stacks {
    pub steps: Vec<Move>,
    pub received: Vec<u16>,
    /// the gathered piles' cards before each gathering redeal: each pile's cards, then
    /// their number, pile after pile
    pub gathered: Vec<u16>,
    pub touched: Touched,
    /// set when a move's forced moves went on past `MAX_FORCED_MOVES` (`play` stopped them
    /// there): whoever plays moves checks it and stops with `RUNAWAY`
    pub runaway: bool,
    /// whether every position moves are played from has no forced move left: set by
    /// `Program::stacks_from` where the first position has none (then `settle` looks for
    /// forced moves among the piles a move changed, where it can)
    pub from_settled: bool,
}

impl Stacks {
    /// The piles changed since the last call, and none from now on.
    #[inline]
    pub fn take_touched(&mut self) -> Touched {
        std::mem::take(&mut self.touched)
    }

    /// Forget what taking back the moves played so far would need: they stay played.
    #[inline]
    pub fn forget_undos(&mut self) {
        self.steps.clear();
        self.received.clear();
        self.gathered.clear();
    }
}

#[inline]
fn move_cards(piles: &mut [Vec<u8>], s: usize, k: usize, t: usize, touched: &mut Touched) {
    let cut = piles[s].len() - k;
    if s == t {
        return;
    }
    touched.mark(s);
    touched.mark(t);
    let (from, to) = if s < t {
        let (a, b) = piles.split_at_mut(t);
        (&mut a[s], &mut b[0])
    } else {
        let (a, b) = piles.split_at_mut(s);
        (&mut b[0], &mut a[t])
    };
    if k == 1 {
        // the common move, without a call to copy one byte
        to.push(from[cut]);
    } else {
        to.extend_from_slice(&from[cut..]);
    }
    from.truncate(cut);
}

/// The top `k` cards of pile `s` under the cards of pile `t` (`lands: bottom`), or, taking
/// it back (`back`), the bottom `k` cards of pile `t` onto pile `s`.
fn move_under(piles: &mut [Vec<u8>], s: usize, k: usize, t: usize, back: bool, touched: &mut Touched) {
    if s == t {
        return;
    }
    touched.mark(s);
    touched.mark(t);
    if back {
        let cards: Vec<u8> = piles[t].drain(..k).collect();
        piles[s].extend_from_slice(&cards);
    } else {
        let cut = piles[s].len() - k;
        let cards: Vec<u8> = piles[s].drain(cut..).collect();
        piles[t].splice(0..0, cards);
    }
}

impl Program {
    // -- questions about a position --

    pub fn is_won(&self, pos: &Position) -> bool {
        let mut env = Env::placed(&pos.piles, &pos.stock, &self.placing.maps);
        self.win.truth(&mut env)
    }

    /// Whether the stock holds no card (with `stock.top`, none on the top card's pile either).
    #[inline]
    fn stock_is_empty(&self, pos: &Position) -> bool {
        pos.stock.is_empty() && self.stock_top.is_none_or(|t| pos.piles[t].is_empty())
    }

    pub fn can_deal(&self, pos: &Position) -> bool {
        let empty = self.stock_is_empty(pos);
        if !empty {
            if self.deal_when.is_true() {
                return true;
            }
            let mut env = Env::placed(&pos.piles, &pos.stock, &self.placing.maps);
            if self.deal_when.truth(&mut env) {
                return true;
            }
        }
        if let Some(gather) = &self.gather {
            if empty {
                return gather.counter.zip(gather.limit).is_none_or(|(c, limit)| pos.piles[c].len() < limit)
                    && gather.piles.iter().any(|&p| !pos.piles[p].is_empty());
            }
        }
        if let Some(redeal) = &self.redeal {
            if empty && !pos.piles[redeal.waste].is_empty() {
                return match redeal.counter {
                    None => true,
                    Some(c) => pos.piles[c].len() < redeal.limit,
                };
            }
        }
        // `close_gaps: deal`: the deal would close a gap (a card after an empty pile)
        self.placing.deal_closing.iter().any(|&(start, stop)| {
            (start + 1..stop).any(|w| !pos.piles[w].is_empty() && pos.piles[w - 1].is_empty())
        })
    }

    /// Every legal move (the deal last); none in a won position.
    pub fn generate(&self, pos: &Position, out: &mut Vec<Move>) {
        self.generate_from(pos, out, None);
    }

    /// `generate`, the moves from a pile left out unless `sources` (where given) marks it,
    /// in the same order: after a deal, where the rules restrict what follows one, the
    /// moves a search tries (`Solver::after_deal`), never making the others.
    pub fn generate_from(&self, pos: &Position, out: &mut Vec<Move>, sources: Option<&[bool]>) {
        out.clear();
        // one per position: its memo (the win's value too, which reads the position alone)
        let mut env = Env::placed(&pos.piles, &pos.stock, &self.placing.maps);
        if self.win.truth(&mut env) {
            return;
        }
        // boxed: kept off this frame where no pairing has branches (nearly every game)
        let near = (self.filtered && !self.near_maps.is_empty())
            .then(|| Box::new(Near::of(pos, &self.near_maps, &self.placing.maps)));
        let targets = self.filtered.then(|| Targets::of(pos, near.as_deref()));
        let mut read = Screen::new();
        for (group, plan) in self.groups.iter().zip(&self.sources) {
            if let Some(plan) = plan {
                if sources.is_some_and(|sources| !sources[group.start..group.stop].contains(&true)) {
                    continue; // none of its piles' moves wanted
                }
                let screen = if plan.screen {
                    read.read(plan, targets.as_ref(), pos);
                    Some(&read)
                } else {
                    None
                };
                let mut emit = |m| {
                    out.push(m);
                    false
                };
                if plan.screened && group.stop - group.start <= 64 {
                    // the piles that may give a move, found in one tight loop first
                    let mut movers = movers(plan, group.start, group.stop, screen, &pos.piles);
                    while movers != 0 {
                        let s = group.start + movers.trailing_zeros() as usize;
                        movers &= movers - 1;
                        if sources.is_none_or(|sources| sources[s]) {
                            self.source_pile(plan, group.face_down, s, pos, &mut env, targets.as_ref(), screen, &mut emit);
                        }
                    }
                    continue;
                }
                for s in group.start..group.stop {
                    // `source_pile` gives nothing for a pile shorter than the floor
                    if pos.piles[s].len() < plan.floor
                        || sources.is_some_and(|sources| !sources[s])
                        || (plan.screened && screen.is_some_and(|screen| !screen.may_move(&pos.piles[s]))) {
                        continue;
                    }
                    self.source_pile(plan, group.face_down, s, pos, &mut env, targets.as_ref(), screen, &mut emit);
                }
            }
        }
        if let Some(merci) = &self.merci {
            self.draws(merci, pos, &mut |m| {
                out.push(m);
                false
            });
        }
        for discard in &self.discards {
            self.discard(discard, pos, &mut env, &mut |m| {
                out.push(m);
                false
            });
        }
        if self.can_deal(pos) {
            out.push(DEAL);
        }
    }

    /// The legal moves of one discard, set by set in order (`patience.generator`'s tree
    /// of sets walks them in the same order); `emit` returns true to stop.
    fn discard(&self, discard: &Discard, pos: &Position, env: &mut Env, emit: &mut dyn FnMut(Move) -> bool) -> bool {
        let n = discard.cards;
        if let Some(pair) = &discard.pair {
            return self.pair_discard(discard, pair, pos, env, emit);
        }
        for (i, set) in discard.sets.chunks_exact(n).enumerate() {
            if set.iter().any(|&p| pos.piles[p as usize].is_empty()) {
                continue;
            }
            for (chosen, &p) in env.chosen.iter_mut().zip(set) {
                *chosen = p as usize;
            }
            if discard.when.truth(env) {
                let s = -2 - (discard.start + i) as i16;
                if emit(Move { s, k: n as i16, t: discard.target as i16 }) {
                    return true;
                }
            }
        }
        false
    }

    /// `discard` of two cards with its pair filter: the piles' top codes read once, and a
    /// set whose two tops the filter rules out passed over without running the rule (the
    /// same moves in the same order as `discard` without it). Where it chooses among at
    /// most 64 piles, the partners of each first pile are found from an index of the piles
    /// by their tops (the filter's listed row), not by testing every set.
    fn pair_discard(&self, discard: &Discard, pair: &PairFilter, pos: &Position, env: &mut Env, emit: &mut dyn FnMut(Move) -> bool) -> bool {
        debug_assert_eq!(discard.cards, 2, "a pair filter is a two-card discard's");
        let m = discard.sources.len();
        let mut emitted = |i: usize, a: usize, b: usize, env: &mut Env| -> bool {
            env.chosen[0] = a;
            env.chosen[1] = b;
            discard.when.truth(env) && emit(Move { s: -2 - (discard.start + i) as i16, k: 2, t: discard.target as i16 })
        };
        if m <= 64 {
            let mut codes = [EMPTY_CODE; 64];
            let mut by_code = [0u64; CODES];
            for (i, &p) in discard.sources.iter().enumerate() {
                codes[i] = top_code(&pos.piles[p as usize]);
                by_code[codes[i] as usize] |= 1 << i;
            }
            let not_empty = !by_code[EMPTY_CODE as usize];
            for i in 0..m {
                let a = codes[i];
                if a == EMPTY_CODE {
                    continue;
                }
                let mut partners = match pair.listed(a) {
                    Some(list) => list.codes().iter().fold(0, |bits, &code| bits | by_code[code as usize]),
                    None => u64::MAX,
                };
                // the piles after the first, none empty, whose tops the rule may pair
                partners &= not_empty & !(u64::MAX >> (63 - i)) & (u64::MAX >> (64 - m));
                // the set (i, j) is number i·(m − 1) − i·(i − 1)/2 + (j − i − 1)
                let first = i * (m - 1) - i * i.saturating_sub(1) / 2;
                while partners != 0 {
                    let j = partners.trailing_zeros() as usize;
                    partners &= partners - 1;
                    if pair.may(a, codes[j]) {
                        let (p, q) = (discard.sources[i] as usize, discard.sources[j] as usize);
                        if emitted(first + j - i - 1, p, q, env) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
        let mut tops = [EMPTY_CODE; MAX_PILES];
        for (code, pile) in tops.iter_mut().zip(&pos.piles) {
            *code = top_code(pile);
        }
        for (i, set) in discard.sets.chunks_exact(2).enumerate() {
            let (a, b) = (tops[set[0] as usize], tops[set[1] as usize]);
            if a == EMPTY_CODE || b == EMPTY_CODE || !pair.may(a, b) {
                continue;
            }
            if emitted(i, set[0] as usize, set[1] as usize, env) {
                return true;
            }
        }
        false
    }

    /// The draws of a buried card (`merci`) while one is left, in the generated code's
    /// order: each pile of two cards or more with its top card lifted (on a copy of the
    /// position), the card under it tried as a run of one; `emit` returns true to stop.
    #[inline(never)]
    fn draws(&self, merci: &Merci, pos: &Position, emit: &mut dyn FnMut(Move) -> bool) -> bool {
        if pos.piles[merci.counter].len() >= merci.limit {
            return false;
        }
        let mut lifted: Option<Position> = None;
        for (start, stop, plan) in &merci.sources {
            for s in *start..*stop {
                if pos.piles[s].len() < 2 {
                    continue;
                }
                let probe = lifted.get_or_insert_with(|| pos.clone());
                let top = probe.piles[s].pop().expect("a top card");
                let mut env = Env::placed(&probe.piles, &probe.stock, &self.placing.maps);
                let stopped = self.source_pile(plan, false, s, probe, &mut env, None, None, &mut |m| {
                    emit(Move { s: m.s, k: DRAW, t: m.t })
                });
                probe.piles[s].push(top);
                if stopped {
                    return true;
                }
            }
        }
        false
    }

    /// The piles of the discard move `mv`, in pile order.
    pub fn discard_piles(&self, mv: Move) -> &[u16] {
        let (number, at) = self.discard_sets[(-2 - mv.s) as usize];
        let discard = &self.discards[number as usize];
        &discard.sets[at as usize..at as usize + discard.cards]
    }

    /// The first forced move in the generated code's order, if any.
    pub fn first_forced(&self, pos: &Position) -> Option<Move> {
        self.first_forced_of(pos, None)
    }

    /// Stacks to play moves from `root` with: `from_settled` where `root` has no forced
    /// move left (every position a move reaches is then settled too, or `runaway` is set).
    pub fn stacks_from(&self, root: &Position) -> Stacks {
        Stacks { from_settled: self.first_forced(root).is_none(), ..Stacks::default() }
    }

    /// `first_forced`, its plans' moves taken from the piles `only` alone when given (the
    /// moves of the other piles are known not to be legal).
    fn first_forced_of(&self, pos: &Position, only: Option<&Touched>) -> Option<Move> {
        if !self.has_forced {
            return None;
        }
        // a gap closes first: the first pile after a group's first gap moves into it whole
        for &(start, stop) in &self.placing.closing {
            if let Some(w) = (start..stop).find(|&w| pos.piles[w].is_empty()) {
                if let Some(s) = (w + 1..stop).find(|&s| !pos.piles[s].is_empty()) {
                    return Some(Move::new(s, pos.piles[s].len(), w));
                }
            }
        }
        let mut found = None;
        // the position's tops are read once some plan has a pile long enough to give a
        // move (Spider's runs home are 13 cards: most positions have no such pile), and
        // not for the few piles of `only` (each pairing's targets are then tried in turn)
        let mut targets: Option<Targets> = None;
        let near = std::cell::OnceCell::new();
        let mut env = None;
        let mut read: Option<Screen> = None;
        let looked_at = only.unwrap_or(&Touched::ALL);
        for (group, plan) in self.groups.iter().zip(&self.forced_sources) {
            if let Some(plan) = plan {
                if looked_at.within(group.start, group.stop).all(|s| pos.piles[s].len() < plan.floor) {
                    continue; // `source_pile` gives nothing for a pile shorter than the floor
                }
                if self.forced_filtered && targets.is_none() && only.is_none() {
                    let near = (!self.near_maps.is_empty())
                        .then(|| &**near.get_or_init(|| Box::new(Near::of(pos, &self.near_maps, &self.placing.maps))));
                    targets = Some(Targets::of(pos, near));
                }
                let screen = if plan.screen && only.is_none() {
                    let read = read.get_or_insert_with(Screen::new);
                    read.read(plan, targets.as_ref(), pos);
                    Some(&*read)
                } else {
                    None
                };
                let env = env.get_or_insert_with(|| Env::placed(&pos.piles, &pos.stock, &self.placing.maps));
                for s in looked_at.within(group.start, group.stop) {
                    if plan.screened && screen.is_some_and(|screen| !screen.may_move(&pos.piles[s])) {
                        continue;
                    }
                    if self.source_pile(plan, group.face_down, s, pos, env, targets.as_ref(), screen, &mut |m| {
                        found = Some(m);
                        true
                    }) {
                        return found;
                    }
                }
            }
        }
        for (fill, when) in self.fills.iter().zip(&self.fill_when) {
            if !when.is_true()
                && !when.truth(env.get_or_insert_with(|| Env::placed(&pos.piles, &pos.stock, &self.placing.maps)))
            {
                continue;
            }
            for t in fill.start..fill.stop {
                if pos.piles[t].is_empty() {
                    if fill.from_stock {
                        if !pos.stock.is_empty() {
                            return Some(Move { s: -1, k: 1, t: t as i16 });
                        }
                        continue;
                    }
                    for s in fill.sources.0..fill.sources.1 {
                        if !pos.piles[s].is_empty() {
                            return Some(Move::new(s, 1, t));
                        }
                    }
                }
            }
        }
        None
    }

    /// The first of the legal `moves`, in sorted order, that `solver.safe` calls safe (the
    /// deal never is): `patience.solver.search.first_safe`.
    pub fn first_safe(&self, pos: &Position, moves: &[Move]) -> Option<Move> {
        let safe = self.safe.as_ref()?;
        let mut env = Env::placed(&pos.piles, &pos.stock, &self.placing.maps);
        let mut best: Option<Move> = None;
        for &m in moves {
            if m.s < 0 || m.is_draw() || best.is_some_and(|b| b <= m) || !safe.may_hold(m.s as usize, m.t as usize) {
                continue;
            }
            env.s = m.s as usize;
            env.k = m.k as usize;
            env.t = m.t as usize;
            if safe.code.truth(&mut env) {
                best = Some(m);
            }
        }
        best
    }

    /// The moves of one source pile under one plan, in the generated code's order; `emit`
    /// returns true to stop (then this returns true).
    #[allow(clippy::too_many_arguments)]
    fn source_pile(
        &self,
        plan: &SourcePlan,
        face_down: bool,
        s: usize,
        pos: &Position,
        env: &mut Env,
        targets: Option<&Targets>,
        screen: Option<&Screen>,
        emit: &mut dyn FnMut(Move) -> bool,
    ) -> bool {
        let src = &pos.piles[s];
        let n = src.len();
        if n < plan.floor {
            return false;
        }
        let up = if face_down {
            n - src.iter().take_while(|&&c| c >= FACE_DOWN).count()
        } else {
            n
        };
        env.s = s;
        let whole = match (&plan.scan_table, &plan.scan) {
            (Some(table), _) => {
                // the same scan, its one table read directly
                let mut m = 1;
                while m < up && m < plan.cap {
                    if !table.continues(src[n - m - 1], src[n - m]) {
                        break;
                    }
                    m += 1;
                }
                m
            }
            (None, None) => up,
            (None, Some(scan)) => {
                let mut m = 1;
                while m < up && m < plan.cap {
                    env.cards[0] = src[n - m - 1] as i64;
                    env.cards[1] = src[n - m] as i64;
                    if !scan.truth(env) {
                        break;
                    }
                    m += 1;
                }
                m
            }
        };
        let single = match &plan.fixed {
            None => None,
            Some(fixed) => {
                let k0 = fixed.value(env);
                if k0 < 1 || k0 > whole as i64 {
                    return false;
                }
                Some(k0 as usize)
            }
        };
        let src = env.piles[s].as_slice();
        for (i, pairing) in plan.pairings.iter().enumerate() {
            let sizes = match &pairing.fixed {
                Some(fixed) => {
                    let size = fixed.value(env);
                    match single {
                        Some(k0) if k0 as i64 == size => (k0, k0),
                        None if size >= 1 && size <= whole as i64 => (size as usize, size as usize),
                        _ => continue,
                    }
                }
                None => match single {
                    Some(k0) => (k0, k0),
                    None => (1, whole),
                },
            };
            if screen.is_some_and(|screen| !screen.may_take(i, pairing, src, sizes)) {
                continue; // no target takes a key card of these runs
            }
            if sizes.0 == sizes.1 && pairing.stop == pairing.start + 1 && pairing.filter.is_some() {
                // one run onto one pile (a card onto a single waste pile): `pairing`'s loops
                // would test this one pair, and where the filter's verdict is No or Yes
                // decide it without running the rule; only Maybe needs them
                let (k, t) = (sizes.0, pairing.start);
                if pairing.skip_self && t == s {
                    continue;
                }
                match verdict(pairing, src, k, t, &env.piles[t], targets) {
                    Verdict::No => continue,
                    Verdict::Yes => {
                        if emit(Move::new(s, k, t)) {
                            return true;
                        }
                        continue;
                    }
                    Verdict::Maybe => {}
                }
            }
            if self.pairing(plan, pairing, s, sizes, env, targets, emit) {
                return true;
            }
        }
        false
    }

    /// The moves of the runs of `ks..=ke` cards of pile `s` under `pairing`, in the
    /// generated code's order; `emit` returns true to stop (then this returns true).
    #[allow(clippy::too_many_arguments)]
    fn pairing(
        &self,
        plan: &SourcePlan,
        pairing: &Pairing,
        s: usize,
        (ks, ke): (usize, usize),
        env: &mut Env,
        targets: Option<&Targets>,
        emit: &mut dyn FnMut(Move) -> bool,
    ) -> bool {
        let src = env.piles[s].as_slice();
        let (rest_true, hoisted_true) = (plan.rest.is_true(), pairing.hoisted.is_true());
        let common = |env: &mut Env, k: usize| -> bool {
            env.k = k;
            (rest_true || plan.rest.truth(env))
                && (hoisted_true || pairing.hoisted.truth(env))
        };
        let (free_true, bound_true) = (pairing.free.is_true(), pairing.bound.is_true());
        // what the filter says of a run of k cards onto pile t (`Verdict`): the rule runs
        // only where the two cards leave it open (a rule's only effect is its value)
        let piles = env.piles;
        // the same loops over the candidates a filter leaves, or over the whole range; the
        // parts of the rule hoisted out of the inner loop run when a target first needs them
        macro_rules! loops {
            ($targets:expr) => {{
                if pairing.k_outer {
                    for k in ks..ke + 1 {
                        let mut common_k = None;
                        for t in $targets((k, k)) {
                            let legal = match verdict(pairing, src, k, t, &piles[t], targets) {
                                Verdict::No => false,
                                Verdict::Yes => true,
                                Verdict::Maybe => {
                                    if !*common_k.get_or_insert_with(|| common(env, k)) {
                                        break;
                                    }
                                    env.t = t;
                                    (free_true || pairing.free.truth(env))
                                        && (bound_true || pairing.bound.truth(env))
                                }
                            };
                            if legal {
                                if emit(Move::new(s, k, t)) {
                                    return true;
                                }
                                if pairing.first {
                                    break;
                                }
                            }
                        }
                    }
                } else {
                    for t in $targets((ks, ke)) {
                        let mut free_t = None;
                        for k in ks..ke + 1 {
                            let legal = match verdict(pairing, src, k, t, &piles[t], targets) {
                                Verdict::No => false,
                                Verdict::Yes => true,
                                Verdict::Maybe => {
                                    env.t = t;
                                    if !*free_t.get_or_insert_with(|| free_true || pairing.free.truth(env)) {
                                        break;
                                    }
                                    common(env, k) && (bound_true || pairing.bound.truth(env))
                                }
                            };
                            if legal && emit(Move::new(s, k, t)) {
                                return true;
                            }
                        }
                    }
                }
            }};
        }
        if pairing.indexed {
            // the candidates of all the sizes first: most sources have none for most
            // pairings, and then no rule runs
            let all = candidates(pairing, s, src, (ks, ke), targets);
            if let Candidates::Bits(0) = all {
                return false;
            }
            loops!(|sizes| if sizes == (ks, ke) { all } else { candidates(pairing, s, src, sizes, targets) });
        } else {
            let skip = if pairing.skip_self { s } else { usize::MAX };
            loops!(|_| (pairing.start..pairing.stop).filter(move |&t| t != skip));
        }
        false
    }

    // -- play and take back --

    fn deal_from_stock(&self, pos: &mut Position, stacks: &mut Stacks) -> DealUndo {
        if self.placing.deal_closing.is_empty() {
            return self.deal_cards(pos, stacks);
        }
        // `close_gaps: deal`: the gaps close first, each slide a pair on the received stack
        let mut slides = 0;
        for &(start, stop) in &self.placing.deal_closing {
            let mut gap = None;
            for s in start..stop {
                if pos.piles[s].is_empty() {
                    gap = gap.or(Some(s));
                } else if let Some(w) = gap {
                    let cards = std::mem::take(&mut pos.piles[s]);
                    pos.piles[w].extend_from_slice(&cards);
                    pos.piles[s] = cards;
                    pos.piles[s].clear();
                    stacks.received.push(s as u16);
                    stacks.received.push(w as u16);
                    stacks.touched.mark(s);
                    stacks.touched.mark(w);
                    slides += 1;
                    gap = Some(w + 1);
                }
            }
        }
        match self.deal_cards(pos, stacks) {
            DealUndo::Received(fed) if slides > 0 => DealUndo::Closed { slides, fed },
            dealt => dealt,
        }
    }

    /// The deal itself: `deal_from_stock` without the closing of gaps.
    fn deal_cards(&self, pos: &mut Position, stacks: &mut Stacks) -> DealUndo {
        // `stock.top`: the stock's next card goes back on the stock, to be dealt first (the
        // top pile's fill takes the stock's next card after the deal)
        if let Some(card) = self.stock_top.and_then(|t| pos.piles[t].pop()) {
            pos.stock.push(card);
            stacks.touched.mark(self.stock_top.expect("a top pile"));
        }
        if pos.stock.is_empty() {
            if let Some(gather) = &self.gather {
                let rules = GatherRules {
                    keep: self.gather_keep.as_ref(),
                    gaps: self.gather_gaps.as_ref(),
                    places: &self.placing.maps,
                };
                gather_piles(gather, &rules, pos, stacks);
                return DealUndo::Gathered;
            }
            if let Some(redeal) = &self.redeal {
                let waste = std::mem::take(&mut pos.piles[redeal.waste]);
                pos.stock.extend(waste.iter().rev().map(|&c| c & !FACE_DOWN));
                pos.piles[redeal.waste] = waste;
                pos.piles[redeal.waste].clear();
                stacks.touched.mark(redeal.waste);
                if let Some(counter) = redeal.counter {
                    pos.piles[counter].push(0);
                    stacks.touched.mark(counter);
                }
                return DealUndo::Redealt;
            }
        }
        let mut fed = 0;
        for &index in &self.deal_targets {
            let Some(&card) = pos.stock.last() else { break };
            if self.deal_skips_empty && pos.piles[index].is_empty()
                || self.deal_fills_empty && !pos.piles[index].is_empty()
            {
                continue;
            }
            pos.stock.pop();
            pos.piles[index].push(card);
            stacks.received.push(index as u16);
            stacks.touched.mark(index);
            fed += 1;
        }
        DealUndo::Received(fed)
    }

    fn undeal(&self, pos: &mut Position, stacks: &mut Stacks, deal: DealUndo) {
        match deal {
            DealUndo::None => {}
            DealUndo::Closed { slides, fed } => {
                self.undeal(pos, stacks, DealUndo::Received(fed));
                for _ in 0..slides {
                    let w = stacks.received.pop().expect("a slide's gap") as usize;
                    let s = stacks.received.pop().expect("a slide's source") as usize;
                    let cards = std::mem::take(&mut pos.piles[w]);
                    pos.piles[s].extend_from_slice(&cards);
                    pos.piles[w] = cards;
                    pos.piles[w].clear();
                    stacks.touched.mark(s);
                    stacks.touched.mark(w);
                }
            }
            DealUndo::Gathered => {
                let gather = self.gather.as_ref().expect("a gather");
                for &p in gather.piles.iter().rev() {
                    let n = stacks.gathered.pop().expect("a gathered pile") as usize;
                    let cut = stacks.gathered.len() - n;
                    pos.piles[p].clear();
                    pos.piles[p].extend(stacks.gathered.drain(cut..).map(|c| c as u8));
                    stacks.touched.mark(p);
                }
                if let Some(counter) = gather.counter {
                    pos.piles[counter].pop();
                    stacks.touched.mark(counter);
                }
            }
            DealUndo::Redealt => {
                let redeal = self.redeal.as_ref().expect("a redeal");
                let stock = std::mem::take(&mut pos.stock);
                pos.piles[redeal.waste].extend(stock.iter().rev());
                pos.stock = stock;
                pos.stock.clear();
                stacks.touched.mark(redeal.waste);
                if let Some(counter) = redeal.counter {
                    pos.piles[counter].pop();
                    stacks.touched.mark(counter);
                }
            }
            DealUndo::Received(fed) => {
                for _ in 0..fed {
                    let index = stacks.received.pop().expect("a dealt pile") as usize;
                    let card = pos.piles[index].pop().expect("a dealt card");
                    stacks.touched.mark(index);
                    pos.stock.push(card);
                }
                if let Some(t) = self.stock_top {
                    if pos.piles[t].is_empty() {
                        // a deal (not a redeal) took the top card: it goes back
                        let card = pos.stock.pop().expect("the top card");
                        pos.piles[t].push(card);
                        stacks.touched.mark(t);
                    }
                }
            }
        }
    }

    #[inline]
    fn turn_up(&self, pos: &mut Position, s: usize, stacks: &mut Stacks) -> u32 {
        match pos.piles[s].last_mut() {
            Some(top) if self.turns_up_top(s, Some(*top)) => {
                *top &= !FACE_DOWN;
                stacks.touched.mark(s);
                stacks.steps.push(Move { s: s as i16, k: 0, t: TURNED });
                1
            }
            _ => 0,
        }
    }

    /// Whether `turn_up` turns pile `s`'s top card `top` up (a face-down top of a pile
    /// that turns up).
    #[inline(always)]
    fn turns_up_top(&self, s: usize, top: Option<u8>) -> bool {
        self.turns_up[s] && top.is_some_and(|top| top & FACE_DOWN != 0)
    }

    /// Whether `uncover` may turn a card after a move from pile `s`: `emptied`, and it
    /// covers piles (`face_down: covered`).
    #[inline(always)]
    fn may_uncover(&self, s: usize, emptied: bool) -> bool {
        emptied && !self.uncovers[s].is_empty()
    }

    /// `face_down: covered`: pile `s` may have emptied; each face-down top card of a pile it
    /// covered that nothing covers now turns up (a step each). Returns the steps.
    #[inline]
    fn uncover(&self, pos: &mut Position, s: usize, stacks: &mut Stacks) -> u32 {
        if !self.may_uncover(s, pos.piles[s].is_empty()) {
            return 0;
        }
        let mut turned = 0;
        for (pile, covering) in &self.uncovers[s] {
            if covering.iter().any(|&c| !pos.piles[c].is_empty()) {
                continue;
            }
            if let Some(top) = pos.piles[*pile].last_mut() {
                if *top & FACE_DOWN != 0 {
                    *top &= !FACE_DOWN;
                    stacks.touched.mark(*pile);
                    stacks.steps.push(Move { s: *pile as i16, k: 0, t: TURNED });
                    turned += 1;
                }
            }
        }
        turned
    }

    /// Whether a move's cards land under the cards of pile `t` (`lands: bottom`).
    #[inline(always)]
    fn lands_under(&self, t: usize) -> bool {
        !self.bottom.is_empty() && self.bottom[t]
    }

    /// `k` cards from pile `s` onto pile `t`, where they land (`lands: bottom`).
    #[inline]
    fn land(&self, pos: &mut Position, s: usize, k: usize, t: usize, stacks: &mut Stacks) {
        if self.lands_under(t) {
            move_under(&mut pos.piles, s, k, t, false, &mut stacks.touched);
        } else {
            move_cards(&mut pos.piles, s, k, t, &mut stacks.touched);
        }
    }

    /// Take back `land`.
    #[inline]
    fn unland(&self, pos: &mut Position, s: usize, k: usize, t: usize, stacks: &mut Stacks) {
        if self.lands_under(t) {
            move_under(&mut pos.piles, s, k, t, true, &mut stacks.touched);
        } else {
            move_cards(&mut pos.piles, t, k, s, &mut stacks.touched);
        }
    }

    /// `fill_from: last`: the first empty pile filled so takes the top card of pile `last`,
    /// when it lies face down, turned up (the steps `(last, 1, pile)` and a turn-up of the
    /// pile); the card under it stays as it lies (`patience.moves.turn_from_last`). The
    /// filled pile, if any.
    fn turn_from_last(&self, pos: &mut Position, last: Option<usize>, stacks: &mut Stacks) -> Option<usize> {
        let last = last?;
        if pos.piles[last].last().is_none_or(|&top| top & FACE_DOWN == 0) {
            return None;
        }
        let t = *self.fill_last.iter().find(|&&t| pos.piles[t].is_empty())?;
        let card = pos.piles[last].pop().expect("a face-down card");
        pos.piles[t].push(card & !FACE_DOWN);
        stacks.touched.mark(last);
        stacks.touched.mark(t);
        stacks.steps.push(Move::new(last, 1, t));
        stacks.steps.push(Move { s: t as i16, k: 0, t: TURNED });
        Some(t)
    }

    /// Play `mv` and everything that follows from it by the rules.
    pub fn play(&self, pos: &mut Position, mv: Move, stacks: &mut Stacks) -> Undo {
        let mut steps = 0;
        // the pile the last card went to (`fill_from: last`): none after a deal
        let mut last = None;
        let deal = if mv.is_discard() {
            let t = mv.t as usize;
            for &p in self.discard_piles(mv) {
                let card = pos.piles[p as usize].pop().expect("a discarded card");
                pos.piles[t].push(card);
                stacks.touched.mark(p as usize);
            }
            stacks.touched.mark(t);
            for &p in self.discard_piles(mv) {
                steps += self.turn_up(pos, p as usize, stacks);
            }
            for &p in self.discard_piles(mv) {
                steps += self.uncover(pos, p as usize, stacks);
            }
            last = Some(t);
            DealUndo::None
        } else if mv.s < 0 {
            self.deal_from_stock(pos, stacks)
        } else if mv.is_draw() {
            self.draw(pos, mv, stacks);
            last = Some(mv.t as usize);
            DealUndo::None
        } else {
            let s = mv.s as usize;
            self.land(pos, s, mv.k as usize, mv.t as usize, stacks);
            steps += self.turn_up(pos, s, stacks);
            steps += self.uncover(pos, s, stacks);
            last = Some(mv.t as usize);
            DealUndo::None
        };
        if self.has_forced {
            steps += self.settle(pos, last, stacks);
        }
        Undo::new(deal, steps)
    }

    /// Whether `play` would only move the cards of `mv` from its source onto the top of
    /// its target (and mark the two piles changed): a move of cards between two piles, not
    /// landing under, the source's new top not turned up nor a covered pile uncovered, no
    /// forced moves after. The guided search estimates such a child without playing it
    /// (in a debug build it checks this against `play`).
    pub fn moves_cards_only(&self, pos: &Position, mv: Move) -> bool {
        if mv.s < 0 || mv.is_draw() || self.has_forced || mv.s == mv.t {
            return false;
        }
        let (s, k, t) = (mv.s as usize, mv.k as usize, mv.t as usize);
        let src = &pos.piles[s];
        if self.lands_under(t) || k == 0 || k > src.len() {
            return false;
        }
        let left = src.len() - k;
        !self.turns_up_top(s, left.checked_sub(1).map(|i| src[i])) && !self.may_uncover(s, left == 0)
    }

    /// The forced steps after a move (`last`: the pile its cards went to) or a fresh
    /// layout: what `first_forced` finds, and when it finds nothing a fill from the pile
    /// the last card went to, until nothing is left (past `max_forced_moves` it stops and
    /// sets `Stacks::runaway`). How many steps it pushed.
    pub fn settle(&self, pos: &mut Position, mut last: Option<usize>, stacks: &mut Stacks) -> u32 {
        let mut steps = 0;
        let mut made = 0;
        loop {
            // from a settled position, a forced move now legal takes cards from a pile the
            // moves since changed, or goes to one (`Program::forced_targets`)
            let only = match &self.forced_targets {
                Some(targets) if stacks.from_settled && !stacks.touched.meets(targets) => Some(stacks.touched),
                _ => None,
            };
            let forced = self.first_forced_of(pos, only.as_ref());
            debug_assert_eq!(forced, self.first_forced(pos), "a forced move outside the piles changed");
            let Some(forced) = forced else {
                if self.fill_last.is_empty() {
                    break;
                }
                match self.turn_from_last(pos, last, stacks) {
                    Some(t) => {
                        last = Some(t);
                        steps += 2;
                        made += 1;
                        continue;
                    }
                    None => break,
                }
            };
            if made == self.max_forced_moves {
                stacks.runaway = true;
                break;
            }
            made += 1;
            stacks.steps.push(forced);
            steps += 1;
            let t = forced.t as usize;
            last = Some(t);
            if forced.s < 0 {
                let card = pos.stock.pop().expect("a card to fill with");
                pos.piles[t].push(card);
                stacks.touched.mark(t);
                continue;
            }
            let s = forced.s as usize;
            self.land(pos, s, forced.k as usize, t, stacks);
            steps += self.turn_up(pos, s, stacks);
            steps += self.uncover(pos, s, stacks);
        }
        steps
    }

    /// Take back `mv`, played with `undo`.
    pub fn take_back(&self, pos: &mut Position, mv: Move, undo: Undo, stacks: &mut Stacks) {
        for _ in 0..undo.steps {
            let step = stacks.steps.pop().expect("a step");
            if step.t == TURNED {
                if let Some(top) = pos.piles[step.s as usize].last_mut() {
                    *top |= FACE_DOWN;
                    stacks.touched.mark(step.s as usize);
                }
                continue;
            }
            let t = step.t as usize;
            if step.s < 0 {
                let card = pos.piles[t].pop().expect("a filled card");
                stacks.touched.mark(t);
                pos.stock.push(card);
                continue;
            }
            self.unland(pos, step.s as usize, step.k as usize, t, stacks);
        }
        if mv.is_discard() {
            let t = mv.t as usize;
            for &p in self.discard_piles(mv).iter().rev() {
                let card = pos.piles[t].pop().expect("a discarded card");
                pos.piles[p as usize].push(card);
                stacks.touched.mark(p as usize);
            }
            stacks.touched.mark(t);
        } else if mv.s < 0 {
            self.undeal(pos, stacks, undo.deal());
        } else if mv.is_draw() {
            self.undraw(pos, mv, stacks);
        } else {
            self.unland(pos, mv.s as usize, mv.k as usize, mv.t as usize, stacks);
        }
    }

    /// The draw of a buried card `mv` (`merci`): the top card of pile `s` lifted, the card
    /// under it landed on pile `t`, the top card put back, one draw counted.
    #[inline(never)]
    fn draw(&self, pos: &mut Position, mv: Move, stacks: &mut Stacks) {
        let (s, t) = (mv.s as usize, mv.t as usize);
        let counter = self.merci.as_ref().expect("a variant with draws").counter;
        let top = pos.piles[s].pop().expect("a top card");
        self.land(pos, s, 1, t, stacks);
        pos.piles[s].push(top);
        pos.piles[counter].push(0);
        stacks.touched.mark(s);
        stacks.touched.mark(counter);
    }

    /// Take back `draw`.
    #[inline(never)]
    fn undraw(&self, pos: &mut Position, mv: Move, stacks: &mut Stacks) {
        let (s, t) = (mv.s as usize, mv.t as usize);
        let counter = self.merci.as_ref().expect("a variant with draws").counter;
        pos.piles[counter].pop();
        let top = pos.piles[s].pop().expect("a top card");
        self.unland(pos, s, 1, t, stacks);
        pos.piles[s].push(top);
        stacks.touched.mark(s);
        stacks.touched.mark(counter);
    }

    /// Perft: the leaves of the move tree `depth` plies below `pos`.
    pub fn perft(&self, pos: &mut Position, depth: u32, stacks: &mut Stacks) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        self.generate(pos, &mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for mv in moves {
            let undo = self.play(pos, mv, stacks);
            if !stacks.runaway {
                total += self.perft(pos, depth - 1, stacks);
            }
            self.take_back(pos, mv, undo, stacks);
            if stacks.runaway {
                break; // the caller reports it
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::Code;
    use crate::program::Expr;
    use crate::program::bare_program;
    use crate::wire::Fill;

    #[test]
    fn the_redeal_shuffle_is_the_one_docs_rules_md_writes_out() {
        // AC 2C 3C 4C 5C (rank * 4 + suit), gathered in any order, seed 1
        let mut first = vec![20u8, 16, 12, 8, 4];
        redeal_shuffle(&mut first, 1, 1);
        assert_eq!(first, vec![4, 20, 8, 12, 16]); // AC 5C 2C 3C 4C
        let mut second = vec![4u8, 8, 12, 16, 20];
        redeal_shuffle(&mut second, 1, 2);
        assert_eq!(second, vec![12, 4, 20, 16, 8]); // 3C AC 5C 4C 2C
    }

    #[test]
    fn gathered_cards_go_deal_a_pile_and_extra_ones_to_the_first_piles() {
        assert_eq!(gather_sizes(52, 3, 18), [vec![3; 17], vec![1]].concat());
        assert_eq!(gather_sizes(7, 3, 4), vec![3, 3, 1, 0]);
        assert_eq!(gather_sizes(50, 4, 12), [vec![5, 5], vec![4; 10]].concat());
    }

    #[test]
    fn the_moves_from_some_piles_are_all_the_moves_less_those_from_the_others() {
        // Klondike by threes' program: a position reached by a deal keeps only the moves
        // from the waste (`Solver::after_deal`), made by `generate_from` without the rest
        let program = crate::program::Program::from_json(include_str!("../../tests/programs/klondike-draw3.json"))
            .expect("the golden program");
        let mut state = 7u64;
        let mut next = |below: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % below
        };
        let mut tried = 0;
        for _ in 0..500 {
            // the 52 cards (rank * 4 + suit), face up, spread over the piles and the stock
            let mut pos = Position { piles: vec![Vec::new(); program.piles], stock: Vec::new() };
            for card in 4u8..56 {
                let at = next(program.piles as u64 + 1) as usize;
                match pos.piles.get_mut(at) {
                    Some(pile) => pile.push(card),
                    None => pos.stock.push(card),
                }
            }
            let sources: Vec<bool> = (0..program.slots).map(|_| next(2) == 1).collect();
            let mut all = Vec::new();
            program.generate(&pos, &mut all);
            all.retain(|m| m.s < 0 || sources[m.s as usize]);
            let mut some = Vec::new();
            program.generate_from(&pos, &mut some, Some(&sources));
            assert_eq!(some, all);
            tried += some.len();
        }
        assert!(tried > 500, "positions with moves: {tried}");
    }

    /// Every shipped program's golden file (`tests/programs/`), by name, in order.
    fn golden_programs() -> Vec<(String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
        let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("the golden programs").map(|e| e.expect("a file").path()).collect();
        paths.sort();
        paths.iter().map(|path| {
            let name = path.file_stem().expect("a name").to_string_lossy().into_owned();
            (name, std::fs::read_to_string(path).expect("a program"))
        }).collect()
    }

    /// Numbers below the bound asked, from a generator seeded with `seed`.
    fn numbers(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut state = seed;
        move |below| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % below
        }
    }

    /// Each suit King to Ace (twice for a program of more than 16 piles), in stretches of
    /// one to `longest` cards spread over the piles and the stock; the counters (piles past
    /// `piles`) empty.
    fn stretched_layout(program: &Program, longest: u64, next: &mut impl FnMut(u64) -> u64) -> Position {
        let decks = if program.piles > 16 { 2 } else { 1 };
        let mut pos = Position { piles: vec![Vec::new(); program.slots], stock: Vec::new() };
        let cards: Vec<u8> = (0..decks).flat_map(|_| (0..4u8).flat_map(|suit| (1..14u8).rev().map(move |rank| rank * 4 + suit))).collect();
        let mut at = 0;
        while at < cards.len() {
            let stretch = (1 + next(longest) as usize).min(cards.len() - at);
            let to = next(program.piles as u64 + 1) as usize;
            let pile = if to < program.piles { &mut pos.piles[to] } else { &mut pos.stock };
            pile.extend_from_slice(&cards[at..at + stretch]);
            at += stretch;
        }
        pos
    }

    /// Every shipped program that has a shortcut `strip` takes out of it (saying whether
    /// it had one), by name: the program as read, and read again without the shortcut.
    fn without_shortcut(strip: impl Fn(&mut Program) -> bool) -> Vec<(String, Program, Program)> {
        golden_programs().into_iter().filter_map(|(name, text)| {
            let program = Program::from_json(&text).expect("the golden program");
            let mut plain = Program::from_json(&text).expect("the golden program");
            strip(&mut plain).then_some((name, program, plain))
        }).collect()
    }

    #[test]
    fn a_scan_read_from_its_table_gives_the_moves_of_the_rule() {
        // every shipped program whose scans are one table lookup: the same moves, in order,
        // from random positions of runs in suit and out, with the scans run as rules
        let (mut tabled, mut moves_seen) = (Vec::new(), 0);
        let mut next = numbers(9);
        let stripped = without_shortcut(|plain| {
            let plans = plain.sources.iter_mut().chain(plain.forced_sources.iter_mut()).flatten();
            let mut any = false;
            for plan in plans {
                any |= plan.scan_table.take().is_some(); // every plan's, not the first's alone
            }
            any
        });
        for (name, program, plain) in stripped {
            for _ in 0..100 {
                let pos = stretched_layout(&program, 6, &mut next);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                program.generate(&pos, &mut a);
                plain.generate(&pos, &mut b);
                assert_eq!(a, b, "{name}");
                assert_eq!(program.first_forced(&pos), plain.first_forced(&pos), "{name}");
                moves_seen += a.iter().filter(|m| m.k > 1).count();
            }
            tabled.push(name);
        }
        assert!(tabled.iter().any(|n| n == "freecell") && tabled.iter().any(|n| n == "spider"), "{tabled:?}");
        assert!(moves_seen > 1000, "runs of two cards or more moved: {moves_seen}");
    }

    #[test]
    fn a_safe_move_is_sought_only_among_the_piles_its_rule_names() {
        // every shipped program with a safe rule: the first safe move with the rule's pile
        // ranges the same as with the rule asked of every move, from random layouts
        let (mut ranged, mut safe_seen) = (Vec::new(), 0);
        let mut next = numbers(11);
        let everywhere = ((0, usize::MAX), (0, usize::MAX));
        let stripped = without_shortcut(|plain| match plain.safe.as_mut() {
            Some(safe) if (safe.sources, safe.targets) != everywhere => {
                (safe.sources, safe.targets) = everywhere;
                true
            }
            _ => false,
        });
        for (name, program, plain) in stripped {
            for _ in 0..200 {
                let pos = stretched_layout(&program, 4, &mut next);
                let mut moves = Vec::new();
                program.generate(&pos, &mut moves);
                let found = program.first_safe(&pos, &moves);
                assert_eq!(found, plain.first_safe(&pos, &moves), "{name}");
                safe_seen += usize::from(found.is_some());
            }
            ranged.push(name);
        }
        assert!(ranged.iter().any(|n| n == "freecell"), "{ranged:?}");
        assert!(safe_seen > 100, "positions with a safe move: {safe_seen}");
    }

    #[test]
    fn a_move_said_to_move_only_its_cards_does_so() {
        // every shipped program, random layouts with face-down cards under the face-up ones:
        // a move `moves_cards_only` accepts changes its two piles alone and forces nothing;
        // among those it refuses, some turn a card up when played
        let (mut accepted, mut turning) = (0, 0);
        let mut next = numbers(13);
        for (name, text) in golden_programs() {
            let program = crate::program::Program::from_json(&text).expect("the golden program");
            for _ in 0..40 {
                let mut pos = stretched_layout(&program, 3, &mut next);
                for pile in pos.piles.iter_mut().take(program.piles) {
                    let down = next(pile.len() as u64 + 1) as usize;
                    for card in pile.iter_mut().take(down) {
                        *card |= FACE_DOWN;
                    }
                }
                let mut moves = Vec::new();
                program.generate(&pos, &mut moves);
                for mv in moves {
                    let only = program.moves_cards_only(&pos, mv);
                    let mut stacks = Stacks::default();
                    let undo = program.play(&mut pos, mv, &mut stacks);
                    if stacks.runaway {
                        assert!(!only, "{name} {mv:?}");
                    } else {
                        let touched = stacks.take_touched();
                        let mut two = Touched::NONE;
                        if mv.s >= 0 && mv.t >= 0 {
                            two.mark(mv.s as usize);
                            two.mark(mv.t as usize);
                        }
                        if only {
                            assert!(undo.is_plain() && touched == two, "{name} {mv:?}");
                            accepted += 1;
                        } else if mv.s >= 0 && !mv.is_draw() && !undo.is_plain() {
                            turning += 1;
                        }
                    }
                    program.take_back(&mut pos, mv, undo, &mut stacks);
                }
            }
        }
        assert!(accepted > 1000 && turning > 100, "accepted {accepted}, refused and turning {turning}");
    }

    #[test]
    fn a_set_of_piles_lists_those_in_a_range_in_order() {
        let mut piles = Touched::NONE;
        for p in [0, 5, 63, 64, 100, 200, 255] {
            piles.mark(p);
        }
        let within = |start, stop| piles.within(start, stop).collect::<Vec<_>>();
        assert_eq!(within(0, 256), vec![0, 5, 63, 64, 100, 200, 255]);
        assert_eq!(within(5, 64), vec![5, 63]);
        assert_eq!(within(6, 63), Vec::<usize>::new());
        assert_eq!(within(64, 201), vec![64, 100, 200]);
        assert_eq!(within(100, 100), Vec::<usize>::new());
        assert_eq!(Touched::ALL.within(62, 66).collect::<Vec<_>>(), vec![62, 63, 64, 65]);
    }

    #[test]
    fn forced_moves_are_found_among_the_piles_a_move_changed() {
        // every shipped program whose forced rules read only their two piles: random walks
        // from random layouts, each move's forced moves sought among the piles it changed
        // (in a debug build `settle` checks each answer against a look at every pile)
        let (mut local, mut forced) = (Vec::new(), 0);
        let mut next = numbers(5);
        for (name, text) in golden_programs() {
            let program = crate::program::Program::from_json(&text).expect("the golden program");
            if program.forced_targets.is_none() {
                continue;
            }
            for _ in 0..60 {
                // runs a move or two from complete
                let mut pos = stretched_layout(&program, 8, &mut next);
                let mut stacks = program.stacks_from(&pos);
                if !stacks.from_settled {
                    continue;
                }
                let mut moves = Vec::new();
                for _ in 0..300 {
                    moves.clear();
                    program.generate(&pos, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[next(moves.len() as u64) as usize];
                    let undo = program.play(&mut pos, mv, &mut stacks);
                    if stacks.runaway {
                        break;
                    }
                    forced += (undo.steps > 0) as usize;
                    assert_eq!(program.first_forced(&pos), None, "{name}: a forced move left after {mv:?}");
                }
            }
            local.push(name);
        }
        assert!(local.iter().any(|n| n == "spider") && local.iter().any(|n| n == "scorpion"), "{local:?}");
        assert!(forced > 100, "moves with forced moves after them: {forced}");
    }

    #[test]
    fn forced_moves_that_never_end_stop_at_the_bound() {
        // piles 0 and 1 fill from each other; a move empties pile 0 onto pile 2
        let mut program = bare_program(3);
        program.fills = vec![
            Fill { start: 0, stop: 1, from_stock: false, sources: (1, 2), when: serde_json::Value::Bool(true) },
            Fill { start: 1, stop: 2, from_stock: false, sources: (0, 1), when: serde_json::Value::Bool(true) },
        ];
        program.fill_when = vec![Code::new(&Expr::Int(1), &[]), Code::new(&Expr::Int(1), &[])];
        program.has_forced = true;
        let mut pos = Position { piles: vec![vec![4], vec![8], vec![]], stock: vec![] };
        let before = pos.clone();
        let mut stacks = Stacks::default();
        let mv = Move::new(0, 1, 2);
        let undo = program.play(&mut pos, mv, &mut stacks);
        assert!(stacks.runaway);
        assert_eq!(undo.steps, program.max_forced_moves);
        program.take_back(&mut pos, mv, undo, &mut stacks);
        assert_eq!((pos.piles, pos.stock), (before.piles, before.stock));
    }

    #[test]
    fn the_deal_deals_the_stocks_top_card_first_and_the_fill_turns_up_the_next() {
        // pile 0 holds the stock's top card (stock.top, filled from the stock), pile 1 is
        // the waste: the deal puts pile 0's card on the waste and the next card on pile 0
        let mut program = bare_program(2);
        program.fills = vec![Fill { start: 0, stop: 1, from_stock: true, sources: (0, 0), when: serde_json::Value::Bool(true) }];
        program.fill_when = vec![Code::new(&Expr::Int(1), &[])];
        program.has_forced = true;
        program.stock_top = Some(0);
        program.deal_targets = vec![1];
        program.deal_when = crate::compile::Code::new(&crate::program::Expr::Int(1), &[]);
        let mut pos = Position { piles: vec![vec![8], vec![]], stock: vec![4] };
        assert!(program.can_deal(&pos));
        let before = pos.clone();
        let mut stacks = Stacks::default();
        let undo = program.play(&mut pos, DEAL, &mut stacks);
        assert_eq!((pos.piles.clone(), pos.stock.clone()), (vec![vec![4], vec![8]], vec![]));
        assert!(program.can_deal(&pos)); // the stock itself is empty, its top card is not
        let again = program.play(&mut pos, DEAL, &mut stacks);
        assert_eq!((pos.piles.clone(), pos.stock.clone()), (vec![vec![], vec![8, 4]], vec![]));
        assert!(!program.can_deal(&pos));
        program.take_back(&mut pos, DEAL, again, &mut stacks);
        program.take_back(&mut pos, DEAL, undo, &mut stacks);
        assert_eq!((pos.piles, pos.stock), (before.piles, before.stock));
    }

    #[test]
    fn a_draw_plays_the_card_under_the_top_card_and_counts_itself() {
        // pile 0 holds 2C under 3C; the draw puts 2C on pile 1, 3C stays; pile 3 counts
        let mut program = bare_program(3);
        program.slots = 4;
        program.merci = Some(Box::new(crate::program::Merci { sources: vec![], counter: 3, limit: 1 }));
        let mut pos = Position { piles: vec![vec![8, 12], vec![16], vec![], vec![]], stock: vec![] };
        let before = pos.clone();
        let mut stacks = Stacks::default();
        let mv = Move { s: 0, k: DRAW, t: 1 };
        let undo = program.play(&mut pos, mv, &mut stacks);
        assert_eq!(pos.piles, vec![vec![12], vec![16, 8], vec![], vec![0]]);
        let touched = stacks.take_touched();
        assert!(touched.has(0) && touched.has(1) && touched.has(3));
        program.take_back(&mut pos, mv, undo, &mut stacks);
        assert_eq!((pos.piles, pos.stock), (before.piles, before.stock));
    }

    #[test]
    fn a_covered_face_down_card_turns_up_once_nothing_covers_it() {
        // pile 0 (face down) lies under piles 1 and 2; both leave for pile 3
        let mut program = bare_program(4);
        program.uncovers = vec![vec![], vec![(0, vec![1, 2])], vec![(0, vec![1, 2])], vec![]];
        let mut pos = Position { piles: vec![vec![4 | FACE_DOWN], vec![8], vec![12], vec![]], stock: vec![] };
        let mut stacks = Stacks::default();
        let first = program.play(&mut pos, Move::new(1, 1, 3), &mut stacks);
        assert_eq!(pos.piles[0], vec![4 | FACE_DOWN]); // pile 2 still covers it
        let second = program.play(&mut pos, Move::new(2, 1, 3), &mut stacks);
        assert_eq!((pos.piles[0].clone(), second.steps), (vec![4], 1));
        program.take_back(&mut pos, Move::new(2, 1, 3), second, &mut stacks);
        assert_eq!(pos.piles[0], vec![4 | FACE_DOWN]);
        program.take_back(&mut pos, Move::new(1, 1, 3), first, &mut stacks);
        assert_eq!(pos.piles, vec![vec![4 | FACE_DOWN], vec![8], vec![12], vec![]]);
    }
}
