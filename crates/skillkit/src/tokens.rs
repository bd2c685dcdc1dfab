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

/// A fast estimate of the o200k_base token count (within a few percent on English Markdown).
pub fn estimate(text: &str) -> usize {
    let mut tokens = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let k = class(c);
        let mut end = start + c.len_utf8();
        let mut n = 1usize;
        while let Some(&(i, d)) = chars.peek() {
            if class(d) != k {
                break;
            }
            end = i + d.len_utf8();
            n += 1;
            chars.next();
        }
        tokens += match k {
            Class::Letter => {
                let bytes = end - start;
                if bytes == n {
                    // ASCII words: most common words are one token; long ones split.
                    1 + n.saturating_sub(1) / 8
                } else {
                    bytes.div_ceil(4)
                }
            }
            Class::Digit => n.div_ceil(3),
            // A single space joins the next word; longer runs are one token.
            Class::Space => usize::from(n > 1),
            Class::Newline => 1,
            // o200k lets one punctuation character lead the next word (`/en`, `.com`).
            Class::Other => {
                let joins_word = chars.peek().is_some_and(|&(_, d)| class(d) == Class::Letter);
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
/// 25 % of the limit, the estimate otherwise.
pub fn count_near(text: &str, limit: usize) -> Count {
    if text.len() <= limit {
        // Every o200k token covers at least one byte.
        return Count::Estimate(estimate(text));
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
    fn estimate_tracks_o200k_on_prose() {
        let text = "# Extract tables\n\nRun `scripts/extract.py <file.pdf>` to pull every table out of a PDF.\n\
                    When the user asks for CSV, convert each table and keep the header row.\n\n- Check the page count first.\n- Skip scanned pages: they have no text layer.\n"
            .repeat(20);
        let (e, x) = (estimate(&text) as f64, count_o200k(&text) as f64);
        assert!((e - x).abs() / x < 0.2, "estimate {e} vs exact {x}");
    }
}
