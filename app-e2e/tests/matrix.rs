//! The Matrix tab in the real window: every skill by every agent, each cell what `skillkit matrix`
//! says, the open file's row marked, and a cell that follows the editor's unsaved text (a broken
//! frontmatter typed in is skipped at once, nothing saved). With `SKILL_STUDIO_SCREENSHOTS=1` it
//! writes the tab to `docs/screenshots/matrix.png` (and `matrix-dark.png`).

mod prompt_session_support;
use fantoccini::key::Key;
use fantoccini::Locator;
use prompt_session_support::*;
use std::process::Command;

const PORT: u16 = 4664;

/// `skillkit matrix --format json` for the library: each row's name with its cells' statuses.
fn cli_matrix(skillkit: &std::path::Path, lib: &std::path::Path) -> Vec<(String, Vec<String>)> {
    let out = Command::new(skillkit).arg("matrix").arg(lib).args(["--format", "json"]).output().expect("skillkit runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let cells = r["cells"].as_array().unwrap().iter().map(|c| c["status"].as_str().unwrap().to_string());
            (r["name"].as_str().unwrap().to_string(), cells.collect())
        })
        .collect()
}

async fn shown(c: &fantoccini::Client) -> Vec<(String, Vec<String>)> {
    let rows = c
        .execute(
            "return [...document.querySelectorAll('[data-testid=matrix-row]')].map(r => [r.querySelector('th').textContent, [...r.querySelectorAll('td')].map(d => d.dataset.status)])",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(rows).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_matrix_tab_equals_skillkit_matrix_and_follows_the_editor() {
    let skillkit = skillkit();
    let (tmp, lib) = library();
    let file = lib.join("commit-message/SKILL.md");
    let original = std::fs::read_to_string(&file).unwrap();
    let expected = cli_matrix(&skillkit, &lib);
    assert!(expected.len() >= 3 && expected[0].1.len() >= 9, "{expected:?}");
    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app_binary(), &[&lib], PORT).await;
    let result = async {
        let n = skill_count(&lib);
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;
        c.find(Locator::Css("[data-testid=tab-matrix]")).await?.click().await?;
        wait_for("the matrix", || async { count(&c, "[data-testid=matrix-row]").await == expected.len() }).await;
        assert_eq!(shown(&c).await, expected, "the Matrix tab differs from `skillkit matrix`");
        assert!(count(&c, "[data-testid^=matrix-budget-] .meter").await > 0, "no budget bar");

        // The open file's row is marked; a broken frontmatter typed in makes every loader that
        // parses YAML skip it, before anything is saved.
        open_skill(&c, "commit-message").await?;
        wait_for("the open file's row", || async {
            text_of(&c, "[data-testid=matrix-row][data-current=true] th").await.as_deref() == Some("commit-message")
        })
        .await;
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        content.send_keys(&format!("{}", char::from(Key::Down))).await?;
        content.send_keys("bad: [unclosed\n").await?;
        wait_for("the skipped cell", || async {
            c.execute(
                "return [...document.querySelectorAll('[data-testid=matrix-row][data-current=true] td')].some(d => d.dataset.status === 'skipped')",
                vec![],
            )
            .await
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
        })
        .await;
        let tip = c
            .execute(
                "return document.querySelector('[data-testid=matrix-row][data-current=true] td[data-status=skipped]').title",
                vec![],
            )
            .await?;
        assert!(tip.as_str().unwrap().contains("skipped — "), "{tip}");

        let out = screenshots_dir(tmp.path());
        for (name, theme) in [("matrix.png", "light"), ("matrix-dark.png", "dark")] {
            c.execute("document.documentElement.dataset.theme = arguments[0]", vec![theme.into()]).await?;
            c.execute_async("requestAnimationFrame(() => requestAnimationFrame(() => arguments[0]()))", vec![]).await?;
            let png = c.screenshot().await?;
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 1000, "{name} is not a PNG");
            std::fs::write(out.join(name), png).unwrap();
        }
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "nothing was saved");
}
