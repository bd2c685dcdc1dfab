//! Exact BPE token counts without a tokenizer to build: tiktoken's byte-pair merge over a
//! vocabulary table that the build script lays out from `bpe-openai`'s data (see `build.rs`) and
//! that is read in place, so that counting needs no initialisation and no heap, and touches only
//! the pages of the tokens it looks up.
//!
//! A piece (from the pre-tokenizer) is counted the way tiktoken encodes it: a piece that is a
//! token is one token; otherwise it starts as single bytes, and the adjacent pair whose
//! concatenation has the lowest rank (the leftmost on ties) is merged, until no adjacent pair is
//! a token. The count is the number of parts left.

use super::bpe_hash::{fingerprint, hash, slot_of, EMPTY, ID_MASK};

/// A vocabulary: token bytes by id (= rank) and a hash table from bytes to id.
pub(crate) struct Table {
    tokens: &'static [u8],
    starts: &'static [u8],
    slots: &'static [u8],
    /// The ids of the two-byte tokens, by their bytes (see `build.rs`).
    pairs: &'static [u8],
    n: usize,
    bits: u32,
    max_len: usize,
}

/// o200k_base.
pub(crate) static O200K: Table = include!(concat!(env!("OUT_DIR"), "/o200k.rs"));
/// cl100k_base.
pub(crate) static CL100K: Table = include!(concat!(env!("OUT_DIR"), "/cl100k.rs"));

/// Pieces up to this many bytes are merged in place on the stack; longer ones with a heap.
const SHORT: usize = 64;

#[inline]
fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

impl Table {
    /// The number of tokens.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.n
    }

    /// The bytes of token `id`.
    pub(crate) fn bytes(&self, id: u32) -> &'static [u8] {
        let i = id as usize;
        debug_assert!(i < self.n);
        &self.tokens[u32_at(self.starts, i) as usize..u32_at(self.starts, i + 1) as usize]
    }

    /// The rank (id) of the token whose bytes are `b`, if there is one.
    #[inline]
    pub(crate) fn rank(&self, b: &[u8]) -> Option<u32> {
        if let [first, second] = *b {
            let id = u32_at(self.pairs, usize::from(first) << 8 | usize::from(second));
            return (id != EMPTY).then_some(id);
        }
        if b.len() > self.max_len || b.is_empty() {
            return None;
        }
        let h = hash(b);
        let fp = fingerprint(h);
        let mask = (1usize << self.bits) - 1;
        let mut i = slot_of(h, self.bits);
        loop {
            let s = u32_at(self.slots, i);
            if s == EMPTY {
                return None;
            }
            if s & !ID_MASK == fp && self.bytes(s & ID_MASK) == b {
                return Some(s & ID_MASK);
            }
            i = (i + 1) & mask;
        }
    }

    /// The rank of the two-byte token `a b`, `u32::MAX` for none.
    #[inline(always)]
    fn pair_rank(&self, a: u8, b: u8) -> u32 {
        u32_at(self.pairs, usize::from(a) << 8 | usize::from(b))
    }

    #[inline]
    fn rank_or_max(&self, b: &[u8]) -> u32 {
        self.rank(b).unwrap_or(u32::MAX)
    }

    /// The number of tokens tiktoken encodes `piece` (one pre-tokenizer piece) into.
    pub(crate) fn count(&self, piece: &[u8]) -> usize {
        if piece.len() <= 1 || self.rank(piece).is_some() {
            return piece.len().min(1);
        }
        if piece.len() <= SHORT {
            self.merge_short(piece)
        } else {
            self.merge_long(piece)
        }
    }

    /// tiktoken's merge loop, on arrays on the stack: `bounds[..=parts]` are the parts' starts
    /// (and the end), `ranks[i]` the rank of parts `i` and `i + 1` together.
    /// Which of the thread's [`RankCache`]s holds this table's ranks.
    fn cache_index(&self) -> usize {
        usize::from(!std::ptr::eq(self, &O200K))
    }

    fn merge_short(&self, p: &[u8]) -> usize {
        RANKS.with_borrow_mut(|c| self.merge_short_in(p, c[self.cache_index()].ready()))
    }

    fn merge_short_in(&self, p: &[u8], c: &mut RankCache) -> usize {
        let n = p.len();
        let mut bounds = [0u8; SHORT + 1];
        let mut ranks = [u32::MAX; SHORT];
        for (i, b) in bounds.iter_mut().enumerate().take(n + 1) {
            *b = i as u8;
        }
        for (i, r) in ranks.iter_mut().enumerate().take(n - 1) {
            *r = self.pair_rank(p[i], p[i + 1]);
        }
        let mut parts = n;
        while parts > 1 {
            // The lowest rank, then its leftmost place: two passes that compile to vector
            // instructions, where one pass keeping both is a branch per pair.
            let live = &ranks[..parts - 1];
            let best = live.iter().copied().min().unwrap_or(u32::MAX);
            if best == u32::MAX {
                break;
            }
            let at = live.iter().position(|&r| r == best).unwrap_or(0);
            // Parts `at` and `at + 1` become one: drop the boundary between them and the pair
            // rank after it; the pairs on each side of the new part change.
            bounds.copy_within(at + 2..=parts, at + 1);
            if at + 2 < parts {
                ranks.copy_within(at + 2..parts - 1, at + 1);
            }
            parts -= 1;
            let span = |i: usize| &p[bounds[i] as usize..bounds[i + 2] as usize];
            ranks[at] = if at + 1 < parts { c.rank_or_max(self, span(at)) } else { u32::MAX };
            if at > 0 {
                ranks[at - 1] = c.rank_or_max(self, span(at - 1));
            }
        }
        parts
    }

    /// The same merge for long pieces in O(n log n): the parts as a linked list of their starts,
    /// the candidate pairs in a min-heap with stale entries skipped (a pair is current while its
    /// first part is alive and still ends where its second part ended). A heap entry is one
    /// `u64`, [`pack`]ed so that its order is the order of (rank, start): the merge tiktoken
    /// makes next is the smallest.
    fn merge_long(&self, p: &[u8]) -> usize {
        // The arrays are the thread's, kept between pieces (a text has many long pieces).
        thread_local! {
            static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
        }
        let mut s = SCRATCH.with(|c| c.take());
        let parts = RANKS.with_borrow_mut(|c| self.merge_long_in(p, &mut s, c[self.cache_index()].ready()));
        SCRATCH.with(|c| c.set(s));
        parts
    }

    fn merge_long_in(&self, p: &[u8], s: &mut Scratch, c: &mut RankCache) -> usize {
        use std::cmp::Reverse;
        let n = p.len();
        // next[i]: the start of the part after the one starting at i (n for the last);
        // prev[i]: the start of the one before; alive[i]: whether a part starts at i.
        let Scratch { next, prev, alive, heap } = s;
        next.clear();
        next.extend(1..=n as u32);
        prev.clear();
        prev.extend((0..n as u32).map(|i| i.wrapping_sub(1)));
        alive.clear();
        alive.resize(n, true);
        // The first pairs, heapified at once (O(n)) rather than pushed one by one.
        let mut v = std::mem::take(heap).into_vec();
        v.clear();
        for i in 0..n - 1 {
            let r = self.pair_rank(p[i], p[i + 1]);
            if r != EMPTY {
                v.push(Reverse(pack(r, i as u32, 2)));
            }
        }
        *heap = std::collections::BinaryHeap::from(v);
        let end_after = |next: &[u32], i: u32| -> u32 {
            let j = next[i as usize];
            if (j as usize) < n {
                next[j as usize]
            } else {
                u32::MAX
            }
        };
        let mut parts = n;
        while let Some(Reverse(e)) = heap.pop() {
            let (i, end) = unpack(e);
            if !alive[i as usize] || end_after(next, i) != end {
                continue;
            }
            let j = next[i as usize];
            alive[j as usize] = false;
            next[i as usize] = end;
            if (end as usize) < n {
                prev[end as usize] = i;
            }
            parts -= 1;
            let after = end_after(next, i);
            if after != u32::MAX {
                let r = c.rank_or_max(self, &p[i as usize..after as usize]);
                if r != u32::MAX {
                    heap.push(Reverse(pack(r, i, after - i)));
                }
            }
            let before = prev[i as usize];
            if before != u32::MAX {
                let r = c.rank_or_max(self, &p[before as usize..end as usize]);
                if r != u32::MAX {
                    heap.push(Reverse(pack(r, before, end - before)));
                }
            }
        }
        parts
    }
}

/// Bits of a packed heap entry ([`pack`]) that hold the pair's length in bytes: a pair that is a
/// token is at most `max_len` bytes long (o200k_base's longest token is 128 bytes).
const LEN_BITS: u32 = 14;

/// A candidate merge as one `u64`: its rank in the top [`super::bpe_hash::ID_BITS`] bits, then the
/// start of its first part (32 bits), then its length (the low [`LEN_BITS`]), so that comparing
/// entries compares (rank, start) as tiktoken picks its next merge (the lowest rank, the leftmost
/// on ties; two current entries never share a start).
#[inline]
fn pack(rank: u32, start: u32, len: u32) -> u64 {
    debug_assert!(rank <= ID_MASK && len < 1 << LEN_BITS);
    u64::from(rank) << (32 + LEN_BITS) | u64::from(start) << LEN_BITS | u64::from(len)
}

/// The start and end of a [`pack`]ed pair.
#[inline]
fn unpack(e: u64) -> (u32, u32) {
    let start = (e >> LEN_BITS) as u32;
    (start, start + (e & ((1 << LEN_BITS) - 1)) as u32)
}

/// Remembered ranks of spans of 3 to 7 bytes, the ones a merge asks for most (a CJK character
/// is three bytes, and one text repeats its characters and their pairs): a direct-mapped table
/// keyed by the bytes packed with their length into one integer, with the rank (`u32::MAX` for
/// none); a collision replaces the older entry. 256 KB a thread, kept between pieces: one
/// look-up where the vocabulary's table costs up to three cache misses (slot, offsets, bytes).
#[derive(Default)]
struct RankCache(Vec<(u64, u32)>);

/// log2 of [`RankCache`]'s slots.
const RANK_CACHE_BITS: u32 = 14;

thread_local! {
    /// One cache for o200k_base, one for cl100k_base.
    static RANKS: std::cell::RefCell<[RankCache; 2]> = std::cell::RefCell::new(Default::default());
}

impl RankCache {
    fn ready(&mut self) -> &mut Self {
        if self.0.len() != 1 << RANK_CACHE_BITS {
            // Key 0 is no span's: a key holds its span's length (3 or more) in its last byte.
            self.0 = vec![(0, 0); 1 << RANK_CACHE_BITS];
        }
        self
    }

    /// `t.rank(b)`, `u32::MAX` for none.
    #[inline]
    fn rank_or_max(&mut self, t: &Table, b: &[u8]) -> u32 {
        if !(3..=7).contains(&b.len()) {
            return t.rank_or_max(b);
        }
        let mut k = [0u8; 8];
        k[..b.len()].copy_from_slice(b);
        k[7] = b.len() as u8;
        let key = u64::from_le_bytes(k);
        let slot = &mut self.0[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - RANK_CACHE_BITS)) as usize];
        if slot.0 != key {
            *slot = (key, t.rank_or_max(b));
        }
        slot.1
    }
}

/// [`Table::merge_long`]'s arrays.
#[derive(Default)]
struct Scratch {
    next: Vec<u32>,
    prev: Vec<u32>,
    alive: Vec<bool>,
    heap: std::collections::BinaryHeap<std::cmp::Reverse<u64>>,
}

/// The pieces of cl100k_base's pre-tokenizer, as `bpe_openai::cl100k_base().split(text)`: its
/// three patterns tried in priority order at the end of the previous piece (the second one's
/// last character is a look-ahead, given back). The regex crate is regex-automata, which
/// bpe-openai uses, so the classes (`\s`, `\p{L}`, case folding) are the same.
pub(crate) fn split_cl100k(text: &str) -> impl Iterator<Item = &str> {
    use std::sync::OnceLock;
    static PATS: OnceLock<[regex::Regex; 3]> = OnceLock::new();
    let pats = PATS.get_or_init(|| {
        let p = |s: &str| regex::Regex::new(&format!("^(?:{s})")).expect("valid regex");
        [
            p(r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+$"),
            p(r"\s+\s"),
            p(r"\s+"),
        ]
    });
    let mut pos = 0;
    std::iter::from_fn(move || {
        let rest = &text[pos..];
        let (k, m) = pats.iter().enumerate().find_map(|(k, re)| re.find(rest).map(|m| (k, m)))?;
        let mut end = m.end();
        if k == 1 {
            end -= rest[..end].chars().next_back().map_or(0, char::len_utf8);
        }
        if end == 0 {
            return None;
        }
        pos += end;
        Some(&rest[..end])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every token id's bytes are found at that id, in both tables, and they agree with
    /// bpe-openai's dictionaries.
    #[test]
    fn tables_hold_bpe_openai_vocabularies() {
        for (t, r) in [(&O200K, bpe_openai::o200k_base()), (&CL100K, bpe_openai::cl100k_base())] {
            assert_eq!(t.len(), r.bpe.num_tokens());
            for id in 0..t.len() as u32 {
                assert_eq!(t.bytes(id), r.bpe.token_bytes(id));
                assert_eq!(t.rank(t.bytes(id)), Some(id));
            }
        }
        assert_eq!(O200K.rank(b"zzqxj not a token"), None);
    }

    /// The heap merge and the in-place merge agree (the heap one is used only for long pieces).
    fn both(p: &[u8]) -> (usize, usize) {
        (O200K.merge_short(p), O200K.merge_long(p))
    }

    #[test]
    fn merges_agree_on_examples() {
        for p in ["internationalization", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", " ===========", "日本語のテキスト"]
        {
            let (a, b) = both(p.as_bytes());
            assert_eq!(a, b, "{p}");
            assert_eq!(a, bpe_openai::o200k_base().bpe.count(p.as_bytes()), "{p}");
        }
    }

    /// The heap merge as it was before its entries were packed (#39), without its rank cache: the
    /// reference the packed one is held to, with (rank, start, end) triples.
    fn merge_long_reference(t: &Table, p: &[u8]) -> usize {
        use std::cmp::Reverse;
        let n = p.len();
        if n <= 1 || t.rank(p).is_some() {
            return n.min(1);
        }
        let mut next: Vec<u32> = (1..=n as u32).collect();
        let mut prev: Vec<u32> = (0..n as u32).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        let mut heap = std::collections::BinaryHeap::new();
        for i in 0..n - 1 {
            if let Some(r) = t.rank(&p[i..i + 2]) {
                heap.push(Reverse((r, i as u32, i as u32 + 2)));
            }
        }
        let end_after = |next: &[u32], i: u32| -> u32 {
            let j = next[i as usize];
            if (j as usize) < n {
                next[j as usize]
            } else {
                u32::MAX
            }
        };
        let mut parts = n;
        while let Some(Reverse((_, i, end))) = heap.pop() {
            if !alive[i as usize] || end_after(&next, i) != end {
                continue;
            }
            alive[next[i as usize] as usize] = false;
            next[i as usize] = end;
            if (end as usize) < n {
                prev[end as usize] = i;
            }
            parts -= 1;
            let after = end_after(&next, i);
            if after != u32::MAX {
                if let Some(r) = t.rank(&p[i as usize..after as usize]) {
                    heap.push(Reverse((r, i, after)));
                }
            }
            let before = prev[i as usize];
            if before != u32::MAX {
                if let Some(r) = t.rank(&p[before as usize..end as usize]) {
                    heap.push(Reverse((r, before, end)));
                }
            }
        }
        parts
    }

    /// A packed heap entry holds every rank, start and token length of both vocabularies.
    #[test]
    fn packed_entries_hold_every_rank_and_token_length() {
        for t in [&O200K, &CL100K] {
            assert!(t.len() <= 1 << crate::syntax::bpe_hash::ID_BITS);
            assert!(t.max_len < 1 << LEN_BITS);
        }
        for (r, i, len) in [(0, 0, 2), (ID_MASK, u32::MAX - 200, 128), (5, 7, 3)] {
            assert_eq!(unpack(pack(r, i, len)), (i, i + len));
        }
        assert!(pack(1, 9, 2) < pack(2, 0, 2) && pack(1, 3, 9) < pack(1, 4, 2));
    }

    /// Long CJK and mixed pieces like the varied benchmark library's (Chinese, Japanese and
    /// Korean prose without spaces, with Latin words and punctuation in it): the packed merge
    /// counts what the reference merge and bpe-openai count, in both vocabularies.
    #[test]
    fn long_cjk_pieces_count_as_the_reference() {
        let texts = [
            "这是一个用于处理文档的技能它可以读取表格并将其转换为结构化数据同时保留标题和单位".repeat(12),
            "このスキルはファイルを読み込んで要約を作成しますテキストの構造を保ちながら処理します".repeat(9),
            "이기술은문서를읽고표를추출하여구조화된데이터로변환합니다".repeat(15),
            "中文English混合的文本没有空格ありますか한국어も".repeat(20),
        ];
        for text in &texts {
            for piece in crate::syntax::o200k_split::split_o200k(text) {
                let b = piece.as_bytes();
                assert_eq!(O200K.count(b), merge_long_reference(&O200K, b), "{piece}");
                assert_eq!(O200K.count(b), bpe_openai::o200k_base().bpe.count(b), "{piece}");
            }
            for piece in split_cl100k(text) {
                let b = piece.as_bytes();
                assert_eq!(CL100K.count(b), merge_long_reference(&CL100K, b), "{piece}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        #[test]
        fn short_and_long_merges_agree(s in "[a-e ._=日é😀]{2,20}") {
            let b = s.as_bytes();
            let b = &b[..b.len().min(SHORT)];
            let (x, y) = both(b);
            prop_assert_eq!(x, y);
            prop_assert_eq!(x, bpe_openai::o200k_base().bpe.count(b));
        }

        /// Long pieces from an alphabet of CJK characters (which share lead bytes, so pairs
        /// across characters occur), Latin letters and marks: the packed merge with its rank cache
        /// counts what the reference does, and what bpe-openai does.
        #[test]
        fn long_merges_agree_with_the_reference(s in "[的一是了我不人在有这中大为上个国日本語のテキスト한국어를처리a-eé.]{22,400}") {
            // `count` takes the packed heap merge for pieces over `SHORT` bytes (most of these).
            let b = s.as_bytes();
            let fast = O200K.count(b);
            prop_assert_eq!(fast, merge_long_reference(&O200K, b));
            prop_assert_eq!(fast, bpe_openai::o200k_base().bpe.count(b));
            prop_assert_eq!(CL100K.count(b), merge_long_reference(&CL100K, b));
        }

        #[test]
        fn cl100k_pieces_are_bpe_openai_pieces(parts in proptest::collection::vec(crate::syntax::o200k_split::tests::atom(), 0..40)) {
            let s: String = parts.concat();
            let a: Vec<&str> = split_cl100k(&s).collect();
            let b: Vec<&str> = bpe_openai::cl100k_base().split(&s).collect();
            prop_assert_eq!(a, b);
        }
    }
}
