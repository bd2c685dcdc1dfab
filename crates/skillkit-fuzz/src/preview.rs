//! The preview target: the input as a `SKILL.md` rendered by `skillkit::preview::render` in a real
//! skill folder (an image inside it, a secret image outside it, a symlink from inside to the
//! secret, a reference file and a script).
//!
//! Invariants, on the HTML as a browser parses it ([`crate::html_check`]): no active content (no
//! script, style, frame, object, embed, form, meta, link or base element, no `on*` attribute, no
//! `javascript:`, `vbscript:` or `data:text/html` URL), nothing loaded but `data:image/` URLs (no
//! remote loads), and the secret outside the folder never embedded.

use crate::html_check::{active_content, element_names, loaded_urls};
use crate::{violation, Outcome};
use skillkit::preview::{render, PreviewLimits};
use std::path::{Path, PathBuf};

/// Bytes of the image outside the skill folder: no preview may embed them.
const SECRET: &[u8] = b"\x89PNG\r\n\x1a\nskillkit-fuzz secret outside the skill folder";
/// Bytes of the image inside it.
const INSIDE: &[u8] = b"\x89PNG\r\n\x1a\nskillkit-fuzz image inside the skill folder";

/// The skill folder the preview renders in.
pub struct Folder {
    dir: PathBuf,
    /// How the secret would look embedded.
    secret_base64: String,
}

impl Folder {
    /// Creates `demo/` (with `assets/d.png`, `assets/link.png` → `../../secret.png`,
    /// `references/guide.md`, `scripts/run.py`) and `secret.png` beside it, under `root`.
    pub fn create(root: &Path) -> std::io::Result<Folder> {
        let dir = root.join("preview/demo");
        std::fs::create_dir_all(dir.join("assets"))?;
        std::fs::create_dir_all(dir.join("references"))?;
        std::fs::create_dir_all(dir.join("scripts"))?;
        std::fs::write(dir.join("assets/d.png"), INSIDE)?;
        std::fs::write(dir.join("references/guide.md"), "# Guide\n")?;
        std::fs::write(dir.join("scripts/run.py"), "print('hi')\n")?;
        std::fs::write(root.join("preview/secret.png"), SECRET)?;
        #[cfg(unix)]
        std::os::unix::fs::symlink("../../secret.png", dir.join("assets/link.png"))?;
        Ok(Folder { dir, secret_base64: skillkit::syntax::text::base64(SECRET) })
    }
}

/// Runs the target on `data` (bad UTF-8 is replaced, as the app's editor would show it).
pub fn run(data: &[u8], folder: &Folder) -> Outcome {
    let mut outcome = Outcome::default();
    let text = String::from_utf8_lossy(data);
    let preview = outcome.timed(|| render(&folder.dir, &text, PreviewLimits::default()));
    let html = &preview.html;

    if let Some(a) = active_content(html).first() {
        violation("preview-has-active-content", format!("{} on <{}> in {}", a.what, a.element, excerpt(html)));
    }
    for (element, url) in loaded_urls(html) {
        if !url.starts_with("data:image/") {
            violation("preview-loads-a-url", format!("<{element}> loads {url:?} in {}", excerpt(html)));
        }
    }
    if html.contains(&folder.secret_base64) {
        violation("preview-embeds-a-file-outside-the-folder", "the secret image outside the skill folder is embedded");
    }

    for (name, attributes) in element_names(html) {
        outcome.feature(("element", &name));
        for a in attributes {
            outcome.feature(("attribute", &name, a));
        }
    }
    for (_, why) in &preview.skipped_images {
        outcome.feature(("skipped", why.split(' ').take(3).collect::<Vec<_>>()));
    }
    outcome.feature(("outline", preview.outline.len().min(16)));
    outcome.feature(("embedded", html.matches("data:image/").count().min(4)));
    outcome
}

/// The start of the HTML, for messages.
fn excerpt(html: &str) -> String {
    let cut: String = html.chars().take(300).collect();
    format!("{cut:?}{}", if cut.len() < html.len() { "..." } else { "" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_inside_are_embedded_and_the_secret_through_a_symlink_is_not() {
        let tmp = tempfile::tempdir().unwrap();
        let folder = Folder::create(tmp.path()).unwrap();
        let text = "---\nname: demo\ndescription: d\n---\n![in](assets/d.png) ![out](assets/link.png) \
                    ![up](../secret.png) <img src=\"assets/link.png\"> <script>alert(1)</script>\n";
        let out = run(text.as_bytes(), &folder);
        let html = render(&folder.dir, text, PreviewLimits::default()).html;
        assert!(html.contains(&skillkit::syntax::text::base64(INSIDE)), "{html}");
        assert!(!out.features.is_empty());
    }
}
