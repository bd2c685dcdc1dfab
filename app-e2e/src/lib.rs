//! The harness the end-to-end tests share: the app binary, tauri-driver on a port of the test's
//! own (so test binaries can run side by side), a WebDriver session, and polling helpers.

use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Where a test writes its screenshots: `docs/screenshots/` with `SKILL_STUDIO_SCREENSHOTS` set
/// (to retake the docs' pictures), else a folder of the test's own `tmp`; made if missing.
pub fn screenshots_dir(tmp: &std::path::Path) -> PathBuf {
    let out = match std::env::var_os("SKILL_STUDIO_SCREENSHOTS") {
        Some(_) => repo().join("docs/screenshots"),
        None => tmp.join("screenshots"),
    };
    std::fs::create_dir_all(&out).unwrap();
    out
}

/// The target folder (`CARGO_TARGET_DIR`, else the repository's `target/`).
pub fn target_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("target"));
    if target.is_absolute() {
        target
    } else {
        repo().join(target)
    }
}

/// The app under test: `SKILL_STUDIO_BIN`, else the debug build in the target folder (which must
/// be built).
pub fn app_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SKILL_STUDIO_BIN") {
        return PathBuf::from(p);
    }
    let app = target_dir().join("debug/skill-studio");
    assert!(app.exists(), "{} not built: run `cargo build -p skill-studio` first", app.display());
    app
}

/// A copy of the bundled library in a temporary folder, by its real path (as the app shows it);
/// the app may change it freely.
pub fn library() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("skills");
    copy_dir(&repo().join("skills"), &lib);
    let lib = lib.canonicalize().unwrap();
    (tmp, lib)
}

/// How many skills the library folder has.
pub fn skill_count(lib: &Path) -> usize {
    std::fs::read_dir(lib).unwrap().filter(|e| e.as_ref().unwrap().path().join("SKILL.md").exists()).count()
}

/// Copies a folder tree (the tests work on copies of the bundled library).
pub fn copy_dir(from: &Path, to: &Path) {
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
pub struct Driver(Child);

impl Driver {
    /// On `port` (and `port + 1` for WebKitWebDriver). The app it starts keeps its config and data
    /// under `home`, not the user's.
    pub fn start(home: &Path, port: u16) -> Driver {
        let child = Command::new("tauri-driver")
            .args(["--port", &port.to_string(), "--native-port", &(port + 1).to_string()])
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

/// A WebDriver session on the tauri-driver at `port`, starting `app` with `args`.
pub async fn connect(app: &Path, args: &[&Path], port: u16) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), "wry".into());
    caps.insert("tauri:options".into(), serde_json::json!({ "application": app, "args": args }));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match ClientBuilder::native().capabilities(caps.clone()).connect(&format!("http://127.0.0.1:{port}")).await {
            Ok(c) => return c,
            Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
}

/// Polls `check` every 100 ms for up to 30 s; fails the test with `what` when it never holds.
pub async fn wait_for<F, Fut>(what: &str, check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    wait_within(what, Duration::from_secs(30), check).await
}

/// [`wait_for`] with its own limit, for work whose time depends on the machine's load (a model
/// run of many requests right after a build).
pub async fn wait_within<F, Fut>(what: &str, limit: Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + limit;
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// How many elements match `css`.
pub async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.map(|v| v.len()).unwrap_or(0)
}

/// The text of the first element matching `css` (empty when none).
pub async fn text(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The exact `textContent` of the first element matching `css` (None when there is none;
/// WebDriver's element text folds whitespace).
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

/// Waits for the skill `name` in the Library pane, opens it, and waits for the editor to show it.
pub async fn open_skill(c: &Client, name: &str) -> Result<(), fantoccini::error::CmdError> {
    let item = format!("[data-testid=skill][data-name={name}]");
    wait_for("the skill in the library", || async { count(c, &item).await == 1 }).await;
    c.find(Locator::Css(&format!("{item} [data-testid=skill-row]"))).await?.click().await?;
    let path = format!("/{name}/SKILL.md");
    wait_for("the skill in the editor", || async {
        count(c, ".cm-content").await == 1
            && text_of(c, "[data-testid=editor-path]").await.is_some_and(|p| p.ends_with(&path))
    })
    .await;
    Ok(())
}
