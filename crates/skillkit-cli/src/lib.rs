//! The `skillkit` command line: argument parsing and output only. Every answer comes from the
//! `skillkit` engine; this crate turns arguments into engine calls and results into text, JSON,
//! SARIF or GitHub annotations.
//!
//! The clap types are in [`cli`]; [`run`] parses the arguments and hands each command to its file
//! under [`commands`] (what they share, the configuration and agent, is [`setup`]); the output
//! formats are in [`render`], the language server in [`lsp`].

use clap::Parser;
use cli::{Cli, Command};
use commands::check::context::CheckOptions;
use commands::matrix::MatrixRun;
use commands::simulate::Live;
use setup::Setup;
use std::ffi::OsString;
use std::io::Write;

pub mod cli;
pub mod commands;
pub mod lsp;
pub mod provider;
pub mod render;
mod setup;

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
                Ok(Some(setup)) => commands::check::check(paths, &setup, opts, out, err),
                Ok(None) => Ok(2),
                Err(e) => Err(e),
            }
        }
        Command::Tree { sources, agent, format } => {
            match Setup::new(config.as_deref(), &sources, agent, Some("spec"), err) {
                Ok(Some(setup)) => commands::tree::tree(sources, &setup, format, out),
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
                        commands::prompt::prompt(sources, &setup, &options, format, out, err)
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
                    commands::matrix::matrix(paths, &setup, &how, out, err)
                }
                Ok(None) => Ok(2),
                Err(e) => Err(e),
            }
        }
        Command::Simulate { script, format, model, max_rounds, save } => {
            let live = Live { model, max_rounds, save, cancel };
            commands::simulate::simulate(&script, format, &live, out, err)
        }
        Command::Preview { path, format } => commands::preview::preview(&path, format, out, err),
        Command::Eval(args) => commands::eval::eval(args, cancel, out, err),
        Command::Pack(args) => commands::pack::pack(args, out, err),
        Command::Verify(args) => commands::pack::verify(args, out, err),
        Command::Lsp => lsp::serve(err),
        Command::Rules { format } => commands::rules::rules(format, out).map(|_| 0),
        Command::Explain { rule } => commands::explain::explain(&rule, out, err),
        Command::Schema { which } => commands::schema::schema(which, out),
        Command::Completions { shell } => commands::completions::completions(shell, out),
        Command::Man => commands::man::man(out),
        Command::Agents => commands::agents::agents(out),
    };
    result.unwrap_or(2)
}
