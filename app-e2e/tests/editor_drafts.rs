//! The real window's recovery drafts: unsaved text is written to the data folder; the next start
//! offers it (it is newer than the file) and restores it into the editor, unsaved. Run after
//! `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::Locator;
use std::time::Duration;

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4614;

#[tokio::test(flavor = "multi_thread")]
async fn unsaved_text_survives_a_restart_as_a_draft() {
    let app = app_binary();
    let (tmp, library) = library();
    let file = library.join("commit-message/SKILL.md");
    let original = std::fs::read_to_string(&file).unwrap();
    let drafts = tmp.path().join("data/dev.skillstudio.app/drafts");
    let _driver = Driver::start(tmp.path(), PORT);

    let c = connect(&app, &[&library], PORT).await;
    let first = async {
        open_skill(&c, "commit-message").await?;
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        // At the top, where the editor renders it (it only draws the lines in view).
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        content.send_keys("UNSAVED WORDS").await?;
        wait_for("the draft file", || async { std::fs::read_dir(&drafts).map(|d| d.count() == 1).unwrap_or(false) })
            .await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    first.unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "nothing was saved");
    // Make sure the file is older than the draft, whatever the clock's resolution.
    let past = std::time::SystemTime::now() - Duration::from_secs(120);
    std::fs::File::options().write(true).open(&file).unwrap().set_modified(past).unwrap();

    let c = connect(&app, &[&library], PORT).await;
    let second = async {
        wait_for("the offer", || async { count(&c, "[data-testid=draft]").await == 1 }).await;
        assert!(text(&c, "[data-testid=draft]").await.contains("commit-message/SKILL.md"));
        c.find(Locator::Css("[data-testid=draft-restore]")).await?.click().await?;
        wait_for("the restored text", || async { text(&c, ".cm-content").await.contains("UNSAVED WORDS") }).await;
        assert_eq!(count(&c, "[data-testid=dirty]").await, 1);
        // Saving writes it and removes the draft.
        c.find(Locator::Css("[data-testid=save]")).await?.click().await?;
        wait_for("the save", || async { std::fs::read_to_string(&file).unwrap_or_default().contains("UNSAVED WORDS") })
            .await;
        wait_for("no draft left", || async { std::fs::read_dir(&drafts).map(|d| d.count() == 0).unwrap_or(false) })
            .await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    second.unwrap();
}
