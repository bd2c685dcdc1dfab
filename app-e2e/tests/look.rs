//! How the real window looks, measured in it: at 1024×768, 1280×800 and 1920×1080, in the light
//! and the dark theme, the editor is the widest pane, no control lies outside the window, is cut
//! by a box that does not scroll, or overlaps another; every text colour reaches 4.5:1 against
//! what it is drawn on (3:1 for large text, and for the borders of controls); and axe-core finds
//! no serious or critical violation. Screenshots of each size and theme are taken;
//! `SKILL_STUDIO_SCREENSHOTS=1 cargo test -p app-e2e --test look` writes them into
//! `docs/screenshots/` for the README and the book. Then with every toggle on (Library, Problems, side panel,
//! form, preview) at 1024×768: the text column keeps 480 px, nothing is cut (controls, headings,
//! labels), in the window and in each side tab opened over the editor. The display must be at least 1920×1080
//! (`xvfb-run -s "-screen 0 1920x1080x24"`, as `scripts/test` runs it).

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

const PORT: u16 = 4644;
const SIZES: [(u32, u32); 3] = [(1024, 768), (1280, 800), (1920, 1080)];

/// The measuring script: returns the problems it finds as strings (empty when the window is fine).
const MEASURE: &str = r#"
const [what] = arguments;
const out = [];
const name = (e) => {
  const id = e.getAttribute('data-testid') || e.id || e.getAttribute('aria-label') || (e.textContent || '').trim().slice(0, 30);
  return `${e.tagName.toLowerCase()}[${id}]`;
};
const shown = (e) => {
  if (e.closest('[hidden], [inert], [aria-hidden=true]')) return false;
  for (let a = e; a; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return false;
    if (a.tagName === 'DETAILS' && !a.open && a !== e && !e.closest('summary')) return false;
  }
  return true;
};
// The part of `e` one can see: cut by the boxes that scroll (the rest is reached by scrolling);
// a box that clips without scrolling must hold all of it, or the control is cut.
const seen = (e) => {
  let r = e.getBoundingClientRect();
  r = { l: r.left, t: r.top, r: r.right, b: r.bottom };
  if (r.r - r.l < 1 || r.b - r.t < 1) return null;
  for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    const cs = getComputedStyle(a);
    const clipsX = cs.overflowX !== 'visible', clipsY = cs.overflowY !== 'visible';
    if (!clipsX && !clipsY) continue;
    const b = a.getBoundingClientRect();
    const scrolls = /(auto|scroll)/.test(cs.overflowX + cs.overflowY);
    if (scrolls) {
      if (clipsX) { r.l = Math.max(r.l, b.left); r.r = Math.min(r.r, b.right); }
      if (clipsY) { r.t = Math.max(r.t, b.top); r.b = Math.min(r.b, b.bottom); }
      if (r.r - r.l < 1 || r.b - r.t < 1) return null;
    } else if ((clipsX && (r.l < b.left - 1 || r.r > b.right + 1)) || (clipsY && (r.t < b.top - 1 || r.b > b.bottom + 1))) {
      return { cut: name(a) };
    }
  }
  return r;
};
const interactive = [...document.querySelectorAll(
  'button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"]), [role=separator], [contenteditable=true]'
)].filter((e) => shown(e) && !e.disabled);

if (what === 'layout') {
  const boxes = [];
  for (const e of interactive) {
    const r = seen(e);
    if (r === null) continue;
    if (r.cut) { out.push(`${name(e)} is cut by ${r.cut}`); continue; }
    if (r.l < -1 || r.t < -1 || r.r > innerWidth + 1 || r.b > innerHeight + 1) {
      out.push(`${name(e)} lies outside the ${innerWidth}×${innerHeight} window: ${Math.round(r.l)},${Math.round(r.t)}–${Math.round(r.r)},${Math.round(r.b)}`);
    }
    boxes.push([e, r]);
    // A button's own label fits in it.
    if (e.tagName === 'BUTTON' && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)) {
      out.push(`${name(e)}'s label is cut: ${e.scrollWidth}×${e.scrollHeight} in ${e.clientWidth}×${e.clientHeight}`);
    }
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(p.r, q.r) - Math.max(p.l, q.l), h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
    if (w > 1 && h > 1) out.push(`${name(a)} overlaps ${name(b)} by ${Math.round(w)}×${Math.round(h)}`);
  }
  const width = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().width : 0; };
  const editor = width('section.editor'), library = width('#panel-library'), side = width('#panel-side.drawer') ? 0 : width('#panel-side');
  if (!(editor > library && editor > side)) out.push(`the editor (${editor} px) is not the widest pane (library ${library}, side ${side})`);
  // The text column keeps a readable width whatever is beside it.
  const text = width('.cm-host');
  if (document.querySelector('.cm-host') && text < 480) out.push(`the text column is ${Math.round(text)} px wide (480 at least)`);
  // Headings and labels are not cut either (a box that clips them without scrolling).
  for (const e of document.querySelectorAll('h1, h2, h3, [data-testid=preview] p, label, legend, .pane-title')) {
    if (!shown(e) || e.closest('[data-testid=editor] .cm-editor')) continue;
    const r = seen(e);
    if (r && r.cut) out.push(`${name(e)} is cut by ${r.cut}`);
  }
  return out;
}

// Contrast (WCAG 2): the text's colour over the backgrounds behind it.
const rgba = (s) => { const m = s.match(/[\d.]+/g); return m ? [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1] : [0, 0, 0, 0]; };
const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
const background = (e) => {
  const layers = [];
  for (let a = e; a; a = a.parentElement) {
    const c = rgba(getComputedStyle(a).backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let bg = [255, 255, 255, 1];
  for (const l of layers.reverse()) bg = over(l, bg);
  return bg;
};
const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
let texts = 0;
for (const e of document.querySelectorAll('body *')) {
  if (!shown(e) || e.closest(':disabled, [aria-disabled=true]')) continue;
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
  if (own && seen(e) !== null) {
    const cs = getComputedStyle(e);
    const bg = background(e);
    const fg = over(rgba(cs.color), bg);
    const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight, 10) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    const r = ratio(fg, bg);
    texts++;
    if (r < need - 0.005) out.push(`${name(e)} "${e.textContent.trim().slice(0, 24)}": ${cs.color} on rgb(${bg.slice(0, 3).map(Math.round)}) is ${r.toFixed(2)}:1, needs ${need}:1`);
  }
  if (/^(BUTTON|SELECT|INPUT|TEXTAREA)$/.test(e.tagName) && !e.disabled && seen(e) !== null) {
    const cs = getComputedStyle(e);
    const border = rgba(cs.borderTopColor);
    if (parseFloat(cs.borderTopWidth) > 0 && border[3] > 0) {
      const behind = background(e.parentElement);
      const fill = background(e);
      const r = Math.max(ratio(over(border, behind), behind), ratio(fill, behind));
      if (r < 3 - 0.005) out.push(`${name(e)}: its border ${cs.borderTopColor} and fill are ${r.toFixed(2)}:1 against rgb(${behind.slice(0, 3).map(Math.round)}), need 3:1`);
    }
  }
}
if (texts < 50) out.push(`only ${texts} texts measured`);
return out;
"#;

async fn measure(c: &Client, what: &str) -> Vec<String> {
    let v = c.execute(MEASURE, vec![what.into()]).await.unwrap();
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// Runs axe-core (the copy `ui/` installs) on the window; returns its serious and critical
/// violations, each with the elements it names.
async fn axe(c: &Client) -> Vec<String> {
    let source = std::fs::read_to_string(repo().join("ui/node_modules/axe-core/axe.min.js"))
        .expect("ui/node_modules/axe-core (npm ci in ui/)");
    let loaded = c.execute(&format!("{source}\n;return typeof axe;"), vec![]).await.unwrap();
    assert_eq!(loaded.as_str(), Some("object"), "axe-core did not load");
    let result = c
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })\
               .then((r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,\
                 nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + n.failureSummary) }))))\
               .catch((e) => done([{ id: 'axe-failed', impact: 'critical', help: String(e), nodes: [] }]));",
            vec![],
        )
        .await
        .unwrap();
    let mut out = Vec::new();
    for v in result.as_array().unwrap() {
        let impact = v["impact"].as_str().unwrap_or("");
        if impact == "serious" || impact == "critical" {
            out.push(format!("{} ({impact}): {} — {}", v["id"], v["help"], v["nodes"]));
        }
    }
    out
}

async fn set_theme(c: &Client, theme: &str) {
    choose(c, "[data-testid=theme]", theme).await;
    wait_for("the theme", || async {
        c.execute("return document.documentElement.dataset.theme", vec![])
            .await
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            == Some(theme.to_string())
    })
    .await;
}

async fn resize(c: &Client, w: u32, h: u32) {
    let screen = c.execute("return [screen.width, screen.height]", vec![]).await.unwrap();
    let fits = screen[0].as_u64().unwrap_or(0) >= u64::from(w) && screen[1].as_u64().unwrap_or(0) >= u64::from(h);
    assert!(fits, "the display ({screen}) is smaller than {w}×{h}: run under xvfb-run -s \"-screen 0 1920x1080x24\"");
    c.set_window_size(w, h).await.unwrap();
    wait_for("the window's size", || async {
        let v = c.execute("return [innerWidth, innerHeight]", vec![]).await.unwrap();
        v == Value::from(vec![w, h])
    })
    .await;
    painted(c).await;
}

/// Frames are drawn after the DOM settles: two animation frames.
async fn painted(c: &Client) {
    c.execute_async("requestAnimationFrame(() => requestAnimationFrame(() => arguments[0]()))", vec![]).await.ok();
}

#[tokio::test(flavor = "multi_thread")]
async fn every_size_and_theme_is_readable_unclipped_and_accessible() {
    let (tmp, lib) = library();
    let out = screenshots_dir(tmp.path());
    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app_binary(), &[&lib], PORT).await;
    let result = async {
        let n = skill_count(&lib);
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;
        // What a user sees working: a skill with a broken name, its squiggle and its problem.
        open_skill(&c, "commit-message").await?;
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let keys: String = [char::from(Key::Control), char::from(Key::Home), char::from(Key::Control)].iter().collect();
        content.send_keys(&keys).await?;
        content.send_keys(&[char::from(Key::Down), char::from(Key::End)].iter().collect::<String>()).await?;
        content.send_keys("_X").await?;
        wait_for("the problem", || async { count(&c, "[data-testid=problem]").await >= 1 }).await;
        wait_for("the squiggle", || async { count(&c, ".cm-lintRange-error").await >= 1 }).await;
        // Under Claude Code, whose prompt the side panel explains.
        choose(&c, "[data-testid=agent]", "claude-code").await;
        wait_for("the prompt", || async { count(&c, "[data-testid=prompt-text]").await == 1 }).await;

        let mut failures = Vec::new();
        for theme in ["light", "dark"] {
            set_theme(&c, theme).await;
            for (w, h) in SIZES {
                resize(&c, w, h).await;
                for p in measure(&c, "layout").await {
                    failures.push(format!("{w}×{h} {theme}: {p}"));
                }
                let png = c.screenshot().await?;
                assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "{w}x{h}-{theme}.png");
                std::fs::write(out.join(format!("{w}x{h}-{theme}.png")), png).unwrap();
            }
            // Colours and axe at the middle size, with each side tab shown in turn.
            resize(&c, 1280, 800).await;
            for tab in ["prompt", "session", "evals"] {
                c.find(Locator::Css(&format!("[data-testid=tab-{tab}]"))).await?.click().await?;
                painted(&c).await;
                for p in measure(&c, "contrast").await {
                    failures.push(format!("{theme}, {tab} tab: {p}"));
                }
                for v in axe(&c).await {
                    failures.push(format!("{theme}, {tab} tab, axe: {v}"));
                }
            }
            c.find(Locator::Css("[data-testid=tab-prompt]")).await?.click().await?;
        }

        // Every toggle on (Library, Problems, side panel, form, preview) at 1024×768: the panels
        // give way and the text keeps 480 px; nothing is cut, in the window nor in each side tab
        // opened over the editor.
        set_theme(&c, "light").await;
        for toggle in ["form-toggle", "preview-toggle"] {
            let on = c.find(Locator::Css(&format!("[data-testid={toggle}]"))).await?.attr("aria-pressed").await?;
            if on.as_deref() != Some("true") {
                c.find(Locator::Css(&format!("[data-testid={toggle}]"))).await?.click().await?;
            }
        }
        for panel in ["library", "bottom", "side"] {
            let on = c.find(Locator::Css(&format!("[data-testid=toggle-{panel}]"))).await?.attr("aria-pressed").await?;
            assert_eq!(on.as_deref(), Some("true"), "{panel} is on");
        }
        wait_for("the preview", || async {
            count(&c, "[data-testid=preview] h1, [data-testid=preview] h2").await >= 1
        })
        .await;
        resize(&c, 1024, 768).await;
        wait_for("the side panel as a strip", || async { count(&c, "[data-testid=side-rail]").await == 1 }).await;
        assert_eq!(count(&c, "[data-testid=problems-strip], #panel-bottom").await, 1, "Problems is on");
        for p in measure(&c, "layout").await {
            failures.push(format!("1024×768, every toggle on: {p}"));
        }
        let png = c.screenshot().await?;
        std::fs::write(out.join("1024x768-all-on-light.png"), png).unwrap();
        for beside in ["form", "preview"] {
            c.find(Locator::Css(&format!("[data-testid=beside-{beside}]"))).await?.click().await?;
            painted(&c).await;
            for p in measure(&c, "layout").await {
                failures.push(format!("1024×768, every toggle on, {beside} beside the text: {p}"));
            }
        }
        for (tab, key) in [("prompt", "4"), ("session", "5"), ("evals", "6"), ("matrix", "7")] {
            // By its key (Alt+4…7), as by a click on its tab in the strip.
            let alt: String =
                [char::from(Key::Alt)].into_iter().chain(key.chars()).chain([char::from(Key::Null)]).collect();
            c.active_element().await?.send_keys(&alt).await?;
            wait_for("the side panel over the editor", || async { count(&c, "#panel-side.drawer").await == 1 }).await;
            painted(&c).await;
            for p in measure(&c, "layout").await {
                failures.push(format!("1024×768, every toggle on, {tab} over the editor: {p}"));
            }
            if tab == "evals" {
                let png = c.screenshot().await?;
                std::fs::write(out.join("1024x768-evals-drawer-light.png"), png).unwrap();
            }
            c.find(Locator::Css("[data-testid=side-panel]"))
                .await?
                .send_keys(&char::from(Key::Escape).to_string())
                .await
                .ok();
            c.execute("window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))", vec![]).await?;
            wait_for("the side panel closed", || async { count(&c, "#panel-side.drawer").await == 0 }).await;
        }
        // Wide again, the side panel is back beside the editor and the toggles are as they were.
        resize(&c, 1920, 1080).await;
        wait_for("the side panel docked", || async {
            count(&c, "[data-testid=side-rail]").await == 0 && count(&c, "#panel-side:not(.drawer)").await == 1
        })
        .await;
        for p in measure(&c, "layout").await {
            failures.push(format!("1920×1080, every toggle on: {p}"));
        }
        failures.dedup();
        assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
