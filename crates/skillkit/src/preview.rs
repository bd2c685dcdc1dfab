//! The editor's preview of a skill file: the body as sanitized HTML ([`crate::syntax::markdown::html::render_html`])
//! with local images embedded as `data:` URLs read from inside the skill folder only, so that the
//! preview loads nothing from anywhere else (no remote loads, nothing outside the folder, nothing
//! through a symlink that leaves it), and the headings' outline.
//!
//! An image is embedded when its path, relative to the skill folder, names a regular file whose
//! real path lies inside the folder's real path, whose extension is a known image type, and whose
//! size is at most [`PreviewLimits::max_image_bytes`]; the images of one preview together are capped
//! at [`PreviewLimits::max_total_bytes`]. Any other image shows its alt text.
//!
//! The preview runs when a file opens and as the author types, and nothing cancels it, so its
//! work is bounded: a body larger or nested deeper than [`HtmlLimits`] allow is not rendered
//! ([`Preview::refused`] says why, and the HTML is one paragraph saying so).

use crate::syntax::markdown::html::render_html;
pub use crate::syntax::markdown::html::{HtmlLimits, Refusal};
use crate::syntax::markdown::outline::{outline, Section};
use crate::syntax::text::base64;
use serde::{Serialize, Serializer};
use std::cell::Cell;
use std::path::Path;

/// Size caps for embedded images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreviewLimits {
    pub max_image_bytes: u64,
    pub max_total_bytes: u64,
}

impl Default for PreviewLimits {
    fn default() -> Self {
        PreviewLimits { max_image_bytes: 2 * 1024 * 1024, max_total_bytes: 8 * 1024 * 1024 }
    }
}

/// A rendered preview.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Preview {
    /// Sanitized HTML of the body; when [`Preview::refused`] is set, a paragraph saying why
    /// the body is not shown.
    pub html: String,
    /// The body's headings (empty when the body is over the size limit, which it is not worth
    /// parsing).
    pub outline: Vec<Section>,
    /// Image paths (relative to the skill folder) shown as their alt text, with why.
    #[serde(serialize_with = "path_and_reason")]
    pub skipped_images: Vec<(String, String)>,
    /// Why the body was not rendered: too large or too deep for the preview's limits.
    pub refused: Option<Refusal>,
}

/// Skipped images as `{"path", "reason"}` objects rather than pairs.
fn path_and_reason<S: Serializer>(pairs: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Skipped<'a> {
        path: &'a str,
        reason: &'a str,
    }
    s.collect_seq(pairs.iter().map(|(path, reason)| Skipped { path, reason }))
}

/// What a link's path names, resolved from the skill root as agents resolve it. The preview
/// marks each link to a path with it (`data-link`, `data-path` and a `title` on the `<a>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkStatus {
    /// A file inside the skill folder.
    File,
    /// A folder inside the skill folder (the root included).
    Folder,
    /// Nothing there.
    Missing,
    /// A path outside the skill folder (`..` past the root, an absolute path, or a symlink that
    /// leads out): agents reading the skill do not resolve it there.
    Outside,
}

impl LinkStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkStatus::File => "file",
            LinkStatus::Folder => "folder",
            LinkStatus::Missing => "missing",
            LinkStatus::Outside => "outside",
        }
    }

    /// What hovering the link says.
    pub fn title(self, path: &str) -> String {
        match self {
            LinkStatus::File => format!("{path}: open it in the preview"),
            LinkStatus::Folder if path.is_empty() => "the skill folder".to_string(),
            LinkStatus::Folder => format!("{path}: a folder of the skill"),
            LinkStatus::Missing => format!("{path}: no such file in the skill folder"),
            LinkStatus::Outside => {
                format!("{path}: outside the skill folder (agents resolve links from the skill root)")
            }
        }
    }
}

/// What a link destination names: `None` for URLs and `#anchors`.
pub fn link_status(root: Option<&Path>, dest: &str) -> Option<(String, LinkStatus)> {
    let target = crate::syntax::markdown::target::parse_target(dest, true);
    let path = target.path?;
    let status = match root {
        _ if target.escapes => LinkStatus::Outside,
        None => LinkStatus::Missing,
        Some(root) => match std::fs::canonicalize(root.join(&path)) {
            Err(_) => LinkStatus::Missing,
            Ok(real) if !real.starts_with(root) => LinkStatus::Outside,
            Ok(real) if real.is_dir() => LinkStatus::Folder,
            Ok(_) => LinkStatus::File,
        },
    };
    Some((path, status))
}

/// The media type of an image file, by extension.
pub fn image_type(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "bmp" => "image/bmp",
        "ico" => "image/x-icon",
        "avif" => "image/avif",
        _ => return None,
    })
}

/// Renders the body of `text` (a skill file in folder `dir`) for the preview, within the
/// default [`HtmlLimits`].
pub fn render(dir: &Path, text: &str, limits: PreviewLimits) -> Preview {
    render_within(dir, text, limits, HtmlLimits::default())
}

/// [`render`] within `html`'s limits.
pub fn render_within(dir: &Path, text: &str, limits: PreviewLimits, html: HtmlLimits) -> Preview {
    let body = crate::syntax::split::split(text).body;
    let refused = |r: Refusal, outline| Preview { html: r.html(), outline, skipped_images: vec![], refused: Some(r) };
    if body.len() > html.max_bytes {
        return refused(Refusal::TooLarge { bytes: body.len(), limit: html.max_bytes }, vec![]);
    }
    let root = std::fs::canonicalize(dir).ok();
    let used = Cell::new(0u64);
    let skipped = std::cell::RefCell::new(Vec::new());
    let resolve = |rel: &str| -> Option<String> {
        let result = embed(root.as_deref(), rel, limits, &used);
        match result {
            Ok(url) => Some(url),
            Err(why) => {
                skipped.borrow_mut().push((rel.to_string(), why));
                None
            }
        }
    };
    let mark = |dest: &str| {
        link_status(root.as_deref(), dest).map(|(path, status)| crate::syntax::markdown::html::LinkMark {
            status: status.as_str(),
            title: status.title(&path),
            path,
        })
    };
    match render_html(text, body, &resolve, &mark, html) {
        Ok(html) => Preview { html, outline: outline(text, body), skipped_images: skipped.into_inner(), refused: None },
        Err(r) => refused(r, outline(text, body)),
    }
}

/// An image of the skill folder as a `data:` URL, read through [`crate::scope::Scope`]: nothing
/// outside the folder (also through a symlink, also one swapped in while reading), no device,
/// FIFO or socket, and within the size caps.
fn embed(root: Option<&Path>, rel: &str, limits: PreviewLimits, used: &Cell<u64>) -> Result<String, String> {
    use crate::scope::{Scope, ScopeError};
    let root = root.ok_or("the skill folder cannot be read")?;
    let mime = image_type(rel).ok_or("not a known image type")?;
    let left = limits.max_total_bytes.saturating_sub(used.get());
    let limit = limits.max_image_bytes.min(left);
    let bytes = match Scope::new(&[root.to_path_buf()]).read(&root.join(rel), limit) {
        Ok(bytes) => bytes,
        Err(ScopeError::Missing { .. }) => return Err("no such file in the skill folder".into()),
        Err(ScopeError::Outside { .. }) => return Err("outside the skill folder".into()),
        Err(ScopeError::NotAFile { .. }) => return Err("not a file".into()),
        Err(ScopeError::TooLarge { size, .. }) if size > limits.max_image_bytes => {
            return Err(format!("larger than {} bytes", limits.max_image_bytes))
        }
        Err(ScopeError::TooLarge { .. }) => {
            return Err(format!("the preview's images would exceed {} bytes", limits.max_total_bytes))
        }
        Err(e) => return Err(e.to_string()),
    };
    used.set(used.get() + bytes.len() as u64);
    Ok(format!("data:{mime};base64,{}", base64(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\nfake";

    fn skill(body: &str) -> (tempfile::TempDir, std::path::PathBuf, String) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("demo");
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        std::fs::write(dir.join("assets/d.png"), PNG).unwrap();
        std::fs::write(tmp.path().join("secret.png"), PNG).unwrap();
        let text = format!("---\nname: demo\ndescription: d\n---\n{body}");
        (tmp, dir, text)
    }

    #[test]
    fn local_images_are_embedded_as_data_urls() {
        let (_tmp, dir, text) = skill("# Title\n\n![diagram](assets/d.png)\n");
        let p = render(&dir, &text, PreviewLimits::default());
        let url = format!("data:image/png;base64,{}", base64(PNG));
        assert!(p.html.contains(&format!("src=\"{url}\"")), "{}", p.html);
        assert!(p.html.contains("<h1 id=\"title\">Title</h1>"), "{}", p.html);
        assert_eq!(p.outline.len(), 1);
        assert!(p.skipped_images.is_empty());
    }

    #[test]
    fn nothing_outside_the_folder_remote_or_too_large_is_loaded() {
        let (tmp, dir, text) = skill(
            "![up](../secret.png) ![remote](https://example.com/x.png) ![missing](assets/none.png) \
             ![text](assets/notes.txt) ![big](assets/big.png) ![link](assets/link.png)\n",
        );
        std::fs::write(dir.join("assets/notes.txt"), "hi").unwrap();
        std::fs::write(dir.join("assets/big.png"), vec![0u8; 2048]).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(tmp.path().join("secret.png"), dir.join("assets/link.png")).unwrap();
        let limits = PreviewLimits { max_image_bytes: 1024, max_total_bytes: 4096 };
        let p = render(&dir, &text, limits);
        assert!(!p.html.contains("<img"), "{}", p.html);
        for alt in ["up", "remote", "missing", "text", "big"] {
            assert!(p.html.contains(alt), "{alt} in {}", p.html);
        }
        let why: std::collections::HashMap<_, _> = p.skipped_images.into_iter().collect();
        assert_eq!(why["assets/big.png"], "larger than 1024 bytes");
        assert_eq!(why["assets/notes.txt"], "not a known image type");
        #[cfg(unix)]
        assert_eq!(why["assets/link.png"], "outside the skill folder");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_symlinked_folder_out_is_not_read_and_does_not_block() {
        let (tmp, dir, text) = skill("![pipe](assets/pipe.png) ![via](out/secret.png)\n");
        assert!(std::process::Command::new("mkfifo").arg(dir.join("assets/pipe.png")).status().unwrap().success());
        std::fs::write(tmp.path().join("secret.png"), PNG).unwrap();
        std::os::unix::fs::symlink(tmp.path(), dir.join("out")).unwrap();
        let p = render(&dir, &text, PreviewLimits::default());
        assert!(!p.html.contains("<img"), "{}", p.html);
        let why: std::collections::HashMap<_, _> = p.skipped_images.into_iter().collect();
        assert_eq!(why["assets/pipe.png"], "not a file");
        assert_eq!(why["out/secret.png"], "outside the skill folder");
    }

    #[test]
    fn the_total_cap_stops_embedding() {
        let (_tmp, dir, text) = skill("![a](assets/a.png) ![b](assets/b.png)\n");
        std::fs::write(dir.join("assets/a.png"), vec![1u8; 600]).unwrap();
        std::fs::write(dir.join("assets/b.png"), vec![2u8; 600]).unwrap();
        let p = render(&dir, &text, PreviewLimits { max_image_bytes: 1000, max_total_bytes: 1000 });
        assert_eq!(p.html.matches("<img").count(), 1, "{}", p.html);
        assert_eq!(p.skipped_images.len(), 1);
    }

    #[test]
    fn links_are_resolved_from_the_skill_root() {
        let (tmp, dir, text) = skill(
            "[guide](references/guide%20one.md#usage) [again](./references/guide%20one.md) \
             [folder](references/) [root](./) [gone](references/none.md) [up](../secret.png) \
             [web](https://example.com/a.md) [here](#title) [link](references/out.md)\n\n\
             `references/code.md` ![img](assets/d.png)\n",
        );
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(dir.join("references/guide one.md"), "# Guide\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(tmp.path().join("secret.png"), dir.join("references/out.md")).unwrap();
        let p = render(&dir, &text, PreviewLimits::default());
        // Each marked link's path and status, as the HTML carries them (each path once, in order).
        let marks = regex::Regex::new(r#"data-link="(\w+)" data-path="([^"]*)""#).unwrap();
        let mut got: Vec<(String, String)> = Vec::new();
        for m in marks.captures_iter(&p.html) {
            let mark = (m[2].to_string(), m[1].to_string());
            if !got.contains(&mark) {
                got.push(mark);
            }
        }
        let mut want = vec![
            ("references/guide one.md", LinkStatus::File),
            ("references", LinkStatus::Folder),
            ("", LinkStatus::Folder),
            ("references/none.md", LinkStatus::Missing),
            ("../secret.png", LinkStatus::Outside),
        ];
        #[cfg(unix)]
        want.push(("references/out.md", LinkStatus::Outside));
        let want: Vec<(String, String)> =
            want.into_iter().map(|(p, s)| (p.to_string(), s.as_str().to_string())).collect();
        // URLs, anchors, inline code and images are not links to resolve.
        assert_eq!(got, want);
        assert!(
            p.html.contains(r#"<a href="https://example.com/a.md" rel="noopener noreferrer">web</a>"#),
            "{}",
            p.html
        );
        assert!(p.html.contains("title=\"references/none.md: no such file in the skill folder\""), "{}", p.html);
    }

    #[test]
    fn a_body_too_deep_or_too_large_is_refused_with_a_sentence_and_no_image_read() {
        let deep = format!("# Deep\n\n![d](assets/d.png)\n\n{}x\n", "- ".repeat(100_000));
        let (_tmp, dir, text) = skill(&deep);
        let p = render(&dir, &text, PreviewLimits::default());
        assert_eq!(p.refused, Some(Refusal::TooDeep { limit: 100 }));
        assert_eq!(p.html, Refusal::TooDeep { limit: 100 }.html());
        assert!(p.skipped_images.is_empty());
        // The outline still lists the headings.
        assert_eq!(p.outline.iter().map(|s| s.title.as_str()).collect::<Vec<_>>(), ["Deep"]);

        let (_tmp, dir, text) = skill(&"# Big\n\nwords ".repeat(1000));
        let small = HtmlLimits { max_bytes: 4096, max_depth: 100 };
        let p = render_within(&dir, &text, PreviewLimits::default(), small);
        assert_eq!(
            p.refused,
            Some(Refusal::TooLarge { bytes: text.len() - "---\nname: demo\ndescription: d\n---\n".len(), limit: 4096 })
        );
        assert!(p.html.contains("Preview too large") && p.outline.is_empty(), "{}", p.html);
    }

    #[test]
    fn previews_serialize_as_the_app_reads_them() {
        let (_tmp, dir, text) = skill("# Title\n\n![gone](assets/none.png)\n");
        let p = render(&dir, &text, PreviewLimits::default());
        assert_eq!(p.refused, None);
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["html"], p.html.as_str());
        assert_eq!(json["outline"][0]["title"], "Title");
        assert_eq!(json["outline"][0]["heading"]["start"], text.find("# Title").unwrap());
        assert_eq!(
            json["skipped_images"],
            serde_json::json!([{"path": "assets/none.png", "reason": "no such file in the skill folder"}])
        );
        assert_eq!(json["refused"], serde_json::Value::Null);
    }

    #[test]
    fn scripts_in_the_body_are_removed() {
        let (_tmp, dir, text) =
            skill("<script>alert(1)</script><img src=x onerror=alert(2)>\n\n[j](javascript:alert(3))\n");
        let p = render(&dir, &text, PreviewLimits::default());
        assert!(
            !p.html.contains("script") && !p.html.contains("onerror") && !p.html.contains("javascript"),
            "{}",
            p.html
        );
    }
}
