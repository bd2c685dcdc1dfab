//! `fuzz`: the long-run command. Fuzzes the chosen targets with the stable mutational driver,
//! taking turns between them (`--slice` seconds each) until each has had `--seconds`; grows the
//! corpus in `corpus/`, writes findings to `artifacts/` (both beside this crate's Cargo.toml and
//! git-ignored), prints a report, and exits 1 when anything was found. `--replay FILE...` runs
//! one target on saved inputs instead.
//!
//! ```text
//! cargo run --release -p skillkit-fuzz --bin fuzz -- --target all --seconds 3600
//! ```

use clap::Parser;
use skillkit_fuzz::driver::{exec, Campaign, Config, Stop, EXEC_STARTED_MS};
use skillkit_fuzz::{corpus, time_budget, Fuzzer, Options, Target};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(Parser)]
#[command(about = "Fuzz the skillkit engine: lint, preview, form_edit, session_script, named_paths.")]
struct Args {
    /// `all`, or a comma-separated list of lint, preview, form_edit, session_script, named_paths.
    #[arg(long, default_value = "all")]
    target: String,
    /// Seconds of fuzzing for each target.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Seconds per turn when several targets share the run.
    #[arg(long, default_value_t = 60)]
    slice: u64,
    /// Seed of the mutations (a run is repeatable up to timing).
    #[arg(long, default_value_t = 19)]
    seed: u64,
    /// Largest mutated input, in bytes.
    #[arg(long, default_value_t = 64 * 1024)]
    max_len: usize,
    /// Multiply the time budget (100 ms per 10 KB, at least 100 ms) by this.
    #[arg(long, default_value_t = 1.0)]
    time_factor: f64,
    /// An input running longer than this is a hang: it is saved and the run stops.
    #[arg(long, default_value_t = 300)]
    hang_seconds: u64,
    /// Where findings go.
    #[arg(long)]
    artifacts: Option<PathBuf>,
    /// Where the corpus grows.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Keep no corpus on disk.
    #[arg(long)]
    no_corpus: bool,
    /// The repository to read the seeds from.
    #[arg(long)]
    repo: Option<PathBuf>,
    /// Run the target on these files and report, instead of fuzzing.
    #[arg(long, num_args = 1..)]
    replay: Vec<PathBuf>,
    /// Shrink an input that panics (same invariant, same place) and write it to FILE.min.
    #[arg(long)]
    minimize: Option<PathBuf>,
    /// Write the seeds of each target to DIR/<target>/ and the mutation tokens to DIR/tokens.dict
    /// (for cargo fuzz / libFuzzer), instead of fuzzing.
    #[arg(long)]
    export_seeds: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let targets: Vec<Target> = if args.target == "all" {
        Target::ALL.to_vec()
    } else {
        match args.target.split(',').map(|t| Target::from_name(t.trim()).ok_or(t)).collect() {
            Ok(t) => t,
            Err(t) => {
                eprintln!("unknown target `{t}`; use all, lint, preview, form_edit, session_script or named_paths");
                return ExitCode::from(2);
            }
        }
    };
    let options = Options::default();
    let fuzzer = match Fuzzer::new(options) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot create the scratch folder: {e}");
            return ExitCode::from(2);
        }
    };
    if !args.replay.is_empty() {
        return replay(&fuzzer, &targets, &args.replay);
    }
    let repo = args.repo.clone().unwrap_or_else(skillkit_fuzz::repo_root);
    if let Some(dir) = &args.export_seeds {
        return match export_seeds(&repo, &targets, dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("cannot write the seeds to {}: {e}", dir.display());
                ExitCode::from(2)
            }
        };
    }
    if let Some(file) = &args.minimize {
        return minimize(&fuzzer, &targets, file);
    }

    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let artifacts = args.artifacts.clone().unwrap_or_else(|| here.join("artifacts"));
    let corpus_dir = (!args.no_corpus).then(|| args.corpus.clone().unwrap_or_else(|| here.join("corpus")));
    if let Err(e) = std::fs::create_dir_all(&artifacts) {
        eprintln!("cannot create {}: {e}", artifacts.display());
        return ExitCode::from(2);
    }
    let in_flight = artifacts.join("in-flight.bin");
    let in_flight_target = artifacts.join("in-flight.target");
    if let (Ok(input), Ok(target)) = (std::fs::read(&in_flight), std::fs::read_to_string(&in_flight_target)) {
        // The previous run died or hung on this input: keep it as a finding.
        let dir = artifacts.join(target.trim());
        let _ = std::fs::create_dir_all(&dir);
        let saved = dir.join(format!("died-{}.bin", input.len()));
        let _ = std::fs::write(&saved, &input);
        eprintln!("the previous run stopped inside an input of {}: saved as {}", target.trim(), saved.display());
    }
    watchdog(Duration::from_secs(args.hang_seconds), in_flight.clone(), artifacts.clone());

    let config = Config {
        seed: args.seed,
        stop: Stop::Time(Duration::from_secs(args.slice)),
        max_len: args.max_len,
        time_factor: args.time_factor,
        artifacts: Some(artifacts.clone()),
        corpus: corpus_dir,
        progress: Some(Duration::from_secs(30)),
        in_flight: Some(in_flight.clone()),
    };
    let mut campaigns: Vec<Campaign> = targets
        .iter()
        .map(|&t| {
            let seeds = corpus::seeds(&repo, t);
            eprintln!("{}: {} seeds from {}", t.name(), seeds.len(), repo.display());
            Campaign::new(t, seeds, &config)
        })
        .collect();
    let total = Duration::from_secs(args.seconds);
    let mut spent = vec![Duration::ZERO; campaigns.len()];
    while spent.iter().any(|s| *s < total) {
        for (i, c) in campaigns.iter_mut().enumerate() {
            if spent[i] >= total {
                continue;
            }
            let turn = Duration::from_secs(args.slice).min(total - spent[i]);
            let _ = std::fs::write(&in_flight_target, targets[i].name());
            let before = c.report().elapsed;
            c.run(&fuzzer, Stop::Time(turn));
            spent[i] += c.report().elapsed - before;
            eprintln!("{}", c.report().summary());
        }
    }
    let _ = std::fs::remove_file(&in_flight);
    let _ = std::fs::remove_file(&in_flight_target);

    println!(
        "skillkit-fuzz report (seed {}, {} s per target, artifacts in {})",
        args.seed,
        args.seconds,
        artifacts.display()
    );
    let mut found = 0;
    for c in &campaigns {
        let r = c.report();
        println!("{}", r.summary());
        for f in &r.findings {
            found += 1;
            println!("  {}", f.summary());
        }
    }
    if found == 0 {
        println!("no panic, no invariant violation, no input over its time budget");
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Runs each of `targets` on each file and says what happened.
fn replay(fuzzer: &Fuzzer, targets: &[Target], files: &[PathBuf]) -> ExitCode {
    let mut bad = false;
    for file in files {
        let Ok(data) = std::fs::read(file) else {
            eprintln!("{}: cannot read", file.display());
            bad = true;
            continue;
        };
        for &t in targets {
            // Twice: the first run may pay for one-time set-up (token tables); the second is timed.
            let _ = exec(fuzzer, t, &data);
            match exec(fuzzer, t, &data) {
                Ok(o) => {
                    let budget = time_budget(data.len());
                    let slow = o.engine_time > budget;
                    bad |= slow;
                    println!(
                        "{} {}: ok, {} bytes, {:.1} ms (budget {:.0} ms){}",
                        t.name(),
                        file.display(),
                        data.len(),
                        o.engine_time.as_secs_f64() * 1e3,
                        budget.as_secs_f64() * 1e3,
                        if slow { " SLOW" } else { "" }
                    );
                }
                Err((message, place)) => {
                    bad = true;
                    println!("{} {}: PANIC at {place}: {message}", t.name(), file.display());
                }
            }
        }
    }
    if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes each target's seeds as files named by number, and the tokens as a libFuzzer dictionary.
fn export_seeds(repo: &Path, targets: &[Target], dir: &Path) -> std::io::Result<()> {
    for &t in targets {
        let sub = dir.join(t.name());
        std::fs::create_dir_all(&sub)?;
        let seeds = corpus::seeds(repo, t);
        for (i, s) in seeds.iter().enumerate() {
            std::fs::write(sub.join(format!("seed-{i:04}")), s)?;
        }
        eprintln!("{}: {} seeds in {}", t.name(), seeds.len(), sub.display());
    }
    let dict: String = skillkit_fuzz::mutate::TOKENS
        .iter()
        .map(|t| {
            let escaped: String = t
                .bytes()
                .map(|b| match b {
                    b'"' | b'\\' => format!("\\{}", b as char),
                    0x20..=0x7e => (b as char).to_string(),
                    _ => format!("\\x{b:02X}"),
                })
                .collect();
            format!("\"{escaped}\"\n")
        })
        .collect();
    std::fs::write(dir.join("tokens.dict"), dict)
}

/// Shrinks a panicking input: removes ever smaller chunks while the same panic (invariant and
/// place) still happens, and writes the result beside the file as `.min`.
fn minimize(fuzzer: &Fuzzer, targets: &[Target], file: &Path) -> ExitCode {
    let [target] = targets else {
        eprintln!("--minimize needs one --target");
        return ExitCode::from(2);
    };
    let Ok(mut data) = std::fs::read(file) else {
        eprintln!("{}: cannot read", file.display());
        return ExitCode::from(2);
    };
    if *target == Target::FormEdit {
        // Spelled out as `text NUL key NUL value`, so that shrinking the text keeps the same
        // key and value (otherwise they are chosen from the whole input's hash).
        data = skillkit_fuzz::form_edit::case(&data).to_bytes();
    }
    let class = |m: &str, p: &str| format!("{} at {p}", m.split(": ").next().unwrap_or(""));
    let Err((m, p)) = exec(fuzzer, *target, &data) else {
        eprintln!("{}: does not panic under {}", file.display(), target.name());
        return ExitCode::from(1);
    };
    let want = class(&m, &p);
    let mut chunk = data.len().div_ceil(2).max(1);
    loop {
        let mut at = 0;
        while at < data.len() {
            let mut smaller = data.clone();
            let removed: Vec<u8> = smaller.drain(at..(at + chunk).min(data.len())).collect();
            if *target == Target::FormEdit && removed.contains(&0) {
                at += chunk;
                continue;
            }
            match exec(fuzzer, *target, &smaller) {
                Err((m, p)) if class(&m, &p) == want => data = smaller,
                _ => at += chunk,
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    let out = file.with_extension("min");
    if let Err(e) = std::fs::write(&out, &data) {
        eprintln!("{}: {e}", out.display());
        return ExitCode::from(2);
    }
    let shown: String = String::from_utf8_lossy(&data).chars().take(2000).collect();
    println!("{} bytes -> {}\n{shown:?}", data.len(), out.display());
    ExitCode::SUCCESS
}

/// Stops the process when one input runs longer than `limit`, keeping the input as a hang.
fn watchdog(limit: Duration, in_flight: PathBuf, artifacts: PathBuf) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(1));
        let started = EXEC_STARTED_MS.load(Ordering::Relaxed);
        let now = skillkit_fuzz::driver::epoch().elapsed().as_millis() as u64;
        if started != 0 && now.saturating_sub(started) > limit.as_millis() as u64 {
            let saved = artifacts.join("hang.bin");
            let _ = std::fs::copy(&in_flight, &saved);
            eprintln!("an input has run for over {} s: saved as {}; stopping", limit.as_secs(), saved.display());
            std::process::exit(3);
        }
    });
}
