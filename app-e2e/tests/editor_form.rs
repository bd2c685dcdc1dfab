//! The real window's frontmatter form: editing a field rewrites only that line of the text, and
//! the save writes exactly that change; typing in the text updates the form. Run after
//! `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4594;

async fn value(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.prop("value").await.ok().flatten().unwrap_or_default(),
        Err(_) => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_form_edit_rewrites_one_line_and_the_text_updates_the_form() {
    let app = app_binary();
    let (tmp, library) = library();
    let file = library.join("commit-message/SKILL.md");
    let original = std::fs::read_to_string(&file).unwrap();

    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&library], PORT).await;
    let result = async {
        open_skill(&c, "commit-message").await?;
        // A window narrower than 1,400 px starts with the form hidden: its toggle shows it.
        let toggle = c.find(Locator::Css("[data-testid=form-toggle]")).await?;
        assert_eq!(toggle.attr("aria-pressed").await?.as_deref(), Some("false"));
        toggle.click().await?;
        let license = "[data-testid=frontmatter-form] [data-key=license]";
        wait_for("the form", || async { value(&c, license).await == "MIT" }).await;

        // The form rewrites only the license line; saving writes exactly that change.
        let input = c.find(Locator::Css(license)).await?;
        input.click().await?;
        let select_all: String = [char::from(Key::Control), 'a'].iter().collect();
        input.send_keys(&select_all).await?;
        input.send_keys("Apache-2.0").await?;
        wait_for("the editor text", || async { text(&c, ".cm-content").await.contains("license: Apache-2.0") }).await;
        c.find(Locator::Css("[data-testid=save]")).await?.click().await?;
        let expected = original.replace("license: MIT", "license: Apache-2.0");
        wait_for("the save", || async { std::fs::read_to_string(&file).unwrap_or_default() == expected }).await;

        // Typing in the text updates the form.
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        content.send_keys(&format!("{}{}{}", char::from(Key::Down), char::from(Key::End), "x")).await?;
        wait_for("the form's name", || async {
            value(&c, "[data-testid=frontmatter-form] [data-key=name]").await == "commit-messagex"
        })
        .await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
