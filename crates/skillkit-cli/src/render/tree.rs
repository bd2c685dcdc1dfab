//! `skillkit tree`: the library as text or JSON: sources in priority order, each skill's status,
//! who hides whom, and each skill's files with the agents that would discover them.

use super::one_line;
use serde_json::{json, Value};
use skillkit::library::{Entry, Library};
use skillkit::resources::{discovered_by, scan_within, ResourceView, Resources, ScanOptions};
use skillkit::syntax::shown::Lines;
use skillkit::{Agent, Severity};
use std::io::Write;
use std::path::Path;

/// The skill's files with sizes and token counts; symlinks are followed inside the library only.
fn details(lib: &Library, e: &Entry) -> Resources {
    let opts = ScanOptions { read_contents: true, ..Default::default() };
    scan_within(&e.skill.dir, &e.skill.file_name, opts, &lib.roots())
}

fn size(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else {
        format!("{:.1} KiB", n as f64 / 1024.0)
    }
}

fn status(e: &Entry) -> String {
    let count = |s| e.diagnostics.iter().filter(|d| d.severity == s).count();
    let (err, warn) = (count(Severity::Error), count(Severity::Warning));
    match (err, warn) {
        (0, 0) => "ok".into(),
        (0, w) => format!("{w} warning{}", if w == 1 { "" } else { "s" }),
        (e, 0) => format!("{e} error{}", if e == 1 { "" } else { "s" }),
        (e, w) => format!("{e} error{}, {w} warning{}", if e == 1 { "" } else { "s" }, if w == 1 { "" } else { "s" }),
    }
}

pub fn render_text(
    lib: &Library,
    agent: &Agent,
    display: &dyn Fn(&Path) -> String,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let out = &mut Lines::new(out);
    // Names and paths are the library's: each shown on one line, before it is padded.
    let path = |p: &Path| one_line(&display(p)).into_owned();
    writeln!(out, "Library for `{}` (later sources win a name clash)", agent.id)?;
    let nested = skillkit::verdict::nested_in(lib);
    for (i, s) in lib.sources.iter().enumerate() {
        let n = lib.entries.iter().filter(|e| e.source == i).count();
        let note = if s.exists { format!("{n} skill{}", if n == 1 { "" } else { "s" }) } else { "missing".into() };
        writeln!(out, "  {}. {}  ({note})", i + 1, path(&s.path))?;
    }
    for (i, s) in lib.sources.iter().enumerate() {
        let entries: Vec<(usize, &Entry)> = lib.entries.iter().enumerate().filter(|(_, e)| e.source == i).collect();
        if entries.is_empty() {
            continue;
        }
        writeln!(out, "\n{}. {}", i + 1, path(&s.path))?;
        for (n, e) in entries {
            let mut line = format!("  {}  [{}]", one_line(&e.key), status(e));
            if let Some(o) = &nested[n] {
                line.push_str(&format!(
                    "  nested in {}: discovered by {} only",
                    path(o),
                    skillkit::verdict::nested_discovered_by().join(", ")
                ));
            }
            if let Some(by) = e.shadowed_by {
                let w = &lib.entries[by];
                line.push_str(&format!(
                    "  hidden by {} in source {} ({})",
                    one_line(&w.key),
                    w.source + 1,
                    path(&w.listed_as)
                ));
            }
            writeln!(out, "{line}")?;
            let res = details(lib, e);
            let seen_by = discovered_by(&res);
            writeln!(
                out,
                "    {:<40} {:<9} {:>9}",
                one_line(&e.skill.file_name),
                "skill",
                size(e.skill.text.len() as u64)
            )?;
            for (f, seen) in res.files.iter().zip(&seen_by) {
                let tokens = f.tokens.map_or(String::new(), |t| format!("{t} tok"));
                let marks = ResourceView::ALL
                    .iter()
                    .map(|v| if seen.contains(&v.id()) { format!("+{}", v.id()) } else { format!("-{}", v.id()) })
                    .collect::<Vec<_>>()
                    .join(" ");
                writeln!(
                    out,
                    "    {:<40} {:<9} {:>9} {:>9}  {marks}",
                    one_line(&f.path),
                    f.kind.as_str(),
                    size(f.size.unwrap_or(0)),
                    tokens
                )?;
            }
            for p in &res.problems {
                writeln!(out, "    ! {}: {}", one_line(&p.path), one_line(&p.message))?;
            }
        }
    }
    for issue in &lib.issues {
        writeln!(out, "\n! source {}: {}: {}", issue.source + 1, path(&issue.path), one_line(&issue.message))?;
    }
    let active = lib.active().count();
    let hidden = lib.entries.len() - active;
    writeln!(
        out,
        "\n{} skills, {active} active, {hidden} hidden; marks: +agent discovers the file, -agent does not",
        lib.entries.len()
    )?;
    out.finish()
}

pub fn render_json(
    lib: &Library,
    agent: &Agent,
    display: &dyn Fn(&Path) -> String,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let nested = skillkit::verdict::nested_in(lib);
    let skills: Vec<Value> = lib
        .entries
        .iter()
        .enumerate()
        .map(|(n, e)| {
            let res = details(lib, e);
            let seen_by = discovered_by(&res);
            let count = |s| e.diagnostics.iter().filter(|d| d.severity == s).count();
            json!({
                "name": e.key,
                "source": e.source + 1,
                "path": display(&e.skill.path()),
                "valid": e.is_valid(),
                "errors": count(Severity::Error),
                "warnings": count(Severity::Warning),
                "nested_in": nested[n].as_ref().map(|o| display(o)),
                "shadowed_by": e.shadowed_by.map(|i| {
                    let w = &lib.entries[i];
                    json!({"name": w.key, "source": w.source + 1, "path": display(&w.skill.path())})
                }),
                "files": res.files.iter().zip(&seen_by).map(|(f, seen)| json!({
                    "path": f.path, "kind": f.kind, "size": f.size, "text": f.text, "tokens": f.tokens,
                    "visible_to": seen,
                })).collect::<Vec<_>>(),
                "problems": res.problems,
                "truncated": res.truncated,
            })
        })
        .collect();
    let doc = json!({
        "agent": agent.id,
        "discovery": lib.policy,
        "sources": lib.sources.iter().map(|s| json!({"path": display(&s.path), "exists": s.exists})).collect::<Vec<_>>(),
        "skills": skills,
        "issues": lib.issues.iter().map(|i| json!({"source": i.source + 1, "path": display(&i.path), "message": i.message})).collect::<Vec<_>>(),
        "views": ResourceView::ALL.iter().map(|v| v.id()).collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), &doc)?;
    writeln!(out)
}
