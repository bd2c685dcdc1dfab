//! `skillkit matrix`: the library × agent matrix ([`skillkit::matrix`]) as a text table, JSON, or
//! Markdown for a README.

use super::one_line;
use skillkit::matrix::{Matrix, Miss, Status};
use skillkit::syntax::shown::Lines;
use std::io::Write;

/// One character per status in the text table.
fn glyph(s: Status) -> char {
    match s {
        Status::Full => '●',
        Status::Shortened => '◐',
        Status::NameOnly => '○',
        Status::Dropped => '▽',
        Status::Hidden => '◌',
        Status::Shadowed => '=',
        Status::Skipped => '✗',
        Status::NotDiscovered => '·',
    }
}

/// The Markdown table's mark for a status.
fn mark(s: Status) -> &'static str {
    match s {
        Status::Full => "✅",
        Status::Shortened => "✂️",
        Status::NameOnly => "🏷️",
        Status::Dropped => "⛔",
        Status::Hidden => "🙈",
        Status::Shadowed => "👥",
        Status::Skipped => "❌",
        Status::NotDiscovered => "➖",
    }
}

fn counts(m: &Matrix, a: usize) -> String {
    let c = &m.columns[a];
    let mut parts: Vec<String> =
        Status::ALL.iter().zip(&c.counts).filter(|(_, n)| **n > 0).map(|(s, n)| format!("{n} {}", s.label())).collect();
    if parts.is_empty() {
        parts.push("no skills".into());
    }
    if c.by_chance > 0 {
        parts.push(format!("{} by chance", c.by_chance));
    }
    parts.join(", ")
}

fn budget(m: &Matrix, a: usize) -> String {
    match &m.columns[a].budget {
        Some(b) => format!("; the listing needs {} of its {} {}", b.needed, b.limit, b.unit),
        None => String::new(),
    }
}

pub fn render_text(m: &Matrix, out: &mut dyn Write) -> std::io::Result<()> {
    let out = &mut Lines::new(out);
    let n = m.columns.len();
    writeln!(out, "{} skill{} × {} agent{}", m.rows.len(), plural(m.rows.len()), n, plural(n))?;
    for (a, c) in m.columns.iter().enumerate() {
        writeln!(out, "  {:>2} {:<14} {}: {}{}", a + 1, c.agent, one_line(&c.label), counts(m, a), budget(m, a))?;
    }
    writeln!(
        out,
        "  ● full  ◐ description shortened  ○ name only  ▽ dropped by the budget  ◌ hidden  = shadowed  ✗ skipped  · not discovered  ? depends on chance"
    )?;
    let names: Vec<String> = m.rows.iter().map(|r| one_line(&r.name).into_owned()).collect();
    let width = names.iter().map(|s| s.chars().count()).max().unwrap_or(0).clamp(5, 48);
    let mut head = format!("\n{:<width$} ", "skill");
    for a in 0..n {
        head.push_str(&format!("{:<3}", a + 1));
    }
    writeln!(out, "{}", head.trim_end())?;
    for (r, row) in m.rows.iter().enumerate() {
        let name: String = if names[r].chars().count() > width {
            names[r].chars().take(width - 1).chain(['…']).collect()
        } else {
            names[r].clone()
        };
        let mut line = format!("{name:<width$} ");
        for cell in &row.cells {
            line.push(glyph(cell.status));
            line.push(if cell.chance.is_some() { '?' } else { ' ' });
            line.push(' ');
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    // Why, for every cell short of a full listing, skill by skill.
    let mut first = true;
    for row in &m.rows {
        let why: Vec<(usize, &skillkit::matrix::Cell)> =
            row.cells.iter().enumerate().filter(|(_, c)| c.status != Status::Full || c.chance.is_some()).collect();
        if why.is_empty() {
            continue;
        }
        if first {
            writeln!(out, "\nwhy:")?;
            first = false;
        }
        writeln!(out, "  {} ({})", one_line(&row.name), one_line(&row.path))?;
        for (a, c) in why {
            let mut line = format!("    {:<14} {}", m.columns[a].agent, c.status.label());
            if let Some(r) = &c.reason {
                if r != c.status.label() {
                    line.push_str(&format!(": {}", one_line(r)));
                }
            }
            if let Some(ch) = &c.chance {
                line.push_str(&format!(" (depends on chance: {})", one_line(ch)));
            }
            writeln!(out, "{line}")?;
        }
    }
    out.finish()
}

/// A Markdown table: skills by agents, a mark per cell, for a README.
pub fn render_markdown(m: &Matrix, out: &mut dyn Write) -> std::io::Result<()> {
    let cell = |s: &str| md(s);
    let mut head = String::from("| skill |");
    let mut rule = String::from("|---|");
    for c in &m.columns {
        head.push_str(&format!(" {} |", cell(&c.title)));
        rule.push_str(":-:|");
    }
    writeln!(out, "{head}\n{rule}")?;
    for row in &m.rows {
        let mut line = format!("| `{}` |", cell(&row.name).replace('`', "'"));
        for c in &row.cells {
            let dice = if c.chance.is_some() { "🎲" } else { "" };
            line.push_str(&format!(" {}{dice} |", mark(c.status)));
        }
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    let legend: Vec<String> = Status::ALL.iter().map(|s| format!("{} {}", mark(*s), s.label())).collect();
    writeln!(out, "{} · 🎲 depends on chance", legend.join(" · "))?;
    writeln!(out)?;
    let versions: Vec<String> = m.columns.iter().map(|c| format!("{}: {}", md(&c.title), md(&c.source))).collect();
    writeln!(out, "Made with `skillkit matrix` against {}.", versions.join("; "))
}

/// Text for a Markdown table cell: control characters escaped, `|` and HTML made inert.
fn md(s: &str) -> String {
    one_line(s).replace('|', "\\|").replace('<', "&lt;").replace('>', "&gt;")
}

pub fn render_json(m: &Matrix, out: &mut dyn Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), m)?;
    writeln!(out)
}

/// The misses of a `--require` bar, one line each.
pub fn render_misses(misses: &[Miss<'_>], bar: &str, err: &mut dyn Write) -> std::io::Result<()> {
    let err = &mut Lines::new(err);
    for m in misses {
        let mut why = m.cell.status.label().to_string();
        if let Some(r) = m.cell.reason.as_deref().filter(|r| *r != m.cell.status.label()) {
            why.push_str(&format!(": {}", one_line(r)));
        }
        if let Some(ch) = &m.cell.chance {
            why.push_str(&format!(" (depends on chance: {})", one_line(ch)));
        }
        writeln!(
            err,
            "error: {} is not {bar} by {}: {why} ({})",
            one_line(&m.row.name),
            m.column.agent,
            one_line(&m.row.path)
        )?;
    }
    err.finish()
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
