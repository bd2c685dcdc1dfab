//! What an optimization is asked and what it reports: the options, the errors, the per-query,
//! per-agent and per-iteration results, the stop and the pick.

use crate::agent::Agent;
use crate::eval::run::EvalError;
use crate::eval::suite::Suite;
use crate::model::ProviderConfig;
use crate::prompt::Decision;
use serde::Serialize;
use std::path::PathBuf;

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
    pub(super) fn of<'a>(results: impl Iterator<Item = &'a QueryResult>) -> Scores {
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

/// Requests and tokens.
pub(super) type Totals = (u64, u64, u64);

/// The stop of a cancelled optimization.
pub(super) fn cancelled() -> Stop {
    Stop {
        reason: StopReason::Cancelled,
        message: "cancelled: the report keeps the iterations measured in full".into(),
    }
}

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
