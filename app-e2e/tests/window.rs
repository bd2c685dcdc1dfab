//! The real Skill Studio window, driven through tauri-driver and Debian's WebKitWebDriver. Run
//! after `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).
//! The app opens a copy of the bundled `skills/`, so nothing in the repository is touched.

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PORT: u16 = 4544;
const NATIVE_PORT: u16 = 4545;

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

/// tauri-driver, stopped with SIGTERM on drop: it stops WebKitWebDriver only on SIGTERM/SIGINT,
/// and an orphaned WebKitWebDriver would hang the next session.
struct Driver(Child);

impl Driver {
    fn start() -> Driver {
        let child = Command::new("tauri-driver")
            .args(["--port", &PORT.to_string(), "--native-port", &NATIVE_PORT.to_string()])
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

async fn connect(app: &Path, library: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), "wry".into());
    caps.insert("tauri:options".into(), serde_json::json!({ "application": app, "args": [library] }));
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

#[tokio::test(flavor = "multi_thread")]
async fn default_library_opens_and_a_typed_error_shows_a_diagnostic() {
    let app = app_binary();
    assert!(app.exists(), "{} not built: run `cargo build -p skill-studio` first", app.display());
    let tmp = tempfile::tempdir().unwrap();
    let library = tmp.path().join("skills");
    copy_dir(&repo().join("skills"), &library);
    let skills =
        std::fs::read_dir(&library).unwrap().filter(|e| e.as_ref().unwrap().path().join("SKILL.md").exists()).count();

    let _driver = Driver::start();
    let c = connect(&app, &library).await;
    let result = async {
        // The library opens with every bundled skill, none with an error badge.
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == skills }).await;
        assert_eq!(count(&c, "[data-testid=skill] .badge.error").await, 0);
        assert_eq!(c.find(Locator::Css("[data-testid=count-error]")).await?.text().await?, "0 errors");

        // Open a skill and break its frontmatter by typing at the start of the file.
        c.find(Locator::Css("[data-testid=skill][data-name=commit-message] button")).await?.click().await?;
        wait_for("the editor", || async { count(&c, ".cm-content").await == 1 }).await;
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        content.send_keys("x").await?;

        // The engine's diagnostic shows in Problems and as a squiggle in the editor.
        wait_for("the SK101 problem", || async { count(&c, "[data-testid=problem][data-code=SK101]").await == 1 })
            .await;
        wait_for("the squiggle", || async { count(&c, ".cm-lintRange-error").await >= 1 }).await;
        let problem = c.find(Locator::Css("[data-testid=problem][data-code=SK101]")).await?.text().await?;
        assert!(problem.contains("commit-message:1:1"), "{problem}");
        assert!(count(&c, "[data-testid=dirty]").await == 1);

        if let Some(dir) = std::env::var_os("SKILL_STUDIO_SHOTS") {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let png = c.screenshot().await?;
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(Path::new(&dir).join("editor-diagnostic.png"), png).unwrap();
        }
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
    // Typing did not save: the copy on disk is unchanged.
    let text = std::fs::read_to_string(library.join("commit-message/SKILL.md")).unwrap();
    assert!(text.starts_with("---"));
}
