//! The real window keeps a CRLF file's line endings: typed lines and the save use CRLF. Run after
//! `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::Locator;

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4624;

#[tokio::test(flavor = "multi_thread")]
async fn a_crlf_file_is_saved_with_crlf() {
    let app = app_binary();
    let (tmp, library) = library();
    let file = library.join("commit-message/SKILL.md");
    let crlf = std::fs::read_to_string(&file).unwrap().replace('\n', "\r\n");
    std::fs::write(&file, &crlf).unwrap();

    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&library], PORT).await;
    let result = async {
        open_skill(&c, "commit-message").await?;
        assert_eq!(count(&c, "[data-testid=dirty]").await, 0, "opening a CRLF file does not change it");
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        // At the end of the file: a new paragraph of two lines.
        let ctrl_end: String =
            [char::from(Key::Control), char::from(Key::End), char::from(Key::Enter)].iter().collect();
        content.send_keys(&ctrl_end).await?;
        content.send_keys("FIRST").await?;
        content.send_keys(&char::from(Key::Enter).to_string()).await?;
        content.send_keys("SECOND").await?;
        let ctrl_s: String = [char::from(Key::Control), 's'].iter().collect();
        content.send_keys(&ctrl_s).await?;
        wait_for("the save", || async { std::fs::read_to_string(&file).unwrap_or_default().contains("SECOND") }).await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.ends_with("\r\n\r\nFIRST\r\nSECOND"), "{:?}", &saved[saved.len().saturating_sub(200)..]);
    assert_eq!(saved.matches('\n').count(), saved.matches("\r\n").count(), "every line ends with CRLF");
}
