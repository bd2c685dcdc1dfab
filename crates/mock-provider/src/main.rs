//! `mock-provider --script FILE [--port N] [--log FILE]`: serves a script (see the crate doc)
//! until killed, after printing `listening on http://127.0.0.1:PORT/v1`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use mock_provider::{MockServer, Options, Script};

const USAGE: &str = "usage: mock-provider --script FILE [--port N] [--log FILE]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mock-provider: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut script = None;
    let mut options = Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--script" => script = Some(PathBuf::from(value()?)),
            "--port" => options.port = value()?.parse().map_err(|_| format!("--port: not a port number\n{USAGE}"))?,
            "--log" => options.log = Some(PathBuf::from(value()?)),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    let path = script.ok_or_else(|| format!("--script is required\n{USAGE}"))?;
    let script = Script::from_file(&path).map_err(|e| e.to_string())?;
    let server = MockServer::try_start(script, options).map_err(|e| e.to_string())?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "listening on {}", server.base_url()).map_err(|e| e.to_string())?;
    stdout.flush().map_err(|e| e.to_string())?;
    loop {
        std::thread::park();
    }
}
