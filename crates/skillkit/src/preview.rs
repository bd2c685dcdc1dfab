//! The editor's preview of a skill file: the body as sanitized HTML ([`crate::markdown::render_html`])
//! with local images embedded as `data:` URLs read from inside the skill folder only, so that the
//! preview loads nothing from anywhere else (no remote loads, nothing outside the folder, nothing
//! through a symlink that leaves it), and the headings' outline.
//!
//! An image is embedded when its path, relative to the skill folder, names a regular file whose
//! real path lies inside the folder's real path, whose extension is a known image type, and whose
//! size is at most [`PreviewLimits::max_image_bytes`]; the images of one preview together are capped
//! at [`PreviewLimits::max_total_bytes`]. Any other image shows its alt text.

use crate::markdown::{outline, render_html, Section};
use crate::text::base64;
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    /// Sanitized HTML of the body.
    pub html: String,
    pub outline: Vec<Section>,
    /// Image paths (relative to the skill folder) shown as their alt text, with why.
    pub skipped_images: Vec<(String, String)>,
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
    let target = crate::markdown::parse_target(dest, true);
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

/// Renders the body of `text` (a skill file in folder `dir`) for the preview.
pub fn render(dir: &Path, text: &str, limits: PreviewLimits) -> Preview {
    let body = crate::split::split(text).body;
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
        link_status(root.as_deref(), dest).map(|(path, status)| crate::markdown::LinkMark {
            status: status.as_str(),
            title: status.title(&path),
            path,
        })
    };
    let html = render_html(text, body, &resolve, &mark);
    Preview { html, outline: outline(text, body), skipped_images: skipped.into_inner() }
}

fn embed(root: Option<&Path>, rel: &str, limits: PreviewLimits, used: &Cell<u64>) -> Result<String, String> {
    let root = root.ok_or("the skill folder cannot be read")?;
    let mime = image_type(rel).ok_or("not a known image type")?;
    let real = std::fs::canonicalize(root.join(rel)).map_err(|_| "no such file in the skill folder".to_string())?;
    if !real.starts_with(root) {
        return Err("outside the skill folder".into());
    }
    let meta = std::fs::metadata(&real).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a file".into());
    }
    if meta.len() > limits.max_image_bytes {
        return Err(format!("larger than {} bytes", limits.max_image_bytes));
    }
    if used.get() + meta.len() > limits.max_total_bytes {
        return Err(format!("the preview's images would exceed {} bytes", limits.max_total_bytes));
    }
    let bytes = std::fs::read(&real).map_err(|e| e.to_string())?;
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
