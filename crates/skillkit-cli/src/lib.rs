//! The `skillkit` command line: argument parsing and output only. Every answer comes from the
//! `skillkit` engine; this crate turns arguments into engine calls and results into text, JSON,
//! SARIF or GitHub annotations.

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use skillkit::{find_agent, AGENTS};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

pub mod eval;
pub mod lsp;
pub mod pack;
pub mod provider;
pub mod render;

#[derive(Parser)]
#[command(name = "skillkit", version = env!("SKILLKIT_VERSION"), about = "Check, explain and preview Agent Skills (SKILL.md folders).")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The configuration file (default: `skillkit.toml`, or `[tool.skillkit]` in `pyproject.toml`,
    /// in the checked folder or the nearest folder above it, else above the current folder).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
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
enum TreeFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum MatrixFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum RequireBar {
    Full,
    Listed,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum PreviewFormat {
    Html,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SchemaKind {
    /// The SKILL.md frontmatter's.
    Frontmatter,
    /// skillkit.toml's (and `[tool.skillkit]`'s in pyproject.toml).
    Config,
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
        /// The agent whose rules apply: spec, agentskills (as strict as skills-ref), or any profile
        /// `skillkit agents` lists (default: the configuration's `agent`, else spec).
        #[arg(long)]
        agent: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Count warnings as errors for the exit code.
        #[arg(long)]
        strict: bool,
        /// Accept every finding of this check: write them to the baseline file (the
        /// configuration's `baseline`, else skillkit-baseline.json beside the configuration or in
        /// the current folder); later checks report only findings not in it.
        #[arg(long)]
        write_baseline: bool,
        #[arg(long, value_enum, default_value = "auto")]
        color: Color,
        /// Keep watching the paths and print the results again after every change.
        #[arg(long)]
        watch: bool,
        /// Stop watching after this many changes (for tests).
        #[arg(long, hide = true)]
        watch_changes: Option<usize>,
        /// Check the paths as packages (a plugin, a marketplace, a folder of plugins, an upload
        /// .zip) even where none is detected: a folder as a plugin, a file as an archive.
        #[arg(long)]
        package: bool,
    },
    /// Build a package from a checked skill or library: an upload .zip, a Claude Code plugin,
    /// an Agent Plugins or Codex plugin, or a digest lock. Refused (exit 1) when a skill has
    /// errors or the upload would refuse the archive (with the upload's own message).
    Pack(pack::PackArgs),
    /// Check an installed copy of skills against a digest lock (`skills-lock.json`): each file
    /// changed, missing or extra is named. Exit 1 when any skill differs.
    Verify(pack::VerifyArgs),
    /// Show a library: sources in priority order, skills, what hides what, and each skill's files
    /// with the agents that would discover them.
    Tree {
        /// Skill sources, lowest priority first (default: the current folder).
        #[arg(long = "source")]
        sources: Vec<PathBuf>,
        /// The agent whose discovery and rules apply (default: the configuration's, else spec).
        #[arg(long)]
        agent: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: TreeFormat,
    },
    /// Print exactly the text an agent injects to advertise the library's skills.
    Prompt {
        /// The agent whose prompt to render (`skillkit agents` lists them; default: the
        /// configuration's `agent`).
        #[arg(long)]
        agent: Option<String>,
        /// Skill sources, lowest priority first (default: the current folder).
        #[arg(long = "source")]
        sources: Vec<PathBuf>,
        /// The model's context window in tokens (default: the agent's).
        #[arg(long)]
        context_window: Option<u64>,
        /// A fixed listing budget in characters where the agent has one (Claude Code's
        /// SLASH_COMMAND_TOOL_CHAR_BUDGET).
        #[arg(long)]
        char_budget: Option<usize>,
        /// Skills already loaded in the session (for agents that mark them).
        #[arg(long)]
        loaded: Vec<String>,
        #[command(flatten)]
        settings: AgentSettingArgs,
        /// text: the exact injected text, nothing added; json: the text with each skill's byte
        /// range, counts and budget decision.
        #[arg(long, value_enum, default_value = "text")]
        format: TreeFormat,
    },
    /// Show which agents list each skill: for every skill and agent, listed in full, description
    /// shortened, name only, dropped by the budget, hidden, shadowed, skipped (with the agent's
    /// reason) or not discovered, and whether it depends on chance.
    Matrix {
        /// Skill sources, lowest priority first (default: the configuration's, else the current
        /// folder).
        paths: Vec<PathBuf>,
        /// The agents to show, in this order (repeatable; default: every agent with a loader).
        #[arg(long)]
        agent: Vec<String>,
        /// Exit 1 when a skill misses this bar for any of the agents shown: `full` (listed with
        /// its whole description) or `listed` (listed at all). A cell that depends on chance
        /// misses either.
        #[arg(long, value_enum)]
        require: Option<RequireBar>,
        /// The model's context window in tokens (default: each agent's).
        #[arg(long)]
        context_window: Option<u64>,
        /// A fixed listing budget in characters where an agent has one (Claude Code's
        /// SLASH_COMMAND_TOOL_CHAR_BUDGET).
        #[arg(long)]
        char_budget: Option<usize>,
        /// text: a table with each cell's reason; json: everything; markdown: a table for a README.
        #[arg(long, value_enum, default_value = "text")]
        format: MatrixFormat,
        /// Each --agent-setting applies to the agents shown that have that setting.
        #[command(flatten)]
        settings: AgentSettingArgs,
    },
    /// Run a session script (YAML: agent, sources, settings, steps) and print the transcript:
    /// every step's exact result text, the loaded skills, the prompt changes and the context used.
    ///
    /// With a model (--provider, --model), the script's `user` steps are live: the model answers
    /// each one through the agent's prompt and skill tools, its skill-tool calls run in the
    /// simulator, other tools are answered "not run in simulation"; --save writes the script with
    /// the model's turns, which then replays without the model.
    Simulate {
        /// The session script.
        script: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: TreeFormat,
        #[command(flatten)]
        model: provider::ProviderArgs,
        /// Model turns at most per user turn.
        #[arg(long, default_value_t = 8)]
        max_rounds: usize,
        /// Write the script as run (the model's turns included) to FILE.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Print the sanitized HTML the app previews for a skill's body.
    ///
    /// No scripts, event handlers or remote loads; images from inside the skill folder are
    /// embedded as data: URLs. A body too large or nested too deep to preview is not rendered: the
    /// HTML is a sentence saying so (also on standard error).
    Preview {
        /// A SKILL.md, or the skill folder holding it.
        path: PathBuf,
        /// html: the HTML only; json: the HTML with the heading outline, the images shown as
        /// their alt text and why, and whether the body was too large or deep to render.
        #[arg(long, value_enum, default_value = "html")]
        format: PreviewFormat,
    },
    /// Run a trigger suite against a model: does each query activate the skill it should,
    /// through the agent's exact prompt and skill tools? Exit 0, 1 below a --min-* threshold,
    /// 2 on usage or provider errors, 130 when interrupted (after the partial report).
    Eval(eval::EvalArgs),
    /// Serve the Language Server Protocol on stdin/stdout: diagnostics on open and on every
    /// change, as `skillkit check` reports them (the agent from the initialization options).
    Lsp,
    /// List the lint rules.
    Rules {
        #[arg(long, value_enum, default_value = "text")]
        format: RulesFormat,
    },
    /// Show a rule's documentation, by code (SK201) or name (name-missing).
    Explain { rule: String },
    /// Print a JSON Schema: the SKILL.md frontmatter's (default) or skillkit.toml's.
    Schema {
        #[arg(value_enum, default_value = "frontmatter")]
        which: SchemaKind,
    },
    /// Print shell completions: `skillkit completions bash > ~/.local/share/bash-completion/completions/skillkit`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `skillkit man | man -l -`.
    Man,
    /// List the agent profiles.
    Agents,
}

/// Run the CLI; returns the process exit code (0 ok, 1 findings, 2 usage or I/O failure).
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_cancellable(args, out, err, &skillkit::model::Cancel::new())
}

/// [`run`], with a token that stops long commands (`eval`) cleanly: the binary cancels it on
/// Ctrl+C.
pub fn run_cancellable<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write, cancel: &skillkit::model::Cancel) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    // Error messages echo paths, configuration values and a library's names: shown, never raw.
    let mut err = skillkit::syntax::shown::Lines::new(err);
    let err: &mut dyn Write = &mut err;
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            let _ = if e.use_stderr() { err.write_all(text.as_bytes()) } else { out.write_all(text.as_bytes()) };
            return code;
        }
    };
    let config = cli.config;
    let result = match cli.command {
        Command::Check { paths, agent, format, strict, write_baseline, color, watch, watch_changes, package } => {
            let opts = CheckOptions { format, strict, write_baseline, color, watch, watch_changes, package };
            match Setup::new(config.as_deref(), &paths, agent, Some("spec"), err) {
                Ok(Some(setup)) => check(paths, &setup, opts, out, err),
                Ok(None) => Ok(2),
                Err(e) => Err(e),
            }
        }
        Command::Tree { sources, agent, format } => {
            match Setup::new(config.as_deref(), &sources, agent, Some("spec"), err) {
                Ok(Some(setup)) => tree(sources, &setup, format, out),
                Ok(None) => Ok(2),
                Err(e) => Err(e),
            }
        }
        Command::Prompt { agent, sources, context_window, char_budget, loaded, settings, format } => {
            let mut options = skillkit::prompt::PromptOptions {
                context_window,
                char_budget,
                loaded,
                decisions_only: false,
                settings: Default::default(),
            };
            match Setup::new(config.as_deref(), &sources, agent, None, err) {
                Ok(Some(setup)) => match setup.agent_settings(&sources, &settings, &options, err) {
                    Ok(Some(s)) => {
                        options.settings = s;
                        prompt(sources, &setup, &options, format, out, err)
                    }
                    Ok(None) => Ok(2),
                    Err(e) => Err(e),
                },
                Ok(None) => Ok(2),
                Err(e) => Err(e),
            }
        }
        Command::Matrix { paths, agent, require, context_window, char_budget, format, settings } => {
            let options = skillkit::prompt::PromptOptions { context_window, char_budget, ..Default::default() };
            match Setup::new(config.as_deref(), &paths, None, Some("spec"), err) {
                Ok(Some(setup)) => {
                    let how = MatrixRun { agents: &agent, require, options: &options, settings: &settings, format };
                    matrix(paths, &setup, &how, out, err)
                }
                Ok(None) => Ok(2),
                Err(e) => Err(e),
            }
        }
        Command::Simulate { script, format, model, max_rounds, save } => {
            let live = Live { model, max_rounds, save, cancel };
            simulate(&script, format, &live, out, err)
        }
        Command::Preview { path, format } => preview(&path, format, out, err),
        Command::Eval(args) => eval::eval(args, cancel, out, err),
        Command::Pack(args) => pack::pack(args, out, err),
        Command::Verify(args) => pack::verify(args, out, err),
        Command::Lsp => lsp::serve(err),
        Command::Rules { format } => rules(format, out).map(|_| 0),
        Command::Explain { rule } => match skillkit::lint::rules::find_rule(&rule) {
            Some(r) => write!(out, "{}", skillkit::docs::rule_page(r.meta())).map(|_| 0),
            None => writeln!(err, "error: no rule `{rule}`; `skillkit rules` lists them").map(|_| 2),
        },
        Command::Schema { which } => out
            .write_all(match which {
                SchemaKind::Frontmatter => skillkit::syntax::schema::SCHEMA_JSON.as_bytes(),
                SchemaKind::Config => skillkit::config::SCHEMA_JSON.as_bytes(),
            })
            .map(|_| 0),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "skillkit", out);
            Ok(0)
        }
        Command::Man => clap_mangen::Man::new(Cli::command()).render(out).map(|_| 0),
        Command::Agents => AGENTS
            .iter()
            .try_for_each(|a| {
                let kind = if a.prompt.is_some() { "lint, prompt" } else { "lint" };
                writeln!(out, "{:<14} {:<13} {}: {}", a.id, kind, a.title, a.source)
            })
            .map(|_| 0),
    };
    result.unwrap_or(2)
}

/// An agent's own listing settings on the command line (`skillkit::agent_settings`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AgentSettingArgs {
    /// One of the agent's own listing settings, KEY=VALUE, repeatable: Claude Code's
    /// skillListingBudgetFraction=0.02, skillListingMaxDescChars=200, skillOverrides.NAME=off
    /// (on, name-only, user-invocable-only, off), SLASH_COMMAND_TOOL_CHAR_BUDGET=8000; Codex's
    /// model_context_window=200000. Wins over skillkit.toml's [agents.AGENT] and the agent's own
    /// settings files (the project's .claude/settings.json and .claude/settings.local.json).
    #[arg(long = "agent-setting", value_name = "KEY=VALUE")]
    pub agent_setting: Vec<String>,
    /// Also read the user's own settings files of the agent (~/.claude/settings.json,
    /// ~/.codex/config.toml), below the project's: from DIR instead of the home folder when given.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "~")]
    pub user_settings: Option<PathBuf>,
}

/// What a command takes from the command line and the project's configuration: the agent, and
/// the configuration to apply to findings and to take sources from.
struct Setup {
    agent: &'static skillkit::Agent,
    project: Option<skillkit::config::Project>,
}

impl Setup {
    /// The configuration (`--config`, else found from the first path, else from the current
    /// folder) and the agent (`--agent`, else the configuration's, else `default`). `None` after
    /// saying why on `err` (a broken configuration, an unknown or missing agent).
    fn new(
        config: Option<&Path>,
        paths: &[PathBuf],
        agent: Option<String>,
        default: Option<&str>,
        err: &mut dyn Write,
    ) -> std::io::Result<Option<Setup>> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let found = match config {
            Some(file) => skillkit::config::load(file).map(Some),
            None => skillkit::config::find_for(paths, &cwd),
        };
        let project = match found {
            Ok(p) => p,
            Err(e) => {
                writeln!(err, "error: {e}")?;
                return Ok(None);
            }
        };
        for w in project.iter().flat_map(|p| &p.warnings) {
            writeln!(err, "warning: {w}")?;
        }
        let configured = project.as_ref().and_then(|p| p.config.agent.clone());
        let Some(id) = agent.or(configured).or(default.map(str::to_string)) else {
            writeln!(err, "error: no agent: name one with --agent, or as `agent` in skillkit.toml")?;
            return Ok(None);
        };
        let Some(agent) = agent_or_err(&id, err)? else { return Ok(None) };
        Ok(Some(Setup { agent, project }))
    }

    /// The agent's listing settings: its own settings files (the project's; the user's with
    /// `--user-settings`), then skillkit.toml's `[agents.AGENT]`, then the command line (with
    /// `--context-window` and `--char-budget` where the agent has a setting for them). `None`
    /// after saying why on `err`; the files the agent would not load are warnings.
    fn agent_settings(
        &self,
        given: &[PathBuf],
        args: &AgentSettingArgs,
        options: &skillkit::prompt::PromptOptions,
        err: &mut dyn Write,
    ) -> std::io::Result<Option<skillkit::agent_settings::AgentSettings>> {
        self.agent_settings_of(self.agent, given, &args.agent_setting, args, options, err)
    }

    /// [`Setup::agent_settings`] for `agent`, with `assignments` from the command line.
    fn agent_settings_of(
        &self,
        agent: &skillkit::Agent,
        given: &[PathBuf],
        assignments: &[String],
        args: &AgentSettingArgs,
        options: &skillkit::prompt::PromptOptions,
        err: &mut dyn Write,
    ) -> std::io::Result<Option<skillkit::agent_settings::AgentSettings>> {
        use skillkit::agent_settings::{self as settings, Scalar};
        let id = agent.id;
        let sources = self.sources(given.to_vec());
        let project = settings::project_for(
            self.project.as_ref().map(|p| p.dir.as_path()),
            sources.first().map(PathBuf::as_path),
        );
        let home = match &args.user_settings {
            Some(d) if d.as_os_str() == "~" => settings::home_dir(),
            Some(d) => Some(d.clone()),
            None => None,
        };
        let config = self.project.as_ref().and_then(|p| p.agent_settings.get(id).map(|l| (l.clone(), p.path.clone())));
        let found = settings::Sources { project, home, config, assignments };
        let (mut resolved, warnings) = match settings::resolve(id, &found) {
            Ok(r) => r,
            Err(e) => {
                writeln!(err, "error: {e}")?;
                return Ok(None);
            }
        };
        for w in warnings {
            writeln!(err, "warning: {w}")?;
        }
        let has = |key: &str| settings::specs_of(id).any(|s| s.key == key);
        if let (Some(n), true) = (options.context_window, has(settings::CONTEXT_WINDOW)) {
            resolved.set_scalar(settings::CONTEXT_WINDOW, Scalar::Count(n), "--context-window");
        }
        if let (Some(n), true) = (options.char_budget, has(settings::CHAR_BUDGET)) {
            resolved.set_scalar(settings::CHAR_BUDGET, Scalar::Count(n as u64), "--char-budget");
        }
        Ok(Some(resolved))
    }

    /// The paths given, else the configuration's sources, else the current folder.
    fn sources(&self, given: Vec<PathBuf>) -> Vec<PathBuf> {
        if !given.is_empty() {
            return given;
        }
        let configured = self.project.as_ref().map(|p| p.sources()).unwrap_or_default();
        if configured.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            configured
        }
    }

    /// The baseline file: the configuration's, else skillkit-baseline.json beside it (or in the
    /// current folder).
    fn baseline_path(&self) -> PathBuf {
        match &self.project {
            Some(p) => p.baseline().unwrap_or_else(|| p.dir.join(skillkit::config::BASELINE_FILE)),
            None => PathBuf::from(skillkit::config::BASELINE_FILE),
        }
    }
}

struct CheckOptions {
    format: Format,
    strict: bool,
    write_baseline: bool,
    color: Color,
    watch: bool,
    watch_changes: Option<usize>,
    package: bool,
}

fn check(
    paths: Vec<PathBuf>,
    setup: &Setup,
    opts: CheckOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    use skillkit::check::{check_sources, open_check_library, CheckRun};
    use skillkit::config::{adjust_run, Baseline};
    use skillkit::library::Keep;
    let agent = setup.agent;
    let paths = setup.sources(paths);
    let how = pack::PackageCheck {
        force: opts.package,
        format: match opts.format {
            Format::Text => pack::ReportFormat::Text,
            Format::Json => pack::ReportFormat::Json,
            Format::Sarif => pack::ReportFormat::Sarif,
            Format::Github => pack::ReportFormat::Github,
        },
        strict: opts.strict,
        color: opts.color == Color::Always,
    };
    if let Some(code) = pack::check_packages(&paths, agent, how, out, err)? {
        return Ok(code);
    }
    let baseline_path = setup.baseline_path();
    let baseline_dir = baseline_path.parent().map(Path::to_path_buf).unwrap_or_default();
    let baseline = match opts.write_baseline {
        false => match Baseline::read_if_present(&baseline_path) {
            Ok(b) => b,
            Err(e) => {
                writeln!(err, "error: {e}")?;
                return Ok(2);
            }
        },
        true => None,
    };
    let note_baseline = |n: usize, err: &mut dyn Write| -> std::io::Result<()> {
        if n > 0 {
            let s = if n == 1 { "" } else { "s" };
            writeln!(err, "note: {n} finding{s} accepted in the baseline ({}) not shown", baseline_path.display())?;
        }
        Ok(())
    };
    let adjust = |run: &mut CheckRun, err: &mut dyn Write| -> std::io::Result<()> {
        let b = baseline.as_ref().map(|b| (b, baseline_dir.as_path()));
        note_baseline(adjust_run(setup.project.as_ref(), b, run).in_baseline, err)
    };
    let sources = match check_sources(&paths) {
        Ok(s) => s,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let display = |p: &Path| render::display_path(p, &cwd);
    let color = match opts.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            opts.format == Format::Text && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let report = || -> Box<dyn render::Report + '_> {
        match opts.format {
            Format::Text => Box::new(render::text::Text { agent, display: &display, color }),
            Format::Json => Box::new(render::json::Json::new(agent, &display)),
            Format::Sarif => Box::new(render::sarif::Sarif::new(agent, &display)),
            Format::Github => Box::new(render::github::Github { display: &display }),
        }
    };
    let exit_code = |s: &skillkit::check::Summary| if s.errors > 0 || (opts.strict && s.warnings > 0) { 1 } else { 0 };
    let warn = |issues: &[skillkit::library::discover::SearchIssue], err: &mut dyn Write| -> std::io::Result<()> {
        for issue in issues {
            writeln!(err, "warning: {}: {}", display(&issue.path), issue.message)?;
        }
        Ok(())
    };
    let print = |run: &CheckRun, out: &mut dyn Write, err: &mut dyn Write| -> std::io::Result<i32> {
        warn(&run.issues, err)?;
        render::whole(&mut *report(), run, out)?;
        out.flush()?;
        Ok(exit_code(&run.summary()))
    };
    // Text and SARIF reports show source lines (snippets, fix edits); the others give positions
    // only, and a baseline records findings: the skills' bodies need not be kept for those.
    let keep = match opts.format {
        Format::Text | Format::Sarif => Keep::Findings,
        Format::Json | Format::Github => Keep::Frontmatter,
    };
    if opts.write_baseline {
        // Each skill's findings are taken as the check hands it over, and the skill dropped.
        let mut sink = Baselining {
            adjust: skillkit::config::Adjust::new(
                setup.project.as_ref(),
                baseline.as_ref().map(|b| (b, baseline_dir.as_path())),
            ),
            dir: &baseline_dir,
            findings: vec![],
        };
        skillkit::check::check_each(&sources, agent, Keep::Frontmatter, &mut sink)?;
        note_baseline(sink.adjust.done().in_baseline, err)?;
        let b = Baseline::from_findings(sink.findings);
        // Written only inside the project (the configuration's folder, else the current one):
        // atomically, and never through a symlink that leads out.
        let within = setup.project.as_ref().map_or_else(|| baseline_dir.clone(), |p| p.dir.clone());
        if let Err(e) = skillkit::files::save(&baseline_path, b.to_json().as_bytes(), &within) {
            writeln!(err, "error: the baseline was not written: {e}")?;
            return Ok(2);
        }
        let n = b.findings.len();
        writeln!(err, "wrote {n} finding{} to {}", if n == 1 { "" } else { "s" }, baseline_path.display())?;
        return Ok(0);
    }
    if !opts.watch {
        // Each skill is reported as the check hands it over, and dropped.
        let mut sink = Reporting {
            report: report(),
            out,
            adjust: skillkit::config::Adjust::new(
                setup.project.as_ref(),
                baseline.as_ref().map(|b| (b, baseline_dir.as_path())),
            ),
            summary: Default::default(),
        };
        let end = skillkit::check::check_each(&sources, agent, keep, &mut sink)?;
        let Reporting { mut report, out, adjust, summary } = sink;
        warn(&end.issues, err)?;
        note_baseline(adjust.done().in_baseline, err)?;
        report.end(out, &render::End { summary, verdict: end.verdict.as_ref(), issues: &end.issues })?;
        out.flush()?;
        return Ok(exit_code(&summary));
    }
    let mut lib = open_check_library(&sources, agent);
    let mut run = CheckRun::from_library(&lib, agent);
    adjust(&mut run, err)?;
    let mut code = print(&run, out, err)?;
    let (watcher, rx) =
        match skillkit::library::watch::Watcher::new(&sources, skillkit::library::watch::WatchConfig::default()) {
            Ok(w) => w,
            Err(e) => {
                writeln!(err, "error: cannot watch: {e}")?;
                return Ok(2);
            }
        };
    writeln!(
        err,
        "watching {} for changes (Ctrl-C to stop)",
        sources.iter().map(|p| display(p)).collect::<Vec<_>>().join(", ")
    )?;
    let mut changes = 0;
    while let Ok(batch) = rx.recv() {
        let events = lib.apply(&batch, agent);
        for e in watcher.errors() {
            writeln!(err, "warning: watcher: {e}")?;
        }
        if events.is_empty() {
            continue;
        }
        writeln!(err, "\n{} change{}: re-checked", events.len(), if events.len() == 1 { "" } else { "s" })?;
        let mut run = CheckRun::from_library(&lib, agent);
        adjust(&mut run, err)?;
        code = print(&run, out, err)?;
        changes += 1;
        if opts.watch_changes.is_some_and(|n| changes >= n) {
            break;
        }
    }
    Ok(code)
}

/// Where a one-shot check's skills go: the project's adjustments, the counts, the report.
struct Reporting<'a, 'o> {
    report: Box<dyn render::Report + 'a>,
    out: &'o mut dyn Write,
    adjust: skillkit::config::Adjust<'a>,
    summary: skillkit::check::Summary,
}

impl skillkit::check::CheckSink for Reporting<'_, '_> {
    fn begin(&mut self) -> std::io::Result<()> {
        self.report.begin(self.out)
    }

    fn skill(&mut self, mut c: skillkit::check::Checked) -> std::io::Result<()> {
        if !self.adjust.changes_nothing() {
            self.adjust.skill(&c.skill.path(), &mut c.diagnostics);
        }
        self.summary.add(&c);
        self.report.skill(self.out, &c)
    }
}

/// Where the check of `--write-baseline` hands its skills: the project's adjustments, then each
/// finding into the baseline.
struct Baselining<'a> {
    adjust: skillkit::config::Adjust<'a>,
    dir: &'a Path,
    findings: Vec<skillkit::config::BaselineEntry>,
}

impl skillkit::check::CheckSink for Baselining<'_> {
    fn begin(&mut self) -> std::io::Result<()> {
        Ok(())
    }

    fn skill(&mut self, mut c: skillkit::check::Checked) -> std::io::Result<()> {
        let file = c.skill.path();
        if !self.adjust.changes_nothing() {
            self.adjust.skill(&file, &mut c.diagnostics);
        }
        self.findings.extend(skillkit::config::Baseline::entries(self.dir, &file, &c.diagnostics));
        Ok(())
    }
}

fn tree(sources: Vec<PathBuf>, setup: &Setup, format: TreeFormat, out: &mut dyn Write) -> std::io::Result<i32> {
    let (agent, lib) = open_library(sources, setup);
    let cwd = std::env::current_dir().unwrap_or_default();
    let display = |p: &Path| render::display_path(p, &cwd);
    match format {
        TreeFormat::Text => render::tree::render_text(&lib, agent, &display, out)?,
        TreeFormat::Json => render::tree::render_json(&lib, agent, &display, out)?,
    }
    Ok(if lib.sources.iter().any(|s| !s.exists) { 2 } else { 0 })
}

fn prompt(
    sources: Vec<PathBuf>,
    setup: &Setup,
    options: &skillkit::prompt::PromptOptions,
    format: TreeFormat,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let (agent, lib) = open_library(sources, setup);
    let Some(mut prompt) = agent.render(&lib, options) else {
        let with: Vec<&str> = AGENTS.iter().filter(|a| a.prompt.is_some()).map(|a| a.id).collect();
        writeln!(err, "error: `{}` only lints; agents with a prompt: {}", agent.id, with.join(", "))?;
        return Ok(2);
    };
    match format {
        TreeFormat::Text => {
            out.write_all(prompt.text.as_bytes())?;
            // An agent that refuses as a whole (skills-ref's to-prompt) prints its error and
            // exits as it does.
            if let Some(f) = &prompt.failure {
                err.write_all(f.as_bytes())?;
                return Ok(prompt.exit_code());
            }
            // The prompt on stdout stays byte-exact; what it cannot say goes to stderr: which
            // listed skills are the agent's own, not the library's.
            let listed = |d: &skillkit::prompt::Decision| {
                use skillkit::prompt::Decision::*;
                matches!(d, Full | Truncated | NameOnly)
            };
            for s in prompt.skills.iter().filter(|s| s.source.is_none() && listed(&s.decision)) {
                writeln!(err, "note: `{}` is a built-in skill of {}, not one of the library's", s.name, agent.title)?;
            }
        }
        TreeFormat::Json => {
            prompt.count_cl100k();
            serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), &prompt)?;
            writeln!(out)?;
        }
    }
    Ok(0)
}

/// What `skillkit matrix` was asked for.
struct MatrixRun<'a> {
    agents: &'a [String],
    require: Option<RequireBar>,
    options: &'a skillkit::prompt::PromptOptions,
    settings: &'a AgentSettingArgs,
    format: MatrixFormat,
}

fn matrix(
    sources: Vec<PathBuf>,
    setup: &Setup,
    how: &MatrixRun<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let MatrixRun { agents, require, options, settings, format } = *how;
    let mut shown = vec![];
    for id in agents {
        let Some(agent) = agent_or_err(id, err)? else { return Ok(2) };
        if !skillkit::verdict::judged_by_loader(agent) {
            let with: Vec<&str> = skillkit::matrix::default_agents().iter().map(|a| a.id).collect();
            writeln!(err, "error: `{id}` lists no skills; agents with a listing: {}", with.join(", "))?;
            return Ok(2);
        }
        shown.push(agent);
    }
    if shown.is_empty() {
        shown = skillkit::matrix::default_agents();
    }
    let given = sources;
    let sources = setup.sources(given.clone());
    let cwd = std::env::current_dir().unwrap_or_default();
    if let Some(s) = sources.iter().find(|s| !s.is_dir()) {
        writeln!(err, "error: {} is not a folder", render::one_line(&render::display_path(s, &cwd)))?;
        return Ok(2);
    }
    // Each agent's own settings; an --agent-setting goes to the agents shown that have its key.
    use skillkit::agent_settings::{assignment_key, takes};
    if let Some(a) = settings.agent_setting.iter().find(|a| !shown.iter().any(|ag| takes(ag.id, a))) {
        writeln!(
            err,
            "error: --agent-setting {}: no agent shown has the setting `{}`",
            render::one_line(a),
            render::one_line(assignment_key(a))
        )?;
        return Ok(2);
    }
    let mut per_agent = Vec::with_capacity(shown.len());
    for agent in &shown {
        let mine: Vec<String> = settings.agent_setting.iter().filter(|a| takes(agent.id, a)).cloned().collect();
        match setup.agent_settings_of(agent, &given, &mine, settings, options, err)? {
            Some(s) => per_agent.push(skillkit::prompt::PromptOptions { settings: s, ..options.clone() }),
            None => return Ok(2),
        }
    }
    let m = skillkit::matrix::build_each(&sources, &shown, &per_agent, &[]);
    match format {
        MatrixFormat::Text => render::matrix::render_text(&m, out)?,
        MatrixFormat::Json => render::matrix::render_json(&m, out)?,
        MatrixFormat::Markdown => render::matrix::render_markdown(&m, out)?,
    }
    let Some(require) = require else { return Ok(0) };
    let (bar, word) = match require {
        RequireBar::Full => (skillkit::matrix::Bar::Full, "listed in full"),
        RequireBar::Listed => (skillkit::matrix::Bar::Listed, "listed"),
    };
    let misses = m.misses(bar, &[]);
    render::matrix::render_misses(&misses, word, err)?;
    Ok(if misses.is_empty() { 0 } else { 1 })
}

/// `simulate`'s live options.
struct Live<'a> {
    model: provider::ProviderArgs,
    max_rounds: usize,
    save: Option<PathBuf>,
    cancel: &'a skillkit::model::Cancel,
}

fn simulate(
    script: &Path,
    format: TreeFormat,
    live: &Live<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let shown = script.display().to_string();
    let text = match skillkit::files::read_text(script, skillkit::files::MAX_BYTES) {
        Ok(t) => t,
        Err(e) => {
            writeln!(err, "{shown}: error: cannot read: {}", skillkit::files::reason(&e))?;
            return Ok(2);
        }
    };
    let parsed = match skillkit::simulate::parse_script(&text) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                writeln!(err, "{shown}:{}:{}: error: {}", e.line, e.column, e.message)?;
            }
            return Ok(2);
        }
    };
    let agent = find_agent(&parsed.agent).expect("the script parser accepts only known agents");
    let sources = match skillkit::session::script::confine_sources(&text, script, &parsed.sources) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                writeln!(err, "{shown}:{}:{}: error: {}", e.line, e.column, e.message)?;
            }
            return Ok(2);
        }
    };
    let built = match live.model.given().then(|| live.model.build()) {
        Some(Err(message)) => {
            writeln!(err, "error: {message}")?;
            return Ok(2);
        }
        Some(Ok(built)) => Some(built),
        None => None,
    };
    let model = built.as_ref().map(|(config, provider)| skillkit::live::LiveModel {
        provider: provider.as_ref(),
        config,
        cancel: live.cancel,
        max_rounds: live.max_rounds,
    });
    let agent_settings = skillkit::simulate::script_agent_settings(&parsed, script);
    let ran = skillkit::live::run_with(
        agent,
        &sources,
        parsed.settings.clone(),
        agent_settings,
        parsed.steps.clone(),
        model.as_ref(),
    );
    let session = ran.session;
    if let Some(path) = &live.save {
        let saved = skillkit::session::script::Script { steps: ran.steps.clone(), ..parsed.clone() };
        // A path typed on the command line: saved atomically in its folder.
        let folder = skillkit::session::script::folder_of(path);
        if let Err(e) = skillkit::files::save(path, saved.to_text().as_bytes(), folder) {
            writeln!(err, "error: the script was not saved: {e}")?;
            return Ok(2);
        }
    }
    for source in session.library.sources.iter().filter(|s| !s.exists) {
        writeln!(err, "warning: source {} does not exist", source.path.display())?;
    }
    match format {
        TreeFormat::Text => render::session::render_text(&session, &parsed.sources, out)?,
        TreeFormat::Json => render::session::render_json(&session, &parsed.sources, out)?,
    }
    if let Some(e) = ran.error {
        writeln!(err, "error: the model could not answer: {e}")?;
        return Ok(2);
    }
    Ok(0)
}

fn preview(path: &Path, format: PreviewFormat, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    use skillkit::skill::{FileProblem, MAX_FILE_BYTES};
    let dir = match skillkit::check::check_sources(&[path.to_path_buf()]) {
        Ok(mut dirs) => dirs.remove(0),
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    let skill = skillkit::read::read_skill(&dir);
    let cwd = std::env::current_dir().unwrap_or_default();
    let shown = render::display_path(&skill.path(), &cwd);
    let blocked = skill.file_problems.iter().find_map(|p| match p {
        // Shown with U+FFFD where the bytes are not UTF-8, as the editor shows it.
        FileProblem::InvalidUtf8 { .. } => None,
        FileProblem::Missing => Some(format!("no SKILL.md in {}", render::display_path(&dir, &cwd))),
        FileProblem::NotAFile { kind } => Some(format!("{shown} is a {kind}, not a file")),
        FileProblem::Unreadable { error } => Some(format!("cannot read {shown}: {error}")),
        FileProblem::TooLarge { size } => {
            Some(format!("{shown} is {size} bytes, over the {} bytes a skill file may have", MAX_FILE_BYTES))
        }
        FileProblem::Binary { offset } => Some(format!("{shown} is a binary file (a NUL byte at {offset})")),
    });
    if let Some(why) = blocked {
        writeln!(err, "error: {why}")?;
        return Ok(2);
    }
    let preview = skillkit::preview::render(&skill.dir, &skill.text, skillkit::preview::PreviewLimits::default());
    if let Some(r) = &preview.refused {
        writeln!(err, "warning: {}: {}", shown, r.message())?;
    }
    match format {
        PreviewFormat::Html => out.write_all(preview.html.as_bytes())?,
        PreviewFormat::Json => {
            serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), &preview)?;
            writeln!(out)?;
        }
    }
    Ok(0)
}

/// The library of `sources` (else the configuration's, else the current folder) as the agent
/// discovers it, its findings as the configuration wants them.
fn open_library(sources: Vec<PathBuf>, setup: &Setup) -> (&'static skillkit::Agent, skillkit::library::Library) {
    let mut lib = skillkit::library::Library::open(&setup.sources(sources), setup.agent);
    if let Some(p) = &setup.project {
        p.adjust_library(&mut lib);
    }
    (setup.agent, lib)
}

fn agent_or_err(id: &str, err: &mut dyn Write) -> std::io::Result<Option<&'static skillkit::Agent>> {
    let agent = find_agent(id);
    if agent.is_none() {
        writeln!(err, "error: {}", skillkit::agents::unknown_agent(id))?;
    }
    Ok(agent)
}

fn rules(format: RulesFormat, out: &mut dyn Write) -> std::io::Result<()> {
    use skillkit::lint::rules::RULES;
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
