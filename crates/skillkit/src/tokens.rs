//! Token counts. Exact counts use OpenAI's o200k_base encoding (`bpe-openai`, offline); Claude's
//! tokenizer is not public, so every count is labelled with the encoding it used. Exact counting
//! costs ~40 µs per kilobyte, too slow for linting on every keystroke, so the lint uses a fast
//! estimate that mimics o200k's pre-tokenizer and falls back to the exact count only near a
//! threshold, where the answer matters.

use std::sync::OnceLock;

/// Exact o200k_base token count.
pub fn count_o200k(text: &str) -> usize {
    O200K.get_or_init(bpe_openai::o200k_base).count(text)
}

/// Exact cl100k_base token count.
pub fn count_cl100k(text: &str) -> usize {
    static T: OnceLock<&'static bpe_openai::Tokenizer> = OnceLock::new();
    T.get_or_init(bpe_openai::cl100k_base).count(text)
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
    let t = *O200K.get_or_init(bpe_openai::o200k_base);
    let mut per = vec![0usize; ranges.len()];
    // Split near the middle after a newline followed by a character that starts a new piece in
    // every case (not whitespace, not `/`, which a punctuation piece may absorb after newlines).
    let mid = if text.len() >= 64 * 1024 { safe_split(text, text.len() / 2) } else { None };
    let total = match mid {
        None => count_part(t, text, 0, ranges, &mut per),
        Some(m) => {
            let first = ranges.partition_point(|r| r.start < m);
            let (ra, rb) = ranges.split_at(first);
            let (pa, pb) = per.split_at_mut(first);
            std::thread::scope(|s| {
                let h = s.spawn(|| count_part(t, &text[m..], m, rb, pb));
                let a = count_part(t, &text[..m], 0, ra, pa);
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
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// Counts by segments cut at each range start, when every start is a piece start (`None`
/// otherwise): a segment runs from one range start to the next, so the total is the sum of the
/// segments' counts and each range's count is its segment's pieces that start inside it.
fn count_by_segments(text: &str, ranges: &[std::ops::Range<usize>]) -> Option<(usize, Vec<usize>)> {
    if ranges.len() < 8 || !ranges.iter().all(|r| is_piece_start(text, r.start)) {
        return None;
    }
    let t = *O200K.get_or_init(bpe_openai::o200k_base);
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
    let count_one = |k: usize| -> (u32, u32) {
        let seg = &text[cuts[k]..cuts[k + 1]];
        let range: Vec<std::ops::Range<usize>> = if k == 0 {
            vec![]
        } else {
            vec![std::ops::Range { start: 0, end: ranges[k - 1].end - ranges[k - 1].start }]
        };
        let mut per = vec![0usize; range.len()];
        let total = count_part(t, seg, 0, &range, &mut per);
        (total as u32, per.first().copied().unwrap_or(0) as u32)
    };
    let missing_bytes: usize = missing.iter().map(|&k| cuts[k + 1] - cuts[k]).sum();
    let computed: Vec<(usize, (u32, u32))> = if missing_bytes >= 64 * 1024 {
        let (a, b) = missing.split_at(missing.len() / 2);
        std::thread::scope(|s| {
            let h = s.spawn(|| b.iter().map(|&k| (k, count_one(k))).collect::<Vec<_>>());
            let mut out: Vec<_> = a.iter().map(|&k| (k, count_one(k))).collect();
            out.extend(h.join().unwrap_or_default());
            out
        })
    } else {
        missing.iter().map(|&k| (k, count_one(k))).collect()
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

static O200K: OnceLock<&'static bpe_openai::Tokenizer> = OnceLock::new();

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
fn count_part(
    t: &bpe_openai::Tokenizer,
    part: &str,
    base: usize,
    ranges: &[std::ops::Range<usize>],
    per: &mut [usize],
) -> usize {
    let mut memo: std::collections::HashMap<&str, usize, std::hash::BuildHasherDefault<Fnv>> = Default::default();
    let mut total = 0;
    let mut r = 0;
    let mut at = base;
    for piece in t.split(part) {
        let n = *memo.entry(piece).or_insert_with(|| t.bpe.count(piece.as_bytes()));
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

/// FNV-1a: a fast hash for short strings (the memo's keys are pre-tokenizer pieces).
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf29ce484222325 } else { self.0 };
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
        self.0 = h;
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter,
    Digit,
    Space,
    Newline,
    Other,
}

fn class(c: char) -> Class {
    if c == '\n' || c == '\r' {
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

/// A fast estimate of the o200k_base token count (within ±10 % on English Markdown). Runs over
/// bytes: ASCII is classified directly, and a multi-byte character counts as a letter unless it
/// is whitespace or a number.
pub fn estimate(text: &str) -> usize {
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

/// How a count was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Exact(usize),
    Estimate(usize),
}

impl Count {
    pub fn value(self) -> usize {
        match self {
            Count::Exact(n) | Count::Estimate(n) => n,
        }
    }
}

/// Compare `text`'s token count with `limit` cheaply: exact (o200k) when the estimate is within
/// 25 % of the limit, the estimate otherwise. For a text of at most `limit` bytes the count is
/// not computed: its byte length is returned as an upper bound.
pub fn count_near(text: &str, limit: usize) -> Count {
    if text.len() <= limit {
        // Every o200k token covers at least one byte, so the count cannot pass the limit.
        return Count::Estimate(text.len());
    }
    let e = estimate(text);
    if e * 4 >= limit * 3 && e * 4 <= limit * 5 {
        Count::Exact(count_o200k(text))
    } else {
        Count::Estimate(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
