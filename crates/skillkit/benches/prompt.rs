//! Prompt preview speed: render the prompt of a 1,000-skill library for every agent that has one,
//! with its o200k_base token counts (per skill and in total), from a library already opened for
//! that agent (opening reads and lints every skill, and reads it the way the agent's loader does:
//! `Agent::read`, remembered per entry until the skill changes).
//! "warm": the re-render the Prompt pane does after a change (token counts of unchanged entries
//! are remembered); "cold": the first render, every token counted.
//! Target (issue #4): ≤ 5 ms per agent.

use criterion::{criterion_group, criterion_main, Criterion};
use skillkit::library::Library;
use skillkit::prompt::PromptOptions;
use skillkit::AGENTS;
use std::hint::black_box;

const WORDS: [&str; 24] = [
    "extract",
    "tables",
    "invoice",
    "report",
    "review",
    "schema",
    "deploy",
    "migrate",
    "summarize",
    "logs",
    "release",
    "notes",
    "pull",
    "request",
    "diagram",
    "query",
    "budget",
    "metrics",
    "alerts",
    "tests",
    "coverage",
    "docs",
    "style",
    "audit",
];

/// A library of `n` skills with varied names, 80–400-character descriptions and some optional
/// fields, written to a temporary folder.
fn library(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 7u64;
    let mut next = |m: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % m
    };
    for i in 0..n {
        let name = format!("{}-{}-{i:04}", WORDS[next(24)], WORDS[next(24)]);
        let mut desc = format!("{} {} from {} files.", WORDS[next(24)], WORDS[next(24)], WORDS[next(24)]);
        let target = 80 + next(320);
        while desc.len() < target {
            desc.push_str(&format!(" Use when the user mentions {} or {}.", WORDS[next(24)], WORDS[next(24)]));
        }
        let mut fm = format!("---\nname: {name}\ndescription: {desc}\n");
        if next(3) == 0 {
            fm.push_str("license: MIT\n");
        }
        if next(4) == 0 {
            fm.push_str("allowed-tools: Bash(git:*) Read\n");
        }
        fm.push_str(&format!("---\n\n# {name}\n\nFollow the steps.\n"));
        let d = dir.path().join(&name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), fm).unwrap();
    }
    dir
}

fn bench(c: &mut Criterion) {
    let dir = library(1_000);
    let sources = [dir.path().to_path_buf()];
    let options = PromptOptions::default();
    for agent in AGENTS.iter().filter(|a| a.prompt.is_some()) {
        let lib = Library::for_agent(&sources, agent);
        let p = agent.render(&lib, &options).unwrap();
        eprintln!(
            "{}: {} skills listed, {} bytes, {} o200k tokens",
            agent.id,
            p.skills.iter().filter(|s| s.range.is_some()).count(),
            p.text.len(),
            p.totals.tokens.o200k_base
        );
        c.bench_function(&format!("prompt 1000 skills {} warm", agent.id), |b| {
            b.iter(|| black_box(agent.render(black_box(&lib), &options)))
        });
        c.bench_function(&format!("prompt 1000 skills {} cold", agent.id), |b| {
            b.iter(|| {
                skillkit::syntax::tokens::clear_segment_cache();
                black_box(agent.render(black_box(&lib), &options))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
