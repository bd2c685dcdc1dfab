//! The `skillkit` command line: argument parsing and output only. Every answer comes from the
//! `skillkit` engine; this crate turns arguments into engine calls and results into text, JSON,
//! SARIF or GitHub annotations.

use clap::{Parser, Subcommand, ValueEnum};
use skillkit::check::check_paths;
use skillkit::{find_agent, AGENTS};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

pub mod render;

#[derive(Parser)]
#[command(name = "skillkit", version, about = "Check, explain and preview Agent Skills (SKILL.md folders).")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum Format {
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum RulesFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Lint skills: a skill folder, a SKILL.md, or a folder searched for skills.
    Check {
        /// Skill folders, SKILL.md files, or folders to search (default: the current folder).
        paths: Vec<PathBuf>,
        /// The agent whose rules apply: spec (default) or agentskills (as strict as skills-ref).
        #[arg(long, default_value = "spec")]
        agent: String,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Count warnings as errors for the exit code.
        #[arg(long)]
        strict: bool,
        #[arg(long, value_enum, default_value = "auto")]
        color: Color,
    },
    /// List the lint rules.
    Rules {
        #[arg(long, value_enum, default_value = "text")]
        format: RulesFormat,
    },
    /// Show a rule's documentation, by code (SK201) or name (name-missing).
    Explain { rule: String },
    /// Print the frontmatter JSON Schema.
    Schema,
    /// List the agent profiles.
    Agents,
}

/// Run the CLI; returns the process exit code (0 ok, 1 findings, 2 usage or I/O failure).
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            let _ = if e.use_stderr() { err.write_all(text.as_bytes()) } else { out.write_all(text.as_bytes()) };
            return code;
        }
    };
    let result = match cli.command {
        Command::Check { paths, agent, format, strict, color } => check(paths, &agent, format, strict, color, out, err),
        Command::Rules { format } => rules(format, out).map(|_| 0),
        Command::Explain { rule } => match skillkit::rules::find_rule(&rule) {
            Some(r) => write!(out, "{}", skillkit::docs::rule_page(r.meta())).map(|_| 0),
            None => writeln!(err, "error: no rule `{rule}`; `skillkit rules` lists them").map(|_| 2),
        },
        Command::Schema => out.write_all(skillkit::schema::SCHEMA_JSON.as_bytes()).map(|_| 0),
        Command::Agents => {
            AGENTS.iter().try_for_each(|a| writeln!(out, "{:<12} {} ({})", a.id, a.title, a.source)).map(|_| 0)
        }
    };
    result.unwrap_or(2)
}

fn check(
    paths: Vec<PathBuf>,
    agent: &str,
    format: Format,
    strict: bool,
    color: Color,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let Some(agent) = find_agent(agent) else {
        let known: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
        writeln!(err, "error: unknown agent `{agent}`; known agents: {}", known.join(", "))?;
        return Ok(2);
    };
    let paths = if paths.is_empty() { vec![PathBuf::from(".")] } else { paths };
    let run = match check_paths(&paths, agent) {
        Ok(r) => r,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let display = |p: &Path| render::display_path(p, &cwd);
    for issue in &run.issues {
        writeln!(err, "warning: {}: {}", display(&issue.path), issue.message)?;
    }
    let color = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            format == Format::Text && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    match format {
        Format::Text => render::text::render(&run, agent, &display, color, out)?,
        Format::Json => render::json::render(&run, agent, &display, out)?,
        Format::Sarif => render::sarif::render(&run, agent, &display, out)?,
        Format::Github => render::github::render(&run, &display, out)?,
    }
    let s = run.summary();
    Ok(if s.errors > 0 || (strict && s.warnings > 0) { 1 } else { 0 })
}

fn rules(format: RulesFormat, out: &mut dyn Write) -> std::io::Result<()> {
    use skillkit::rules::RULES;
    match format {
        RulesFormat::Markdown => write!(out, "{}", skillkit::docs::rule_table()),
        RulesFormat::Text => {
            for r in RULES {
                let m = r.meta();
                writeln!(out, "{}  {:<32} {:<8} {}", m.code, m.name, m.severity.as_str(), m.summary())?;
            }
            Ok(())
        }
        RulesFormat::Json => {
            let list: Vec<_> = RULES
                .iter()
                .map(|r| {
                    let m = r.meta();
                    serde_json::json!({"code": m.code, "name": m.name, "group": m.group.title(), "severity": m.severity, "summary": m.summary(), "docs": m.docs_path()})
                })
                .collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&list).unwrap())
        }
    }
}
