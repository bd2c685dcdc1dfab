//! Session simulator speed: a 1,000-step session over a 1,000-skill library (DeepAgents V2,
//! max_loaded_skills 10, RESTRICT): loads to the limit, refused loads, unloads and reloads,
//! tool calls judged by the policy, unknown skills; each step with its exact result text, token
//! counts, the prompt kept current and the context used. Opening the library is not timed.
//! Target (issue #5): ≤ 100 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use skillkit::session::{Policy, Session, Settings, Step};
use std::hint::black_box;
use std::path::PathBuf;

/// `n` skills with 30-line bodies, some with resources and `allowed-tools`.
fn library(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        let name = format!("skill-{i:04}");
        let d = dir.path().join(&name);
        std::fs::create_dir_all(&d).unwrap();
        let tools = if i % 3 == 0 { "allowed-tools: Read Grep Bash(git:*)\n" } else { "" };
        let mut body = format!("# Skill {i}\n\n");
        for k in 0..14 {
            body.push_str(&format!(
                "{k}. Check input number {k} of skill {i}, then write the result with `scripts/run.py`.\n   Keep the header row and the units.\n"
            ));
        }
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Handles task {i}, reads the input and writes a short report. Use when the user asks for task {i}.\n{tools}---\n\n{body}"),
        )
        .unwrap();
        if i % 2 == 0 {
            std::fs::create_dir_all(d.join("scripts")).unwrap();
            std::fs::write(d.join("scripts/run.py"), "print('ok')\n").unwrap();
        }
    }
    dir
}

/// 1,000 steps in 40 cycles of 25: twelve loads (ten fill the slots, two are refused at the
/// limit), a tool call the loaded skills allow and one RESTRICT blocks, a load of a skill already
/// loaded, an unknown skill, and nine unloads plus one of a skill not loaded.
fn steps(n: usize) -> Vec<Step> {
    let skill = |k: usize| format!("skill-{:04}", k % 1000);
    let mut out = vec![];
    let mut cycle = 0;
    while out.len() < n {
        let k = cycle * 12;
        for j in 0..12 {
            out.push(Step::Load { skill: skill(k + j) });
        }
        out.push(Step::Tool { name: "Bash".into(), args: serde_json::json!({"command": "git status"}) });
        out.push(Step::Tool { name: "Write".into(), args: serde_json::json!({"file_path": "/tmp/x"}) });
        out.push(Step::Load { skill: skill(k) });
        out.push(Step::Load { skill: format!("missing-{cycle}") });
        for j in 0..9 {
            out.push(Step::Unload { skill: skill(k + j) });
        }
        out.push(Step::Unload { skill: skill(k + 11) });
        // The tenth stays loaded into the next cycle, which then refuses three loads.
        cycle += 1;
    }
    out.truncate(n);
    out
}

fn bench(c: &mut Criterion) {
    let dir = library(1_000);
    let sources = [PathBuf::from(dir.path())];
    let agent = skillkit::find_agent("deepagents-v2").unwrap();
    let settings = Settings { policy: Policy::Restrict, ..Settings::default() };
    let script = steps(1_000);
    let fresh = || Session::new(agent, &sources, settings.clone());
    {
        let mut s = fresh();
        for st in script.clone() {
            s.apply(st);
        }
        let errors = s.turns.iter().filter(|t| t.outcome.is_error).count();
        let last = s.turns.last().unwrap();
        eprintln!(
            "1,000 steps: {errors} errors, {} loaded at the end, context {} tokens",
            last.loaded.len(),
            last.usage.total.tokens
        );
    }
    c.bench_function("session 1000 steps over 1000 skills (deepagents-v2)", |b| {
        b.iter_batched(
            fresh,
            |mut s| {
                for st in script.iter().cloned() {
                    s.apply(st);
                }
                black_box(s.turns.len())
            },
            criterion::BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
