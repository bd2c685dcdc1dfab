//! Token counting speed on the repository's Markdown (docs/ and skills/, and the shared corpus of
//! real skills when it is beside the repository): the exact o200k_base and cl100k_base counts
//! against `bpe-openai`'s, and the fast estimate (what SK502 runs on every long body). Each is
//! one pass over all the texts joined; criterion reports the time, and the bench prints the µs
//! per KB.

use criterion::{criterion_group, criterion_main, Criterion};
use skillkit::syntax::tokens;
use std::hint::black_box;
use std::path::Path;

fn text_files(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            text_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "md" || x == "txt" || x == "markdown") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                out.push(text);
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![];
    for dir in ["docs", "skills", "../shared/corpus"] {
        text_files(&root.join(dir), &mut files);
    }
    let all = files.join("\n");
    let kb = all.len() as f64 / 1024.0;
    println!("tokens: {} files, {kb:.0} KB", files.len());
    let o200k = bpe_openai::o200k_base();
    let cl100k = bpe_openai::cl100k_base();
    assert_eq!(tokens::count_o200k(&all), o200k.count(&all), "the same o200k count as bpe-openai");
    let mut g = c.benchmark_group("tokens");
    g.sample_size(10);
    g.bench_function("count_o200k", |b| b.iter(|| tokens::count_o200k(black_box(&all))));
    g.bench_function("bpe-openai o200k", |b| b.iter(|| o200k.count(black_box(&all))));
    g.bench_function("count_cl100k", |b| b.iter(|| tokens::count_cl100k(black_box(&all))));
    g.bench_function("bpe-openai cl100k", |b| b.iter(|| cl100k.count(black_box(&all))));
    g.bench_function("estimate", |b| b.iter(|| tokens::estimate(black_box(&all))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
