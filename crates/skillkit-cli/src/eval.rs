//! `skillkit eval`: runs a trigger suite against a model and prints the report. The suite, the
//! requests, the judging and the counts are the engine's (`skillkit::eval`); this file reads the
//! arguments and the key, and renders.

use clap::{Args, ValueEnum};
use skillkit::eval::{Options, Report, Suite};
use skillkit::model::{Cancel, Provider, ProviderConfig, ProviderKind};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum EvalFormat {
    Text,
    Json,
    Junit,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum ProviderArg {
    /// The OpenAI-compatible Chat Completions API (OpenAI, Ollama, vLLM, llama.cpp, LM Studio,
    /// OpenRouter, …).
    Openai,
    /// The Anthropic Messages API.
    Anthropic,
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The suite: YAML (`agent`, `sources`, `cases: [{id, query, expect}]`) or skill-creator's
    /// JSON list (`[{"query", "should_trigger"}]`, with --skill).
    pub suite: PathBuf,
    /// The agent whose prompt and skill tools the model sees (default: the suite's `agent`).
    #[arg(long)]
    pub agent: Option<String>,
    /// Skill sources, lowest priority first (default: the suite's `sources`, else the current folder).
    #[arg(long = "source")]
    pub sources: Vec<PathBuf>,
    /// The skill a skill-creator list is for (its `should_trigger: true` queries expect it).
    #[arg(long)]
    pub skill: Option<String>,
    #[arg(long, value_enum)]
    pub provider: ProviderArg,
    /// The API's base URL (default: the provider's own, e.g. https://api.openai.com/v1).
    #[arg(long)]
    pub base_url: Option<String>,
    #[arg(long)]
    pub model: String,
    /// The environment variable holding the API key (default: OPENAI_API_KEY or ANTHROPIC_API_KEY).
    #[arg(long)]
    pub api_key_env: Option<String>,
    /// Times each case is asked.
    #[arg(long, default_value_t = 3)]
    pub runs: u32,
    /// Requests in flight at most.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// Seconds one request may take.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
    #[arg(long)]
    pub temperature: Option<f32>,
    #[arg(long, default_value_t = 1024)]
    pub max_tokens: u32,
    /// Store every request and reply in DIR, keyed by a hash of the request.
    #[arg(long, value_name = "DIR", conflicts_with = "replay")]
    pub record: Option<PathBuf>,
    /// Answer from the replies stored in DIR (no network; a request not stored is an error).
    #[arg(long, value_name = "DIR")]
    pub replay: Option<PathBuf>,
    /// Exit 1 when the suite's precision is below this (0 to 1).
    #[arg(long)]
    pub min_precision: Option<f64>,
    /// Exit 1 when the suite's recall is below this (0 to 1).
    #[arg(long)]
    pub min_recall: Option<f64>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: EvalFormat,
}

/// The exit code after Ctrl+C: the report of the completed runs is printed first.
pub const INTERRUPTED: i32 = 130;

pub fn eval(args: EvalArgs, cancel: &Cancel, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    let shown = args.suite.display().to_string();
    let text = match std::fs::read(&args.suite).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(e)) => {
            writeln!(err, "{shown}: error: not UTF-8 (byte {})", e.utf8_error().valid_up_to())?;
            return Ok(2);
        }
        Err(e) => {
            writeln!(err, "{shown}: error: cannot read: {e}")?;
            return Ok(2);
        }
    };
    let suite: Suite = match skillkit::eval::suite::parse(&text, args.skill.as_deref()) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                writeln!(err, "{shown}:{}:{}: error: {}", e.line, e.column, e.message)?;
            }
            return Ok(2);
        }
    };
    let Some(agent_id) = args.agent.clone().or_else(|| suite.agent.clone()) else {
        writeln!(err, "error: which agent? pass --agent NAME or set `agent` in the suite")?;
        return Ok(2);
    };
    let Some(agent) = skillkit::find_agent(&agent_id) else {
        writeln!(err, "error: {}", skillkit::agents::unknown_agent(&agent_id))?;
        return Ok(2);
    };
    let sources = if !args.sources.is_empty() {
        args.sources.clone()
    } else if !suite.sources.is_empty() {
        suite.source_paths(skillkit::session_script::folder_of(&args.suite))
    } else {
        vec![PathBuf::from(".")]
    };
    let library = skillkit::library::Library::open(&sources, agent);
    for s in library.sources.iter().filter(|s| !s.exists) {
        writeln!(err, "warning: source {} does not exist", s.path.display())?;
    }
    let kind = match args.provider {
        ProviderArg::Openai => ProviderKind::OpenAi,
        ProviderArg::Anthropic => ProviderKind::Anthropic,
    };
    let mut config = ProviderConfig::new(kind, &args.model);
    config.base_url = args.base_url.clone();
    config.temperature = args.temperature;
    config.max_tokens = args.max_tokens;
    config.timeout = Duration::from_secs(args.timeout.max(1));
    let key_env = args.api_key_env.clone().unwrap_or_else(|| kind.key_env().to_string());
    config.api_key = match skillkit::model::choose_key(None, &key_env, args.base_url.as_deref()) {
        Ok((key, _)) => key,
        // Replies replayed from disk need no key.
        Err(_) if args.replay.is_some() => None,
        Err(_) => {
            writeln!(
                err,
                "error: no API key: set {key_env} (or name another variable with --api-key-env); a local server needs --base-url"
            )?;
            return Ok(2);
        }
    };
    let provider: Box<dyn Provider> = match (&args.record, &args.replay) {
        (_, Some(dir)) => Box::new(skillkit::model::Replay::new(dir, kind)),
        (Some(dir), None) => Box::new(skillkit::model::Recording::new(dir, skillkit::model::provider(&config))),
        (None, None) => skillkit::model::provider(&config),
    };
    let bar = progress_bar(suite.cases.len() as u64 * args.runs.max(1) as u64);
    let progress = |done: usize, _total: usize| bar.set_position(done as u64);
    let run_options = Options { runs: args.runs, concurrency: args.concurrency };
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
            serde_json::to_writer_pretty(&mut *out, &report)?;
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

/// A progress bar on standard error when it is a terminal; nothing otherwise.
fn progress_bar(total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} requests {elapsed}") {
        bar.set_style(style);
    }
    bar
}

fn number(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |x| format!("{x:.2}"))
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn render_text(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{} · {} · {} · {} run(s) per case", r.agent, r.provider, r.model, r.runs)?;
    let id_width = r.cases.iter().map(|c| c.id.chars().count()).max().unwrap_or(2).max(4);
    let expect_width = r.cases.iter().map(|c| c.expect.chars().count()).max().unwrap_or(4).max(6);
    writeln!(out)?;
    for c in &r.cases {
        let got: Vec<String> = c.activated.iter().map(|(k, v)| format!("{k} {v}/{}", c.runs)).collect();
        writeln!(
            out,
            "{} {:<id_width$}  expect {:<expect_width$}  got {}",
            if c.pass { "pass" } else { "FAIL" },
            c.id,
            c.expect,
            if got.is_empty() { "nothing (not run)".to_string() } else { got.join(", ") }
        )?;
    }
    if !r.skills.is_empty() {
        writeln!(out)?;
        for s in &r.skills {
            write!(
                out,
                "{}: precision {}, recall {}, F1 {} (tp {}, fp {}, fn {})",
                s.name,
                number(s.precision),
                number(s.recall),
                number(s.f1),
                s.tp,
                s.fp,
                s.fn_
            )?;
            if !s.confusions.is_empty() {
                let took: Vec<String> = s.confusions.iter().map(|(k, v)| format!("{k} {v}")).collect();
                write!(out, "; its queries went to: {}", took.join(", "))?;
            }
            writeln!(out)?;
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
    Ok(())
}
