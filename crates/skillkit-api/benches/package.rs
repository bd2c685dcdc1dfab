//! The Package view's speed: `Studio::package_targets` on an opened library of 500 skills (each a
//! `SKILL.md` and a script), which lists every package of the four targets with what would refuse
//! it and its size against the upload's limits (issue #35). What it does per call: check the
//! library's skills, list each skill's files, judge each upload archive by the upload's rules.

use criterion::{criterion_group, criterion_main, Criterion};
use skillkit_api::studio::PackageTargets;
use skillkit_api::{MemoryHost, Startup, Studio};
use std::hint::black_box;
use std::sync::Arc;

const SKILLS: usize = 500;

fn library(root: &std::path::Path) -> String {
    for i in 0..SKILLS {
        let dir = root.join(format!("skill-{i:03}"));
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: skill-{i:03}\ndescription: Packs report {i}. Use when the user asks for report {i}.\n---\n# Report {i}\n\nRun `scripts/run.sh` and summarize what it prints.\n"
            ),
        )
        .unwrap();
        std::fs::write(dir.join("scripts/run.sh"), format!("echo report {i}\n")).unwrap();
    }
    root.canonicalize().unwrap().to_string_lossy().into_owned()
}

fn bench(c: &mut Criterion) {
    let t = tempfile::tempdir().unwrap();
    let lib = library(&t.path().join("lib"));
    let host = Arc::new(MemoryHost::default());
    let studio = Studio::new(Startup { sources: vec![lib.clone()], agent: "spec".into(), examples: None }, host);
    studio
        .open_library(skillkit_api::studio::OpenLibrary { sources: vec![lib.clone()], agent: "spec".into() })
        .unwrap();
    let view = studio.package_targets(PackageTargets { sources: vec![lib.clone()] }).unwrap();
    assert_eq!(view.rows.len(), SKILLS + 3, "500 uploads and three plugins");
    let mut g = c.benchmark_group("package");
    g.sample_size(20);
    g.bench_function("package_targets_500_skills", |b| {
        b.iter(|| black_box(studio.package_targets(PackageTargets { sources: vec![lib.clone()] }).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
