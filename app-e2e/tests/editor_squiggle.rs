//! The squiggle under a diagnostic, measured in the real window's pixels: the pixels under a
//! known diagnostic's span differ from the same text without it, and hold the severity's colour,
//! in the light and the dark theme. A class on the span is not enough: WebKitGTK does not paint
//! every underline style (`text-decoration: underline wavy` drew nothing there).

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

const PORT: u16 = 4718;

/// A screenshot of the window, decoded: width, height and RGB rows.
struct Shot {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    async fn take(c: &Client) -> Shot {
        let png = c.screenshot().await.unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let step = match info.color_type {
            png::ColorType::Rgba => 4,
            png::ColorType::Rgb => 3,
            other => panic!("a {other:?} screenshot"),
        };
        let (width, height) = (info.width as usize, info.height as usize);
        let mut rgb = Vec::with_capacity(width * height);
        for row in buf[..info.buffer_size()].chunks(info.line_size) {
            rgb.extend(row[..width * step].chunks(step).map(|p| [p[0], p[1], p[2]]));
        }
        Shot { width, height, rgb }
    }

    /// The pixels of a rectangle (in CSS pixels, scaled by `dpr`).
    fn crop(&self, r: Rect, dpr: f64) -> Vec<[u8; 3]> {
        let x0 = (r.x * dpr).floor().max(0.0) as usize;
        let y0 = (r.y * dpr).floor().max(0.0) as usize;
        let x1 = (((r.x + r.w) * dpr).ceil() as usize).min(self.width);
        let y1 = (((r.y + r.h) * dpr).ceil() as usize).min(self.height);
        let mut out = vec![];
        for y in y0..y1 {
            out.extend_from_slice(&self.rgb[y * self.width + x0..y * self.width + x1]);
        }
        out
    }
}

#[derive(Clone, Copy, Debug)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

fn near(a: [u8; 3], b: [u8; 3], by: i32) -> bool {
    (0..3).all(|i| (i32::from(a[i]) - i32::from(b[i])).abs() <= by)
}

/// A CSS colour as the window computes it (`rgb(r, g, b)`), of a custom property.
async fn colour(c: &Client, property: &str) -> [u8; 3] {
    let v = c
        .execute(
            "const d = document.createElement('div'); d.style.color = `var(${arguments[0]})`; document.body.appendChild(d);\
             const c = getComputedStyle(d).color; d.remove(); return c.match(/\\d+/g).slice(0, 3).map(Number);",
            vec![property.into()],
        )
        .await
        .unwrap();
    let n = |i: usize| v[i].as_u64().unwrap() as u8;
    [n(0), n(1), n(2)]
}

async fn painted(c: &Client) {
    c.execute_async("requestAnimationFrame(() => requestAnimationFrame(() => arguments[0]()))", vec![]).await.ok();
}

async fn keys(c: &Client, keys: &[Key]) {
    let content = c.find(Locator::Css(".cm-content")).await.unwrap();
    let s: String = keys.iter().map(|k| char::from(*k)).collect();
    content.send_keys(&s).await.unwrap();
}

/// The box of the error mark's first `chars` characters (the editor's font is monospaced), and the
/// mark's text.
async fn mark(c: &Client, chars: usize) -> (Rect, String) {
    let v = c
        .execute(
            "const m = document.querySelector('.cm-lintRange-error'); const r = m.getBoundingClientRect();\
             const n = m.textContent.length; return [r.left, r.top, r.width * arguments[0] / n, r.height, m.textContent, devicePixelRatio];",
            vec![Value::from(chars)],
        )
        .await
        .unwrap();
    let f = |i: usize| v[i].as_f64().unwrap();
    (Rect { x: f(0), y: f(1), w: f(2), h: f(3) }, v[4].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_squiggle_is_painted_on_the_span_in_the_severity_colour_in_both_themes() {
    let (tmp, lib) = library();
    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app_binary(), &[&lib], PORT).await;
    let result = async {
        let n = skill_count(&lib);
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;
        open_skill(&c, "commit-message").await?;
        c.find(Locator::Css(".cm-content")).await?.click().await?;
        let dpr = c.execute("return devicePixelRatio", vec![]).await?.as_f64().unwrap_or(1.0);
        for theme in ["light", "dark"] {
            c.execute("document.documentElement.dataset.theme = arguments[0]", vec![theme.into()]).await?;
            // `name: commit-message_X` is not a valid name: an error on the value's span.
            keys(&c, &[Key::Control, Key::Home, Key::Control, Key::Down, Key::End]).await;
            c.find(Locator::Css(".cm-content")).await?.send_keys("_X").await?;
            wait_for("the error's mark", || async { count(&c, ".cm-lintRange-error").await >= 1 }).await;
            // The caret away from the span's line, at the start of the text (still in view).
            keys(&c, &[Key::Control, Key::Home, Key::Control]).await;
            painted(&c).await;
            let (rect, text) = mark(&c, "commit-message".len()).await;
            assert_eq!(text, "commit-message_X", "{theme}: the mark covers the diagnostic's exact span");
            let with = Shot::take(&c).await.crop(rect, dpr);
            // The same text without the diagnostic: the `_X` deleted.
            keys(&c, &[Key::Control, Key::Home, Key::Control, Key::Down, Key::End]).await;
            keys(&c, &[Key::Backspace, Key::Backspace]).await;
            wait_for("no error's mark", || async { count(&c, ".cm-lintRange-error").await == 0 }).await;
            let line = c.execute("return document.querySelectorAll('.cm-line')[1].textContent", vec![]).await?;
            assert_eq!(line.as_str(), Some("name: commit-message"), "{theme}");
            keys(&c, &[Key::Control, Key::Home, Key::Control]).await;
            painted(&c).await;
            let without = Shot::take(&c).await.crop(rect, dpr);
            assert_eq!(with.len(), without.len());
            let differ = with.iter().zip(&without).filter(|(a, b)| !near(**a, **b, 24)).count();
            let error = colour(&c, "--error").await;
            let coloured = |px: &[[u8; 3]]| px.iter().filter(|p| near(**p, error, 48)).count();
            let width = (rect.w * dpr) as usize;
            assert!(
                differ >= width / 2,
                "{theme}: only {differ} of the span's pixels change with the diagnostic ({width} px wide)"
            );
            assert!(
                coloured(&with) >= width / 2 && coloured(&without) < 4,
                "{theme}: {} pixels in the error colour {error:?} with the diagnostic, {} without",
                coloured(&with),
                coloured(&without)
            );
        }
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
