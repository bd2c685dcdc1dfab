//! The real window's sources: the first start opens the bundled library and remembers it; a
//! remembered library is reopened on the next start; reordering sources with the keyboard buttons
//! changes which skill hides which, and is remembered. Run after `cargo build -p skill-studio`,
//! under a display (`xvfb-run -a cargo test -p app-e2e`).

use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4574;
const NATIVE_PORT: u16 = 4575;

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

async fn first_source(c: &Client) -> String {
    match c.find(Locator::Css("[data-testid=source] .path")).await {
        Ok(e) => e.attr("title").await.ok().flatten().unwrap_or_default(),
        Err(_) => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_last_library_is_remembered_and_sources_reorder() {
    let app = app_binary();
    assert!(app.exists(), "{} not built: run `cargo build -p skill-studio` first", app.display());
    let tmp = tempfile::tempdir().unwrap();
    let memory = tmp.path().join("config/dev.skillstudio.app/last-library.json");
    let _driver = Driver::start(tmp.path());

    // First start, no arguments: the bundled library, remembered.
    let bundled = repo().join("skills").canonicalize().unwrap();
    let skills =
        std::fs::read_dir(&bundled).unwrap().filter(|e| e.as_ref().unwrap().path().join("SKILL.md").exists()).count();
    let c = connect(&app, &[]).await;
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
    let c = connect(&app, &[]).await;
    let second = async {
        wait_for("the remembered library", || async { count(&c, "[data-testid=source]").await == 2 }).await;
        wait_for("the twins", || async { count(&c, "[data-testid=skill]").await == 2 }).await;
        assert!(text(&c, "[data-testid=hidden-by]").await.contains("hidden by twin in source 2"));
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
            let first = c.find(Locator::Css("[data-testid=library] .source")).await;
            match first {
                Ok(e) => e.attr("title").await.ok().flatten() == Some(high.to_string_lossy().into_owned()),
                Err(_) => false,
            }
        })
        .await;
        let first_skill = c.find(Locator::Css("[data-testid=skill]")).await?;
        assert!(first_skill.attr("class").await?.unwrap_or_default().contains("hidden"));
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    second.unwrap();
    let remembered: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&memory).unwrap()).unwrap();
    assert_eq!(remembered["sources"], serde_json::json!([high, low]));
}
