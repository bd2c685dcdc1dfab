//! `skillkit explain`: a rule's documentation, by code or name.

use std::io::Write;

pub(crate) fn explain(rule: &str, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    match skillkit::lint::rules::find_rule(rule) {
        Some(r) => write!(out, "{}", skillkit::docs::rule_page(r.meta())).map(|_| 0),
        None => writeln!(err, "error: no rule `{rule}`; `skillkit rules` lists them").map(|_| 2),
    }
}
