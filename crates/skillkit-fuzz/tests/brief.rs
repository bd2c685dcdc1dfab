//! The brief fuzzing run of the test suite: every target on its whole seed corpus (read from the
//! repository's fixtures) and then on a fixed number of seeded mutations, so that every run tries
//! the same inputs. A panic, a broken invariant, or an input over its time budget fails the test
//! with the input's summary. The budget is for release builds; a debug build (the engine at
//! opt-level 1, this crate at 0) gets ten times as much.

use skillkit_fuzz::driver::{run, Config, Stop};
use skillkit_fuzz::{corpus, Fuzzer, Options, Target};

/// Mutated inputs per target: a few thousand in all, sized so the four targets take ~20 s
/// together in a debug build on two cores.
fn mutations(target: Target) -> u64 {
    match target {
        Target::Lint => 1000,
        Target::Preview => 1500,
        Target::FormEdit => 2000,
        Target::SessionScript => 600,
        Target::NamedPaths => 600,
    }
}

fn brief(target: Target) {
    let fuzzer = Fuzzer::new(Options::default()).unwrap();
    let seeds = corpus::seeds(&skillkit_fuzz::repo_root(), target);
    assert!(!seeds.is_empty(), "no seeds for {target:?}: is the repository there?");
    let config = Config {
        seed: 19,
        stop: Stop::Inputs(mutations(target)),
        max_len: 8 * 1024,
        time_factor: if cfg!(debug_assertions) { 10.0 } else { 1.0 },
        artifacts: None,
        corpus: None,
        progress: None,
        in_flight: None,
    };
    let report = run(&fuzzer, target, seeds, &config);
    eprintln!("{}", report.summary());
    assert!(report.execs as usize >= report.seeds + mutations(target) as usize);
    let findings: Vec<String> = report
        .findings
        .iter()
        .map(|f| {
            let input: String = String::from_utf8_lossy(&f.input).chars().take(600).collect();
            format!("{}\n    input: {input:?}", f.summary())
        })
        .collect();
    assert!(findings.is_empty(), "{}:\n{}", target.name(), findings.join("\n"));
}

#[test]
fn lint_keeps_its_invariants_on_seeds_and_mutations() {
    brief(Target::Lint);
}

#[test]
fn preview_never_has_active_content_on_seeds_and_mutations() {
    brief(Target::Preview);
}

#[test]
fn form_edits_read_back_on_seeds_and_mutations() {
    brief(Target::FormEdit);
}

#[test]
fn session_scripts_parse_run_and_round_trip_on_seeds_and_mutations() {
    brief(Target::SessionScript);
}

#[test]
fn paths_a_library_names_stay_inside_its_project_on_seeds_and_mutations() {
    brief(Target::NamedPaths);
}
