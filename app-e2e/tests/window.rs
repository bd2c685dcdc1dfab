//! The real Skill Studio window, driven through tauri-driver and Debian's WebKitWebDriver. Run
//! after `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).
//! The app opens a copy of the bundled `skills/`, so nothing in the repository is touched.

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::Locator;
use std::path::Path;
use std::time::Duration;

const PORT: u16 = 4544;

#[tokio::test(flavor = "multi_thread")]
async fn a_typed_error_shows_at_its_place_goes_when_fixed_and_a_quick_fix_applies() {
    let app = app_binary();
    let (tmp, library) = library();
    let skills =
        std::fs::read_dir(&library).unwrap().filter(|e| e.as_ref().unwrap().path().join("SKILL.md").exists()).count();

    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&library], PORT).await;
    let result = async {
        // The library opens with every bundled skill, none with an error badge.
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == skills }).await;
        assert_eq!(count(&c, "[data-testid=skill] .badge.error").await, 0);
        // With no problems, Problems is folded to a line saying so.
        assert!(text(&c, "[data-testid=problems-strip]").await.starts_with("No problems under"));

        // Open a skill and break its frontmatter by typing at the start of the file.
        open_skill(&c, "commit-message").await?;
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        content.send_keys("x").await?;

        // The engine's diagnostic shows in Problems, at line 1 column 1, and as a squiggle there.
        wait_for("the SK101 problem", || async { count(&c, "[data-testid=problem][data-code=SK101]").await == 1 })
            .await;
        wait_for("the squiggle on line 1", || async {
            count(&c, ".cm-content > .cm-line:first-child .cm-lintRange-error").await >= 1
        })
        .await;
        let problem = c.find(Locator::Css("[data-testid=problem][data-code=SK101]")).await?.text().await?;
        assert!(problem.contains("commit-message:1:1"), "{problem}");
        assert!(count(&c, "[data-testid=dirty]").await == 1);

        if let Some(dir) = std::env::var_os("SKILL_STUDIO_SHOTS") {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let png = c.screenshot().await?;
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(Path::new(&dir).join("editor-diagnostic.png"), png).unwrap();
        }

        // Fixing the error makes it go: the problem, the squiggle and the count.
        content.send_keys(&char::from(Key::Backspace).to_string()).await?;
        wait_for("the SK101 problem to go", || async {
            count(&c, "[data-testid=problem][data-code=SK101]").await == 0
                && count(&c, ".cm-lintRange-error").await == 0
        })
        .await;
        wait_for("Problems folded again", || async {
            text(&c, "[data-testid=problems-strip]").await.starts_with("No problems under")
        })
        .await;
        // The text is the saved text again: no dirty marker.
        wait_for("the dirty marker to go", || async { count(&c, "[data-testid=dirty]").await == 0 }).await;

        // A quick fix applies: break the name at the end of line 2, then Ctrl+.: the engine's
        // preferred fix, the one that clears both findings (setting `name` to the folder's name),
        // comes first with the focus, its label's code shown as code; Enter applies it.
        content.send_keys(&[char::from(Key::Down), char::from(Key::End)].iter().collect::<String>()).await?;
        content.send_keys("X").await?;
        wait_for("the SK205 problem", || async { count(&c, "[data-testid=problem][data-code=SK205]").await == 1 })
            .await;
        let ctrl_dot: String = [char::from(Key::Control), '.', char::from(Key::Control)].iter().collect();
        content.send_keys(&ctrl_dot).await?;
        wait_for("the quick-fix menu", || async { count(&c, "[data-testid=quick-fix]").await == 2 }).await;
        let fixes = c.find_all(Locator::Css("[data-testid=quick-fix]")).await?;
        let mut names = Vec::new();
        for f in &fixes {
            names.push(f.text().await?);
        }
        assert_eq!(names, ["Set name to commit-message", "Rename to commit-messagex"]);
        assert_eq!(count(&c, "[data-testid=quick-fix]:first-child code").await, 2, "`name` and the value as code");
        let focused = c.execute("return document.activeElement.textContent", vec![]).await?;
        assert_eq!(focused.as_str(), Some("Set name to commit-message"), "the preferred fix has the focus");
        c.active_element().await?.send_keys(&char::from(Key::Enter).to_string()).await?;
        wait_for("the fix in the text", || async {
            match c.find_all(Locator::Css(".cm-line")).await {
                Ok(lines) if lines.len() > 1 => lines[1].text().await.ok().as_deref() == Some("name: commit-message"),
                _ => false,
            }
        })
        .await;
        wait_for("the fixed name's problems to go", || async {
            count(&c, "[data-testid=problem][data-code=SK205]").await == 0
                && count(&c, "[data-testid=problem][data-code=SK204]").await == 0
                && count(&c, ".cm-lintRange-error").await == 0
        })
        .await;
        assert_eq!(count(&c, "[data-testid=quick-fix]").await, 0);
        wait_for("the dirty marker to go", || async { count(&c, "[data-testid=dirty]").await == 0 }).await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
    // Typing did not save: the copy on disk is unchanged.
    let text = std::fs::read_to_string(library.join("commit-message/SKILL.md")).unwrap();
    assert!(text.starts_with("---"));
}
