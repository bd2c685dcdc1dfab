//! The real window's recovery drafts: unsaved text is written to the data folder; the next start
//! offers it (it is newer than the file) and restores it into the editor, unsaved. Run after
//! `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4614;
const NATIVE_PORT: u16 = 4615;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn app_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SKILL_STUDIO_BIN") {
        return PathBuf::from(p);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("target"));
    let target = if target.is_absolute() { target } else { repo().join(target) };
    target.join("debug/skill-studio")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// tauri-driver, stopped with SIGTERM on drop (it then stops WebKitWebDriver too).
struct Driver(Child);

impl Driver {
    /// The app it starts keeps its config and data under `home`, not the user's.
    fn start(home: &Path) -> Driver {
        let child = Command::new("tauri-driver")
            .args(["--port", &PORT.to_string(), "--native-port", &NATIVE_PORT.to_string()])
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("tauri-driver on PATH (cargo install tauri-driver --locked --version '^2')");
        Driver(child)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        let _ = self.0.wait();
    }
}

async fn connect(app: &Path, args: &[&Path]) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), "wry".into());
    caps.insert("tauri:options".into(), serde_json::json!({ "application": app, "args": args }));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match ClientBuilder::native().capabilities(caps.clone()).connect(&format!("http://127.0.0.1:{PORT}")).await {
            Ok(c) => return c,
            Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
}

async fn wait_for<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(20);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.map(|v| v.len()).unwrap_or(0)
}

async fn text(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn unsaved_text_survives_a_restart_as_a_draft() {
    let app = app_binary();
    assert!(app.exists(), "{} not built: run `cargo build -p skill-studio` first", app.display());
    let tmp = tempfile::tempdir().unwrap();
    let library = tmp.path().join("skills");
    copy_dir(&repo().join("skills"), &library);
    let file = library.join("commit-message/SKILL.md");
    let original = std::fs::read_to_string(&file).unwrap();
    let drafts = tmp.path().join("data/dev.skillstudio.app/drafts");
    let _driver = Driver::start(tmp.path());

    let c = connect(&app, &[&library]).await;
    let first = async {
        wait_for("the library", || async { count(&c, "[data-testid=skill][data-name=commit-message]").await == 1 })
            .await;
        c.find(Locator::Css("[data-testid=skill][data-name=commit-message] button")).await?.click().await?;
        wait_for("the editor", || async { text(&c, ".cm-content").await.contains("commit") }).await;
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

    let c = connect(&app, &[&library]).await;
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
