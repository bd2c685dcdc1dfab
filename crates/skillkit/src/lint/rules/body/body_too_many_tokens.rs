use crate::lint::rules::Context;
use crate::syntax::text::Span;
use crate::syntax::tokens::{against_limit, estimate, AgainstLimit};

/// The specification's recommended ceiling for a skill's instructions.
pub const TOKEN_LIMIT: usize = 5_000;

declare_rule! {
    /// The body is longer than 5,000 tokens.
    ///
    /// ## What it does
    /// Counts the body's tokens with OpenAI's o200k_base encoding: by a fast estimate far from
    /// the limit, and exactly near it, where the estimate's error could cross it. The exact count
    /// stops as soon as the answer is known, and a body over the limit is marked at the word
    /// where the count passes 5,000 ("body passes 5,000 tokens (o200k_base) here, ≈5,230 in all":
    /// the exact count up to there plus an estimate of the rest). A body far over the limit
    /// gives its estimate ("body is ≈9,600 tokens (o200k_base estimate)") and the line where
    /// the running estimate passes 5,000.
    ///
    /// ## Why is this bad?
    /// The specification recommends under 5,000 tokens for the instructions that load on
    /// activation; every token is paid on every activation, and long bodies dilute the
    /// instructions. Line counts miss dense bodies (magnus919/agent-skills #382).
    ///
    /// ## Fix
    /// Move reference material into `references/` files.
    pub BodyTooManyTokens {
        code: "SK502",
        name: "body-too-many-tokens",
        group: Body,
        severity: Warning,
        fix: None,
        sources: ["spec: Instructions (< 5000 tokens recommended)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !cx.skill.is_readable() {
        return;
    }
    let body = cx.skill.body();
    let base = cx.skill.split.body.start;
    let (at, message) = match against_limit(body, TOKEN_LIMIT) {
        AgainstLimit::Within => return,
        // Counted exactly up to the token past the limit: its place is exact.
        AgainstLimit::Over { at, total } => (
            base + at,
            format!(
                "body passes 5,000 tokens (o200k_base) here, ≈{} in all; keep it under 5,000",
                thousands(total)
            ),
        ),
        // Far over: the line where the running estimate crosses the limit.
        AgainstLimit::OverByEstimate { estimate: total } => {
            let target = TOKEN_LIMIT;
            let mut running = 0;
            let mut at = base;
            for line in body.split_inclusive('\n') {
                running += estimate(line);
                if running > target && !line.trim().is_empty() {
                    break;
                }
                at += line.len();
            }
            (
                at,
                format!(
                    "body is ≈{} tokens (o200k_base estimate); keep it under 5,000: the limit is passed around here",
                    thousands(total)
                ),
            )
        }
    };
    // Point at the first word there, not the whole (possibly very long) line.
    let rest = &cx.text()[at.min(cx.text().len())..];
    let lead = rest.len() - rest.trim_start().len();
    let word = rest[lead..].find(char::is_whitespace).unwrap_or(rest.len() - lead);
    let span = Span::new(at + lead, at + lead + word);
    cx.report(span, message);
}

/// `n` with a comma between thousands (`6,100`).
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::SPEC;
    use crate::lint::lint;
    use crate::skill::Skill;
    use crate::syntax::tokens::count_o200k;
    use crate::testing::codes;

    const HEAD: &str = "---\nname: a\ndescription: d\n---\n";

    fn sk502(text: &str) -> Vec<crate::lint::diagnostic::Diagnostic> {
        let skill = Skill::parse("/skills/a".to_string(), "SKILL.md", text.to_string());
        lint(&skill, &SPEC).into_iter().filter(|d| d.code == "SK502").collect()
    }

    #[test]
    fn long_dense_body_is_reported() {
        let para = "Extract every table from the PDF and convert it, keeping headers and units intact. ".repeat(8);
        let body = format!("{para}\n").repeat(60);
        assert!(codes("a", &format!("{HEAD}{body}")).contains(&"SK502"));
        assert!(!codes("a", &format!("{HEAD}{para}\n")).contains(&"SK502"));
    }

    /// Lines of prose that count the same tokens each (and that the estimate puts near the
    /// limit): bodies just under and just over it, counted exactly.
    fn numbered(lines: usize) -> String {
        "Extract every table from the PDF and convert it, keeping headers and units intact.\n".repeat(lines)
    }

    #[test]
    fn near_the_limit_the_exact_count_decides_and_the_place_is_the_token_past_it() {
        // Find line counts whose bodies fall just under and just over 5,000 exact tokens.
        let mut lines = 200;
        while count_o200k(&numbered(lines + 1)) <= TOKEN_LIMIT {
            lines += 1;
        }
        let under = numbered(lines);
        let over = numbered(lines + 1);
        assert!(count_o200k(&under) <= TOKEN_LIMIT && count_o200k(&over) > TOKEN_LIMIT);
        assert!(sk502(&format!("{HEAD}{under}")).is_empty(), "{} tokens", count_o200k(&under));
        let text = format!("{HEAD}{over}");
        let d = sk502(&text);
        assert_eq!(d.len(), 1);
        // The reported word is where the running exact count passes 5,000: the tokens before it
        // are at most 5,000, and with it more.
        let (start, end) = (d[0].span.start, d[0].span.end);
        let body = HEAD.len();
        assert!(count_o200k(text[body..start].trim_end()) <= TOKEN_LIMIT);
        assert!(count_o200k(&text[body..end]) > TOKEN_LIMIT, "{:?}", &text[start..end]);
        // 1-based: the body's last line holds it.
        assert_eq!(d[0].start.line, HEAD.lines().count() + lines + 1);
        assert!(d[0].message.starts_with("body passes 5,000 tokens (o200k_base) here, ≈"), "{}", d[0].message);
    }

    #[test]
    fn far_over_the_limit_is_an_estimate() {
        let text = format!("{HEAD}{}", numbered(2000));
        let d = sk502(&text);
        assert_eq!(d.len(), 1);
        assert!(d[0].message.starts_with("body is ≈"), "{}", d[0].message);
        assert!(d[0].message.contains(" tokens (o200k_base estimate)"), "{}", d[0].message);
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(6100), "6,100");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
