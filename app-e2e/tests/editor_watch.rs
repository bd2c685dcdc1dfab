//! The real window watching its library: an external edit reloads a clean editor and raises the
//! conflict view on a dirty one; the app's own save writes the file and raises no conflict. Run
//! after `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::Locator;
use std::path::Path;

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4564;

#[tokio::test(flavor = "multi_thread")]
async fn external_edits_reload_a_clean_editor_and_raise_a_conflict_on_a_dirty_one() {
    let app = app_binary();
    let (tmp, library) = library();
    let file = library.join("commit-message/SKILL.md");
    let original = std::fs::read_to_string(&file).unwrap();

    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&library], PORT).await;
    let result = async {
        open_skill(&c, "commit-message").await?;

        // Clean editor: an external edit is reloaded.
        std::fs::write(&file, original.replace("\n---\n", "\n---\n\nEXTERNAL ONE\n")).unwrap();
        wait_for("the reload", || async { text(&c, ".cm-content").await.contains("EXTERNAL ONE") }).await;
        assert_eq!(count(&c, "[data-testid=dirty]").await, 0);

        // Dirty editor: an external edit raises the conflict view with both versions.
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_end: String = [char::from(Key::Control), char::from(Key::End)].iter().collect();
        content.send_keys(&ctrl_end).await?;
        content.send_keys("MINE").await?;
        wait_for("the dirty mark", || async { count(&c, "[data-testid=dirty]").await == 1 }).await;
        std::fs::write(&file, original.replace("\n---\n", "\n---\n\nEXTERNAL TWO\n")).unwrap();
        wait_for("the conflict view", || async { count(&c, "[data-testid=conflict]").await == 1 }).await;
        // The changes line by line: the disk's new line removed, the editor's lines added.
        let mut rows = Vec::new();
        for r in c.find_all(Locator::Css("[data-testid=conflict-diff] [data-kind]")).await? {
            rows.push(format!("{} {}", r.attr("data-kind").await?.unwrap_or_default(), r.text().await?));
        }
        let has = |kind: &str, what: &str| rows.iter().any(|r| r.starts_with(kind) && r.contains(what));
        assert!(has("removed", "EXTERNAL TWO") && has("added", "EXTERNAL ONE") && has("added", "MINE"), "{rows:?}");
        assert!(!has("same", "EXTERNAL"), "{rows:?}");
        // And both versions in full.
        c.find(Locator::Css("[data-testid=conflict-both]")).await?.click().await?;
        assert!(text(&c, "[data-testid=conflict-disk]").await.contains("EXTERNAL TWO"));
        assert!(text(&c, "[data-testid=conflict-mine]").await.contains("MINE"));
        c.find(Locator::Css("[data-testid=conflict-both]")).await?.click().await?;
        if let Some(dir) = std::env::var_os("SKILL_STUDIO_SHOTS") {
            for theme in ["light", "dark"] {
                c.execute(&format!("document.documentElement.dataset.theme = '{theme}'"), vec![]).await?;
                let png = c.screenshot().await?;
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(Path::new(&dir).join(format!("conflict-{theme}.png")), png).unwrap();
            }
        }

        // Keep mine: it is saved over the disk's version, with no new conflict from that save.
        c.find(Locator::Css("[data-testid=keep-mine]")).await?.click().await?;
        wait_for("the save", || async {
            std::fs::read_to_string(&file).unwrap_or_default().contains("MINE")
                && text_of(&c, "[data-testid=status]").await.is_some_and(|t| t.starts_with("saved"))
        })
        .await;
        let saved = std::fs::read_to_string(&file).unwrap();
        assert!(saved.contains("EXTERNAL ONE") && !saved.contains("EXTERNAL TWO"), "{saved}");

        // Ctrl+S saves the text typed just before; once a later external change elsewhere has shown up, the
        // watcher has reported the app's own saves too, and none raised a conflict.
        content.click().await?;
        content.send_keys(&ctrl_end).await?;
        content.send_keys(" AND MORE").await?;
        let ctrl_s: String = [char::from(Key::Control), 's'].iter().collect();
        content.send_keys(&ctrl_s).await?;

        wait_for("the second save", || async {
            std::fs::read_to_string(&file).unwrap_or_default().contains(" AND MORE")
        })
        .await;
        let other = library.join("changelog/SKILL.md");
        let other = if other.exists() {
            other
        } else {
            std::fs::read_dir(&library)
                .unwrap()
                .map(|e| e.unwrap().path().join("SKILL.md"))
                .find(|p| p.exists() && !p.ends_with("commit-message/SKILL.md"))
                .unwrap()
        };
        let name = other.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
        std::fs::write(&other, "---\nname: Not_Valid\n---\n").unwrap();
        let badge = format!(
            "[data-testid=skill][data-name=Not_Valid] .badge.error, [data-testid=skill][data-name={name}] .badge.error"
        );
        wait_for("the other skill's error badge", || async { count(&c, &badge).await >= 1 }).await;
        assert_eq!(count(&c, "[data-testid=conflict]").await, 0);
        assert_eq!(count(&c, "[data-testid=dirty]").await, 0);
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
