//! Watch latency (issue #3 target: one changed file in a 10,000-skill library re-linted and its
//! event emitted ≤ 20 ms after the watcher flushes). Builds the library in a temporary folder,
//! opens it, then 50 times: rewrite one SKILL.md, `flush()`, and time `Library::apply` of the
//! delivered batch until the `SkillChanged` event is out. `SKILLKIT_BENCH_SKILLS` sets the size.

use skillkit::agents::SPEC;
use skillkit::library::watch::{WatchConfig, Watcher};
use skillkit::library::{Library, LibraryEvent};
use std::time::{Duration, Instant};

fn skill_text(i: usize, rev: usize) -> String {
    let mut s = format!(
        "---\nname: skill-{i:05}\ndescription: Handles task {i} revision {rev}. Use when the user asks about topic {i}.\nlicense: MIT\n---\n# Skill {i}\n\n"
    );
    for step in 1..=30 {
        s.push_str(&format!("{step}. Do step {step} of task {i}; see `scripts/run.py` for the details.\n"));
    }
    s
}

fn stats(mut v: Vec<Duration>) -> String {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        ms(v[v.len() / 2]),
        ms(v[v.len() * 95 / 100]),
        ms(v[v.len() - 1])
    )
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` asks benches to list their tests
    }
    let n: usize = std::env::var("SKILLKIT_BENCH_SKILLS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    for i in 0..n {
        let dir = root.join(format!("skill-{i:05}"));
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("SKILL.md"), skill_text(i, 0)).unwrap();
        std::fs::write(dir.join("scripts/run.py"), "print('run')\n").unwrap();
    }
    let t = Instant::now();
    let mut lib = Library::for_agent(std::slice::from_ref(&root), &SPEC);
    println!("opened {} skills in {:.0} ms", lib.entries.len(), t.elapsed().as_secs_f64() * 1000.0);
    let t = Instant::now();
    let (watcher, rx) = Watcher::new(std::slice::from_ref(&root), WatchConfig::default()).unwrap();
    println!("watching {} folders after {:.0} ms", 2 * n + 1, t.elapsed().as_secs_f64() * 1000.0);

    let (mut flushes, mut applies) = (vec![], vec![]);
    for round in 1..=50 {
        let i = (round * 197) % n;
        std::fs::write(root.join(format!("skill-{i:05}/SKILL.md")), skill_text(i, round)).unwrap();
        let t0 = Instant::now();
        watcher.flush().unwrap();
        let t1 = Instant::now();
        let mut events = vec![];
        while let Ok(batch) = rx.try_recv() {
            events.extend(lib.apply_changes_for_agent(&batch, &SPEC));
        }
        let t2 = Instant::now();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, LibraryEvent::SkillChanged { name, .. } if *name == format!("skill-{i:05}"))),
            "{events:?}"
        );
        let d = lib.get(&format!("skill-{i:05}")).unwrap().skill.frontmatter.str("description").unwrap().to_string();
        assert!(d.contains(&format!("revision {round}")));
        flushes.push(t1 - t0);
        applies.push(t2 - t1);
    }
    println!("flush (until the batch is delivered): {}", stats(flushes));
    println!("re-read + re-lint + event after flush: {}", stats(applies));
}
