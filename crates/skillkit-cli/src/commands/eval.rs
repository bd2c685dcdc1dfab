//! `skillkit eval`: runs a trigger suite against a model and prints the report. The suite, the
//! requests, the judging and the counts are the engine's (`skillkit::eval`); this file reads the
//! arguments and the key, and renders.

use super::eval_input::{load_suite, number, progress_bar};
use crate::provider::ProviderArgs;
use crate::render::one_line;
use crate::render::session::thousands;
use clap::Args;
use skillkit::eval::{Options, Report};
use skillkit::model::Cancel;
use skillkit::syntax::shown::Lines;
use std::io::Write;
use std::path::PathBuf;

pub use super::eval_input::{EvalFormat, INTERRUPTED};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct EvalArgs {
    #[command(subcommand)]
    pub action: Option<EvalAction>,
    /// The suite: YAML (`agent`, `sources`, `cases: [{id, query, expect}]`) or skill-creator's
    /// JSON list (`[{"query", "should_trigger"}]`, with --skill).
    #[arg(required = true)]
    pub suite: Option<PathBuf>,
    /// The agent whose prompt and skill tools the model sees (default: the suite's `agent`).
    #[arg(long)]
    pub agent: Option<String>,
    /// Skill sources, lowest priority first (default: the suite's `sources`, else the current folder).
    #[arg(long = "source")]
    pub sources: Vec<PathBuf>,
    /// The skill a skill-creator list is for (its `should_trigger: true` queries expect it).
    #[arg(long)]
    pub skill: Option<String>,
    #[command(flatten)]
    pub model: ProviderArgs,
    /// Times each case is asked (1 to 100).
    #[arg(long, default_value_t = skillkit_api::settings::DEFAULT_RUNS)]
    pub runs: u32,
    /// Requests in flight at most (1 to 32).
    #[arg(long, default_value_t = skillkit_api::settings::DEFAULT_CONCURRENCY)]
    pub concurrency: u32,
    /// Exit 1 when the suite's precision is below this (0 to 1).
    #[arg(long)]
    pub min_precision: Option<f64>,
    /// Exit 1 when the suite's recall is below this (0 to 1).
    #[arg(long)]
    pub min_recall: Option<f64>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: EvalFormat,
}

/// What `skillkit eval` does besides running a suite.
#[derive(clap::Subcommand, Debug)]
pub enum EvalAction {
    /// Improve a skill's description against a suite: a stratified, seeded train/test split,
    /// an improver model that sees the training results only, every candidate measured under
    /// every target agent's exact prompt; the pick is the best test score among the candidates
    /// every target lists whole. Exit 0, 1 when no candidate is eligible, 2 on usage or provider
    /// errors, 130 when interrupted (after the report of the completed iterations).
    Optimize(Box<crate::commands::eval_optimize::OptimizeArgs>),
    /// Ask the model for should-trigger queries and near misses for a skill, written as a suite
    /// to review before any run.
    Draft(Box<crate::commands::eval_optimize::DraftArgs>),
}

pub fn eval(args: EvalArgs, cancel: &Cancel, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    match args.action {
        Some(EvalAction::Optimize(a)) => return crate::commands::eval_optimize::optimize(*a, cancel, out, err),
        Some(EvalAction::Draft(a)) => return crate::commands::eval_optimize::draft(*a, cancel, out, err),
        None => {}
    }
    let Some(suite_path) = args.suite.clone() else {
        writeln!(err, "error: which suite? skillkit eval SUITE (or eval optimize, eval draft)")?;
        return Ok(2);
    };
    let (suite, sources) = match load_suite(&suite_path, args.skill.as_deref(), &args.sources, err)? {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let Some(agent_id) = args.agent.clone().or_else(|| suite.agent.clone()) else {
        writeln!(err, "error: which agent? pass --agent NAME or set `agent` in the suite")?;
        return Ok(2);
    };
    let agent = match skillkit_api::resolve::agent(&agent_id) {
        Ok(agent) => agent,
        Err(e) => {
            writeln!(err, "{e}")?;
            return Ok(2);
        }
    };
    let library = skillkit::library::Library::for_agent(&sources, agent);
    for s in library.sources.iter().filter(|s| !s.exists) {
        writeln!(err, "warning: source {} does not exist", one_line(&s.path.display().to_string()))?;
    }
    let checked = args.model.settings(args.runs, args.concurrency).check();
    let (config, provider) = match checked.and_then(|()| args.model.build()) {
        Ok(p) => p,
        Err(e) => {
            writeln!(err, "{e}")?;
            return Ok(2);
        }
    };
    let bar = progress_bar(suite.cases.len() as u64 * args.runs.max(1) as u64);
    let progress = |done: usize, _total: usize| bar.set_position(done as u64);
    let run_options = Options { runs: args.runs, concurrency: args.concurrency as usize };
    let result = skillkit::eval::run_library(
        agent,
        &library,
        &suite,
        provider.as_ref(),
        &config,
        &run_options,
        cancel,
        &progress,
    );
    bar.finish_and_clear();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    match args.format {
        EvalFormat::Text => render_text(&report, out)?,
        EvalFormat::Json => {
            serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), &report)?;
            writeln!(out)?;
        }
        EvalFormat::Junit => out.write_all(report.junit().as_bytes())?,
    }
    if report.cancelled {
        writeln!(err, "interrupted: the report covers the completed runs only")?;
        return Ok(INTERRUPTED);
    }
    let below = |min: Option<f64>, got: Option<f64>| min.is_some_and(|m| got.is_none_or(|g| g < m));
    let mut code = 0;
    if below(args.min_precision, report.summary.precision) {
        writeln!(
            err,
            "precision {} is below --min-precision {}",
            number(report.summary.precision),
            args.min_precision.unwrap_or(0.0)
        )?;
        code = 1;
    }
    if below(args.min_recall, report.summary.recall) {
        writeln!(
            err,
            "recall {} is below --min-recall {}",
            number(report.summary.recall),
            args.min_recall.unwrap_or(0.0)
        )?;
        code = 1;
    }
    Ok(code)
}

fn render_text(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    // The ids, the skill names and what the model activated are the suite's, the library's and
    // the model's: each shown on one line, before it is padded.
    let out = &mut Lines::new(out);
    let got = |activated: &std::collections::BTreeMap<String, u32>, runs: Option<u32>| -> Vec<String> {
        activated
            .iter()
            .map(|(k, v)| match runs {
                Some(runs) => format!("{} {v}/{runs}", one_line(k)),
                None => format!("{} {v}", one_line(k)),
            })
            .collect()
    };
    writeln!(
        out,
        "{} · {} · {} · {} run(s) per case",
        one_line(&r.agent),
        one_line(&r.provider),
        one_line(&r.model),
        r.runs
    )?;
    let id_width = r.cases.iter().map(|c| one_line(&c.id).chars().count()).max().unwrap_or(2).max(4);
    let expect_width = r.cases.iter().map(|c| one_line(&c.expect).chars().count()).max().unwrap_or(4).max(6);
    writeln!(out)?;
    for c in &r.cases {
        let got = got(&c.activated, Some(c.runs));
        writeln!(
            out,
            "{} {:<id_width$}  expect {:<expect_width$}  got {}",
            if c.pass { "pass" } else { "FAIL" },
            one_line(&c.id),
            one_line(&c.expect),
            if got.is_empty() { "nothing (not run)".to_string() } else { got.join(", ") }
        )?;
    }
    if !r.skills.is_empty() {
        writeln!(out)?;
        for s in &r.skills {
            write!(
                out,
                "{}: precision {}, recall {}, F1 {} (tp {}, fp {}, fn {})",
                one_line(&s.name),
                number(s.precision),
                number(s.recall),
                number(s.f1),
                s.tp,
                s.fp,
                s.fn_
            )?;
            if !s.confusions.is_empty() {
                write!(out, "; its queries went to: {}", got(&s.confusions, None).join(", "))?;
            }
            writeln!(out)?;
        }
    }
    // The confusion table's skill-to-skill cells: which skill's queries another one took.
    let taken: Vec<_> = r.confusion.iter().filter(|c| c.is_between_skills()).collect();
    if !taken.is_empty() {
        writeln!(out)?;
        writeln!(out, "queries taken by another skill under {}:", one_line(&r.agent))?;
        for c in taken {
            writeln!(out, "  {}'s queries taken by {} ({})", one_line(&c.expected), one_line(&c.took), c.count)?;
        }
    }
    let m = &r.summary;
    writeln!(out)?;
    writeln!(
        out,
        "precision {} · recall {} · accuracy {} · {} requests · {} input tokens · {} output tokens",
        number(m.precision),
        number(m.recall),
        number(m.accuracy),
        thousands(m.requests),
        thousands(m.input_tokens),
        thousands(m.output_tokens)
    )?;
    out.finish()
}
