//! `skillkit pack`, `skillkit verify`, and `skillkit check` on packages (plugins, marketplaces,
//! folders of plugins, upload archives). The packages' rules, the archives and the digests are the
//! engine's (`skillkit::package`); this file reads the arguments and renders.

use crate::render;
use clap::{Args, ValueEnum};
use skillkit::package::digest::{Lock, Verified};
use skillkit::package::pack::{PackError, PackOptions, Target};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum PackTarget {
    /// The upload `.zip` of a skill (Claude.ai, Claude Desktop, Teams, the Claude API); one per
    /// skill of a library, in a folder.
    ClaudeAi,
    /// A Claude Code plugin in a one-plugin marketplace (`.claude-plugin/marketplace.json`).
    ClaudePlugin,
    /// An Agent Plugins 1.0 package (`plugin.json` with its `$schema`, `skills/`).
    AgentPlugin,
    /// A Codex plugin (`.codex-plugin/plugin.json`, `skills/`).
    CodexPlugin,
    /// A `skills-lock.json`: per skill its `computedHash` and each file's size and SHA-256.
    Digest,
    /// `skills-list.json`: the skills as the MCP Skills Extension (SEP-2640) lists them, each
    /// file a `skill://` resource with its SHA-256 `digest`, `size` and `mimeType`.
    McpResources,
}

#[derive(Args, Debug)]
pub struct PackArgs {
    /// A skill folder (or its SKILL.md), or a library folder.
    pub path: PathBuf,
    #[arg(long, value_enum)]
    pub target: PackTarget,
    /// Where to write (default: `<name>.zip`, `<name>-<target>/`, or `skills-lock.json`).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// The plugin's name (default: the skill's, else the library folder's, in kebab-case).
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The installed copy: a folder of skills, or one skill's folder.
    pub path: PathBuf,
    /// The digest lock to check against (`skillkit pack --target digest` writes one).
    #[arg(long, default_value = "skills-lock.json")]
    pub lock: PathBuf,
}

/// `skillkit pack`: exit 0 written, 1 refused (the skill has errors, or the upload would refuse
/// it: its own message), 2 on I/O failure.
pub fn pack(args: PackArgs, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    let target = match args.target {
        PackTarget::ClaudeAi => Target::ClaudeAi,
        PackTarget::ClaudePlugin => Target::ClaudePlugin,
        PackTarget::AgentPlugin => Target::AgentPlugin,
        PackTarget::CodexPlugin => Target::CodexPlugin,
        PackTarget::Digest => Target::Digest,
        PackTarget::McpResources => Target::McpResources,
    };
    let path = match skillkit::check::check_sources(std::slice::from_ref(&args.path)) {
        Ok(mut s) => s.remove(0),
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    match skillkit::package::pack::pack(&path, &PackOptions { target, out: args.out, name: args.name }) {
        Ok(p) => {
            let s = if p.skills.len() == 1 { "" } else { "s" };
            writeln!(
                out,
                "wrote {} ({} file{}, {} bytes): {} skill{s}: {}",
                p.out.display(),
                p.files,
                if p.files == 1 { "" } else { "s" },
                p.bytes,
                p.skills.len(),
                p.skills.iter().map(|n| render::one_line(n).into_owned()).collect::<Vec<_>>().join(", ")
            )?;
            Ok(0)
        }
        Err(PackError::Refused { skill, findings }) => {
            for f in &findings {
                writeln!(err, "error[{}]: {}", f.rule.code, f.message)?;
                writeln!(err, "  --> {}", skill.display())?;
                writeln!(err, "  = help: {}", render::one_line(&f.help))?;
            }
            writeln!(err, "not packed: the upload would refuse this archive")?;
            Ok(1)
        }
        Err(e @ (PackError::Invalid(_) | PackError::NoSkill(_))) => {
            writeln!(err, "error: {e}")?;
            Ok(1)
        }
        Err(e) => {
            writeln!(err, "error: {e}")?;
            Ok(2)
        }
    }
}

/// `skillkit verify`: exit 0 when every skill of the lock is installed unchanged, 1 otherwise, 2
/// when the lock cannot be read.
pub fn verify(args: VerifyArgs, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    let text = match skillkit::files::read_text(&args.lock, skillkit::files::MAX_BYTES) {
        Ok(t) => t,
        Err(e) => {
            writeln!(err, "error: {}: {}", args.lock.display(), skillkit::files::reason(&e))?;
            return Ok(2);
        }
    };
    let lock = match Lock::parse(&text) {
        Ok(l) => l,
        Err(e) => {
            writeln!(err, "error: {}: not a skills lock: {e}", args.lock.display())?;
            return Ok(2);
        }
    };
    let results = skillkit::package::digest::verify(&lock, &args.path);
    let mut bad = 0;
    for v in &results {
        bad += usize::from(!v.ok());
        print_verified(v, out)?;
    }
    let n = results.len();
    writeln!(out, "{} of {n} skill{} as locked", n - bad, if n == 1 { "" } else { "s" })?;
    Ok(if bad == 0 { 0 } else { 1 })
}

fn print_verified(v: &Verified, out: &mut dyn Write) -> std::io::Result<()> {
    let name = render::one_line(&v.name);
    let Some(dir) = &v.dir else {
        return writeln!(out, "missing  {name}: not installed");
    };
    if let Some(e) = &v.error {
        return writeln!(out, "error    {name}: {}", render::one_line(e));
    }
    if v.ok() {
        return writeln!(out, "ok       {name} ({})", dir.display());
    }
    writeln!(out, "changed  {name} ({})", dir.display())?;
    for (what, list) in [("changed", &v.changed), ("missing", &v.missing), ("extra", &v.extra)] {
        for p in list.iter() {
            writeln!(out, "  {what}: {}", render::one_line(p))?;
        }
    }
    Ok(())
}

/// The output formats of `check` (its `--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Text,
    Json,
    Sarif,
    Github,
}

/// How `check` reports packages: `--package`, `--format`, `--strict`, colour.
#[derive(Clone, Copy, Debug)]
pub struct PackageCheck {
    pub force: bool,
    pub format: ReportFormat,
    pub strict: bool,
    pub color: bool,
}

/// `skillkit check` on packages: when `force` (`--package`) or a path holds a package, each path
/// is checked as one and the report rendered as `format` says; `None` when no path is a package
/// (the check goes on as usual).
pub fn check_packages(
    paths: &[PathBuf],
    agent: &skillkit::Agent,
    how: PackageCheck,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<Option<i32>> {
    let PackageCheck { force, format, strict, color } = how;
    if !force && !paths.iter().any(|p| skillkit::package::detect::is_package(p)) {
        return Ok(None);
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let display = |p: &Path| render::display_path(p, &cwd);
    let mut run = skillkit::check::CheckRun { skills: vec![], issues: vec![], verdict: None };
    for p in paths {
        match skillkit::package::check::check_package(p, agent, force) {
            Some(r) => {
                run.skills.extend(r.skills);
                run.issues.extend(r.issues);
            }
            None => {
                // Not a package: checked as skills.
                let r = skillkit::check::check_run(std::slice::from_ref(p), agent);
                run.skills.extend(r.skills);
                run.issues.extend(r.issues);
            }
        }
    }
    for issue in &run.issues {
        writeln!(err, "warning: {}: {}", display(&issue.path), issue.message)?;
    }
    let mut report: Box<dyn render::Report> = match format {
        ReportFormat::Text => Box::new(render::text::Text { agent, display: &display, color }),
        ReportFormat::Json => Box::new(render::json::Json::new(agent, &display)),
        ReportFormat::Sarif => Box::new(render::sarif::Sarif::new(agent, &display)),
        ReportFormat::Github => Box::new(render::github::Github { display: &display }),
    };
    render::whole(&mut *report, &run, out)?;
    out.flush()?;
    let s = run.summary();
    Ok(Some(if s.errors > 0 || (strict && s.warnings > 0) { 1 } else { 0 }))
}
