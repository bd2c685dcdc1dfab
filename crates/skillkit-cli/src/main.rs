//! The `skillkit` binary: parses arguments and hands over to the library's `run`.

fn main() {
    // Output can be large (a whole library as JSON); write it in blocks, not line by line.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let code = skillkit_cli::run(std::env::args_os(), &mut out, &mut std::io::stderr().lock());
    let code = match std::io::Write::flush(&mut out) {
        Ok(()) => code,
        Err(_) => 2,
    };
    drop(out);
    std::process::exit(code);
}
