//! Screenshots of every pane of the real window, as PNG, for the book (`docs/app.md`): the Library, the Editor
//! with a diagnostic's span selected and its quick fixes (Ctrl+.) open, the Problems list, the Prompt pane with two agents side by
//! side, and the Session pane after a few steps (and the whole window in both themes).
//! `SKILL_STUDIO_SCREENSHOTS=1 cargo test -p app-e2e --test screenshots` writes them into
//! `docs/screenshots/`; otherwise they go to a temporary folder and are only checked.

mod prompt_session_support;
use fantoccini::key::Key;
use fantoccini::Locator;
use prompt_session_support::*;
use std::path::Path;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

#[tokio::test(flavor = "multi_thread")]
async fn screenshot_every_pane() {
    let (tmp, lib) = library();
    let out = screenshots_dir(tmp.path());
    let _driver = Driver::start(tmp.path(), 4554);
    let c = connect(&app_binary(), &[&lib], 4554).await;
    let result = async {
        let save = |name: &'static str, png: Vec<u8>| {
            assert!(png.starts_with(PNG) && png.len() > 1000, "{name} is not a PNG");
            std::fs::write(out.join(name), png).unwrap();
        };
        // Whole-window shots: WebKitWebDriver's element screenshots are cut at the wrong place.
        let pane = |_focus: &'static str| {
            let c = c.clone();
            async move { c.screenshot().await }
        };
        // Frames are drawn after the DOM settles: wait for two animation frames before a shot.
        let painted = || async {
            c.execute_async("requestAnimationFrame(() => requestAnimationFrame(() => arguments[0]()))", vec![])
                .await
                .ok();
        };
        let n = skill_count(&lib);
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;

        // Editor: a skill with a broken name; the Problems pane lists it; clicking selects its span.
        open_skill(&c, "commit-message").await?;
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        let down: String = [char::from(Key::Down), char::from(Key::End)].iter().collect();
        content.send_keys(&down).await?;
        content.send_keys("_X").await?;
        wait_for("a problem", || async { count(&c, "[data-testid=problem]").await >= 1 }).await;
        wait_for("the squiggle", || async { count(&c, ".cm-lintRange-error").await >= 1 }).await;
        c.find(Locator::Css("[data-testid=problem]")).await?.click().await?;
        // The problem's exact span is selected in the editor.
        wait_for("the selected span", || async { count(&c, ".cm-selectionBackground").await >= 1 }).await;
        let selected =
            c.execute("const v = document.querySelector('.cm-content'); return String(getSelection())", vec![]).await?;
        assert_eq!(selected.as_str(), Some("commit-message_X"), "the diagnostic's span is selected");
        // And the quick fixes there (Ctrl+.).
        let ctrl_dot: String = [char::from(Key::Control), '.', char::from(Key::Control)].iter().collect();
        content.send_keys(&ctrl_dot).await?;
        wait_for("the quick-fix menu", || async { count(&c, "[data-testid=quick-fix]").await >= 2 }).await;
        painted().await;
        save("editor.png", pane("section.editor").await?);
        c.find(Locator::Css("[data-testid=quick-fix]")).await?.send_keys(&char::from(Key::Escape).to_string()).await?;
        wait_for("the menu to close", || async { count(&c, "[data-testid=quick-fix]").await == 0 }).await;
        c.execute("document.querySelector('[data-testid=filter-warning]').click()", vec![]).await?;
        c.execute("document.querySelector('[data-testid=problems] button').focus()", vec![]).await?;
        painted().await;
        save("problems.png", pane("section.problems").await?);
        c.execute("document.querySelector('[data-testid=library]').focus()", vec![]).await?;
        painted().await;
        save("library.png", pane("section.library").await?);

        // Prompt: the window under Claude Code, beside Codex, the open skill marked in both.
        choose(&c, "[data-testid=agent]", "claude-code").await;
        choose(&c, "[data-testid=compare-agent]", "codex").await;
        wait_for("two prompts", || async { count(&c, "[data-testid=prompt-text]").await == 2 }).await;
        wait_for("the marked skill", || async { count(&c, "[data-testid=prompt-mark]").await >= 1 }).await;
        painted().await;
        save("prompt.png", pane("section.prompt").await?);

        // Session: invoke, a slash command and a tool call blocked under the restrict policy, all
        // through the one composer.
        c.find(Locator::Css("[data-testid=tab-session]")).await?.click().await?;
        choose(&c, "[data-testid=session-agent]", "claude-code").await;
        wait_for("the session", || async {
            count(&c, "[data-testid=composer-skill] option[value=commit-message]").await == 1
        })
        .await;
        choose(&c, "[data-testid=session-policy]", "restrict").await;
        let send = |action: &'static str, skill: Option<&'static str>, text: &'static str, turns: usize| {
            let c = c.clone();
            async move {
                choose(&c, "[data-testid=composer-action]", action).await;
                if let Some(skill) = skill {
                    choose(&c, "[data-testid=composer-skill]", skill).await;
                }
                choose(&c, "[data-testid=composer-text]", text).await;
                c.find(Locator::Css("[data-testid=composer-send]")).await.unwrap().click().await.unwrap();
                wait_for("the turn", || async { count(&c, "[data-testid=turn]").await == turns }).await;
            }
        };
        send("invoke", Some("commit-message"), "", 1).await;
        send("slash", None, "/changelog-writer since v1.2.0", 2).await;
        send("tool", None, r#"Bash {"command": "rm -rf build"}"#, 3).await;
        painted().await;
        save("session.png", pane("section.prompt").await?);

        // The whole window in the dark theme.
        choose(&c, "[data-testid=theme]", "dark").await;
        wait_for("the dark theme", || async {
            c.execute("return document.documentElement.dataset.theme", vec![])
                .await
                .ok()
                .and_then(|v| v.as_str().map(|s| s == "dark"))
                == Some(true)
        })
        .await;
        painted().await;
        save("window-dark.png", c.screenshot().await?);
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
    for name in ["library", "editor", "problems", "prompt", "session", "window-dark"] {
        assert!(Path::new(&out).join(format!("{name}.png")).exists(), "{name}.png");
    }
}
