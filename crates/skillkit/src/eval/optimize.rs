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

use super::report::Report;
use super::run::{run_library, with_text, EvalError, Options};
use super::suite::{Case, Suite};
use crate::agent::Agent;
use crate::library::Library;
use crate::model::{Cancel, Message, Provider, ProviderConfig, ProviderError, Role};
use crate::prompt::Decision;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The longest description a candidate may have: the Agent Skills specification's limit, where
/// Codex cuts (1,021 characters + `...`) and Copilot CLI and Mistral Vibe refuse the skill.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// How an optimization runs.
#[derive(Clone, Debug, PartialEq)]
pub struct OptimizeOptions {
    /// Times each query is asked per candidate and agent (at least 1).
    pub runs: u32,
    /// Requests in flight at most.
    pub concurrency: usize,
    /// The share of runs that must activate the skill for a query to count as triggered.
    pub threshold: f64,
    /// Improvements asked for at most (iteration 0, the saved description, is not one).
    pub iterations: u32,
    /// The share of each class held out as the test split (strictly between 0 and 1).
    pub holdout: f64,
    /// The split's seed.
    pub seed: u64,
}

impl Default for OptimizeOptions {
    fn default() -> OptimizeOptions {
        OptimizeOptions { runs: 3, concurrency: 4, threshold: 0.5, iterations: 5, holdout: 0.4, seed: 0 }
    }
}

/// Why an optimization could not start.
#[derive(Debug)]
pub enum OptimizeError {
    /// The options are out of range.
    Options(String),
    /// No skill of that name in the library.
    NoSkill { name: String },
    /// The suite lacks queries of one class (or has too few to split).
    Suite(String),
    /// An agent cannot be evaluated (no skill tool, no prompt).
    Eval(EvalError),
    /// The description cannot be set in the skill's text (its frontmatter is in the way).
    Edit(crate::frontmatter_edit::EditError),
}

impl std::fmt::Display for OptimizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptimizeError::Options(m) | OptimizeError::Suite(m) => f.write_str(m),
            OptimizeError::NoSkill { name } => write!(f, "no skill named `{name}` in the library"),
            OptimizeError::Eval(e) => write!(f, "{e}"),
            OptimizeError::Edit(e) => write!(f, "the description cannot be replaced: {e}"),
        }
    }
}

impl std::error::Error for OptimizeError {}

/// The suite's case ids in each split, in the suite's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Split {
    pub train: Vec<String>,
    pub test: Vec<String>,
}

/// Which split a query is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum SplitName {
    Train,
    Test,
}

/// The stratified split of `cases` for `skill` (see the module doc).
pub fn split(cases: &[Case], skill: &str, holdout: f64, seed: u64) -> Result<Split, OptimizeError> {
    if !(holdout > 0.0 && holdout < 1.0) {
        return Err(OptimizeError::Options(format!("--holdout {holdout}: a share strictly between 0 and 1")));
    }
    let (pos, neg): (Vec<usize>, Vec<usize>) = (0..cases.len()).partition(|&i| cases[i].expect == skill);
    if pos.len() < 2 || neg.len() < 2 {
        return Err(OptimizeError::Suite(format!(
            "the suite has {} quer{} that should trigger `{skill}` and {} that should not; the split needs at least 2 of each",
            pos.len(),
            if pos.len() == 1 { "y" } else { "ies" },
            neg.len()
        )));
    }
    let mut rng = SplitMix(seed);
    let mut test = vec![false; cases.len()];
    for mut class in [pos, neg] {
        // Fisher–Yates with the seeded generator: the same seed, the same split, everywhere.
        for i in (1..class.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            class.swap(i, j);
        }
        let n = class.len();
        let k = ((n as f64 * holdout).floor() as usize).clamp(1, n - 1);
        for &i in &class[..k] {
            test[i] = true;
        }
    }
    let ids = |want: bool| cases.iter().zip(&test).filter(|(_, &t)| t == want).map(|(c, _)| c.id.clone()).collect();
    Ok(Split { train: ids(false), test: ids(true) })
}

/// SplitMix64: a small generator whose sequence is fixed here, not by a crate's version.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// One query's result for one candidate under one agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct QueryResult {
    pub id: String,
    pub split: SplitName,
    pub should_trigger: bool,
    /// Runs that activated the skill.
    pub triggered: u32,
    /// Runs completed.
    pub runs: u32,
    /// `triggered / runs`.
    pub rate: f64,
    /// Triggered (rate ≥ threshold) exactly when it should.
    pub pass: bool,
}

/// Counts by query over one split under one agent.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Scores {
    pub passed: u32,
    pub total: u32,
    pub tp: u32,
    pub fp: u32,
    #[serde(rename = "fn")]
    pub fn_: u32,
    pub tn: u32,
    /// Should-trigger queries that triggered; `null` without any.
    pub recall: Option<f64>,
    /// Should-not queries that triggered; `null` without any.
    pub false_trigger_rate: Option<f64>,
    /// `null` when nothing triggered.
    pub precision: Option<f64>,
    pub f1: Option<f64>,
}

impl Scores {
    fn of<'a>(results: impl Iterator<Item = &'a QueryResult>) -> Scores {
        let mut s = Scores::default();
        for r in results {
            // A query that passes triggered exactly when it should.
            let triggered = r.pass == r.should_trigger;
            s.total += 1;
            s.passed += u32::from(r.pass);
            match (r.should_trigger, triggered) {
                (true, true) => s.tp += 1,
                (true, false) => s.fn_ += 1,
                (false, true) => s.fp += 1,
                (false, false) => s.tn += 1,
            }
        }
        s.recall = ratio(s.tp, s.tp + s.fn_);
        s.false_trigger_rate = ratio(s.fp, s.fp + s.tn);
        s.precision = ratio(s.tp, s.tp + s.fp);
        s.f1 = ratio(2 * s.tp, 2 * s.tp + s.fp + s.fn_);
        s
    }
}

fn ratio(a: u32, b: u32) -> Option<f64> {
    (b > 0).then(|| (a as f64 / b as f64 * 10_000.0).round() / 10_000.0)
}

/// A candidate's results under one agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentResult {
    pub agent: String,
    /// How the agent's render lists the skill with this description (`full` unless cut or
    /// left out).
    pub listed: Decision,
    pub train: Scores,
    pub test: Scores,
    pub queries: Vec<QueryResult>,
}

/// One word of a diff between two descriptions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case", tag = "op", content = "text")]
pub enum Change {
    Same(String),
    Added(String),
    Removed(String),
}

/// One candidate description and what it scored.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Iteration {
    /// 0: the description as saved.
    pub iteration: u32,
    pub description: String,
    /// Characters (Unicode scalar values).
    pub chars: usize,
    /// Word by word from the previous iteration's description (empty for iteration 0).
    pub diff: Vec<Change>,
    /// Every target lists it whole and it is within [`MAX_DESCRIPTION_CHARS`].
    pub eligible: bool,
    /// Why not, one sentence per reason.
    pub limits: Vec<String>,
    pub agents: Vec<AgentResult>,
    /// Training queries passed, over all targets.
    pub train_passed: u32,
    /// Test queries passed, over all targets.
    pub test_passed: u32,
}

/// Why the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// Every training query passed under every target.
    AllTrainPass,
    /// `iterations` improvements were measured.
    Iterations,
    /// The improver answered over the limit twice in a row.
    TooLong,
    /// The improver answered with no description twice in a row.
    NoDescription,
    /// Cancelled (Ctrl+C, Cancel).
    Cancelled,
    /// A request failed for good.
    Error,
}

/// How the loop ended, in words too.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Stop {
    pub reason: StopReason,
    pub message: String,
}

/// The pick.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Best {
    pub iteration: u32,
    pub description: String,
}

/// An optimization's report (`skillkit eval optimize --format json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OptimizeReport {
    pub skill: String,
    pub agents: Vec<String>,
    pub provider: String,
    pub model: String,
    pub improver_model: String,
    pub runs: u32,
    pub threshold: f64,
    pub holdout: f64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seed: u64,
    pub max_chars: usize,
    pub split: Split,
    pub iterations: Vec<Iteration>,
    /// `null` when no measured candidate is eligible.
    pub best: Option<Best>,
    pub stop: Stop,
    /// Requests sent (measurements and improver calls).
    pub requests: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// What is optimized, and against what.
pub struct Optimization<'a> {
    /// The skill's name.
    pub skill: &'a str,
    /// The targets, each measured with its exact prompt.
    pub agents: &'a [&'static Agent],
    /// The library's sources, lowest priority first.
    pub sources: &'a [PathBuf],
    pub suite: &'a Suite,
    /// The model measured.
    pub eval: &'a ProviderConfig,
    /// The improver's model (the same provider).
    pub improver: &'a ProviderConfig,
    pub options: OptimizeOptions,
}

/// Where an optimization is: the iteration measured or improved, and the requests of that
/// iteration's measurement done of its total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimizeProgress {
    pub iteration: u32,
    pub done: usize,
    pub total: usize,
}

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

/// Requests and tokens.
type Totals = (u64, u64, u64);

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

fn cancelled() -> Stop {
    Stop {
        reason: StopReason::Cancelled,
        message: "cancelled: the report keeps the iterations measured in full".into(),
    }
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

/// Asks the improver for attempt `n`; retried once when the answer is too long or empty.
fn improve(
    o: &Optimization<'_>,
    provider: &dyn Provider,
    skill_text: &str,
    report: &OptimizeReport,
    n: u32,
    cancel: &Cancel,
) -> Result<(String, Totals), (Stop, Totals)> {
    let mut request = improver_request(o, skill_text, report, n);
    let mut totals: Totals = (0, 0, 0);
    for attempt in 0..2 {
        let reply = match provider.complete_with(&request, cancel) {
            Ok(r) => r,
            Err(ProviderError::Cancelled) => return Err((cancelled(), totals)),
            Err(e) => {
                let message = format!("the improver (attempt {n}): {e}");
                return Err((Stop { reason: StopReason::Error, message }, totals));
            }
        };
        totals.0 += 1;
        totals.1 += reply.usage.input_tokens;
        totals.2 += reply.usage.output_tokens;
        let answer = answer(&reply.text);
        let chars = answer.chars().count();
        let problem = if answer.is_empty() {
            (StopReason::NoDescription, "no description".to_string())
        } else if chars > MAX_DESCRIPTION_CHARS {
            (StopReason::TooLong, format!("a description of {chars} characters"))
        } else {
            return Ok((answer, totals));
        };
        if attempt == 1 {
            let message = format!(
                "the improver answered attempt {n} with {} twice; the limit is {MAX_DESCRIPTION_CHARS} characters",
                problem.1
            );
            return Err((Stop { reason: problem.0, message }, totals));
        }
        request.messages.push(Message::text(Role::Assistant, reply.text.clone()));
        request.messages.push(Message::user(format!(
            "That answer is {}. Attempt {n} again: one description of at most {MAX_DESCRIPTION_CHARS} characters, \
             between <description> and </description>.",
            problem.1
        )));
    }
    unreachable!("the loop returns on its second pass")
}

/// The description in an improver's answer: the text between `<description>` and
/// `</description>` when it has them, else the whole answer; trimmed.
pub fn answer(text: &str) -> String {
    let inner = text
        .find("<description>")
        .map(|i| &text[i + "<description>".len()..])
        .and_then(|rest| rest.find("</description>").map(|j| &rest[..j]));
    inner.unwrap_or(text).trim().to_string()
}

const IMPROVER_SYSTEM: &str = "You improve the description of an Agent Skill. An agent lists each \
installed skill's name and description to the model, which decides from the description alone \
whether to use the skill for a user's request. Write a description that makes the model use this \
skill for the requests it is meant for, and not for others that merely look alike. Say what the \
skill does and when to use it, in the words users would use; generalise from the examples rather \
than listing them. Answer with the description only, between <description> and </description>.";

/// The improver's request for attempt `n`: the whole `SKILL.md`, the targets, every previous
/// attempt with its training score, the last attempt's training results. Nothing of the test
/// split.
pub fn improver_request(
    o: &Optimization<'_>,
    skill_text: &str,
    report: &OptimizeReport,
    n: u32,
) -> crate::model::ChatRequest {
    let train: Vec<&Case> = o.suite.cases.iter().filter(|c| report.split.train.contains(&c.id)).collect();
    let mut user = format!(
        "The skill `{}`. Its SKILL.md:\n\n<skill_md>\n{}\n</skill_md>\n\nIt is listed to these agents: {}. \
         The description must have at most {MAX_DESCRIPTION_CHARS} characters, and each agent must list it whole.\n\n\
         A training query passes when the skill is used in at least {} of its {} runs exactly when it should be.\n",
        o.skill,
        skill_text.trim_end(),
        report.agents.join(", "),
        o.options.threshold,
        report.runs,
    );
    user.push_str("\nThe attempts so far, with their training scores:\n");
    for it in &report.iterations {
        let scores: Vec<String> =
            it.agents.iter().map(|a| format!("{} {}/{}", a.agent, a.train.passed, a.train.total)).collect();
        user.push_str(&format!(
            "\nAttempt {} (training: {}):\n<description>{}</description>\n",
            it.iteration,
            scores.join(", "),
            it.description
        ));
        for limit in &it.limits {
            user.push_str(&format!("Not allowed: {limit}.\n"));
        }
    }
    if let Some(last) = report.iterations.last() {
        user.push_str(&format!("\nThe training results of attempt {}:\n", last.iteration));
        for case in &train {
            let per_agent: Vec<String> = last
                .agents
                .iter()
                .filter_map(|a| a.queries.iter().find(|q| q.id == case.id).map(|q| (a, q)))
                .filter(|(_, q)| q.split == SplitName::Train)
                .map(|(a, q)| {
                    format!("{} {}/{} {}", a.agent, q.triggered, q.runs, if q.pass { "pass" } else { "FAIL" })
                })
                .collect();
            let class = if case.expect == o.skill { "should use the skill" } else { "should not use the skill" };
            user.push_str(&format!("- {class}: {:?} used in {}\n", case.query, per_agent.join(", ")));
        }
    }
    user.push_str(&format!("\nThis is attempt {n}. Write a better description.\n"));
    o.improver.request(Some(IMPROVER_SYSTEM.to_string()), vec![Message::user(user)], vec![])
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

/// Why `--write` did not write.
#[derive(Debug)]
pub enum WriteError {
    Scope(crate::scope::ScopeError),
    Edit(crate::frontmatter_edit::EditError),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Scope(e) => write!(f, "{e}"),
            WriteError::Edit(e) => write!(f, "the description cannot be replaced: {e}"),
        }
    }
}

impl std::error::Error for WriteError {}

/// The skill file at `path` with its `description` value set to `description` and every other
/// byte kept ([`crate::frontmatter_edit::set_field`], the form's edit), saved with the engine's
/// atomic save inside the skill's folder, only when the file is still the version read. Returns
/// the new text.
pub fn write_description(path: &Path, description: &str) -> Result<String, WriteError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let scope = crate::scope::Scope::new(&[dir.to_path_buf()]);
    let (text, version) = scope.read_text(path).map_err(WriteError::Scope)?;
    let edited = crate::frontmatter_edit::set_field(&text, "description", description).map_err(WriteError::Edit)?;
    scope.save(path, edited.as_bytes(), Some(Some(&version))).map_err(WriteError::Scope)?;
    Ok(edited)
}

/// Text escaped for HTML content and attribute values (descriptions, queries and ids are the
/// suite's and the model's: untrusted).
fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push_str(&format!("&#{};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn shown(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |x| format!("{x:.2}"))
}

impl OptimizeReport {
    /// A plain HTML page of the report: no script, no remote loads; every text of the suite, the
    /// library or the models escaped. A chart (inline SVG) of the training and test pass rates
    /// per iteration and agent, then per iteration the description, its diff and the scores.
    pub fn html(&self) -> String {
        let mut out = String::from(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n",
        );
        out.push_str(&format!("<title>Description optimization: {}</title>\n", html(&self.skill)));
        out.push_str(
            "<style>body{font:14px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}\
             table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
             pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}ins{background:#cfc}del{background:#fcc}\
             .best{outline:2px solid #393}</style>\n</head>\n<body>\n",
        );
        out.push_str(&format!("<h1>Description optimization: <code>{}</code></h1>\n", html(&self.skill)));
        out.push_str(&format!(
            "<p>Targets: {} · {} · model {} · improver {} · {} run(s) per query, threshold {} · holdout {}, seed {} \
             · {} training and {} test queries.</p>\n",
            html(&self.agents.join(", ")),
            html(&self.provider),
            html(&self.model),
            html(&self.improver_model),
            self.runs,
            self.threshold,
            self.holdout,
            self.seed,
            self.split.train.len(),
            self.split.test.len()
        ));
        out.push_str(&format!("<p>Stopped: {}.</p>\n", html(&self.stop.message)));
        match &self.best {
            Some(b) => {
                out.push_str(&format!("<p>Best: iteration {}.</p>\n<pre>{}</pre>\n", b.iteration, html(&b.description)))
            }
            None => out.push_str("<p>No candidate every target lists whole was measured.</p>\n"),
        }
        out.push_str(&self.chart());
        for it in &self.iterations {
            let best = self.best.as_ref().is_some_and(|b| b.iteration == it.iteration);
            out.push_str(&format!(
                "<section{}>\n<h2>Iteration {}{}</h2>\n",
                if best { " class=\"best\"" } else { "" },
                it.iteration,
                if best { " (best)" } else { "" }
            ));
            out.push_str(&format!("<pre>{}</pre>\n<p>{} characters", html(&it.description), it.chars));
            for l in &it.limits {
                out.push_str(&format!("; not eligible: {}", html(l)));
            }
            out.push_str(".</p>\n");
            if !it.diff.is_empty() {
                out.push_str("<p>Changes: ");
                for c in &it.diff {
                    match c {
                        Change::Same(t) => out.push_str(&format!("{} ", html(t))),
                        Change::Added(t) => out.push_str(&format!("<ins>{}</ins> ", html(t))),
                        Change::Removed(t) => out.push_str(&format!("<del>{}</del> ", html(t))),
                    }
                }
                out.push_str("</p>\n");
            }
            out.push_str(
                "<table>\n<tr><th>agent</th><th>split</th><th>passed</th><th>recall</th><th>false triggers</th>\
                 <th>precision</th><th>F1</th></tr>\n",
            );
            for a in &it.agents {
                for (name, s) in [("train", &a.train), ("test", &a.test)] {
                    out.push_str(&format!(
                        "<tr><td>{}</td><td>{name}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        html(&a.agent),
                        s.passed,
                        s.total,
                        shown(s.recall),
                        shown(s.false_trigger_rate),
                        shown(s.precision),
                        shown(s.f1)
                    ));
                }
            }
            out.push_str("</table>\n</section>\n");
        }
        out.push_str("</body>\n</html>\n");
        out
    }

    /// The pass rates per iteration as an inline SVG: one line per agent and split (test dashed).
    fn chart(&self) -> String {
        if self.iterations.is_empty() {
            return String::new();
        }
        let (w, h, pad) = (480.0, 200.0, 30.0);
        let n = self.iterations.len().max(2) - 1;
        let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / n as f64;
        let y = |r: f64| h - pad - (h - 2.0 * pad) * r;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\" \
             aria-label=\"training and test pass rates per iteration\">\n\
             <line x1=\"{pad}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\"/>\n",
            y(0.0),
            w - pad,
            y(0.0)
        );
        let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
        for (k, agent) in self.agents.iter().enumerate() {
            let colour = colours[k % colours.len()];
            for (split, dash) in [(SplitName::Train, ""), (SplitName::Test, " stroke-dasharray=\"4 3\"")] {
                let points: Vec<String> = self
                    .iterations
                    .iter()
                    .enumerate()
                    .filter_map(|(i, it)| {
                        let a = it.agents.iter().find(|a| &a.agent == agent)?;
                        let s = if split == SplitName::Train { &a.train } else { &a.test };
                        let r = if s.total == 0 { 0.0 } else { f64::from(s.passed) / f64::from(s.total) };
                        Some(format!("{:.1},{:.1}", x(i), y(r)))
                    })
                    .collect();
                out.push_str(&format!(
                    "<polyline fill=\"none\" stroke=\"{colour}\"{dash} points=\"{}\"><title>{} {}</title></polyline>\n",
                    points.join(" "),
                    html(agent),
                    if split == SplitName::Train { "train" } else { "test" }
                ));
            }
        }
        out.push_str("</svg>\n<p>Solid: training pass rate; dashed: test pass rate; one colour per agent.</p>\n");
        out
    }

    /// JUnit XML: one test suite per target, one test case per query, judged on the best
    /// iteration (none: every case fails), the case's class name its split.
    pub fn junit(&self) -> String {
        use super::report::xml;
        let best = self.best.as_ref().and_then(|b| self.iterations.iter().find(|i| i.iteration == b.iteration));
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let cases = self.split.train.len() + self.split.test.len();
        let failures: usize = match best {
            Some(b) => b.agents.iter().map(|a| a.queries.iter().filter(|q| !q.pass).count()).sum(),
            None => cases * self.agents.len(),
        };
        out.push_str(&format!(
            "<testsuites name=\"skillkit eval optimize\" tests=\"{}\" failures=\"{failures}\">\n",
            cases * self.agents.len()
        ));
        for agent in &self.agents {
            let result = best.and_then(|b| b.agents.iter().find(|a| &a.agent == agent));
            let fails = result.map_or(cases, |a| a.queries.iter().filter(|q| !q.pass).count());
            out.push_str(&format!(
                "  <testsuite name=\"{}\" tests=\"{cases}\" failures=\"{fails}\">\n",
                xml(&format!("{} / {}", self.skill, agent))
            ));
            let ids =
                self.split.train.iter().map(|id| ("train", id)).chain(self.split.test.iter().map(|id| ("test", id)));
            for (split, id) in ids {
                out.push_str(&format!("    <testcase classname=\"{split}\" name=\"{}\"", xml(id)));
                match result.and_then(|a| a.queries.iter().find(|q| &q.id == id)) {
                    Some(q) if q.pass => out.push_str("/>\n"),
                    Some(q) => out.push_str(&format!(
                        ">\n      <failure message=\"{} {} of {} runs; it should {}trigger\"/>\n    </testcase>\n",
                        xml(&self.skill),
                        q.triggered,
                        q.runs,
                        if q.should_trigger { "" } else { "not " }
                    )),
                    None => out.push_str(">\n      <failure message=\"no eligible description\"/>\n    </testcase>\n"),
                }
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
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
