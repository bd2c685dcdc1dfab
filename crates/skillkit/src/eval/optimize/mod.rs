//! The description optimizer (`skillkit eval optimize`): a skill's trigger suite split into
//! training and test queries (stratified and seeded), the description measured under every
//! target agent's exact prompt, and a model of its own (the improver) asked for a better one from
//! the training results only, up to `iterations` times; the pick is the best test score among
//! the candidates every target lists whole.
//!
//! - **The split.** The suite's queries are two classes for the skill: those that expect it
//!   (should trigger) and the others (should not: `none` or another skill). Each class is
//!   shuffled with the seed and `max(1, floor(n × holdout))` of it, at most `n − 1`, goes to the
//!   test split, so both splits hold both classes.
//! - **A query passes** when the skill was activated in at least `threshold` of its runs exactly
//!   when the query should trigger it. Per agent and split the report counts true and false
//!   positives and negatives by query: recall, the false-trigger rate (should-not queries that
//!   triggered), precision and F1.
//! - **Iteration 0** is the description as saved; each later one is the improver's answer to
//!   everything before it. The loop stops when every training query passes under every target
//!   (with a description they all list whole), after `iterations` improvements, or when the
//!   improver cannot give a description within [`MAX_DESCRIPTION_CHARS`]: an answer longer than
//!   that (or empty) is sent back once with the count, and a second one ends the loop
//!   ([`StopReason::TooLong`], [`StopReason::NoDescription`]).
//! - **What the improver sees** ([`improver_request`]): the whole `SKILL.md`, the targets, every
//!   previous attempt with its training score, and the training queries' results of the last
//!   one. Never a test query or a test result (the tests check every improver request for the
//!   test queries' text).
//! - **Eligible.** A candidate over [`MAX_DESCRIPTION_CHARS`] characters (the specification's
//!   limit, Codex's cut at 1,021 + `...`, Copilot CLI's and Mistral Vibe's refusal) or that a
//!   target does not list whole (its render decides `truncated`, `name-only`, `dropped` or
//!   `invalid` for the skill: a listing budget, Claude Code's 1,536-character cut) is measured
//!   and reported but never the pick.
//! - **The pick** is the eligible iteration with the most test queries passed over all targets;
//!   a tie goes to the shorter description, then to the earlier iteration.
//! - **Cancelling** stops the measurement or the improver call in flight; the report keeps the
//!   iterations measured in full. A provider error after the setup ends the loop the same way,
//!   with its message ([`StopReason::Error`]).
//!
//! The loop and the measurement are here; the split is `split.rs`, the improver's request and
//! answer `improver.rs`, the report's types `types.rs`, its text, JUnit and HTML `render.rs`, and
//! `--write` `write.rs`.

use super::report::Report;
use super::run::{run_library, with_text, EvalError, Options};
use super::suite::Suite;
use crate::agent::Agent;
use crate::library::Library;
use crate::model::{Cancel, Provider, ProviderError};
use crate::prompt::Decision;
use std::path::{Path, PathBuf};

mod improver;
mod render;
mod split;
mod types;
mod write;

use improver::improve;
pub use improver::{answer, improver_request};
pub use split::split;
pub use types::*;
pub use write::{write_description, WriteError};

/// A library per target, with the skill's entry in it.
struct Target {
    agent: &'static Agent,
    library: Library,
}

/// Runs the optimization (see the module doc).
pub fn optimize(
    o: &Optimization<'_>,
    provider: &dyn Provider,
    cancel: &Cancel,
    progress: &(dyn Fn(OptimizeProgress) + Sync),
) -> Result<OptimizeReport, OptimizeError> {
    let opts = &o.options;
    if !(opts.threshold > 0.0 && opts.threshold <= 1.0) {
        return Err(OptimizeError::Options(format!("--threshold {}: a share above 0, at most 1", opts.threshold)));
    }
    if o.agents.is_empty() {
        return Err(OptimizeError::Options("name at least one target agent".into()));
    }
    let split = split(&o.suite.cases, o.skill, opts.holdout, opts.seed)?;
    let targets: Vec<Target> =
        o.agents.iter().map(|&agent| Target { agent, library: Library::for_agent(o.sources, agent) }).collect();
    for t in &targets {
        if t.agent.activation.is_none() {
            return Err(OptimizeError::Eval(EvalError::NoActivation { agent: t.agent.id.into() }));
        }
    }
    let (path, text) = skill_file(&targets[0].library, o.skill)?;
    let original = crate::frontmatter_edit::form_fields(&text)
        .into_iter()
        .find(|f| f.key == "description")
        .and_then(|f| f.value)
        .unwrap_or_default();
    let mut report = OptimizeReport {
        skill: o.skill.to_string(),
        agents: o.agents.iter().map(|a| a.id.to_string()).collect(),
        provider: provider.wire().kind().name().to_string(),
        model: o.eval.model.clone(),
        improver_model: o.improver.model.clone(),
        runs: opts.runs.max(1),
        threshold: opts.threshold,
        holdout: opts.holdout,
        seed: opts.seed,
        max_chars: MAX_DESCRIPTION_CHARS,
        split,
        iterations: vec![],
        best: None,
        stop: Stop { reason: StopReason::Iterations, message: String::new() },
        requests: 0,
        input_tokens: 0,
        output_tokens: 0,
    };
    let mut description = original;
    let mut n = 0u32;
    let stop = loop {
        let measured = measure(o, provider, &targets, &path, &text, &description, n, &report.split, cancel, progress)?;
        let iteration = match measured {
            Measured::Done(mut it, totals) => {
                add(&mut report, totals);
                it.diff = match report.iterations.last() {
                    Some(prev) => diff(&prev.description, &it.description),
                    None => vec![],
                };
                it
            }
            Measured::Stopped(stop, totals) => {
                add(&mut report, totals);
                break stop;
            }
        };
        let all_pass = iteration.eligible && iteration.agents.iter().all(|a| a.train.passed == a.train.total);
        report.iterations.push(iteration);
        if all_pass {
            break Stop {
                reason: StopReason::AllTrainPass,
                message: "every training query passes under every target".into(),
            };
        }
        if n >= opts.iterations {
            break Stop {
                reason: StopReason::Iterations,
                message: format!("{} improvement(s) measured", opts.iterations),
            };
        }
        n += 1;
        match improve(o, provider, &text, &report, n, cancel) {
            Ok((next, totals)) => {
                add(&mut report, totals);
                description = next;
            }
            Err((stop, totals)) => {
                add(&mut report, totals);
                break stop;
            }
        }
    };
    report.stop = stop;
    report.best = pick(&report.iterations);
    Ok(report)
}

fn add(report: &mut OptimizeReport, (requests, input, output): Totals) {
    report.requests += requests;
    report.input_tokens += input;
    report.output_tokens += output;
}

/// The eligible iteration with the most test queries passed; ties to the shorter, then earlier.
pub fn pick(iterations: &[Iteration]) -> Option<Best> {
    iterations
        .iter()
        .filter(|i| i.eligible)
        .min_by_key(|i| (std::cmp::Reverse(i.test_passed), i.chars, i.iteration))
        .map(|i| Best { iteration: i.iteration, description: i.description.clone() })
}

/// The skill named `name` (not shadowed): its `SKILL.md` path and text.
pub fn skill_file(library: &Library, name: &str) -> Result<(PathBuf, String), OptimizeError> {
    library
        .entries
        .iter()
        .filter(|e| e.shadowed_by.is_none())
        .find(|e| {
            let fields = crate::frontmatter_edit::form_fields(&e.skill.text);
            let named = fields.iter().find(|f| f.key == "name").and_then(|f| f.value.as_deref());
            named.map_or(e.skill.dir_name == name, |n| n.trim() == name)
        })
        .map(|e| (e.skill.path(), e.skill.text.clone()))
        .ok_or_else(|| OptimizeError::NoSkill { name: name.to_string() })
}

enum Measured {
    Done(Iteration, Totals),
    Stopped(Stop, Totals),
}

/// The candidate `description` measured under every target.
#[allow(clippy::too_many_arguments)]
fn measure(
    o: &Optimization<'_>,
    provider: &dyn Provider,
    targets: &[Target],
    path: &Path,
    text: &str,
    description: &str,
    iteration: u32,
    split: &Split,
    cancel: &Cancel,
    progress: &(dyn Fn(OptimizeProgress) + Sync),
) -> Result<Measured, OptimizeError> {
    let edited = crate::frontmatter_edit::set_field(text, "description", description).map_err(OptimizeError::Edit)?;
    let chars = description.chars().count();
    let mut limits = vec![];
    if chars > MAX_DESCRIPTION_CHARS {
        limits.push(format!("{chars} characters, over the limit of {MAX_DESCRIPTION_CHARS}"));
    }
    let runs = o.options.runs.max(1);
    let total = targets.len() * o.suite.cases.len() * runs as usize;
    let done_before = std::sync::atomic::AtomicUsize::new(0);
    let mut agents = vec![];
    let mut totals: Totals = (0, 0, 0);
    for t in targets {
        let library = with_text(&t.library, path, &edited, t.agent).map_err(OptimizeError::Eval)?;
        let listed = listing(t.agent, &library, o.suite, path);
        if listed != Decision::Full {
            limits.push(format!("{} lists the skill {}", t.agent.id, decision_words(listed)));
        }
        let base = done_before.load(std::sync::atomic::Ordering::SeqCst);
        let options = Options { runs, concurrency: o.options.concurrency };
        let result = run_library(t.agent, &library, o.suite, provider, o.eval, &options, cancel, &|d, _| {
            progress(OptimizeProgress { iteration, done: base + d, total })
        });
        let report = match result {
            Ok(r) => r,
            Err(EvalError::Provider { error: ProviderError::Cancelled, .. }) => {
                return Ok(Measured::Stopped(cancelled(), totals));
            }
            Err(e @ EvalError::Provider { .. }) => {
                return Ok(Measured::Stopped(Stop { reason: StopReason::Error, message: e.to_string() }, totals))
            }
            Err(e) => return Err(OptimizeError::Eval(e)),
        };
        totals.0 += report.summary.requests;
        totals.1 += report.summary.input_tokens;
        totals.2 += report.summary.output_tokens;
        if report.cancelled {
            return Ok(Measured::Stopped(cancelled(), totals));
        }
        done_before.fetch_add(o.suite.cases.len() * runs as usize, std::sync::atomic::Ordering::SeqCst);
        agents.push(agent_result(t.agent.id, listed, &report, o, split));
    }
    let train_passed = agents.iter().map(|a| a.train.passed).sum();
    let test_passed = agents.iter().map(|a| a.test.passed).sum();
    Ok(Measured::Done(
        Iteration {
            iteration,
            description: description.to_string(),
            chars,
            diff: vec![],
            eligible: limits.is_empty(),
            limits,
            agents,
            train_passed,
            test_passed,
        },
        totals,
    ))
}

/// How `agent`'s render of `library` lists the skill at `path`.
fn listing(agent: &Agent, library: &Library, suite: &Suite, path: &Path) -> Decision {
    let Some(prompt) = agent.render(library, &suite.prompt_options()) else { return Decision::Invalid };
    let dir = path.parent();
    prompt.skills.iter().find(|s| s.dir.as_deref() == dir).map_or(Decision::Dropped, |s| s.decision)
}

fn decision_words(d: Decision) -> &'static str {
    match d {
        Decision::Full => "whole",
        Decision::Truncated => "with a shortened description",
        Decision::NameOnly => "by name only (over its listing budget)",
        Decision::Dropped => "not at all (over its listing budget)",
        Decision::Hidden => "not at all (hidden)",
        Decision::Invalid => "not at all (it rejects the skill)",
        Decision::Shadowed => "not at all (another skill of the name wins)",
    }
}

fn agent_result(agent: &str, listed: Decision, report: &Report, o: &Optimization<'_>, split: &Split) -> AgentResult {
    let queries: Vec<QueryResult> = report
        .cases
        .iter()
        .map(|c| {
            let triggered = c.activated.get(o.skill).copied().unwrap_or(0);
            let rate = if c.runs == 0 { 0.0 } else { f64::from(triggered) / f64::from(c.runs) };
            let should_trigger = c.expect == o.skill;
            let fired = c.runs > 0 && rate + 1e-9 >= o.options.threshold;
            QueryResult {
                id: c.id.clone(),
                split: if split.test.contains(&c.id) { SplitName::Test } else { SplitName::Train },
                should_trigger,
                triggered,
                runs: c.runs,
                rate: (rate * 10_000.0).round() / 10_000.0,
                pass: fired == should_trigger,
            }
        })
        .collect();
    AgentResult {
        agent: agent.to_string(),
        listed,
        train: Scores::of(queries.iter().filter(|q| q.split == SplitName::Train)),
        test: Scores::of(queries.iter().filter(|q| q.split == SplitName::Test)),
        queries,
    }
}

/// `old` to `new`, word by word (longest common subsequence of whitespace-separated words).
pub fn diff(old: &str, new: &str) -> Vec<Change> {
    let a: Vec<&str> = old.split_whitespace().collect();
    let b: Vec<&str> = new.split_whitespace().collect();
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut out: Vec<Change> = vec![];
    let push = |out: &mut Vec<Change>, c: Change| {
        // Runs of one kind are joined into one change.
        match (out.last_mut(), c) {
            (Some(Change::Same(s)), Change::Same(t))
            | (Some(Change::Added(s)), Change::Added(t))
            | (Some(Change::Removed(s)), Change::Removed(t)) => {
                s.push(' ');
                s.push_str(&t);
            }
            (_, c) => out.push(c),
        }
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            push(&mut out, Change::Same(a[i].to_string()));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            // What goes comes before what replaces it.
            push(&mut out, Change::Removed(a[i].to_string()));
            i += 1;
        } else {
            push(&mut out, Change::Added(b[j].to_string()));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn it(iteration: u32, description: &str, test_passed: u32, eligible: bool) -> Iteration {
        Iteration {
            iteration,
            description: description.into(),
            chars: description.chars().count(),
            diff: vec![],
            eligible,
            limits: vec![],
            agents: vec![],
            train_passed: 0,
            test_passed,
        }
    }

    #[test]
    fn the_pick_is_the_best_test_score_then_the_shorter_then_the_earlier() {
        let pick_of = |its: &[Iteration]| pick(its).map(|b| b.iteration);
        assert_eq!(pick_of(&[it(0, "aaaa", 3, true), it(1, "bbbbbb", 5, true), it(2, "ccc", 5, true)]), Some(2));
        assert_eq!(pick_of(&[it(0, "aaaa", 3, true), it(1, "bbb", 5, true), it(2, "ccc", 5, true)]), Some(1));
        assert_eq!(pick_of(&[it(0, "aaaa", 3, true), it(1, "b", 9, false)]), Some(0));
        assert_eq!(pick_of(&[it(0, "a", 9, false)]), None);
    }

    #[test]
    fn the_answer_is_the_text_between_the_tags() {
        assert_eq!(answer("Sure:\n<description> Does X. </description>\nThanks"), "Does X.");
        assert_eq!(answer("  Does Y.\n"), "Does Y.");
        assert_eq!(answer("<description>unclosed"), "<description>unclosed");
    }

    #[test]
    fn the_html_report_escapes_what_it_shows() {
        let hostile = "<script>alert('x')</script> & \"q\"";
        let mut first = it(0, hostile, 1, true);
        first.limits = vec![hostile.into()];
        let mut second = it(1, "Plain <b>text</b>.", 2, true);
        second.diff = diff(hostile, "Plain <b>text</b>.");
        let report = OptimizeReport {
            skill: hostile.into(),
            agents: vec![hostile.into()],
            provider: "openai".into(),
            model: hostile.into(),
            improver_model: "m".into(),
            runs: 3,
            threshold: 0.5,
            holdout: 0.4,
            seed: 0,
            max_chars: MAX_DESCRIPTION_CHARS,
            split: Split { train: vec![hostile.into()], test: vec![] },
            iterations: vec![first, second],
            best: Some(Best { iteration: 1, description: "Plain <b>text</b>.".into() }),
            stop: Stop { reason: StopReason::Iterations, message: hostile.into() },
            requests: 0,
            input_tokens: 0,
            output_tokens: 0,
        };
        let page = report.html();
        assert!(!page.contains("<script") && !page.contains("<b>"), "{page}");
        assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"), "{page}");
        assert!(
            page.contains("<del>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;</del>"),
            "{page}"
        );
        assert!(page.contains("<polyline"), "{page}");
        let junit = report.junit();
        assert!(junit.contains("&lt;script&gt;") && !junit.contains("<script"), "{junit}");
    }
}
