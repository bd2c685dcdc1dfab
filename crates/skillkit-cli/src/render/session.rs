//! `skillkit simulate`: a session's transcript as text (for people) or JSON (for tools). The
//! transcript quotes the library's skills and the model's replies: the text form shows them as
//! [`Lines`] does, each name and call on one line.

use super::one_line;
use skillkit::session::{Session, Size, Turn};
use skillkit::syntax::shown::Lines;
use std::io::{self, Write};

/// `v` with a comma between thousands: 14,532.
pub(crate) fn thousands(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn size(s: Size) -> String {
    format!("{} chars, {} tokens", n(s.chars), n(s.tokens))
}

fn n(v: usize) -> String {
    thousands(v as u64)
}

fn quoted(out: &mut dyn Write, text: &str) -> io::Result<()> {
    for line in text.split('\n') {
        writeln!(out, "    │ {line}")?;
    }
    Ok(())
}

fn turn(out: &mut dyn Write, t: &Turn, max_loaded: usize, agent: &str) -> io::Result<()> {
    let status = if t.outcome.is_error { "error" } else { "ok" };
    writeln!(out, "[{}] {}", t.index, one_line(&t.outcome.call))?;
    let loaded = if t.loaded.is_empty() { "none".to_string() } else { one_line(&t.loaded.join(", ")).into_owned() };
    let slots = if agent == "deepagents-v2" { format!(" ({}/{max_loaded})", t.loaded.len()) } else { String::new() };
    writeln!(out, "    {status} · result {} · loaded: {loaded}{slots}", size(t.cost))?;
    if let Some(note) = &t.outcome.note {
        writeln!(out, "    note: {}", one_line(note))?;
    }
    if !t.outcome.result.is_empty() {
        quoted(out, &t.outcome.result)?;
    }
    for b in &t.outcome.blocks {
        writeln!(out, "    ├── next block")?;
        quoted(out, b)?;
    }
    if !t.prompt_changes.is_empty() {
        writeln!(out, "    prompt now {}; changed lines:", size(t.usage.prompt))?;
        for l in &t.prompt_changes {
            writeln!(out, "      {}", one_line(l))?;
        }
    }
    writeln!(
        out,
        "    context: {} of {} ({:.2}%)",
        size(t.usage.total),
        n(t.usage.context_window as usize),
        t.usage.percent
    )?;
    writeln!(out)
}

pub fn render_text(s: &Session, sources: &[String], out: &mut dyn Write) -> io::Result<()> {
    let out = &mut Lines::new(out);
    let st = &s.settings;
    writeln!(out, "session: {} · sources: {}", s.agent.id, one_line(&sources.join(", ")))?;
    let mut settings =
        vec![format!("max loaded skills {}", st.max_loaded_skills), format!("policy {:?}", st.policy).to_lowercase()];
    if let Some(b) = st.char_budget {
        settings.push(format!("listing budget {b}"));
    }
    if !st.allow.is_empty() {
        settings.push(format!("allow {}", one_line(&st.allow.join(" "))));
    }
    writeln!(out, "settings: {}", settings.join(" · "))?;
    let p = Size::of(&s.initial_prompt);
    writeln!(out, "prompt at the start: {}\n", size(p))?;
    for t in &s.turns {
        turn(out, t, st.max_loaded_skills, s.agent.id)?;
    }
    let last = s.turns.last().map_or(p, |t| t.usage.total);
    writeln!(out, "end: {} steps · context used {}", s.turns.len(), size(last))?;
    out.finish()
}

pub fn render_json(s: &Session, sources: &[String], out: &mut dyn Write) -> io::Result<()> {
    let v = serde_json::json!({
        "agent": s.agent.id,
        "sources": sources,
        "settings": s.settings,
        "initial_prompt": s.initial_prompt,
        "turns": s.turns,
        "final_prompt": s.prompt_text(),
    });
    serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), &v)?;
    writeln!(out)
}
