//! Lint speed: a realistic 200-line and 5,000-line SKILL.md, parsed and linted from text under
//! the `spec` profile (the path every keystroke in the editor takes).
//! Targets (issue #2): 200 lines ≤ 100 µs, 5,000 lines ≤ 10 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use skillkit::{agents::SPEC, lint, Skill};
use std::hint::black_box;

/// A SKILL.md of `lines` lines: full frontmatter, headings, prose, lists, code blocks, links.
pub fn skill_text(lines: usize) -> String {
    let mut s = String::from(
        "---\nname: pdf-tables\ndescription: Extracts tables from PDF files into CSV or Markdown. Use when the user asks to pull tables, figures or numbers out of a PDF.\nlicense: Apache-2.0\ncompatibility: Requires python3 and pdfplumber\nmetadata:\n  author: docs-team\n  version: \"2.1\"\nallowed-tools: Bash(python3:*) Read\n---\n# PDF tables\n\n",
    );
    let chunk = [
        "## Step {n}: check the input",
        "",
        "Open the file with `scripts/extract.py` and read the page count first. Scanned pages have no",
        "text layer; tell the user instead of guessing. See [the reference](references/REFERENCE.md).",
        "",
        "- Keep the header row of every table, even when it repeats on later pages.",
        "- Convert units only when the user asks; otherwise copy numbers exactly, 1,234.50 stays 1,234.50.",
        "- Merge tables split across pages when their columns match.",
        "",
        "```bash",
        "python3 scripts/extract.py input.pdf --pages 1-{n} --format csv > out.csv",
        "```",
        "",
    ];
    let mut n = 0;
    while s.lines().count() < lines {
        n += 1;
        for l in chunk {
            s.push_str(&l.replace("{n}", &n.to_string()));
            s.push('\n');
        }
    }
    let keep: Vec<&str> = s.lines().take(lines).collect();
    keep.join("\n") + "\n"
}

fn bench(c: &mut Criterion) {
    for lines in [200, 5_000] {
        let text = skill_text(lines);
        c.bench_function(&format!("parse+lint {lines} lines"), |b| {
            b.iter(|| {
                let skill = Skill::parse("/skills/pdf-tables", "SKILL.md", black_box(text.clone()));
                black_box(lint(&skill, &SPEC))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
