//! The `skillkit` binary: parses arguments and hands over to the library's `run`.

/// mimalloc: faster than glibc's malloc where every core allocates and frees (a library check).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Gives freed memory back to the system after 10 ms, and commits its arenas' memory as it is
/// used rather than up front: a 10,000-skill check then peaks near 60 MB instead of about 80.
/// (A 1 ms delay kept it near 55 MB but cost 4-6 % of a check's time: memory given back and
/// taken again is faulted in and zeroed by the kernel each time.)
fn tune_allocator() {
    // `mi_option_t` values of mimalloc 3's `mimalloc.h` (libmimalloc-sys 0.1.49 names fewer).
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
    // SAFETY: setting an option is a plain store in mimalloc's option table, valid at any time.
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, 10);
        libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
    }
}

fn main() {
    tune_allocator();
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
