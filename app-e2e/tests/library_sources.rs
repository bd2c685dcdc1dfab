//! The real window's sources: the first start opens the bundled library and remembers it; a
//! remembered library is reopened on the next start; reordering sources with the ↑/↓ buttons
//! and by dragging one with the pointer (WebDriver pointer actions: real mouse events) changes
//! which skill hides which, and is remembered. Run after `cargo build -p skill-studio`,
//! under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, Locator};
use std::path::Path;
use std::time::Duration;

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4574;

async fn first_source(c: &Client) -> String {
    match c.find(Locator::Css("[data-testid=source] .path")).await {
        Ok(e) => e.attr("title").await.ok().flatten().unwrap_or_default(),
        Err(_) => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_last_library_is_remembered_and_sources_reorder() {
    let app = app_binary();
    let tmp = tempfile::tempdir().unwrap();
    let memory = tmp.path().join("config/dev.skillstudio.app/last-library.json");
    let _driver = Driver::start(tmp.path(), PORT);

    // First start, no arguments: the bundled library, remembered.
    let bundled = repo().join("skills").canonicalize().unwrap();
    let skills =
        std::fs::read_dir(&bundled).unwrap().filter(|e| e.as_ref().unwrap().path().join("SKILL.md").exists()).count();
    let c = connect(&app, &[], PORT).await;
    let first = async {
        wait_for("the bundled library", || async { count(&c, "[data-testid=skill]").await == skills }).await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    first.unwrap();
    let remembered: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&memory).unwrap()).unwrap();
    assert_eq!(remembered["sources"], serde_json::json!([bundled.to_string_lossy()]));

    // Two sources with a skill of the same name: the later one hides the earlier.
    for (source, body) in [("low", "LOW"), ("high", "HIGH")] {
        let dir = tmp.path().join(source).join("twin");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: twin\ndescription: The {body} twin. Use when testing.\n---\n\n{body}\n"),
        )
        .unwrap();
    }
    let (low, high) = (tmp.path().join("low").canonicalize().unwrap(), tmp.path().join("high").canonicalize().unwrap());
    let last = serde_json::json!({ "sources": [low, high], "agent": "spec" });
    std::fs::write(&memory, last.to_string()).unwrap();

    // Next start: the remembered library; moving the first source down swaps the hiding.
    let c = connect(&app, &[], PORT).await;
    let second = async {
        wait_for("the remembered library", || async { count(&c, "[data-testid=source]").await == 2 }).await;
        wait_for("the twins", || async { count(&c, "[data-testid=skill]").await == 2 }).await;
        // On the skill's one line, "hidden", and by what in its title and to a screen reader.
        assert!(text_of(&c, "[data-testid=hidden-by]")
            .await
            .unwrap_or_default()
            .contains("hidden by twin in source 2"));
        if let Some(dir) = std::env::var_os("SKILL_STUDIO_SHOTS") {
            let png = c.screenshot().await?;
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(Path::new(&dir).join("library-sources.png"), png).unwrap();
        }
        assert_eq!(first_source(&c).await, low.to_string_lossy());
        let down = c.find(Locator::Css("[data-testid=source-down]")).await?;
        down.click().await?;
        wait_for("the new order", || async { first_source(&c).await == high.to_string_lossy() }).await;
        // The tree follows: the first source is now `high`, and its twin is the hidden one.
        wait_for("the tree in the new order", || async {
            let first = c.find(Locator::Css("[data-testid=tree-source] .source-path")).await;
            match first {
                Ok(e) => e.attr("title").await.ok().flatten() == Some(high.to_string_lossy().into_owned()),
                Err(_) => false,
            }
        })
        .await;
        let first_skill = c.find(Locator::Css("[data-testid=skill]")).await?;
        assert!(first_skill.attr("class").await?.unwrap_or_default().contains("hidden"));

        // Dragging the first source onto the second moves it back below: a real pointer drag.
        let sources = c.find_all(Locator::Css("[data-testid=source] .grip")).await?;
        let drag = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement { element: sources[0].clone(), duration: None, x: 0.0, y: 0.0 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(100)), x: 4.0, y: 4.0 })
            .then(PointerAction::MoveToElement {
                element: sources[1].clone(),
                duration: Some(Duration::from_millis(300)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        c.perform_actions(drag).await?;
        wait_for("the dragged order", || async { first_source(&c).await == low.to_string_lossy() }).await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    second.unwrap();
    let remembered: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&memory).unwrap()).unwrap();
    assert_eq!(remembered["sources"], serde_json::json!([low, high]));
}
