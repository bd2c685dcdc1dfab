//! The `skillkit` binary: parses arguments and hands over to the library's `run`.

/// mimalloc: faster than glibc's malloc where every core allocates and frees (a library check).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Gives freed memory back to the system after 100 ms, and commits its arenas' memory as it is
/// used rather than up front. Measured with `bench/check_library.sh` (paired runs, same binary):
/// against a 10 ms delay, a check of 5,000 real skills takes about 6 % less time for 15 MB more
/// at the peak (75 MB), one of 10,000 generated skills about 3 % less for 7 MB more (63 MB):
/// memory given back and taken again is faulted in and zeroed by the kernel each time. (Up front
/// commits made a 10,000-skill check peak near 80 MB.) mimalloc's own `MIMALLOC_PURGE_DELAY`
/// still overrides the delay. On Linux, no transparent huge pages for this process (unless
/// `MIMALLOC_ALLOW_THP` is set): mimalloc asks for them, and each first touch of a fresh 2 MB
/// page had the kernel zero all of it (perf: `clear_page_erms`, `folio_zero_user`), 3–4 % of a
/// check's CPU time on the held-back varied library (`bench/check_library.sh --varied`), more of
/// a matrix's. (mimalloc's own option is read before `main`, so the process says it instead.)
fn tune_allocator() {
    // `mi_option_t` values of mimalloc 3's `mimalloc.h` (libmimalloc-sys 0.1.49 names fewer).
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
    let purge_delay_set = std::env::var_os("MIMALLOC_PURGE_DELAY").is_some();
    // SAFETY: setting an option is a plain store in mimalloc's option table, valid at any time.
    unsafe {
        if !purge_delay_set {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, 100);
        }
        libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
    }
    #[cfg(target_os = "linux")]
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // SAFETY: PR_SET_THP_DISABLE sets one flag of this process; no memory is touched.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
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
            std::process::exit(skillkit_cli::commands::eval::INTERRUPTED);
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
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let code = skillkit_cli::run_cancellable(std::env::args_os(), &mut out, &mut std::io::stderr().lock(), &cancel);
    let code = match std::io::Write::flush(&mut out) {
        Ok(()) => code,
        Err(_) => 2,
    };
    drop(out);
    std::process::exit(code);
}
