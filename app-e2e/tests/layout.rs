//! The real window's layout by hand: the Library's split dragged with the pointer, the side
//! panel's moved with the keyboard, the side panel hidden and shown with the pointer, Problems
//! collapsed with Ctrl+J and the Library with its split's Enter; then the app is closed and started again with the same config folder, and the
//! sizes and collapsed panels are as they were left.

use app_e2e::*;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use std::time::Duration;

const PORT: u16 = 4654;

async fn width(c: &Client, css: &str) -> f64 {
    let v = c
        .execute(
            "const e = document.querySelector(arguments[0]); return e ? e.getBoundingClientRect().width : -1;",
            vec![css.into()],
        )
        .await
        .unwrap();
    v.as_f64().unwrap()
}

/// The window state the app keeps in its config folder, once `holds` is true of it (it is
/// written a moment after each change).
async fn remembered(home: &std::path::Path, holds: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let file = home.join("config/dev.skillstudio.app/ui-state.json");
    let read = || serde_json::from_str(&std::fs::read_to_string(&file).unwrap_or_default()).unwrap_or_default();
    wait_for("the window state on disk", || {
        let ok = holds(&read());
        async move { ok }
    })
    .await;
    read()
}

#[tokio::test(flavor = "multi_thread")]
async fn panels_resize_by_pointer_and_keyboard_collapse_and_survive_a_restart() {
    let (tmp, lib) = library();
    let n = skill_count(&lib);
    let (library_px, side_px);
    {
        let _driver = Driver::start(tmp.path(), PORT);
        let c = connect(&app_binary(), &[&lib], PORT).await;
        let result = async {
            wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;
            open_skill(&c, "commit-message").await?;

            // The pointer drags the Library's split 40 px to the right.
            let before = width(&c, "#panel-library").await;
            let split = c.find(Locator::Css("[data-testid=split-library]")).await?;
            let drag = MouseActions::new("mouse".into())
                .then(PointerAction::MoveToElement { element: split, duration: None, x: 0.0, y: 0.0 })
                .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
                .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(150)), x: 20.0, y: 0.0 })
                .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(150)), x: 20.0, y: 0.0 })
                .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
            c.perform_actions(drag).await?;
            wait_for("the wider Library", || async {
                (width(&c, "#panel-library").await - (before + 40.0)).abs() < 2.0
            })
            .await;
            // Dragging selected no text.
            let selected = c.execute("return String(getSelection())", vec![]).await?;
            assert_eq!(selected.as_str(), Some(""), "the drag selected text");

            // The keyboard moves the side panel's split: three steps left grow it by 48 px.
            let before = width(&c, "#panel-side").await;
            let split = c.find(Locator::Css("[data-testid=split-side]")).await?;
            c.execute("document.querySelector('[data-testid=split-side]').focus()", vec![]).await?;
            let left = char::from(Key::Left).to_string();
            for _ in 0..3 {
                split.send_keys(&left).await?;
            }
            wait_for("the wider side panel", || async {
                (width(&c, "#panel-side").await - (before + 48.0)).abs() < 1.0
            })
            .await;

            // The pointer hides the side panel with its toggle in the title bar, and shows it again.
            c.find(Locator::Css("[data-testid=toggle-side]")).await?.click().await?;
            wait_for("the side panel hidden", || async { count(&c, "#panel-side").await == 0 }).await;
            c.find(Locator::Css("[data-testid=toggle-side]")).await?.click().await?;
            wait_for("the side panel back", || async { count(&c, "#panel-side").await == 1 }).await;

            // Ctrl+J hides Problems (shown: the broken skill below has problems), Enter on the
            // Library's split collapses the Library.
            let content = c.find(Locator::Css(".cm-content")).await?;
            content.click().await?;
            content
                .send_keys(
                    &[char::from(Key::Control), char::from(Key::Home), char::from(Key::Control)]
                        .iter()
                        .collect::<String>(),
                )
                .await?;
            content.send_keys("x").await?;
            wait_for("Problems", || async { count(&c, "#panel-bottom").await == 1 }).await;
            content
                .send_keys(&[char::from(Key::Control), 'j', char::from(Key::Control)].iter().collect::<String>())
                .await?;
            wait_for("Problems hidden", || async { count(&c, "#panel-bottom").await == 0 }).await;
            assert_eq!(
                c.find(Locator::Css("[data-testid=toggle-bottom]")).await?.attr("aria-pressed").await?.as_deref(),
                Some("false")
            );
            content.send_keys(&char::from(Key::Backspace).to_string()).await?;
            let lw = width(&c, "#panel-library").await;
            c.find(Locator::Css("[data-testid=split-library]"))
                .await?
                .send_keys(&char::from(Key::Enter).to_string())
                .await?;
            wait_for("the Library hidden", || async { count(&c, "#panel-library").await == 0 }).await;
            let collapsed =
                |s: &serde_json::Value| s["collapsed"].as_array().is_some_and(|c| c.iter().any(|v| v == "library"));
            remembered(tmp.path(), collapsed).await;
            Ok::<_, fantoccini::error::CmdError>((lw, width(&c, "#panel-side").await))
        }
        .await;
        c.close().await.ok();
        (library_px, side_px) = result.unwrap();
    }
    let state = remembered(tmp.path(), |_| true).await;
    assert_eq!(state["sizes"]["library"].as_f64().map(f64::round), Some(library_px.round()), "{state}");

    // Started again with the same config folder: as it was left.
    let _driver = Driver::start(tmp.path(), PORT + 2);
    let c = connect(&app_binary(), &[&lib], PORT + 2).await;
    let result = async {
        // The Library is hidden, the file left open is open again.
        wait_for("the file left open", || async {
            text_of(&c, "[data-testid=editor-path]").await.is_some_and(|p| p.ends_with("/commit-message/SKILL.md"))
        })
        .await;
        assert_eq!(count(&c, "#panel-library").await, 0, "the Library stays hidden");
        assert!((width(&c, "#panel-side").await - side_px).abs() < 1.0, "the side panel's width");
        assert_eq!(
            c.find(Locator::Css("[data-testid=toggle-bottom]")).await?.attr("aria-pressed").await?.as_deref(),
            Some("false"),
            "Problems stays hidden"
        );
        // Shown again (Ctrl+B), the Library has the width it was dragged to.
        c.find(Locator::Css("[data-testid=toggle-library]")).await?.click().await?;
        wait_for("the Library", || async { (width(&c, "#panel-library").await - library_px).abs() < 1.0 }).await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
