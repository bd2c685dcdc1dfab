//! Token counts. Exact counts use OpenAI's o200k_base encoding (tiktoken's byte-pair merge over
//! a vocabulary table laid out at build time from `bpe-openai`'s data, see [`super::bpe`]);
//! Claude's tokenizer is not public, so every count is labelled with the encoding it used. Exact
//! counting costs ~11 µs per kilobyte (`cargo bench --bench tokens`), too slow for linting on
//! every keystroke, so the lint uses a fast estimate that mimics o200k's pre-tokenizer and falls
//! back to the exact count only near a threshold, where the answer matters.
//!
//! Over 600 lines for one job, counting tokens: the estimate, the exact count with its memo and
//! segment cache, the two-thread split and the count against a limit must agree piece for piece,
//! and the property tests hold them side by side.

use super::bpe::{self, Table, O200K};
use std::sync::OnceLock;

/// Exact o200k_base token count.
pub fn count_o200k(text: &str) -> usize {
    if text.len() < 4096 {
        crate::syntax::o200k_split::split_o200k(text).map(|p| O200K.count(p.as_bytes())).sum()
    } else {
        count_part(&O200K, text, 0, &[], &mut [], &mut Memo::default())
    }
}

/// Exact cl100k_base token count.
pub fn count_cl100k(text: &str) -> usize {
    bpe::split_cl100k(text).map(|p| bpe::CL100K.count(p.as_bytes())).sum()
}

/// Exact o200k_base counts of a whole text and of byte ranges in it, in one pass: the text is
/// pre-tokenized once, each piece's BPE count is memoized (prompts repeat the same words), and
/// each piece counts for the range it starts in. `ranges` must be sorted and disjoint. A
/// range's count is what its bytes cost inside this text; it differs from counting the range
/// alone only when a piece straddles its edge (rare: entries start after a newline).
/// Large texts are split at a piece boundary and counted on two threads.
pub fn count_o200k_ranges(text: &str, ranges: &[std::ops::Range<usize>]) -> (usize, Vec<usize>) {
    if let Some(r) = count_by_segments(text, ranges) {
        return r;
    }
    count_whole(text, ranges)
}

fn count_whole(text: &str, ranges: &[std::ops::Range<usize>]) -> (usize, Vec<usize>) {
    let t = &O200K;
    let mut per = vec![0usize; ranges.len()];
    // Split near the middle after a newline followed by a character that starts a new piece in
    // every case (not whitespace, not `/`, which a punctuation piece may absorb after newlines).
    let mid = if text.len() >= 64 * 1024 { safe_split(text, text.len() / 2) } else { None };
    let total = match mid {
        None => count_part(t, text, 0, ranges, &mut per, &mut Memo::default()),
        Some(m) => {
            let first = ranges.partition_point(|r| r.start < m);
            let (ra, rb) = ranges.split_at(first);
            let (pa, pb) = per.split_at_mut(first);
            std::thread::scope(|s| {
                let h = s.spawn(|| count_part(t, &text[m..], m, rb, pb, &mut Memo::default()));
                let a = count_part(t, &text[..m], 0, ra, pa, &mut Memo::default());
                a + h.join().unwrap_or_else(|_| count_o200k(&text[m..]))
            })
        }
    };
    (total, per)
}

/// Whether o200k's pre-tokenizer always starts a piece at byte `p`: right after a newline, at a
/// character that is not `/` (a punctuation piece takes `[\r\n/]*` after it) and not the start of
/// more whitespace that reaches another line break (a whitespace piece would span the cut).
fn is_piece_start(text: &str, p: usize) -> bool {
    let b = text.as_bytes();
    if p == 0 || p >= b.len() || b[p - 1] != b'\n' || b[p] == b'/' {
        return false;
    }
    let rest = &text[p..];
    let ws = rest.len() - rest.trim_start().len();
    !rest[..ws].contains(['\n', '\r']) && !rest[ws..].is_empty()
}

/// Remembered counts of text segments across calls: a prompt re-rendered after a small change
/// re-counts only the entries that changed. Keyed by a 64-bit hash of the segment with its length
/// and the length of the range it starts with; bounded (cleared when full).
type SegmentCache = std::sync::Mutex<std::collections::HashMap<(u64, u32, u32), (u32, u32)>>;

fn segment_cache() -> &'static SegmentCache {
    static C: OnceLock<SegmentCache> = OnceLock::new();
    C.get_or_init(Default::default)
}

/// Forgets every remembered segment count (benchmarks measure cold renders with it).
pub fn clear_segment_cache() {
    segment_cache().lock().unwrap_or_else(|e| e.into_inner()).clear();
}

fn hash64(s: &str) -> u64 {
    use std::hash::BuildHasher;
    // Fixed seed: the same segment has the same key on every call.
    foldhash::quality::FixedState::with_seed(0x5eed_5e9e).hash_one(s)
}

/// Counts by segments cut at each range start, when every start is a piece start (`None`
/// otherwise): a segment runs from one range start to the next, so the total is the sum of the
/// segments' counts and each range's count is its segment's pieces that start inside it.
fn count_by_segments(text: &str, ranges: &[std::ops::Range<usize>]) -> Option<(usize, Vec<usize>)> {
    if ranges.len() < 8 || !ranges.iter().all(|r| is_piece_start(text, r.start)) {
        return None;
    }
    let t = &O200K;
    // Segment 0 is the text before the first range; segment k+1 starts at range k.
    let mut cuts: Vec<usize> = vec![0];
    cuts.extend(ranges.iter().map(|r| r.start));
    cuts.push(text.len());
    let n = cuts.len() - 1;
    let keys: Vec<(u64, u32, u32)> = (0..n)
        .map(|k| {
            let seg = &text[cuts[k]..cuts[k + 1]];
            let in_range = if k == 0 { 0 } else { (ranges[k - 1].end - ranges[k - 1].start) as u32 };
            (hash64(seg), seg.len() as u32, in_range)
        })
        .collect();
    let mut found: Vec<Option<(u32, u32)>> = {
        let cache = segment_cache().lock().unwrap_or_else(|e| e.into_inner());
        keys.iter().map(|k| cache.get(k).copied()).collect()
    };
    let missing: Vec<usize> = (0..n).filter(|&k| found[k].is_none()).collect();
    // Each thread counts its share of the missing segments with one memo of piece counts.
    let count_some = |ks: &[usize]| -> Vec<(usize, (u32, u32))> {
        let mut memo = Memo::default();
        ks.iter()
            .map(|&k| {
                let seg = &text[cuts[k]..cuts[k + 1]];
                let range: Vec<std::ops::Range<usize>> = if k == 0 {
                    vec![]
                } else {
                    vec![std::ops::Range { start: 0, end: ranges[k - 1].end - ranges[k - 1].start }]
                };
                let mut per = vec![0usize; range.len()];
                let total = count_part(t, seg, 0, &range, &mut per, &mut memo);
                (k, (total as u32, per.first().copied().unwrap_or(0) as u32))
            })
            .collect()
    };
    let missing_bytes: usize = missing.iter().map(|&k| cuts[k + 1] - cuts[k]).sum();
    let computed: Vec<(usize, (u32, u32))> = if missing_bytes >= 64 * 1024 {
        let (a, b) = missing.split_at(missing.len() / 2);
        std::thread::scope(|s| {
            let h = s.spawn(|| count_some(b));
            let mut out = count_some(a);
            out.extend(h.join().unwrap_or_default());
            out
        })
    } else {
        count_some(&missing)
    };
    if computed.len() != missing.len() {
        return None;
    }
    {
        let mut cache = segment_cache().lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() > 500_000 {
            cache.clear();
        }
        for (k, v) in &computed {
            cache.insert(keys[*k], *v);
            found[*k] = Some(*v);
        }
    }
    let total = found.iter().map(|v| v.map_or(0, |(t, _)| t as usize)).sum();
    let per = (1..=ranges.len()).map(|k| found[k].map_or(0, |(_, r)| r as usize)).collect();
    Some((total, per))
}

fn safe_split(text: &str, near: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = near;
    while i + 1 < b.len() {
        if b[i] == b'\n' && !b[i + 1].is_ascii_whitespace() && b[i + 1] != b'/' && b[i + 1] < 0x80 {
            return Some(i + 1);
        }
        i += 1;
    }
    None
}

/// Counts `part` (which starts at byte `base` of the whole text), adding each piece to the
/// range it starts in.
/// Remembered piece counts: most pieces are short words, kept in a direct-mapped table by their
/// bytes packed into one integer with their count (one multiply to place, one compare to find; a
/// collision only replaces the older entry); longer pieces by their text.
///
/// A short slot is the piece's bytes (at most 15, zero-padded) with, in its last byte, the
/// piece's length (high 4 bits) and count (low 4 bits: a piece never counts more tokens than it
/// has bytes): 16 bytes, so that the table (512 KB) stays in cache; an empty slot (0) is the
/// empty piece, which counts 0.
struct Memo<'a> {
    short: Vec<u128>,
    long: LongMemo,
    _text: std::marker::PhantomData<&'a str>,
}

/// Counts of longer pieces (16 bytes and more), by their bytes, kept between counts like the
/// short table: such pieces are where byte-pair merging costs most (a run of CJK letters, which
/// o200k's pre-tokenizer keeps whole up to the next punctuation, is one piece of tens of bytes),
/// and texts of one library repeat many of them. Bounded: emptied when it holds `LONG_MAX`.
type LongMemo = std::collections::HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>;

/// How many longer pieces [`LongMemo`] keeps (a few MB at most).
const LONG_MAX: usize = 1 << 16;

/// log2 of the short table's slots.
const MEMO_BITS: u32 = 15;

thread_local! {
    /// Each thread's short table, kept between counts: its entries are keyed by the piece's
    /// bytes, so they hold for any text, and a 512 KB table is not zeroed, mapped and unmapped on
    /// every count (a library check counts hundreds of bodies).
    static SHORT: std::cell::Cell<Vec<u128>> = const { std::cell::Cell::new(Vec::new()) };
    /// Each thread's [`LongMemo`], kept between counts.
    static LONG: std::cell::RefCell<Option<LongMemo>> = const { std::cell::RefCell::new(None) };
}

impl Default for Memo<'_> {
    fn default() -> Self {
        let mut short = SHORT.with(|s| s.take());
        if short.len() != 1 << MEMO_BITS {
            short = vec![0; 1 << MEMO_BITS];
        }
        let long = LONG.with(|l| l.borrow_mut().take()).unwrap_or_default();
        Memo { short, long, _text: std::marker::PhantomData }
    }
}

impl Drop for Memo<'_> {
    fn drop(&mut self) {
        let short = std::mem::take(&mut self.short);
        let _ = SHORT.try_with(|s| s.set(short));
        let long = std::mem::take(&mut self.long);
        let _ = LONG.try_with(|l| *l.borrow_mut() = Some(long));
    }
}

impl<'a> Memo<'a> {
    fn count(&mut self, t: &Table, piece: &'a str) -> usize {
        let b = piece.as_bytes();
        if b.len() < 16 {
            const COUNT: u128 = 0x0f << 120;
            let mut k = [0u8; 16];
            k[..b.len()].copy_from_slice(b);
            k[15] = (b.len() as u8) << 4;
            let key = u128::from_le_bytes(k);
            let mixed = ((key as u64) ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let slot = &mut self.short[(mixed >> (64 - MEMO_BITS)) as usize];
            if *slot & !COUNT != key {
                let n = t.count(b);
                debug_assert!(n <= b.len());
                *slot = key | ((n as u128) << 120);
            }
            (*slot >> 120) as usize & 0x0f
        } else {
            if let Some(&n) = self.long.get(b) {
                return n as usize;
            }
            let n = t.count(b);
            if self.long.len() >= LONG_MAX {
                self.long.clear();
            }
            self.long.insert(b.into(), n as u32);
            n
        }
    }
}

fn count_part<'a>(
    t: &Table,
    part: &'a str,
    base: usize,
    ranges: &[std::ops::Range<usize>],
    per: &mut [usize],
    memo: &mut Memo<'a>,
) -> usize {
    let mut total = 0;
    let mut r = 0;
    let mut at = base;
    for piece in crate::syntax::o200k_split::split_o200k(part) {
        let n = memo.count(t, piece);
        total += n;
        while r < ranges.len() && ranges[r].end <= at {
            r += 1;
        }
        if r < ranges.len() && ranges[r].start <= at {
            per[r] += n;
        }
        at += piece.len();
    }
    total
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Letter,
    Digit,
    Space,
    Newline,
    Other,
}

/// Blocks of punctuation and symbols that real skills use (dashes, quotes and ellipses; arrows and
/// technical symbols; box drawing, shapes, dingbats and check marks; emoji): none of their
/// characters is whitespace, a letter or a number (`punctuation_blocks_are_other` checks each),
/// so they are classified without Unicode's tables.
const PUNCTUATION_BLOCKS: [std::ops::RangeInclusive<u32>; 5] =
    [0x2010..=0x2027, 0x2190..=0x23FF, 0x2500..=0x2775, 0x2794..=0x27BF, 0x1F300..=0x1FAFF];

/// Blocks of letters that skills written in Chinese, Japanese and Korean are made of (CJK
/// ideographs, hiragana, katakana, Hangul syllables): every character in them is alphabetic
/// (`letter_blocks_are_letters` checks each), so they are classified without Unicode's tables,
/// whose look-up for them is the slow one.
const LETTER_BLOCKS: [std::ops::RangeInclusive<u32>; 4] =
    [0x4E00..=0x9FFF, 0x3041..=0x3096, 0x30A1..=0x30FA, 0xAC00..=0xD7A3];

fn class(c: char) -> Class {
    if LETTER_BLOCKS.iter().any(|r| r.contains(&(c as u32))) {
        Class::Letter
    } else if PUNCTUATION_BLOCKS.iter().any(|r| r.contains(&(c as u32))) {
        Class::Other
    } else if c == '\n' || c == '\r' {
        Class::Newline
    } else if c.is_whitespace() {
        Class::Space
    } else if c.is_alphabetic() || c == '\'' {
        Class::Letter
    } else if c.is_numeric() {
        Class::Digit
    } else {
        Class::Other
    }
}

/// A fast estimate of the o200k_base token count (within -14 % and +13 % on real skill bodies of
/// 3,000 to 8,000 tokens, see [`against_limit`]). Runs over bytes: ASCII is classified directly, and
/// a multi-byte character counts as a letter unless it is whitespace or a number.
///
/// The text is cut into runs of characters of one class, and each run counts as: a word of `n`
/// ASCII letters `1 + (n - 1) / 8` (most common words are one token; long ones split), a word
/// with other letters a token per 4 bytes, digits one per 3, a single space 0 (it joins the next
/// word) and a longer run 1, a run of line endings 1, and punctuation one per 3, where one
/// punctuation character before a word joins it (o200k's `/en`, `.com`). ASCII text is read a
/// run at a time: where the class changes is found for 64 bytes at once, and each run's count
/// comes from its class and length.
pub fn estimate(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut st = Estimate { tokens: 0, prev: NONE, phase: 0, run_start: 0 };
    let mut i = 0;
    while i < bytes.len() {
        // ASCII (nearly all of a Markdown text): a run at a time.
        let end = i + ascii_len(&bytes[i..]);
        if end > i {
            st.ascii(bytes, i, end);
            i = end;
            if i >= bytes.len() {
                break;
            }
        }
        let Estimate { tokens, prev, phase, run_start } = &mut st;
        let c = text[i..].chars().next().unwrap_or(' ');
        let (k, len) = (class(c) as usize, c.len_utf8());
        if k == LETTER {
            // A word with a non-ASCII letter counts a token per 4 bytes: take back what its
            // ASCII start added, and read the rest of the word here.
            let start = if *prev == LETTER {
                *tokens -= 1 + (i - *run_start - 1) / 8;
                *run_start
            } else {
                *tokens -= usize::from(*prev == OTHER && *phase == 0);
                i
            };
            i += len;
            while i < bytes.len() {
                let b = bytes[i];
                let len = if b < 0x80 {
                    if ASCII[b as usize] != Class::Letter {
                        break;
                    }
                    1
                } else {
                    let c = text[i..].chars().next().unwrap_or(' ');
                    if class(c) != Class::Letter {
                        break;
                    }
                    c.len_utf8()
                };
                i += len;
            }
            *tokens += (i - start).div_ceil(4);
            // The next character is of another class: only `prev` matters.
            *prev = LETTER;
            *phase = 1;
            continue;
        }
        st.step(k, i);
        i += len;
    }
    st.tokens
}

// The estimate's classes (in `Class` order, then "no run yet"), and per class: a run's count goes
// up at its characters `TARGET, TARGET + PERIOD, …` (0-based), so `1 + (n - 1) / 8` for letters,
// `ceil(n / 3)` for digits and punctuation, 1 for a run of line endings, and 1 for two spaces or
// more.
const LETTER: usize = Class::Letter as usize;
const OTHER: usize = Class::Other as usize;
const NONE: usize = 5;
const PERIOD: [usize; 6] = [8, 3, usize::MAX, usize::MAX, 3, usize::MAX];
const TARGET: [usize; 6] = [0, 0, 1, 0, 0, usize::MAX];

/// The estimate's state after the characters read so far.
struct Estimate {
    tokens: usize,
    /// The class of the current run.
    prev: usize,
    /// The position of the last character in the current run, modulo its class's period (at most
    /// 2 for a class without a period: only 0 and 1 are ever compared).
    phase: usize,
    /// Where the current run started.
    run_start: usize,
}

impl Estimate {
    /// One character of class `k` at byte `i`.
    #[inline(always)]
    fn step(&mut self, k: usize, i: usize) {
        let same = k == self.prev;
        // A punctuation run ending before a letter gave its first character to the word.
        self.tokens -= usize::from(!same & (self.prev == OTHER) & (k == LETTER) & (self.phase == 0));
        let next = if same { self.phase + 1 } else { 0 };
        self.phase = if next == PERIOD[k] { 0 } else { next };
        if !same {
            self.run_start = i;
        }
        self.tokens += usize::from(self.phase == TARGET[k]);
        self.prev = k;
    }

    /// The ASCII bytes `from..to` of `bytes`, 64 at a time.
    fn ascii(&mut self, bytes: &[u8], from: usize, to: usize) {
        let mut pos = from;
        while pos < to {
            let len = (to - pos).min(64);
            match bytes.get(pos..pos + 64).and_then(|w| <&[u8; 64]>::try_from(w).ok()) {
                Some(w) => self.block(w, pos, len),
                None => {
                    // Near the end of the text: the last bytes, padded.
                    let mut w = [b' '; 64];
                    w[..len].copy_from_slice(&bytes[pos..pos + len]);
                    self.block(&w, pos, len);
                }
            }
            pos += len;
        }
    }

    /// The first `len` bytes of `b` (ASCII, at byte `pos` of the text; the rest of `b` is not
    /// read), by bit masks: one bit per byte for each class; each run's counted characters (its
    /// first, and every 8th or 3rd after it) found by shifting the runs' starts along the run.
    fn block(&mut self, b: &[u8; 64], pos: usize, len: usize) {
        let valid = if len == 64 { !0u64 } else { (1u64 << len) - 1 };
        let [l, d, s, n] = class_masks(b).map(|m| m & valid);
        let o = !(l | d | s | n) & valid;
        let masks = [l, d, s, n, o];
        // The run open before the block goes on through its first bytes of that class.
        let mut cont = 0;
        if self.prev < 5 {
            cont = masks[self.prev].trailing_ones() as usize;
            if cont > 0 {
                let k = self.prev;
                if PERIOD[k] == usize::MAX {
                    // Its one counted character is its second (spaces) or first (line endings).
                    self.tokens += usize::from(TARGET[k] == 1 && self.phase == 0);
                    self.phase = (self.phase + cont).min(2);
                } else {
                    self.tokens += (self.phase + cont) / PERIOD[k];
                    self.phase = (self.phase + cont) % PERIOD[k];
                }
                if cont >= len {
                    return;
                }
            }
        }
        // The rest: every run starts in the block.
        let keep = !0u64 << cont;
        let [l, d, s, n, o] = masks.map(|m| m & keep);
        let starts = |m: u64| m & !(m << 1);
        let (sl, sd, ss, sn, so) = (starts(l), starts(d), starts(s), starts(n), starts(o));
        // The characters that count, gathered in one mask (each is counted once, and without a
        // popcnt instruction in the baseline x86-64 target, counting bits is not cheap): a run's
        // first (but a space's second) ...
        let mut counted = sl | sd | sn | so | ((ss << 1) & s);
        // ... then every 8th letter of a word, and every 3rd digit or punctuation character: the
        // starts moved on by the period, where the run has gone on all the way.
        let along = |m: u64, p: u32| (0..p).fold(m, |a, i| a & (m << i));
        let (l8, d3, o3) = (along(l, 8), along(d, 3), along(o, 3));
        let mut x = (sl << 8) & l8;
        while x != 0 {
            counted |= x;
            x = (x << 8) & l8;
        }
        let mut x = (sd << 3) & d3;
        while x != 0 {
            counted |= x;
            x = (x << 3) & d3;
        }
        let mut x = (so << 3) & o3;
        while x != 0 {
            counted |= x;
            x = (x << 3) & o3;
        }
        // A word right after a punctuation run whose last character counted takes that one.
        let joins = (sl & ((counted & o) << 1)).count_ones() as usize
            + usize::from((l >> cont) & 1 == 1 && self.prev == OTHER && self.phase == 0);
        let count = counted.count_ones() as usize;
        self.tokens += count;
        self.tokens -= joins;
        // The run at the block's end, open for what follows.
        let k = ASCII[b[len - 1] as usize] as usize;
        let start = 63 - starts([l, d, s, n, o][k]).leading_zeros() as usize;
        self.prev = k;
        self.phase = run_count_and_phase(k, len - start).1;
        self.run_start = pos + start;
    }
}

/// A run of `n >= 1` characters of class `k`: its count, and the phase of its last character.
const fn run_count_and_phase(k: usize, n: usize) -> (usize, usize) {
    let p = PERIOD[k];
    if p == usize::MAX {
        // The one counted character is at TARGET: the first (line endings) or second (spaces).
        (if n > TARGET[k] { 1 } else { 0 }, if n - 1 < 2 { n - 1 } else { 2 })
    } else {
        (1 + (n - 1) / p, (n - 1) % p)
    }
}

/// The length of `b`'s ASCII start, 8 bytes at a time.
#[inline]
fn ascii_len(b: &[u8]) -> usize {
    let mut i = 0;
    while i + 8 <= b.len() {
        let w = u64::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7]]);
        let high = w & 0x8080_8080_8080_8080;
        if high != 0 {
            return i + (high.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && b[i] < 0x80 {
        i += 1;
    }
    i
}

/// One mask per class of an ASCII byte (letters, digits, spaces, line endings) for 64 bytes: bit
/// `t` for byte `t`. With SSE2 (every x86-64): 16 bytes compared at once, their bits taken by
/// `pmovmskb`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn class_masks(b: &[u8; 64]) -> [u64; 4] {
    // SAFETY: this is compiled only where the whole build has SSE2 (`target_feature = "sse2"`,
    // part of every x86-64 target), which is all `class_masks_sse2` needs.
    unsafe { class_masks_sse2(b) }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn class_masks_sse2(b: &[u8; 64]) -> [u64; 4] {
    use std::arch::x86_64::*;
    let set = |c: u8| _mm_set1_epi8(c as i8);
    let mut out = [0u64; 4];
    for (q, chunk) in b.chunks_exact(16).enumerate() {
        let word = |i: usize| {
            i64::from_le_bytes([
                chunk[i],
                chunk[i + 1],
                chunk[i + 2],
                chunk[i + 3],
                chunk[i + 4],
                chunk[i + 5],
                chunk[i + 6],
                chunk[i + 7],
            ])
        };
        let v = _mm_set_epi64x(word(8), word(0));
        // ASCII bytes are below 0x80, so the signed comparisons order them as bytes.
        let within =
            |x: __m128i, lo: u8, hi: u8| _mm_and_si128(_mm_cmpgt_epi8(x, set(lo - 1)), _mm_cmpgt_epi8(set(hi + 1), x));
        let eq = |c: u8| _mm_cmpeq_epi8(v, set(c));
        let letter = _mm_or_si128(within(_mm_or_si128(v, set(0x20)), b'a', b'z'), eq(b'\''));
        let digit = within(v, b'0', b'9');
        let space = _mm_or_si128(_mm_or_si128(eq(b' '), eq(b'\t')), _mm_or_si128(eq(0x0b), eq(0x0c)));
        let newline = _mm_or_si128(eq(b'\n'), eq(b'\r'));
        for (m, class) in out.iter_mut().zip([letter, digit, space, newline]) {
            *m |= u64::from(_mm_movemask_epi8(class) as u16) << (16 * q);
        }
    }
    out
}

/// [`class_masks`] without SSE2.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn class_masks(b: &[u8; 64]) -> [u64; 4] {
    [pack(b, is_letter), pack(b, is_digit), pack(b, is_space), pack(b, is_newline)]
}

/// One bit per byte of `b` (bit `t` for byte `t`), set where `f` holds: computed into bytes, which
/// vectorizes, then packed 8 bits at a time by a multiply.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn pack(b: &[u8; 64], f: impl Fn(u8) -> bool) -> u64 {
    let mut d = [0u8; 64];
    for (x, &b) in d.iter_mut().zip(b) {
        *x = u8::from(f(b));
    }
    let mut m = 0u64;
    for (g, group) in d.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes([group[0], group[1], group[2], group[3], group[4], group[5], group[6], group[7]]);
        // Byte j of `x` (0 or 1) lands on bit 56 + j; no two products overlap.
        m |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * g);
    }
    m
}

// The estimate's classes of an ASCII byte by arithmetic (no table), so that a loop of them
// vectorizes: the same as `ASCII`. (With SSE2, `class_masks` compares 16 bytes at once
// instead; these are its reference in the tests.)
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn is_letter(b: u8) -> bool {
    ((b | 0x20).wrapping_sub(b'a') < 26) | (b == b'\'')
}
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn is_digit(b: u8) -> bool {
    b.wrapping_sub(b'0') < 10
}
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn is_space(b: u8) -> bool {
    (b == b' ') | (b == b'\t') | (b == 0x0b) | (b == 0x0c)
}
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn is_newline(b: u8) -> bool {
    (b == b'\n') | (b == b'\r')
}

const fn ascii_classes() -> [Class; 128] {
    let mut t = [Class::Other; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = match b as u8 {
            b'\n' | b'\r' => Class::Newline,
            b' ' | b'\t' | 0x0b | 0x0c => Class::Space,
            b'a'..=b'z' | b'A'..=b'Z' | b'\'' => Class::Letter,
            b'0'..=b'9' => Class::Digit,
            _ => Class::Other,
        };
        b += 1;
    }
    t
}
static ASCII: [Class; 128] = ascii_classes();

/// How a text's o200k_base token count stands against a limit, from [`against_limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgainstLimit {
    /// At most the limit: proven (no more bytes than the limit, or counted exactly until the
    /// tokens counted plus the bytes left stayed within it), or by an estimate far under it.
    Within,
    /// Far over the limit by the fast estimate (the estimate's error cannot bring it back).
    OverByEstimate {
        /// [`estimate`] of the whole text.
        estimate: usize,
    },
    /// Over the limit, counted exactly: token `limit + 1` is in the pre-tokenizer piece that
    /// starts at byte `at`.
    Over {
        /// Where the piece holding the first token past the limit starts.
        at: usize,
        /// The whole text's count, approximately: the exact count up to the end of that piece
        /// plus the estimate of the rest.
        total: usize,
    },
}

/// Compares `text`'s o200k_base token count with `limit` cheaply: exactly when the fast estimate is
/// between 85 % and 118 % of the limit (where its error could cross the limit), by the estimate
/// otherwise. The exact count stops as soon as the answer is known: once the running count passes
/// the limit (the place where it does is returned), or once the running count plus the bytes left
/// cannot (every o200k token covers at least one byte). A text of at most `limit` bytes is within
/// it without counting.
pub fn against_limit(text: &str, limit: usize) -> AgainstLimit {
    if text.len() <= limit {
        return AgainstLimit::Within;
    }
    let e = estimate(text);
    // On the real skills of ../shared/corpus, the estimate of a body of 3,000 to 8,000 tokens is
    // within -14 % and +13 % of the exact count (-21 % and +23 % over all bodies of 1,000 tokens
    // or more): count exactly only where that error could put it on the other side of the limit
    // (85 % to 118 %, which holds every near-limit body of that corpus).
    if e * 100 < limit * 85 {
        return AgainstLimit::Within;
    }
    if e * 100 > limit * 118 {
        return AgainstLimit::OverByEstimate { estimate: e };
    }
    match passes_o200k(text, limit) {
        None => AgainstLimit::Within,
        Some((at, end, counted)) => AgainstLimit::Over { at, total: counted + estimate(&text[end..]) },
    }
}

/// Counts `text` exactly, piece by piece, until the answer to "does the count pass `limit`?" is
/// known: `Some((start, end, counted))` for the piece `start..end` that holds token `limit + 1`,
/// with the tokens counted up to its end; `None` when the count is at most `limit`.
pub fn passes_o200k(text: &str, limit: usize) -> Option<(usize, usize, usize)> {
    let mut memo = Memo::default();
    let mut counted = 0;
    let mut at = 0;
    for piece in crate::syntax::o200k_split::split_o200k(text) {
        let end = at + piece.len();
        counted += memo.count(&O200K, piece);
        if counted > limit {
            return Some((at, end, counted));
        }
        // What is left cannot count more tokens than it has bytes.
        if counted + (text.len() - end) <= limit {
            return None;
        }
        at = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A fast estimate of the o200k_base token count (what the fast `estimate` is held equal to).
    /// Runs over bytes: ASCII is classified directly, and a multi-byte character counts as a
    /// letter unless it is whitespace or a number.
    fn estimate_per_run(text: &str) -> usize {
        let bytes = text.as_bytes();
        // The class and byte length of the character at `i`.
        let at = |i: usize| -> (Class, usize) {
            let b = bytes[i];
            if b < 0x80 {
                (ASCII[b as usize], 1)
            } else {
                let c = text[i..].chars().next().unwrap_or(' ');
                (class(c), c.len_utf8())
            }
        };
        let mut tokens = 0usize;
        let mut i = 0;
        while i < bytes.len() {
            let (k, len) = at(i);
            let start = i;
            let mut n = 1usize;
            i += len;
            // ASCII continuation bytes of the same class, the common case, without the closure.
            while i < bytes.len() {
                let b = bytes[i];
                if b < 0x80 {
                    if ASCII[b as usize] != k {
                        break;
                    }
                    i += 1;
                } else {
                    let (k2, len2) = at(i);
                    if k2 != k {
                        break;
                    }
                    i += len2;
                }
                n += 1;
            }
            tokens += match k {
                Class::Letter => {
                    let run = i - start;
                    if run == n {
                        // ASCII words: most common words are one token; long ones split.
                        1 + n.saturating_sub(1) / 8
                    } else {
                        run.div_ceil(4)
                    }
                }
                Class::Digit => n.div_ceil(3),
                // A single space joins the next word; longer runs are one token.
                Class::Space => usize::from(n > 1),
                Class::Newline => 1,
                // o200k lets one punctuation character lead the next word (`/en`, `.com`).
                Class::Other => {
                    let joins_word = i < bytes.len() && at(i).0 == Class::Letter;
                    let own = if joins_word { n - 1 } else { n };
                    if own == 0 {
                        0
                    } else {
                        1 + (own - 1) / 3
                    }
                }
            };
        }
        tokens
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]
        #[test]
        fn estimate_equals_the_per_run_estimate(
            parts in proptest::collection::vec(prop_oneof![
                "[a-zA-Z']{1,12}", "[0-9]{1,7}", "[ \t]{1,3}", "(\r?\n){1,3}", "[-.,:;!?/`*#()\\[\\]<>_=|{}\"]{1,5}",
                "[é ü ß 日本 ١٢ ² ½ — … 😀 \u{a0} \u{2003} \u{85} \u{300} \u{2028} Ⅻ]{1,4}",
                any::<char>().prop_map(String::from),
            ], 0..40)
        ) {
            let text: String = parts.concat();
            prop_assert_eq!(estimate(&text), estimate_per_run(&text), "{:?}", text);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]
        /// Long texts, so that runs cross the 64-byte blocks the ASCII path reads at once, and
        /// ASCII stretches meet other characters anywhere in a block.
        #[test]
        fn estimate_of_long_texts_equals_the_per_run_estimate(
            parts in proptest::collection::vec(prop_oneof![
                8 => "[a-zA-Z']{1,12}", 2 => "[0-9]{1,7}", 8 => "[ \t]{1,3}", 3 => "(\r?\n){1,3}",
                4 => "[-.,:;!?/`*#()\\[\\]<>_=|{}\"]{1,5}",
                1 => "[a-z]{60,140}", 1 => "[-=|]{60,140}", 1 => " {60,140}", 1 => "[0-9]{60,100}",
                1 => "[é ü ß 日本 ١٢ ² ½ — … 😀 \u{a0} \u{2003} \u{85} \u{300} \u{2028} Ⅻ]{1,4}",
            ], 0..400)
        ) {
            let text: String = parts.concat();
            prop_assert_eq!(estimate(&text), estimate_per_run(&text), "{:?}", text);
        }
    }

    proptest! {
        #[test]
        fn class_masks_are_the_classes_of_each_byte(w in proptest::collection::vec(0u8..128, 64)) {
            let w: [u8; 64] = w.try_into().unwrap();
            prop_assert_eq!(
                class_masks(&w),
                [pack(&w, is_letter), pack(&w, is_digit), pack(&w, is_space), pack(&w, is_newline)]
            );
        }
    }

    #[test]
    fn letter_blocks_are_letters() {
        for r in LETTER_BLOCKS {
            for c in r.filter_map(char::from_u32) {
                assert!(c.is_alphabetic() && !c.is_whitespace() && !c.is_numeric(), "{c:?} {:#x}", c as u32);
            }
        }
    }

    #[test]
    fn punctuation_blocks_are_other() {
        for r in PUNCTUATION_BLOCKS {
            for c in r.filter_map(char::from_u32) {
                assert!(
                    !c.is_whitespace() && !c.is_alphabetic() && !c.is_numeric() && c != '\'',
                    "{c:?} {:#x}",
                    c as u32
                );
            }
        }
    }

    #[test]
    fn ascii_classes_by_arithmetic_are_the_table_s() {
        for b in 0u8..128 {
            let by_arithmetic = [is_letter(b), is_digit(b), is_space(b), is_newline(b)]
                .iter()
                .position(|&x| x)
                .map_or(Class::Other, |i| [Class::Letter, Class::Digit, Class::Space, Class::Newline][i]);
            assert_eq!(by_arithmetic, ASCII[b as usize], "byte {b}");
            assert!([is_letter(b), is_digit(b), is_space(b), is_newline(b)].iter().filter(|&&x| x).count() <= 1);
        }
        assert_eq!(ascii_len(b"abc"), 3);
        assert_eq!(ascii_len("abcdefghij\u{e9}k".as_bytes()), 10);
        assert_eq!(ascii_len("\u{e9}".as_bytes()), 0);
    }

    /// bpe-openai's counts, the reference.
    fn reference_o200k(text: &str) -> usize {
        bpe_openai::o200k_base().count(text)
    }

    fn long_run() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z]{60,300}",
            "[=\\-]{60,200}",
            "[0-9a-f]{60,200}",
            "[日本語の]{30,80}",
            " {60,200}",
            "(ab){30,100}"
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3_000),
            ..ProptestConfig::default()
        })]
        #[test]
        fn o200k_counts_equal_bpe_openai(parts in proptest::collection::vec(prop_oneof![
            20 => crate::syntax::o200k_split::tests::atom(), 1 => long_run()], 0..60)) {
            let text: String = parts.concat();
            let n = count_o200k(&text);
            prop_assert_eq!(n, reference_o200k(&text), "text {:?}", text);
            // A text's count is the sum of its pieces' counts.
            let sum: usize = crate::syntax::o200k_split::split_o200k(&text).map(count_o200k).sum();
            prop_assert_eq!(n, sum, "text {:?}", text);
            // Counted with the memo (over 4 KB) too.
            let long = text.repeat(4096 / text.len().max(1) + 1);
            prop_assert_eq!(count_o200k(&long), reference_o200k(&long), "text {:?}", text);
        }

        #[test]
        fn cl100k_counts_equal_bpe_openai(parts in proptest::collection::vec(prop_oneof![
            20 => crate::syntax::o200k_split::tests::atom(), 1 => long_run()], 0..60)) {
            let text: String = parts.concat();
            prop_assert_eq!(count_cl100k(&text), bpe_openai::cl100k_base().count(&text), "text {:?}", text);
        }
    }

    /// The Markdown and text files under `dir`, recursively.
    fn text_files(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                text_files(&path, out);
            } else if path.extension().is_some_and(|x| x == "md" || x == "txt" || x == "markdown") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    out.push((path, text));
                }
            }
        }
    }

    /// Every Markdown and text file of the repository's skills and docs, and every SKILL.md of the
    /// shared corpus when it is there (`../shared/corpus` beside the repository).
    #[test]
    fn real_files_count_like_bpe_openai() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = vec![];
        text_files(&root.join("skills"), &mut files);
        text_files(&root.join("docs"), &mut files);
        let repo = files.len();
        assert!(repo > 10, "only {repo} files under skills/ and docs/");
        let corpus = root.join("../shared/corpus");
        if corpus.is_dir() {
            text_files(&corpus, &mut files);
            files.retain(|(p, _)| {
                p.starts_with(root.join("skills")) || p.starts_with(root.join("docs")) || p.ends_with("SKILL.md")
            });
        } else {
            eprintln!("tokens: {} is absent, compared the repository's files only", corpus.display());
        }
        for (path, text) in &files {
            assert_eq!(count_o200k(text), reference_o200k(text), "o200k: {}", path.display());
            let (total, _) = count_o200k_ranges(text, &[]);
            assert_eq!(total, reference_o200k(text), "o200k ranges: {}", path.display());
        }
        for (path, text) in files.iter().step_by(7) {
            assert_eq!(
                count_cl100k(text),
                bpe_openai::cl100k_base().count(text.as_str()),
                "cl100k: {}",
                path.display()
            );
        }
        eprintln!("tokens: compared {} files ({repo} from the repository)", files.len());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]
        /// Counting until the answer is known gives the whole count's answer, and the piece it
        /// stops at is the one whose tokens take the running count past the limit.
        #[test]
        fn passes_answers_as_the_whole_count(
            parts in proptest::collection::vec(prop_oneof![
                20 => crate::syntax::o200k_split::tests::atom(), 1 => long_run()], 0..120),
            frac in 0usize..140,
        ) {
            let text: String = parts.concat();
            let exact = count_o200k(&text);
            let limit = exact * frac / 100;
            let pieces: Vec<&str> = crate::syntax::o200k_split::split_o200k(&text).collect();
            match passes_o200k(&text, limit) {
                None => prop_assert!(exact <= limit, "{exact} > {limit}: {text:?}"),
                Some((at, end, counted)) => {
                    prop_assert!(exact > limit);
                    // The pieces before `at` count at most `limit`; with the one at `at..end`, more.
                    let mut before = 0;
                    let mut pos = 0;
                    for p in &pieces {
                        if pos == at {
                            prop_assert_eq!(pos + p.len(), end);
                            break;
                        }
                        before += count_o200k(p);
                        pos += p.len();
                    }
                    prop_assert_eq!(pos, at, "no piece starts at {}", at);
                    prop_assert!(before <= limit && counted > limit, "{before} {counted} {limit}");
                    prop_assert_eq!(counted, before + count_o200k(&text[at..end]));
                }
            }
        }
    }

    #[test]
    fn against_limit_counts_exactly_only_near_it() {
        let text = "Extract every table from the PDF and keep its header row. ".repeat(400);
        let exact = count_o200k(&text);
        // Well under by bytes, far under and far over by the estimate.
        assert_eq!(against_limit(&text, text.len()), AgainstLimit::Within);
        assert_eq!(against_limit(&text, exact * 3), AgainstLimit::Within);
        assert!(matches!(against_limit(&text, exact / 3), AgainstLimit::OverByEstimate { .. }));
        // Near it: exact on both sides.
        assert_eq!(against_limit(&text, exact), AgainstLimit::Within);
        match against_limit(&text, exact - 1) {
            AgainstLimit::Over { at, total } => {
                assert_eq!(total, exact, "the last piece passes it, nothing is left to estimate");
                assert!(at > text.len() - 10);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn exact_counts_are_real_tokenizers() {
        assert_eq!(count_o200k("hello world"), 2);
        assert_eq!(count_cl100k("hello world"), 2);
    }

    #[test]
    fn ranges_are_counted_in_one_pass() {
        let entry = "- **pdf**: Extracts tables from PDF files. Use when asked.\n  -> Read `/s/pdf/SKILL.md`";
        let mut text = String::from("## Skills\n\n");
        let mut ranges = vec![];
        for _ in 0..3000 {
            let start = text.len();
            text.push_str(entry);
            ranges.push(start..text.len());
            text.push('\n');
        }
        text.push_str("\nRemember: skills help.");
        let (total, per) = count_o200k_ranges(&text, &ranges);
        assert_eq!(total, count_o200k(&text));
        assert!(per.iter().all(|&n| n == count_o200k(entry)), "{:?}", &per[..3]);
        let one: Vec<std::ops::Range<usize>> = vec![std::ops::Range { start: 0, end: 3 }];
        let (small, per) = count_o200k_ranges("a b\nc d", &one);
        assert_eq!((small, per[0]), (count_o200k("a b\nc d"), count_o200k("a b")));
    }

    #[test]
    fn many_distinct_pieces_keep_counts_exact() {
        // Far more distinct short pieces than the memo's table has slots: collisions evict.
        let mut text = String::new();
        let mut ranges = vec![];
        for i in 0..30_000u32 {
            let start = text.len();
            text.push_str(&format!("- w{i:x}q{} z{}", i % 7, i * 31 % 977));
            ranges.push(start..text.len());
            text.push('\n');
        }
        let (total, per) = count_o200k_ranges(&text, &ranges);
        assert_eq!(total, count_o200k(&text));
        for (k, r) in ranges.iter().enumerate().step_by(997) {
            assert_eq!(per[k], count_o200k(&text[r.clone()]), "{}", &text[r.clone()]);
        }
    }

    #[test]
    fn segment_counts_equal_whole_counts() {
        let entries = [
            "- **a**: Extracts tables (PDF). Use when asked.\n  -> Read `/s/a/SKILL.md`",
            "  <skill>\n    <name>b</name>\n  </skill>",
            "- c: ends with punctuation!!",
            "<skill>\n<name>\nd\n</name>\n</skill>",
            "- e: 日本語の説明。 emoji 😀",
        ];
        for round in 0..2 {
            let mut text = String::from("## Head\n\n");
            let mut ranges = vec![];
            for i in 0..40 {
                let start = text.len();
                text.push_str(entries[i % entries.len()]);
                if round == 1 && i == 7 {
                    text.push_str(" changed");
                }
                ranges.push(start..text.len());
                text.push_str(if i % 3 == 0 { "\n" } else { "\n\n" });
            }
            text.push_str("\n**Tail** text.");
            let (total, per) = count_o200k_ranges(&text, &ranges);
            assert_eq!(total, count_o200k(&text), "round {round}");
            let (_, whole_per) = count_whole(&text, &ranges);
            assert_eq!(per, whole_per, "round {round}");
        }
        // Cuts that are not piece starts fall back to counting the whole text.
        assert!(!is_piece_start("a\n/b", 2));
        assert!(!is_piece_start("a\n \nb", 2));
        assert!(is_piece_start("a\n  <b", 2));
    }

    #[test]
    fn estimate_tracks_o200k_on_prose() {
        let text = "# Extract tables\n\nRun `scripts/extract.py <file.pdf>` to pull every table out of a PDF.\n\
                    When the user asks for CSV, convert each table and keep the header row.\n\n- Check the page count first.\n- Skip scanned pages: they have no text layer.\n"
            .repeat(20);
        let (e, x) = (estimate(&text) as f64, count_o200k(&text) as f64);
        assert!((e - x).abs() / x < 0.2, "estimate {e} vs exact {x}");
    }
}
