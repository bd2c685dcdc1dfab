//! The real window's "New skill" dialog: a bad name is reported live, a good one creates the skill
//! inside the chosen source, which opens in the editor with no error or warning. Run after
//! `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::Locator;
use std::path::Path;

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4604;

#[tokio::test(flavor = "multi_thread")]
async fn a_new_skill_is_checked_live_created_and_opened() {
    let app = app_binary();
    let (tmp, library) = library();

    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&library], PORT).await;
    let result = async {
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await > 0 }).await;
        c.find(Locator::Css("[data-testid=new-skill-open]")).await?.click().await?;
        wait_for("the dialog", || async { count(&c, "[data-testid=new-skill]").await == 1 }).await;
        let name = c.find(Locator::Css("[data-testid=new-name]")).await?;
        name.send_keys("Bad_Name").await?;
        c.find(Locator::Css("[data-testid=new-description]"))
            .await?
            .send_keys("Drafts release notes from merged changes. Use when asked for release notes.")
            .await?;
        wait_for("the name problem", || async { count(&c, "[data-testid=new-problem][data-field=name]").await >= 1 })
            .await;
        if let Some(dir) = std::env::var_os("SKILL_STUDIO_SHOTS") {
            // In both themes, to check both are readable.
            for theme in ["light", "dark"] {
                c.execute(&format!("document.documentElement.dataset.theme = '{theme}'"), vec![]).await?;
                let png = c.screenshot().await?;
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(Path::new(&dir).join(format!("new-skill-{theme}.png")), png).unwrap();
            }
        }
        name.clear().await?;
        name.send_keys("release-notes").await?;
        wait_for("a clean check", || async {
            count(&c, "[data-testid=new-problem]").await == 0
                && c.find(Locator::Css("[data-testid=new-create]")).await.ok().is_some()
                && count(&c, "[data-testid=new-create]:disabled").await == 0
        })
        .await;
        c.find(Locator::Css("[data-testid=new-create]")).await?.click().await?;
        wait_for("the new skill in the editor", || async {
            text(&c, ".cm-content").await.contains("name: release-notes")
        })
        .await;
        wait_for("the new skill in the library", || async {
            count(&c, "[data-testid=skill][data-name=release-notes]").await == 1
        })
        .await;
        assert_eq!(count(&c, "[data-testid=skill][data-name=release-notes] .badge").await, 0);
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
    let text = std::fs::read_to_string(library.join("release-notes/SKILL.md")).unwrap();
    assert!(text.starts_with("---\nname: release-notes\n"), "{text}");
    assert!(library.join("release-notes/references").is_dir());
}
