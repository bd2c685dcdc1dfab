//! The Package tab in the real window: the bundled library's packages with their status, and a
//! build of the Claude.ai uploads into a folder typed in, each archive read back with a real zip
//! reader. With `SKILL_STUDIO_SCREENSHOTS=1` it writes the tab to `docs/screenshots/package.png`.

mod prompt_session_support;
use fantoccini::Locator;
use prompt_session_support::*;
use std::io::Read;

const PORT: u16 = 4748;

#[tokio::test(flavor = "multi_thread")]
async fn the_package_tab_shows_each_target_and_builds_the_uploads_into_a_chosen_folder() {
    let (tmp, lib) = library();
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().canonicalize().unwrap();
    let n = skill_count(&lib);
    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app_binary(), &[&lib], PORT).await;
    let result = async {
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;
        c.find(Locator::Css("[data-testid=tab-package]")).await?.click().await?;
        let uploads = "[data-testid=package-target-claude-ai] [data-testid=package-row]";
        wait_for("the uploads", || async { count(&c, uploads).await == n }).await;
        // The bundled library is clean: every upload is ready, and each plugin holds every skill.
        let ready = format!("{uploads}[data-status=ready]");
        assert_eq!(count(&c, &ready).await, n, "an upload of the bundled library fails");
        assert_eq!(
            text(&c, "[data-testid=package-target-claude-ai] .count").await,
            format!("{n} of {n} packages ready")
        );
        assert_eq!(count(&c, "[data-testid=package-target-agent-plugin] [data-testid=package-row]").await, 1);
        assert!(count(&c, &format!("{uploads} .meter")).await >= n, "no size bar against the upload's limits");

        // Only the uploads, into the folder typed in.
        for t in ["claude-plugin", "codex-plugin", "agent-plugin"] {
            c.find(Locator::Css(&format!("[data-testid=package-choose-{t}]"))).await?.click().await?;
        }
        c.find(Locator::Css("[data-testid=package-out]")).await?.send_keys(out_dir.to_str().unwrap()).await?;
        c.find(Locator::Css("[data-testid=package-build]")).await?.click().await?;
        wait_for("the report", || async { count(&c, "[data-testid=package-written]").await == n }).await;

        let shot = screenshots_dir(tmp.path());
        c.execute_async("requestAnimationFrame(() => requestAnimationFrame(() => arguments[0]()))", vec![]).await?;
        let png = c.screenshot().await?;
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 1000, "package.png is not a PNG");
        std::fs::write(shot.join("package.png"), png).unwrap();
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();

    // Each archive exists, reads back as a zip, and holds its skill's SKILL.md under one folder.
    let zips: Vec<_> = std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(zips.len(), n, "{zips:?}");
    for z in &zips {
        assert_eq!(z.extension().and_then(|e| e.to_str()), Some("zip"), "{}", z.display());
        let mut archive = zip::ZipArchive::new(std::fs::File::open(z).unwrap()).expect("a zip");
        let names: Vec<String> = archive.file_names().map(String::from).collect();
        let top = names[0].split('/').next().unwrap().to_string();
        assert!(names.iter().all(|n| n.starts_with(&format!("{top}/"))), "{names:?}");
        let mut skill = String::new();
        archive.by_name(&format!("{top}/SKILL.md")).expect("its SKILL.md").read_to_string(&mut skill).unwrap();
        assert!(skill.starts_with("---"), "{}", z.display());
    }
}
