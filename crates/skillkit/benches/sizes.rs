//! Hostile sizes (issue #19, "Safe to open any library"): a frontmatter of 200,000 keys (over
//! the YAML tree's node cap, so read line by line) and of 49,000 keys each twice (parsed, every
//! repeat a duplicate key), the preview of lists and of block quotes nested 100,000 deep, and a
//! 9 MB SKILL.md parsed and linted from text and checked from disk with its folder.
//! Targets: each well under a second (the preview of 100,000-deep nesting: ≤ 1 s).
//! The end-to-end tests in `tests/tests/hostile_sizes.rs` guard the same cases against hangs.

use criterion::{criterion_group, criterion_main, Criterion};
use skillkit::preview::{render, PreviewLimits};
use skillkit::{agents::SPEC, lint, Skill};
use std::hint::black_box;
use std::time::Duration;

#[path = "../../../tests/src/hostile_input.rs"]
mod hostile_input;
use hostile_input::nine_megabytes;

fn with_keys(keys: impl Iterator<Item = String>) -> String {
    let mut text = String::from("---\nname: many-keys\ndescription: Formats tables. Use when asked for a table.\n");
    for k in keys {
        text.push_str(&k);
        text.push_str(": value\n");
    }
    text.push_str("---\n# Tables\n\nBody.\n");
    text
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("sizes");
    g.sample_size(10).measurement_time(Duration::from_secs(10));

    for (name, text) in [
        ("200k keys", with_keys((0..200_000).map(|i| format!("key{i}")))),
        ("49k keys each twice", with_keys((0..49_000).map(|i| format!("key{}", i % 24_500)))),
    ] {
        g.bench_function(format!("parse+lint {name}"), |b| {
            b.iter(|| {
                let skill = Skill::parse("/skills/many-keys", "SKILL.md", black_box(text.clone()));
                black_box(lint(&skill, &SPEC))
            })
        });
    }

    let tmp = tempfile::tempdir().unwrap();
    for (name, body) in [
        ("100k-deep lists", format!("{}x\n", "- ".repeat(100_000))),
        ("100k-deep block quotes", format!("{} x\n", ">".repeat(100_000))),
    ] {
        let text = format!("---\nname: deep\ndescription: d\n---\n{body}");
        g.bench_function(format!("preview {name}"), |b| {
            b.iter(|| {
                let p = render(tmp.path(), black_box(&text), PreviewLimits::default());
                assert!(p.refused.is_some());
                black_box(p)
            })
        });
    }

    let text = nine_megabytes();
    g.bench_function("parse+lint 9 MB", |b| {
        b.iter(|| {
            let skill = Skill::parse("/skills/big", "SKILL.md", black_box(text.clone()));
            black_box(lint(&skill, &SPEC))
        })
    });
    let dir = tmp.path().join("big");
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(dir.join("references/guide.md"), "# Guide\n").unwrap();
    std::fs::write(dir.join("SKILL.md"), &text).unwrap();
    g.bench_function("check 9 MB (read, resources, lint)", |b| {
        b.iter(|| black_box(skillkit::check::check_paths(std::slice::from_ref(&dir), &SPEC).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
