//! The `skillkit` binary: parses arguments and hands over to the library's `run`.

fn main() {
    // Ctrl+C stops a long command (`eval`) after the requests in flight, which then prints what
    // it has; a second Ctrl+C quits at once.
    let cancel = skillkit::model::Cancel::new();
    let on_interrupt = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if on_interrupt.is_cancelled() {
            std::process::exit(skillkit_cli::eval::INTERRUPTED);
        }
        on_interrupt.cancel();
        eprintln!("stopping after the requests in flight (Ctrl+C again to quit now)");
    });
    // The language server owns standard output (its transport writes the protocol there).
    if std::env::args_os().nth(1).is_some_and(|a| a == "lsp") && std::env::args_os().count() == 2 {
        let code = skillkit_cli::lsp::serve(&mut std::io::stderr()).unwrap_or(1);
        std::process::exit(code);
    }
    // Output can be large (a whole library as JSON); write it in blocks, not line by line.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let code = skillkit_cli::run_cancellable(std::env::args_os(), &mut out, &mut std::io::stderr().lock(), &cancel);
    let code = match std::io::Write::flush(&mut out) {
        Ok(()) => code,
        Err(_) => 2,
    };
    drop(out);
    std::process::exit(code);
}
