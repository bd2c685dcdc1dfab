use crate::lint::rules::Context;
use crate::syntax::text::Span;
use crate::syntax::tokens::{count_near, estimate, Count};

/// The specification's recommended ceiling for a skill's instructions.
pub const TOKEN_LIMIT: usize = 5_000;

declare_rule! {
    /// The body is longer than 5,000 tokens.
    ///
    /// ## What it does
    /// Counts the body's tokens with OpenAI's o200k_base encoding (exactly near the limit; by a
    /// fast estimate far from it, marked `≈`) and points at the line where the 5,000th token
    /// falls.
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
    let near = count_near(body, TOKEN_LIMIT);
    let count = near.count;
    if count.value() <= TOKEN_LIMIT {
        return;
    }
    // Find the line where the running estimate crosses the limit (scaled to the count).
    let base = cx.skill.split.body.start;
    // Over the limit, the count was estimated on the way (to tell whether to count exactly).
    let total_est = near.estimate.unwrap_or_else(|| estimate(body)).max(1);
    let target = TOKEN_LIMIT * total_est / count.value();
    let mut running = 0;
    let mut at = base;
    for line in body.split_inclusive('\n') {
        running += estimate(line);
        if running > target && !line.trim().is_empty() {
            break;
        }
        at += line.len();
    }
    // Point at the first word there, not the whole (possibly very long) line.
    let rest = &cx.text()[at.min(cx.text().len())..];
    let lead = rest.len() - rest.trim_start().len();
    let word = rest[lead..].find(char::is_whitespace).unwrap_or(rest.len() - lead);
    let span = Span::new(at + lead, at + lead + word);
    let n = match count {
        Count::Exact(n) => format!("{n} tokens (o200k_base)"),
        Count::Estimate(n) => format!("≈{n} tokens (o200k_base estimate)"),
    };
    cx.report(span, format!("body is {n}; keep it under 5,000: the limit is passed around here"));
}

#[cfg(test)]
mod tests {
    use crate::testing::codes;

    #[test]
    fn long_dense_body_is_reported() {
        let head = "---\nname: a\ndescription: d\n---\n";
        let para = "Extract every table from the PDF and convert it, keeping headers and units intact. ".repeat(8);
        let body = format!("{para}\n").repeat(60);
        assert!(codes("a", &format!("{head}{body}")).contains(&"SK502"));
        assert!(!codes("a", &format!("{head}{para}\n")).contains(&"SK502"));
    }
}
