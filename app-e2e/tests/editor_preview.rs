//! The real window's Markdown preview: the engine's HTML beside the editor, an image of the skill
//! folder loaded as a data: URL under the strict CSP, an image outside the folder not loaded. Run
//! after `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// Not window.rs's ports, so both test binaries can run side by side.
const PORT: u16 = 4584;
const NATIVE_PORT: u16 = 4585;

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

const SVG: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="7"><rect width="12" height="7" fill="red"/></svg>"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_preview_shows_images_of_the_skill_folder_only() {
    let app = app_binary();
    assert!(app.exists(), "{} not built: run `cargo build -p skill-studio` first", app.display());
    let tmp = tempfile::tempdir().unwrap();
    let library = tmp.path().join("skills");
    copy_dir(&repo().join("skills"), &library);
    let dir = library.join("commit-message");
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("assets/box.svg"), SVG).unwrap();
    std::fs::write(tmp.path().join("outside.svg"), SVG).unwrap();
    let original = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    let with_images = format!("{original}\n## Pictures\n\n![inside](assets/box.svg) ![outside](../../outside.svg)\n");
    std::fs::write(dir.join("SKILL.md"), with_images).unwrap();

    let _driver = Driver::start(tmp.path());
    let c = connect(&app, &[&library]).await;
    let result = async {
        wait_for("the library", || async { count(&c, "[data-testid=skill][data-name=commit-message]").await == 1 })
            .await;
        c.find(Locator::Css("[data-testid=skill][data-name=commit-message] button")).await?.click().await?;
        wait_for("the editor", || async { count(&c, ".cm-content").await == 1 }).await;
        c.find(Locator::Css("[data-testid=preview-toggle]")).await?.click().await?;
        wait_for("the preview", || async { count(&c, "[data-testid=preview] h2#pictures").await == 1 }).await;
        assert_eq!(count(&c, "[data-testid=preview] img").await, 1);
        // The image loaded under the CSP: it has its natural size.
        let loaded = || async {
            let v = c
                .execute("const i = document.querySelector('[data-testid=preview] img'); return i && i.complete ? i.naturalWidth : 0;", vec![])
                .await
                .unwrap_or_default();
            v.as_u64() == Some(12)
        };
        wait_for("the image to load", loaded).await;
        let src = c.find(Locator::Css("[data-testid=preview] img")).await?.attr("src").await?.unwrap_or_default();
        assert!(src.starts_with("data:image/svg+xml;base64,"), "{src}");
        assert!(text(&c, "[data-testid=preview]").await.contains("outside"));
        if let Some(dir) = std::env::var_os("SKILL_STUDIO_SHOTS") {
            let png = c.screenshot().await?;
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(Path::new(&dir).join("editor-preview.png"), png).unwrap();
        }
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
