//! What a suite's runs add up to: per case the activations and whether the expected one won, per
//! skill true and false positives with the skills that took its queries, the confusion table
//! (which skill took which skill's queries), and the totals. The
//! JSON form is `skillkit eval --format json`'s; [`Report::junit`] is JUnit XML for CI.

use super::suite::{Case, NONE};
use serde::Serialize;
use std::collections::BTreeMap;

/// One run of one case: what the model activated (`None`: no skill) and the tokens it reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    pub activated: Option<String>,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// A case's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CaseReport {
    pub id: String,
    pub query: String,
    pub expect: String,
    /// Runs per activated skill (`none`: no skill), over the runs that completed.
    pub activated: BTreeMap<String, u32>,
    /// The expected activation won a strict majority of the completed runs.
    pub pass: bool,
    /// Completed runs (fewer than asked when the suite was stopped).
    pub runs: u32,
    /// The share of runs that activated what was expected.
    pub rate: f64,
}

/// A skill's confusion counts over all runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SkillReport {
    pub name: String,
    pub tp: u32,
    pub fp: u32,
    #[serde(rename = "fn")]
    pub fn_: u32,
    /// `null` when the skill was never activated.
    pub precision: Option<f64>,
    /// `null` when no case expects the skill.
    pub recall: Option<f64>,
    pub f1: Option<f64>,
    /// What was activated instead on the runs that expected this skill (`none`: nothing).
    pub confusions: BTreeMap<String, u32>,
}

/// Totals: micro-averaged precision and recall over the skills, and accuracy over all runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Summary {
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    pub accuracy: Option<f64>,
    pub requests: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// A suite's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Report {
    pub agent: String,
    pub provider: String,
    pub model: String,
    /// Runs asked per case.
    pub runs: u32,
    pub cases: Vec<CaseReport>,
    pub skills: Vec<SkillReport>,
    pub summary: Summary,
    /// Which skill took which skill's queries (`none`: no skill), most runs first: the cells of
    /// the confusion table off its diagonal (`eval::confusion`).
    pub confusion: Vec<super::confusion::Confusion>,
    /// Stopped before every run completed (Ctrl+C, Cancel): the counts are of the completed runs.
    pub cancelled: bool,
}

/// The skill's counts, created at zero.
fn skill<'a>(skills: &'a mut BTreeMap<String, SkillReport>, name: &str) -> &'a mut SkillReport {
    skills.entry(name.to_string()).or_insert_with(|| SkillReport {
        name: name.to_string(),
        tp: 0,
        fp: 0,
        fn_: 0,
        precision: None,
        recall: None,
        f1: None,
        confusions: BTreeMap::new(),
    })
}

fn ratio(a: u32, b: u32) -> Option<f64> {
    (b > 0).then(|| round(a as f64 / b as f64))
}

/// Four decimals: stable JSON and text across platforms.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

impl Report {
    /// Adds up `results[i]` (the completed runs of `cases[i]`).
    pub fn new(
        agent: &str,
        provider: &str,
        model: &str,
        runs: u32,
        cases: &[Case],
        results: &[Vec<RunResult>],
        cancelled: bool,
    ) -> Report {
        let key = |a: &Option<String>| a.clone().unwrap_or_else(|| NONE.to_string());
        let mut skills: BTreeMap<String, SkillReport> = BTreeMap::new();
        let mut case_reports = vec![];
        let (mut correct, mut total, mut input_tokens, mut output_tokens) = (0u32, 0u32, 0u64, 0u64);
        for (case, runs_done) in cases.iter().zip(results) {
            let mut activated: BTreeMap<String, u32> = BTreeMap::new();
            for r in runs_done {
                let got = key(&r.activated);
                *activated.entry(got.clone()).or_default() += 1;
                input_tokens += r.input_tokens;
                output_tokens += r.output_tokens;
                total += 1;
                if got == case.expect {
                    correct += 1;
                }
                if case.expect != NONE {
                    let s = skill(&mut skills, &case.expect);
                    if got == case.expect {
                        s.tp += 1;
                    } else {
                        s.fn_ += 1;
                        *s.confusions.entry(got.clone()).or_default() += 1;
                    }
                }
                if got != NONE && got != case.expect {
                    skill(&mut skills, &got).fp += 1;
                }
            }
            let n = runs_done.len() as u32;
            let hits = activated.get(&case.expect).copied().unwrap_or(0);
            case_reports.push(CaseReport {
                id: case.id.clone(),
                query: case.query.clone(),
                expect: case.expect.clone(),
                activated,
                pass: n > 0 && hits * 2 > n,
                runs: n,
                rate: ratio(hits, n).unwrap_or(0.0),
            });
        }
        let mut skills: Vec<SkillReport> = skills.into_values().collect();
        for s in &mut skills {
            s.precision = ratio(s.tp, s.tp + s.fp);
            s.recall = ratio(s.tp, s.tp + s.fn_);
            s.f1 = ratio(2 * s.tp, 2 * s.tp + s.fp + s.fn_);
        }
        let confusion = super::confusion::table(agent, cases.iter().zip(case_reports.iter().map(|c| &c.activated)));
        let (tp, fp, fn_) = skills.iter().fold((0, 0, 0), |(a, b, c), s| (a + s.tp, b + s.fp, c + s.fn_));
        Report {
            agent: agent.to_string(),
            provider: provider.to_string(),
            model: model.to_string(),
            runs,
            cases: case_reports,
            skills,
            summary: Summary {
                precision: ratio(tp, tp + fp),
                recall: ratio(tp, tp + fn_),
                accuracy: ratio(correct, total),
                requests: total as u64,
                input_tokens,
                output_tokens,
            },
            confusion,
            cancelled,
        }
    }

    /// JUnit XML: one test case per suite case, failed when the expected activation did not win.
    pub fn junit(&self) -> String {
        let failures = self.cases.iter().filter(|c| !c.pass).count();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.push_str(&format!(
            "<testsuites name=\"skillkit eval\" tests=\"{}\" failures=\"{failures}\">\n",
            self.cases.len()
        ));
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\">\n",
            xml(&format!("{} / {} / {}", self.agent, self.provider, self.model)),
            self.cases.len()
        ));
        for c in &self.cases {
            out.push_str(&format!("    <testcase classname=\"{}\" name=\"{}\"", xml(&self.agent), xml(&c.id)));
            if c.pass {
                out.push_str("/>\n");
                continue;
            }
            let got: Vec<String> = c.activated.iter().map(|(k, v)| format!("{k} {v}/{}", c.runs)).collect();
            out.push_str(">\n");
            out.push_str(&format!(
                "      <failure message=\"expected {} in most runs, got {}\">{}</failure>\n",
                xml(&c.expect),
                xml(&got.join(", ")),
                xml(&c.query)
            ));
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }
}

/// Text escaped for XML attributes and content, on one line of the file. Tab, newline and
/// carriage return are character references (an attribute keeps them so, and no line of the
/// report starts with the suite's text, where a CI runner would read a command); `##[`, the
/// runner's legacy command, is `##&#91;`; DEL and the C1 controls, which XML 1.0 allows, are
/// references too, never raw bytes for a terminal; the other characters XML 1.0 cannot hold at
/// all (C0 controls, U+FFFE, U+FFFF) are shown as [`crate::syntax::shown::escape`] shows them (`\u{1b}`).
pub(crate) fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '[' if out.ends_with("##") => out.push_str("&#91;"),
            '\t' | '\n' | '\r' | '\x7f'..='\u{9f}' => out.push_str(&format!("&#{};", c as u32)),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: Option<&str>) -> RunResult {
        RunResult { activated: a.map(str::to_string), input_tokens: 10, output_tokens: 2 }
    }

    fn case(id: &str, expect: &str) -> Case {
        Case { id: id.into(), query: format!("query {id}"), expect: expect.into() }
    }

    #[test]
    fn counts_follow_from_the_runs() {
        let cases = [case("a", "pdf"), case("b", "pdf"), case("c", "none"), case("d", "csv")];
        let results = vec![
            vec![run(Some("pdf")), run(Some("pdf")), run(None)],
            vec![run(Some("csv")), run(None), run(None)],
            vec![run(None), run(Some("pdf")), run(None)],
            vec![run(Some("csv")), run(Some("csv")), run(Some("csv"))],
        ];
        let r = Report::new("claude-code", "openai", "m", 3, &cases, &results, false);
        assert_eq!(r.cases[0].activated, BTreeMap::from([("pdf".into(), 2), ("none".into(), 1)]));
        assert_eq!(r.cases.iter().map(|c| c.pass).collect::<Vec<_>>(), vec![true, false, true, true]);
        assert_eq!(r.cases[0].rate, 0.6667);
        let pdf = &r.skills[1];
        assert_eq!((pdf.name.as_str(), pdf.tp, pdf.fp, pdf.fn_), ("pdf", 2, 1, 4));
        assert_eq!(pdf.confusions, BTreeMap::from([("none".into(), 3), ("csv".into(), 1)]));
        assert_eq!((pdf.precision, pdf.recall, pdf.f1), (Some(0.6667), Some(0.3333), Some(0.4444)));
        let csv = &r.skills[0];
        assert_eq!((csv.tp, csv.fp, csv.fn_), (3, 1, 0));
        // Micro: tp 5, fp 2, fn 4; 7 of 12 runs right.
        assert_eq!(r.summary.precision, Some(0.7143));
        assert_eq!(r.summary.recall, Some(0.5556));
        assert_eq!(r.summary.accuracy, Some(0.5833));
        assert_eq!((r.summary.requests, r.summary.input_tokens, r.summary.output_tokens), (12, 120, 24));
        // The confusion table: every off-diagonal cell, most runs first.
        let cells: Vec<(&str, &str, u32)> =
            r.confusion.iter().map(|c| (c.expected.as_str(), c.took.as_str(), c.count)).collect();
        assert_eq!(cells, [("pdf", "none", 3), ("none", "pdf", 1), ("pdf", "csv", 1)]);
        assert!(r.confusion.iter().all(|c| c.agent == "claude-code"));
        let junit = r.junit();
        assert!(junit.contains("tests=\"4\" failures=\"1\""), "{junit}");
        assert!(
            junit.contains("<failure message=\"expected pdf in most runs, got csv 1/3, none 2/3\">query b</failure>")
        );
    }

    #[test]
    fn junit_holds_hostile_text_on_one_line_without_control_characters() {
        let hostile =
            "x\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{9b}\u{7f}\n::add-mask::secret\r\n  ::error::x ##[add-mask]y\t\u{fffe}";
        let mut c = case(hostile, "pdf");
        c.query = hostile.to_string();
        let r = Report::new(hostile, "openai", hostile, 3, &[c], &[vec![run(Some(hostile))]], false);
        let junit = r.junit();
        for ch in junit.chars() {
            assert!(
                ch == '\n' || !(ch < ' ' || ('\x7f'..='\u{9f}').contains(&ch) || ch == '\u{fffe}'),
                "{ch:?} in {junit}"
            );
        }
        assert!(junit.lines().all(|l| !l.trim_start().starts_with("::") && !l.contains("##[")), "{junit}");
        assert_eq!(junit.lines().count(), 8, "{junit}");
        assert!(junit.contains("x\\u{1b}]52;c;aGk=\\u{7}\\u{1b}[2J&#155;&#127;&#10;::add-mask::secret&#13;&#10;  ::error::x ##&#91;add-mask]y&#9;\\u{fffe}"), "{junit}");
    }

    #[test]
    fn nothing_run_gives_no_ratios() {
        let r = Report::new("x", "openai", "m", 3, &[case("a", "pdf")], &[vec![]], true);
        assert!(!r.cases[0].pass && r.cancelled);
        assert_eq!((r.summary.precision, r.summary.accuracy), (None, None));
        assert_eq!(xml("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;\\u{1}");
    }
}
