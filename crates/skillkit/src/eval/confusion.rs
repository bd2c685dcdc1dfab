//! The confusion table of a suite's runs: which skill took which skill's queries, under the
//! report's agent. [`super::Report`] carries it as `confusion` (`skillkit eval --format json`,
//! the app's eval reply), most runs first; `skillkit eval`'s text prints its skill-to-skill rows
//! as "`x`'s queries taken by `y` (n)".

use super::suite::{Case, NONE};
use serde::Serialize;
use std::collections::BTreeMap;

/// One cell of the table off its diagonal: on `count` runs of cases that expected `expected`
/// (`none`: no skill should answer), the agent's model activated `took` (`none`: no skill).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Confusion {
    pub agent: String,
    pub expected: String,
    pub took: String,
    pub count: u32,
}

impl Confusion {
    /// A skill's queries taken by another skill (not a miss, not a false trigger on a query no
    /// skill should take): the rows of the text table.
    pub fn is_between_skills(&self) -> bool {
        self.expected != NONE && self.took != NONE
    }
}

/// The off-diagonal cells of `activated[i]` (runs per activated skill of `cases[i]`) under
/// `agent`: most runs first, then by expected skill and by the one that took them.
pub fn table<'a>(
    agent: &str,
    cases: impl IntoIterator<Item = (&'a Case, &'a BTreeMap<String, u32>)>,
) -> Vec<Confusion> {
    let mut cells: BTreeMap<(&str, &str), u32> = BTreeMap::new();
    for (case, activated) in cases {
        for (took, n) in activated {
            if *took != case.expect && *n > 0 {
                *cells.entry((case.expect.as_str(), took.as_str())).or_default() += n;
            }
        }
    }
    let mut out: Vec<Confusion> = cells
        .into_iter()
        .map(|((expected, took), count)| Confusion {
            agent: agent.to_string(),
            expected: expected.to_string(),
            took: took.to_string(),
            count,
        })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| (&a.expected, &a.took).cmp(&(&b.expected, &b.took))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, expect: &str) -> Case {
        Case { id: id.into(), query: format!("query {id}"), expect: expect.into() }
    }

    #[test]
    fn the_table_has_every_off_diagonal_cell_most_runs_first() {
        let cases = [case("a", "pdf"), case("b", "pdf"), case("c", "csv"), case("d", NONE)];
        let runs = [
            BTreeMap::from([("pdf".to_string(), 1), ("csv".to_string(), 2)]),
            BTreeMap::from([("csv".to_string(), 1), (NONE.to_string(), 2)]),
            BTreeMap::from([("csv".to_string(), 3)]),
            BTreeMap::from([("pdf".to_string(), 1), (NONE.to_string(), 2)]),
        ];
        let t = table("codex", cases.iter().zip(&runs));
        let cells: Vec<(&str, &str, u32)> = t.iter().map(|c| (c.expected.as_str(), c.took.as_str(), c.count)).collect();
        assert_eq!(cells, [("pdf", "csv", 3), ("pdf", NONE, 2), (NONE, "pdf", 1)]);
        assert!(t.iter().all(|c| c.agent == "codex"));
        assert_eq!(t.iter().filter(|c| c.is_between_skills()).count(), 1);
    }
}
