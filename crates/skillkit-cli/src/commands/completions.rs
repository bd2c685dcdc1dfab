//! `skillkit completions`: shell completions, generated from the clap definitions.

use crate::cli::Cli;
use clap::CommandFactory;
use std::io::Write;

pub(crate) fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> std::io::Result<i32> {
    clap_complete::generate(shell, &mut Cli::command(), "skillkit", out);
    Ok(0)
}
