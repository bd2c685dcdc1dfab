//! Token counts. Exact counts use OpenAI's o200k_base encoding (`bpe-openai`, offline); Claude's
//! tokenizer is not public, so every count is labelled with the encoding it used. Exact counting
//! costs ~40 µs per kilobyte, too slow for linting on every keystroke, so the lint uses a fast
//! estimate that mimics o200k's pre-tokenizer and falls back to the exact count only near a
//! threshold, where the answer matters.

use std::sync::OnceLock;

/// Exact o200k_base token count.
pub fn count_o200k(text: &str) -> usize {
    static T: OnceLock<&'static bpe_openai::Tokenizer> = OnceLock::new();
    T.get_or_init(bpe_openai::o200k_base).count(text)
}

/// Exact cl100k_base token count.
pub fn count_cl100k(text: &str) -> usize {
    static T: OnceLock<&'static bpe_openai::Tokenizer> = OnceLock::new();
    T.get_or_init(bpe_openai::cl100k_base).count(text)
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
///
/// The text is cut into runs of characters of one class, and each run counts as: a word of `n`
/// ASCII letters `1 + (n - 1) / 8` (most common words are one token; long ones split), a word
/// with other letters a token per 4 bytes, digits one per 3, a single space 0 (it joins the next
/// word) and a longer run 1, a run of line endings 1, and punctuation one per 3, where one
/// punctuation character before a word joins it (o200k's `/en`, `.com`). The counts are added
/// character by character, without a branch per run on ASCII text.
pub fn estimate(text: &str) -> usize {
    // Per class (in `Class` order, then "no run yet"): a run's count goes up at its characters
    // `TARGET, TARGET + PERIOD, …` (0-based), so `1 + (n - 1) / 8` for letters, `ceil(n / 3)` for
    // digits and punctuation, 1 for a run of line endings, and 1 for two spaces or more.
    const PERIOD: [usize; 6] = [8, 3, usize::MAX, usize::MAX, 3, usize::MAX];
    const TARGET: [usize; 6] = [0, 0, 1, 0, 0, usize::MAX];
    const LETTER: usize = Class::Letter as usize;
    const OTHER: usize = Class::Other as usize;
    const NONE: usize = 5;
    let bytes = text.as_bytes();
    let mut tokens = 0usize;
    let mut prev = NONE;
    // The position in the current run, modulo its class's period.
    let mut phase = 0usize;
    // Where the current run started.
    let mut run_start = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (k, len) = if b < 0x80 {
            (ASCII[b as usize] as usize, 1)
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            (class(c) as usize, c.len_utf8())
        };
        if len > 1 && k == LETTER {
            // A word with a non-ASCII letter counts a token per 4 bytes: take back what its
            // ASCII start added, and read the rest of the word here.
            let start = if prev == LETTER {
                tokens -= 1 + (i - run_start - 1) / 8;
                run_start
            } else {
                tokens -= usize::from(prev == OTHER && phase == 0);
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
            tokens += (i - start).div_ceil(4);
            // The next character is of another class: only `prev` matters.
            prev = LETTER;
            phase = 1;
            continue;
        }
        let same = k == prev;
        // A punctuation run ending before a letter gave its first character to the word.
        tokens -= usize::from(!same & (prev == OTHER) & (k == LETTER) & (phase == 0));
        let next = if same { phase + 1 } else { 0 };
        phase = if next == PERIOD[k] { 0 } else { next };
        run_start = if same { run_start } else { i };
        tokens += usize::from(phase == TARGET[k]);
        prev = k;
        i += len;
    }
    tokens
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

/// An upper bound of [`estimate`], several times cheaper (no state carried from one byte to the
/// next but the two before it), about 30 % above it on English Markdown: enough to tell that a
/// text is far below a limit.
///
/// Why it bounds the estimate: every run of one class in `estimate` counts at most
/// `1 + (n - 1) / p` for its `n` characters (`p` = 8 for ASCII words, 3 for digits and
/// punctuation); a run of line endings 1; a run of spaces 1 when it has two or more; and a word
/// with a non-ASCII letter `ceil(bytes / 4)`, which is at most what its ASCII pieces count with
/// `p` = 4 plus one per non-ASCII byte. Here runs are cut at every non-ASCII byte (which
/// counts 1), so each piece counts at least as much as its share of the run it belongs to. A
/// word after a single punctuation character is not counted: the estimate gives that character
/// to the word.
pub fn estimate_upper_bound(text: &str) -> usize {
    const NONE: u8 = 0;
    const LETTER: u8 = 1;
    const DIGIT: u8 = 2;
    const SPACE: u8 = 3;
    const NEWLINE: u8 = 4;
    const OTHER: u8 = 5;
    const WIDE: u8 = 6;
    // The class of a byte, by arithmetic (no table), so that the loop below vectorizes.
    #[inline(always)]
    fn cls(b: u8) -> u8 {
        let letter = (b | 0x20).wrapping_sub(b'a') < 26 || b == b'\'';
        let digit = b.wrapping_sub(b'0') < 10;
        let space = b == b' ' || b == b'\t' || b == 0x0b || b == 0x0c;
        let newline = b == b'\n' || b == b'\r';
        let wide = b >= 0x80;
        let other = !(letter | digit | space | newline | wide);
        u8::from(letter) * LETTER
            + u8::from(digit) * DIGIT
            + u8::from(space) * SPACE
            + u8::from(newline) * NEWLINE
            + u8::from(other) * OTHER
            + u8::from(wide) * WIDE
    }
    // Per byte: whether it starts a counted piece; whether it continues a word; whether it
    // continues a run of digits or punctuation.
    #[inline(always)]
    fn flags(p2: u8, p1: u8, c: u8) -> (u8, u8, u8) {
        // A punctuation character alone before a word joins it (the estimate's join, where it is
        // certain: the run before is one ASCII character).
        let joins = c == LETTER && p1 == OTHER && p2 != OTHER && p2 != WIDE;
        let starts = !joins & ((c == WIDE) | (c != p1 && c != SPACE) | (c == SPACE && p1 == SPACE && p2 != SPACE));
        let word = c == LETTER && p1 == LETTER;
        let run = (c == DIGIT || c == OTHER) && c == p1;
        (u8::from(starts), u8::from(word), u8::from(run))
    }
    let b = text.as_bytes();
    let (mut starts, mut words, mut runs) = (0usize, 0usize, 0usize);
    let head = b.len().min(2);
    let mut p = [NONE, NONE];
    for &x in &b[..head] {
        let c = cls(x);
        let (s, w, r) = flags(p[0], p[1], c);
        (starts, words, runs) = (starts + s as usize, words + w as usize, runs + r as usize);
        p = [p[1], c];
    }
    if b.len() > 2 {
        // Blocks of at most 255 bytes, so that byte counters cannot overflow.
        let (mut i, n) = (2, b.len());
        while i < n {
            let end = (i + 255).min(n);
            let (mut s8, mut w8, mut r8) = (0u8, 0u8, 0u8);
            for ((&x2, &x1), &x) in b[i - 2..end - 2].iter().zip(&b[i - 1..end - 1]).zip(&b[i..end]) {
                let (s, w, r) = flags(cls(x2), cls(x1), cls(x));
                s8 += s;
                w8 += w;
                r8 += r;
            }
            (starts, words, runs) = (starts + s8 as usize, words + w8 as usize, runs + r8 as usize);
            i = end;
        }
    }
    let word_period = if text.is_ascii() { 8 } else { 4 };
    starts + words / word_period + runs / 3
}

/// Compare `text`'s token count with `limit` cheaply: exact (o200k) when the estimate is within
/// 25 % of the limit, the estimate otherwise. For a text of at most `limit` bytes the count is
/// not computed: its byte length is returned as an upper bound; nor when
/// [`estimate_upper_bound`] is already below 75 % of the limit: that bound is returned.
pub fn count_near(text: &str, limit: usize) -> Count {
    if text.len() <= limit {
        // Every o200k token covers at least one byte, so the count cannot pass the limit.
        return Count::Estimate(text.len());
    }
    let bound = estimate_upper_bound(text);
    if bound * 4 < limit * 3 {
        // The estimate is lower still: far below the limit.
        return Count::Estimate(bound);
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
    use proptest::prelude::*;

    /// A fast estimate of the o200k_base token count (within ±10 % on English Markdown). Runs over
    /// bytes: ASCII is classified directly, and a multi-byte character counts as a letter unless it
    /// is whitespace or a number.
    fn estimate_per_run(text: &str) -> usize {
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
            let bound = estimate_upper_bound(&text);
            prop_assert!(bound >= estimate(&text), "bound {} below {} for {:?}", bound, estimate(&text), text);
        }
    }

    #[test]
    fn exact_counts_are_real_tokenizers() {
        assert_eq!(count_o200k("hello world"), 2);
        assert_eq!(count_cl100k("hello world"), 2);
    }

    #[test]
    fn the_upper_bound_is_close_on_prose() {
        let text = "# Extract tables\n\nRun `scripts/extract.py <file.pdf>` to pull every table out of a PDF.\n\
                    When the user asks for CSV, convert each table and keep the header row.\n\n- Check the page count first.\n- Skip scanned pages: they have no text layer.\n"
            .repeat(20);
        let (e, u) = (estimate(&text), estimate_upper_bound(&text));
        assert!(u >= e && u * 10 <= e * 14, "bound {u} vs estimate {e}");
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
