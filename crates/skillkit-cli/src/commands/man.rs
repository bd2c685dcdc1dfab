//! `skillkit man`: the manual page (roff), generated from the clap definitions.

use crate::cli::Cli;
use clap::CommandFactory;
use std::io::Write;

pub(crate) fn man(out: &mut dyn Write) -> std::io::Result<i32> {
    clap_mangen::Man::new(Cli::command()).render(out).map(|_| 0)
}
