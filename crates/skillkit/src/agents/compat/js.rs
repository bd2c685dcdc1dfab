//! JavaScript's string rules, for the agents written in JavaScript or TypeScript (Claude Code,
//! Gemini CLI): lengths in UTF-16 code units, and what `trim()` and `\s` count as white space.

/// Length in UTF-16 code units (JavaScript's `.length`).
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The first `n` UTF-16 code units of `s` (`s.slice(0, n)`); a surrogate pair cut in half becomes
/// U+FFFD (the lone half JavaScript keeps cannot be sent as UTF-8).
pub fn utf16_prefix(s: &str, n: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.len_utf16();
        if used + w > n {
            if used < n {
                out.push('\u{FFFD}');
            }
            break;
        }
        out.push(c);
        used += w;
    }
    out
}

/// JavaScript's `WhiteSpace` and `LineTerminator` (what `trim()` and `\s` match).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// JavaScript's `trim()`.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}
