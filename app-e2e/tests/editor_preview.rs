//! The real window's Markdown preview: the engine's HTML beside the editor, an image of the skill
//! folder loaded as a data: URL under the strict CSP, an image outside the folder not loaded, links
//! resolved from the skill root (a missing file marked; a file of the skill opens read-only). Run
//! after `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::Locator;
use std::path::Path;

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4584;

const SVG: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="7"><rect width="12" height="7" fill="red"/></svg>"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_preview_shows_images_of_the_skill_folder_only() {
    let app = app_binary();
    let (tmp, library) = library();
    let dir = library.join("commit-message");
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("assets/box.svg"), SVG).unwrap();
    std::fs::write(tmp.path().join("outside.svg"), SVG).unwrap();
    let original = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    let with_images = format!(
        "{original}\n## Pictures\n\n![inside](assets/box.svg) ![outside](../../outside.svg)\n\n\
         [the spec](references/conventional-commits.md) [gone](references/gone.md)\n"
    );
    std::fs::write(dir.join("SKILL.md"), with_images).unwrap();

    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&library], PORT).await;
    let result = async {
        open_skill(&c, "commit-message").await?;
        c.find(Locator::Css("[data-testid=preview-toggle]")).await?.click().await?;
        wait_for("the preview", || async { count(&c, "[data-testid=preview] h2#pictures").await == 1 }).await;
        assert_eq!(count(&c, "[data-testid=preview] img").await, 1);
        // The image loaded under the CSP: it has its natural size.
        let loaded = || async {
            let v = c
                .execute("const i = document.querySelector('[data-testid=preview] img'); return i && i.complete ? i.naturalWidth : 0;", vec![])
                .await
                .unwrap_or_default();
            v.as_u64() == Some(12)
        };
        wait_for("the image to load", loaded).await;
        let src = c.find(Locator::Css("[data-testid=preview] img")).await?.attr("src").await?.unwrap_or_default();
        assert!(src.starts_with("data:image/svg+xml;base64,"), "{src}");
        assert!(text(&c, "[data-testid=preview]").await.contains("outside"));
        if let Some(dir) = std::env::var_os("SKILL_STUDIO_SHOTS") {
            let png = c.screenshot().await?;
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(Path::new(&dir).join("editor-preview.png"), png).unwrap();
        }

        // Links: the engine resolved them; a file of the skill opens in the preview's place.
        let link = |name: &'static str| {
            let c = c.clone();
            async move {
                let css = format!("[data-testid=preview] a[href='references/{name}']");
                c.find(Locator::Css(&css)).await?.attr("data-link").await
            }
        };
        wait_for("the marked links", || async { link("gone.md").await.ok().flatten().is_some() }).await;
        assert_eq!(link("gone.md").await?.as_deref(), Some("missing"));
        assert_eq!(link("conventional-commits.md").await?.as_deref(), Some("file"));
        let spec = std::fs::read_to_string(dir.join("references/conventional-commits.md")).unwrap();
        let first = spec.lines().find(|l| !l.trim().is_empty()).unwrap().to_string();
        c.find(Locator::Css("[data-testid=preview] a[href='references/conventional-commits.md']")).await?.click().await?;
        wait_for("the referenced file", || async { text(&c, "[data-testid=viewing-text]").await.contains(&first) }).await;
        c.find(Locator::Css("[data-testid=viewing-back]")).await?.click().await?;
        wait_for("the preview again", || async { count(&c, "[data-testid=preview] h2#pictures").await == 1 }).await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
