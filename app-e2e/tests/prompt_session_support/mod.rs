//! Helpers for the Prompt, Session and screenshot tests of the real window: start tauri-driver
//! (each test on its own ports), open the app on a copy of the bundled `skills/`, wait for
//! conditions, read exact text through JavaScript (WebDriver's element text folds whitespace).
#![allow(dead_code)]

pub use app_e2e::{copy_dir, count, repo};
use fantoccini::{Client, ClientBuilder};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn target_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("target"));
    if target.is_absolute() {
        target
    } else {
        repo().join(target)
    }
}

pub fn app_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SKILL_STUDIO_BIN") {
        return PathBuf::from(p);
    }
    let app = target_dir().join("debug/skill-studio");
    assert!(app.exists(), "{} not built: run `cargo build -p skill-studio` first", app.display());
    app
}

/// A copy of the bundled library in a temporary folder (its real path, as the app shows it).
pub fn library() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("skills");
    copy_dir(&repo().join("skills"), &lib);
    let lib = lib.canonicalize().unwrap();
    (tmp, lib)
}

pub fn skill_count(lib: &Path) -> usize {
    std::fs::read_dir(lib).unwrap().filter(|e| e.as_ref().unwrap().path().join("SKILL.md").exists()).count()
}

/// tauri-driver, stopped with SIGTERM on drop (it stops WebKitWebDriver only then).
pub struct Driver {
    child: Child,
    pub port: u16,
}

impl Driver {
    pub fn start(port: u16) -> Driver {
        let child = Command::new("tauri-driver")
            .args(["--port", &port.to_string(), "--native-port", &(port + 1).to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("tauri-driver on PATH (cargo install tauri-driver --locked --version '^2')");
        Driver { child, port }
    }

    pub async fn connect(&self, library: &Path) -> Client {
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), "wry".into());
        caps.insert("tauri:options".into(), serde_json::json!({ "application": app_binary(), "args": [library] }));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let url = format!("http://127.0.0.1:{}", self.port);
            match ClientBuilder::native().capabilities(caps.clone()).connect(&url).await {
                Ok(c) => return c,
                Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let _ = self.child.wait();
    }
}

pub async fn wait_for<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(30);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The exact `textContent` of the first element matching `css` (None when there is none).
pub async fn text_of(c: &Client, css: &str) -> Option<String> {
    let v = c
        .execute("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", vec![css.into()])
        .await
        .ok()?;
    v.as_str().map(str::to_string)
}

/// Sets a `<select>` or `<input>` and fires `change`, as a user's choice would.
pub async fn choose(c: &Client, css: &str, value: &str) {
    c.execute(
        "const e = document.querySelector(arguments[0]); e.value = arguments[1]; \
         e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
        vec![css.into(), value.into()],
    )
    .await
    .unwrap();
}

/// The CLI binary, built once (`cargo build -p skillkit-cli`).
pub fn skillkit() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-q", "-p", "skillkit-cli"])
        .current_dir(repo())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build -p skillkit-cli failed");
    target_dir().join("debug/skillkit")
}

/// `skillkit prompt` for the library: exactly the injected text.
pub fn cli_prompt(skillkit: &Path, agent: &str, library: &Path, extra: &[&str]) -> String {
    let out = Command::new(skillkit)
        .args(["prompt", "--agent", agent, "--source"])
        .arg(library)
        .args(extra)
        .output()
        .expect("skillkit runs");
    assert!(out.status.success(), "skillkit prompt failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}
