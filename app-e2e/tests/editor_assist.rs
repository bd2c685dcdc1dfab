//! The real window's hover and completion, from the engine's workspace (the answers `skillkit
//! lsp` gives an editor): resting the pointer on a frontmatter key shows its documentation;
//! typing a key in the frontmatter offers the keys it may be, Enter takes one into the text, and
//! Ctrl+Space opens the list where nothing was typed. Run after `cargo build -p skill-studio`,
//! under a display (`xvfb-run -a cargo test -p app-e2e --test editor_assist`).

use app_e2e::*;
use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use std::time::Duration;

// Not the other test files' ports, so the binaries can run side by side.
const PORT: u16 = 4738;

/// The editor's line holding `needle`.
async fn line_with(c: &Client, needle: &str) -> Result<fantoccini::elements::Element, fantoccini::error::CmdError> {
    for line in c.find_all(Locator::Css(".cm-content .cm-line")).await? {
        if line.text().await?.contains(needle) {
            return Ok(line);
        }
    }
    panic!("no line with {needle:?} in the editor");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_keys_hover_shows_its_doc_and_a_completion_goes_into_the_text() {
    let app = app_binary();
    let (tmp, library) = library();

    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&library], PORT).await;
    let result = async {
        open_skill(&c, "commit-message").await?;

        // The pointer rests on the `license` key (a few pixels into its line, whose centre is
        // far to the right of the text): its documentation shows.
        let line = line_with(&c, "license: MIT").await?;
        let (_, _, width, _) = line.rectangle().await?;
        let rest = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: line.clone(),
                duration: None,
                x: -width / 2.0 + 12.0,
                y: 0.0,
            })
            .then(PointerAction::MoveBy { duration: Some(Duration::from_millis(100)), x: 3.0, y: 0.0 });
        c.perform_actions(rest).await?;
        wait_for("the key's hover", || async {
            let shown = text(&c, ".cm-tooltip-hover .cm-assist").await;
            shown.starts_with("license") && shown.contains("Agent Skills specification")
        })
        .await;
        // The documentation's code is code, not text with backticks.
        assert_eq!(text(&c, ".cm-tooltip-hover .cm-assist p strong code").await, "license");
        c.perform_actions(MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
            duration: None,
            x: 2.0,
            y: 2.0,
        }))
        .await?;

        // A new line in the frontmatter: typing a key's start offers the keys it may be.
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        content.send_keys(&format!("{}{}", char::from(Key::End), char::from(Key::Enter))).await?;
        content.send_keys("disable-mo").await?;
        wait_for("the completion list", || async {
            text(&c, ".cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel").await
                == "disable-model-invocation"
        })
        .await;
        // Its documentation says which agent reads it.
        wait_for("the completion's documentation", || async {
            text(&c, ".cm-completionInfo").await.contains("Claude Code")
        })
        .await;
        // Enter takes it: the key and its colon replace what was typed. CodeMirror ignores Enter
        // for 75 ms after the list changes (`interactionDelay`, so a key pressed as it appears is
        // not a choice): wait past it, as a reader does.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        content.send_keys(&char::from(Key::Enter).to_string()).await?;
        wait_for("the completed key", || async {
            let shown = text(&c, ".cm-content").await;
            shown.contains("disable-model-invocation: ") && !shown.contains("disable-modisable")
        })
        .await;
        assert_eq!(count(&c, ".cm-tooltip-autocomplete").await, 0);

        // After the colon, the key's values are offered as you type; Enter takes one.
        content.send_keys("t").await?;
        wait_for("the key's values", || async {
            text(&c, ".cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel").await == "true"
        })
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        content.send_keys(&char::from(Key::Enter).to_string()).await?;
        wait_for("the value taken", || async {
            text(&c, ".cm-content").await.contains("disable-model-invocation: true")
        })
        .await;

        // Ctrl+Space on a new, empty line lists every key not yet there.
        content.send_keys(&format!("{}{}", char::from(Key::End), char::from(Key::Enter))).await?;
        let ctrl_space: String = [char::from(Key::Control), ' '].iter().collect();
        content.send_keys(&ctrl_space).await?;
        wait_for("the list on Ctrl+Space", || async { count(&c, ".cm-tooltip-autocomplete li").await > 5 }).await;
        let labels = text(&c, ".cm-tooltip-autocomplete > ul").await;
        assert!(labels.contains("compatibility"), "{labels}");
        assert!(!labels.contains("license"), "a key already there is not offered: {labels}");
        content.send_keys(&char::from(Key::Escape).to_string()).await?;
        wait_for("the list closed", || async { count(&c, ".cm-tooltip-autocomplete").await == 0 }).await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
