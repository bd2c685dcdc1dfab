//! The scores of `competing-descriptions` (SK705) on real libraries, to choose its threshold:
//! `bench/overlap.sh` runs it on each library of the corpus. For each folder given (one library;
//! the IDF is the library's), every pair of skills whose trigger clauses score at least `--floor`
//! (default 0.2), then the distribution and the count of pairs and of skills above each candidate
//! threshold; with `--pairs T`, the pairs at or above T, highest first, with their shared words.
//! Nothing it prints is kept in the repository.

use skillkit::library::overlap::{competing, trigger_clause};
use skillkit::library::{Keep, Library, LoadOptions};
use std::path::PathBuf;

fn main() {
    let mut floor = 0.2f32;
    let mut show: Option<f32> = None;
    let mut clauses = false;
    let mut libs = vec![];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--floor" => floor = args.next().and_then(|v| v.parse().ok()).expect("--floor X"),
            "--pairs" => show = Some(args.next().and_then(|v| v.parse().ok()).expect("--pairs T")),
            "--clauses" => clauses = true,
            _ => libs.push(PathBuf::from(a)),
        }
    }
    let candidates = [0.3f32, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9];
    println!(
        "| library | skills | with a trigger clause | {} |",
        candidates.map(|t| format!("pairs ≥ {t} (skills)")).join(" | ")
    );
    println!("|---|---|---|{}", "---|".repeat(candidates.len()));
    let mut listing = vec![];
    for lib in &libs {
        let l = Library::load(
            std::slice::from_ref(lib),
            LoadOptions::CHECK.keeping(Keep::Unlinted),
            &skillkit::agents::SPEC,
        );
        let descs: Vec<Option<String>> =
            l.entries.iter().map(|e| e.skill.frontmatter.str("description").map(str::to_string)).collect();
        let refs: Vec<Option<&str>> = descs.iter().map(|d| d.as_deref()).collect();
        let with_clause = refs.iter().flatten().filter(|d| trigger_clause(d).start > 0).count();
        let t = std::time::Instant::now();
        let pairs = competing(&refs, floor);
        let took = t.elapsed();
        let cells: Vec<String> = candidates
            .iter()
            .map(|&c| {
                let above: Vec<_> = pairs.iter().filter(|p| p.score >= c).collect();
                let skills: std::collections::HashSet<usize> =
                    above.iter().flat_map(|p| [p.earlier, p.later]).collect();
                format!("{} ({})", above.len(), skills.len())
            })
            .collect();
        let name = lib.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        println!("| {name} | {} | {with_clause} | {} |", l.entries.len(), cells.join(" | "));
        eprintln!("{name}: {} pairs ≥ {floor} scored in {took:?}", pairs.len());
        if let Some(min) = show {
            for p in pairs.iter().filter(|p| p.score >= min) {
                let n = |i: usize| l.entries[i].key.clone();
                let c = |i: usize| {
                    let d = refs[i].unwrap_or("");
                    d[trigger_clause(d)].to_string()
                };
                listing.push((
                    p.score,
                    name.clone(),
                    n(p.earlier),
                    n(p.later),
                    p.shared.join(", "),
                    c(p.earlier),
                    c(p.later),
                ));
            }
        }
    }
    listing.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (score, lib, a, b, shared, ca, cb) in listing {
        println!("\n{score:.3} {lib}: {a} ~ {b} [{shared}]");
        if clauses {
            println!("  A: {ca}\n  B: {cb}");
        }
    }
}
