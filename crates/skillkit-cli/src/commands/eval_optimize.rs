//! `skillkit eval optimize` and `skillkit eval draft`: the loop, the split, the improver, the
//! pick, the drafted queries and the save are the engine's (`skillkit::eval::optimize`,
//! `skillkit::eval::draft`); this file reads the arguments and renders.

use super::eval_input::{load_suite, number, progress_bar, EvalFormat, INTERRUPTED};
use crate::provider::ProviderArgs;
use crate::render::one_line;
use crate::render::session::thousands;
use clap::Args;
use skillkit::eval::optimize::{Change, OptimizeOptions, OptimizeReport, Scores, StopReason};
use skillkit::model::Cancel;
use skillkit::syntax::shown::Lines;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct OptimizeArgs {
    /// The suite (YAML, or skill-creator's JSON list): the skill's should-trigger queries expect
    /// it, the others are its should-not queries.
    pub suite: PathBuf,
    /// The skill whose description is optimized.
    #[arg(long)]
    pub skill: String,
    /// A target agent; repeat for several (default: the suite's `agent`). Each candidate is
    /// measured under each one's exact prompt and skill tools.
    #[arg(long = "agent")]
    pub agents: Vec<String>,
    /// Skill sources, lowest priority first (default: the suite's `sources`, else the current folder).
    #[arg(long = "source")]
    pub sources: Vec<PathBuf>,
    #[command(flatten)]
    pub model: ProviderArgs,
    /// The improver's model, on the same provider (default: --model).
    #[arg(long)]
    pub improver_model: Option<String>,
    /// Times each query is asked per candidate and agent (1 to 100).
    #[arg(long, default_value_t = skillkit_api::settings::DEFAULT_RUNS)]
    pub runs: u32,
    /// Requests in flight at most (1 to 32).
    #[arg(long, default_value_t = skillkit_api::settings::DEFAULT_CONCURRENCY)]
    pub concurrency: u32,
    /// The share of a query's runs that must activate the skill for it to count as triggered.
    #[arg(long, default_value_t = 0.5)]
    pub threshold: f64,
    /// Improvements asked for at most.
    #[arg(long, default_value_t = 5)]
    pub iterations: u32,
    /// The share of each class held out for the test split.
    #[arg(long, default_value_t = 0.4)]
    pub holdout: f64,
    /// The split's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[arg(long, value_enum, default_value = "text")]
    pub format: EvalFormat,
    /// Write the report to FILE instead of standard output, and an HTML report next to it
    /// (FILE with the extension .html).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Save the best description in the skill's SKILL.md (only the `description` value changes).
    #[arg(long)]
    pub write: bool,
}

/// The most improvements one run may ask for.
const MAX_ITERATIONS: u32 = 50;

pub fn optimize(args: OptimizeArgs, cancel: &Cancel, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    let (suite, sources) = match load_suite(&args.suite, Some(&args.skill), &args.sources, err)? {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let ids: Vec<String> =
        if args.agents.is_empty() { suite.agent.iter().cloned().collect() } else { args.agents.clone() };
    if ids.is_empty() {
        writeln!(err, "error: which agents? pass --agent NAME (repeat for several) or set `agent` in the suite")?;
        return Ok(2);
    }
    let mut agents = vec![];
    for id in &ids {
        match skillkit_api::resolve::agent(id) {
            Ok(a) if !agents.iter().any(|b: &&skillkit::Agent| b.id == a.id) => agents.push(a),
            Ok(_) => {}
            Err(e) => {
                writeln!(err, "{e}")?;
                return Ok(2);
            }
        }
    }
    if args.iterations > MAX_ITERATIONS {
        writeln!(err, "error: --iterations {}: at most {MAX_ITERATIONS}", args.iterations)?;
        return Ok(2);
    }
    let checked = args.model.settings(args.runs, args.concurrency).check();
    let (config, provider) = match checked.and_then(|()| args.model.build()) {
        Ok(p) => p,
        Err(e) => {
            writeln!(err, "{e}")?;
            return Ok(2);
        }
    };
    let mut improver = config.clone();
    if let Some(m) = args.improver_model.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        improver.model = m.to_string();
    }
    let options = OptimizeOptions {
        runs: args.runs,
        concurrency: args.concurrency as usize,
        threshold: args.threshold,
        iterations: args.iterations,
        holdout: args.holdout,
        seed: args.seed,
    };
    let o = skillkit::eval::optimize::Optimization {
        skill: &args.skill,
        agents: &agents,
        sources: &sources,
        suite: &suite,
        eval: &config,
        improver: &improver,
        options,
    };
    let bar = progress_bar(0);
    let progress = |p: skillkit::eval::optimize::OptimizeProgress| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
        bar.set_message(format!("iteration {}", p.iteration));
    };
    let result = skillkit::eval::optimize::optimize(&o, provider.as_ref(), cancel, &progress);
    bar.finish_and_clear();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    let rendered = match args.format {
        EvalFormat::Text => {
            let mut buf = vec![];
            render_text(&report, &mut buf)?;
            buf
        }
        EvalFormat::Json => {
            let mut buf = vec![];
            serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut buf), &report)?;
            buf.push(b'\n');
            buf
        }
        EvalFormat::Junit => report.junit().into_bytes(),
    };
    match &args.output {
        Some(path) => {
            let html = html_path(path);
            let folder = path.parent().unwrap_or(Path::new("."));
            for (file, bytes) in [(path.as_path(), rendered.as_slice()), (html.as_path(), report.html().as_bytes())] {
                if let Err(e) = skillkit::files::save(file, bytes, folder) {
                    writeln!(err, "error: {} was not written: {e}", one_line(&file.display().to_string()))?;
                    return Ok(2);
                }
            }
        }
        None => out.write_all(&rendered)?,
    }
    match report.stop.reason {
        StopReason::Cancelled => {
            writeln!(err, "interrupted: the report covers the completed iterations only; nothing was written")?;
            return Ok(INTERRUPTED);
        }
        StopReason::Error => {
            writeln!(err, "error: {}", one_line(&report.stop.message))?;
            return Ok(2);
        }
        _ => {}
    }
    let Some(best) = &report.best else {
        writeln!(err, "no candidate description is within every target's limits")?;
        return Ok(1);
    };
    if args.write {
        let saved = report.iterations.first().map(|i| i.description.as_str());
        if saved == Some(best.description.as_str()) {
            writeln!(err, "the saved description is the best: nothing written")?;
        } else {
            let library = skillkit::library::Library::for_agent(&sources, agents[0]);
            let written = skillkit::eval::optimize::skill_file(&library, &args.skill)
                .map_err(|e| e.to_string())
                .and_then(|(path, _)| {
                    skillkit::eval::optimize::write_description(&path, &best.description)
                        .map(|_| path)
                        .map_err(|e| e.to_string())
                });
            match written {
                Ok(path) => writeln!(
                    err,
                    "wrote the description of iteration {} to {}",
                    best.iteration,
                    one_line(&path.display().to_string())
                )?,
                Err(e) => {
                    writeln!(err, "error: {}", one_line(&e))?;
                    return Ok(2);
                }
            }
        }
    }
    Ok(0)
}

/// The HTML report's path: `path` with the extension `.html` (`.report.html` when it has it).
fn html_path(path: &Path) -> PathBuf {
    let html = path.with_extension("html");
    if html == path {
        path.with_extension("report.html")
    } else {
        html
    }
}

fn scores(s: &Scores) -> String {
    format!(
        "{}/{} (recall {}, false triggers {}, precision {}, F1 {})",
        s.passed,
        s.total,
        number(s.recall),
        number(s.false_trigger_rate),
        number(s.precision),
        number(s.f1)
    )
}

fn render_text(r: &OptimizeReport, out: &mut dyn Write) -> std::io::Result<()> {
    // The descriptions, ids and names are the models', the suite's and the library's: each shown
    // on one line.
    let out = &mut Lines::new(out);
    writeln!(
        out,
        "{} · {} · {} · {} (improver {}) · {} run(s) per query, triggered at {}",
        one_line(&r.skill),
        one_line(&r.agents.join(", ")),
        one_line(&r.provider),
        one_line(&r.model),
        one_line(&r.improver_model),
        r.runs,
        r.threshold
    )?;
    let ids = |v: &[String]| v.iter().map(|s| one_line(s).into_owned()).collect::<Vec<_>>().join(", ");
    writeln!(out, "train ({}): {}", r.split.train.len(), ids(&r.split.train))?;
    writeln!(out, "test ({}): {}", r.split.test.len(), ids(&r.split.test))?;
    let width = r.agents.iter().map(|a| one_line(a).chars().count()).max().unwrap_or(0);
    for it in &r.iterations {
        writeln!(out)?;
        writeln!(out, "iteration {} · {} characters", it.iteration, it.chars)?;
        writeln!(out, "  {}", one_line(&it.description))?;
        if !it.diff.is_empty() {
            let parts: Vec<String> = it
                .diff
                .iter()
                .filter_map(|c| match c {
                    Change::Same(_) => None,
                    Change::Added(t) => Some(format!("+[{}]", one_line(t))),
                    Change::Removed(t) => Some(format!("-[{}]", one_line(t))),
                })
                .collect();
            writeln!(out, "  changes: {}", parts.join(" "))?;
        }
        for l in &it.limits {
            writeln!(out, "  not eligible: {}", one_line(l))?;
        }
        for a in &it.agents {
            writeln!(out, "  {:<width$}  train {}", one_line(&a.agent), scores(&a.train))?;
            writeln!(out, "  {:<width$}  test  {}", "", scores(&a.test))?;
        }
    }
    writeln!(out)?;
    writeln!(out, "stopped: {}", one_line(&r.stop.message))?;
    match &r.best {
        Some(b) => {
            writeln!(out, "best: iteration {} ({} characters)", b.iteration, b.description.chars().count())?;
            writeln!(out, "  {}", one_line(&b.description))?;
        }
        None => writeln!(out, "best: none (no candidate is within every target's limits)")?,
    }
    writeln!(
        out,
        "{} requests · {} input tokens · {} output tokens",
        thousands(r.requests),
        thousands(r.input_tokens),
        thousands(r.output_tokens)
    )?;
    out.finish()
}

#[derive(Args, Debug)]
pub struct DraftArgs {
    /// The skill the queries are for.
    #[arg(long)]
    pub skill: String,
    /// Skill sources, lowest priority first (default: the current folder).
    #[arg(long = "source")]
    pub sources: Vec<PathBuf>,
    /// The agent whose discovery finds the skills (default: claude-code); written in the suite
    /// when given.
    #[arg(long)]
    pub agent: Option<String>,
    /// Queries asked for: half should trigger, half are near misses (2 to 200).
    #[arg(long, default_value_t = 20)]
    pub count: u32,
    #[command(flatten)]
    pub model: ProviderArgs,
    /// Where the suite is written (default: the skill's evals/triggers.yaml).
    #[arg(long, short = 'o', value_name = "SUITE")]
    pub output: Option<PathBuf>,
    /// Replace the file when it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn draft(args: DraftArgs, cancel: &Cancel, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    let agent = match skillkit_api::resolve::agent(args.agent.as_deref().unwrap_or("claude-code")) {
        Ok(a) => a,
        Err(e) => {
            writeln!(err, "{e}")?;
            return Ok(2);
        }
    };
    let sources = if args.sources.is_empty() { vec![PathBuf::from(".")] } else { args.sources.clone() };
    let library = skillkit::library::Library::for_agent(&sources, agent);
    for s in library.sources.iter().filter(|s| !s.exists) {
        writeln!(err, "warning: source {} does not exist", one_line(&s.path.display().to_string()))?;
    }
    let skill_path = match skillkit::eval::optimize::skill_file(&library, &args.skill) {
        Ok((path, _)) => path,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    let target = match &args.output {
        Some(p) => p.clone(),
        None => skill_path.parent().unwrap_or(Path::new(".")).join(skillkit::eval::DEFAULT_PATH),
    };
    let shown = one_line(&target.display().to_string()).into_owned();
    if !args.force && std::fs::symlink_metadata(&target).is_ok() {
        writeln!(err, "error: {shown} exists: pass --force to replace it")?;
        return Ok(2);
    }
    let checked = args.model.settings(skillkit_api::settings::DEFAULT_RUNS, 1).check();
    let (config, provider) = match checked.and_then(|()| args.model.build()) {
        Ok(p) => p,
        Err(e) => {
            writeln!(err, "{e}")?;
            return Ok(2);
        }
    };
    let cases =
        match skillkit::eval::draft::draft(&args.skill, &library, args.count, provider.as_ref(), &config, cancel) {
            Ok(c) => c,
            Err(e) => {
                writeln!(err, "error: {}", one_line(&e.to_string()))?;
                return Ok(2);
            }
        };
    let should = cases.iter().filter(|c| c.expect == args.skill).count();
    let suite = skillkit::eval::draft::suite_for(cases, &target, &sources, args.agent.as_deref());
    let folder = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Err(e) = std::fs::create_dir_all(folder) {
        writeln!(err, "error: {} cannot be created: {e}", one_line(&folder.display().to_string()))?;
        return Ok(2);
    }
    if let Err(e) = skillkit::files::save(&target, suite.to_yaml().as_bytes(), folder) {
        writeln!(err, "error: {shown} was not written: {e}")?;
        return Ok(2);
    }
    writeln!(
        out,
        "wrote {} queries ({should} should trigger, {} near misses) to {shown}: review them before a run",
        suite.cases.len(),
        suite.cases.len() - should
    )?;
    Ok(0)
}
