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
