//! The `skillkit` binary: parses arguments and hands over to the library's `run`.

fn main() {
    let code = skillkit_cli::run(std::env::args_os(), &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
    std::process::exit(code);
}
