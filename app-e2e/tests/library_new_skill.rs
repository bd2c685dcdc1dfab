//! The real window's "New skill" dialog: a bad name is reported live, a good one creates the skill
//! inside the chosen source, which opens in the editor with no error or warning. Run after
//! `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4604;
const NATIVE_PORT: u16 = 4605;

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
async fn a_new_skill_is_checked_live_created_and_opened() {
    let app = app_binary();
    assert!(app.exists(), "{} not built: run `cargo build -p skill-studio` first", app.display());
    let tmp = tempfile::tempdir().unwrap();
    let library = tmp.path().join("skills");
    copy_dir(&repo().join("skills"), &library);

    let _driver = Driver::start(tmp.path());
    let c = connect(&app, &[&library]).await;
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
