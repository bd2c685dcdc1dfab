//! The Evals pane in the real window, against the mock model server (`crates/mock-provider`):
//! a suite made in the pane runs with the OpenAI-compatible provider at the mock's base URL, the
//! progress finishes, the table shows exactly the counts the mock's script implies and the chart
//! is drawn; with a different description typed in the editor, the A/B run shows two reports.
//! Run after `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).
//! With `SKILL_STUDIO_SCREENSHOTS=1` it writes the pane in both themes to `docs/screenshots/`
//! (`evals.png`, `evals-dark.png`); otherwise the shots go to a temporary folder.

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use mock_provider::{MockServer, Reply, Rule, Script};
use serde_json::json;
use std::path::PathBuf;

const PORT: u16 = 4634;

/// A library of two skills, by its real path.
fn fixture() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("skills");
    for (name, description) in
        [("pdf", "Reads PDF files. Use for PDF files."), ("csv", "Turns CSV files into Markdown tables.")]
    {
        std::fs::create_dir_all(lib.join(name)).unwrap();
        let text = format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSteps.\n");
        std::fs::write(lib.join(name).join("SKILL.md"), text).unwrap();
    }
    let lib = lib.canonicalize().unwrap();
    (tmp, lib)
}

fn rule(contains: &str, context: Option<&str>, replies: Vec<Reply>) -> Rule {
    Rule { contains: Some(contains.into()), context: context.map(str::to_string), replies, ..Rule::default() }
}

fn call(skill: &str) -> Reply {
    Reply::tool("Skill", json!({ "skill": skill }))
}

/// report.pdf: pdf once in three runs, always when the prompt says the skill extracts tables;
/// data.csv: csv every time; the weather: nothing.
fn script() -> Script {
    Script {
        rules: vec![
            rule("report.pdf", Some("Extracts tables"), vec![call("pdf")]),
            rule("report.pdf", None, vec![call("pdf"), Reply::text("Sure."), Reply::text("Here you go.")]),
            rule("data.csv", None, vec![call("csv")]),
            rule("weather", None, vec![Reply::text("Sunny.")]),
        ],
        ..Script::default()
    }
}

/// Types `text` into the field `css` and leaves it (its `change` fires).
async fn type_into(c: &Client, css: &str, text: &str) -> Result<(), fantoccini::error::CmdError> {
    let field = c.find(Locator::Css(css)).await?;
    field.click().await?;
    field.send_keys(&format!("{text}{}", char::from(Key::Tab))).await
}

/// Each case row's id, activation counts, rate and pass, for report `variant`.
async fn cases(c: &Client, variant: &str) -> Vec<(String, String, String, String)> {
    let rows = c
        .execute(
            "return [...document.querySelectorAll(`[data-testid=eval-report][data-variant=${arguments[0]}] [data-testid=eval-case]`)]\
             .map(r => [r.dataset.id, r.querySelector('[data-testid=eval-activated]').textContent, \
             r.querySelector('[data-testid=eval-rate]').textContent, r.dataset.pass])",
            vec![variant.into()],
        )
        .await
        .unwrap();
    serde_json::from_value(rows).unwrap()
}

/// Waits for the run to finish: the progress bar full and no run in flight.
async fn finished(c: &Client, total: usize) {
    let css = format!("[data-testid=eval-progress][data-running=false][data-done='{total}'][data-total='{total}']");
    // Every request of the run goes to the mock server: twice seen to take over 30 s right after
    // a build, on a loaded machine, and well under 5 s otherwise.
    let limit = std::time::Duration::from_secs(120);
    wait_within("the run to finish", limit, || async { count(c, &css).await == 1 }).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_suite_made_in_the_pane_runs_against_the_mock_and_compares_the_unsaved_description() {
    let app = app_binary();
    let (tmp, lib) = fixture();
    let server = MockServer::start(script());
    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app, &[&lib], PORT).await;
    let result = async {
        open_skill(&c, "pdf").await?;
        c.find(Locator::Css("[data-testid=tab-evals]")).await?.click().await?;

        // The provider: OpenAI-compatible at the mock, a model name; a local server needs no key.
        type_into(&c, "[data-testid=eval-base-url]", &server.base_url()).await?;
        type_into(&c, "[data-testid=eval-model]", "mock-model").await?;
        choose(&c, "[data-testid=eval-agent]", "claude-code").await;

        // A new suite with three cases, typed in the table.
        wait_for("the offer to create a suite", || async { count(&c, "[data-testid=suite-create]").await == 1 }).await;
        c.find(Locator::Css("[data-testid=suite-create]")).await?.click().await?;
        let cases_in = [
            ("Pull the tables out of report.pdf", "pdf"),
            ("Make a table from data.csv", "csv"),
            ("What is the weather like?", "none"),
        ];
        for (i, (query, expect)) in cases_in.iter().enumerate() {
            c.find(Locator::Css("[data-testid=case-add]")).await?.click().await?;
            wait_for("the new row", || async { count(&c, "[data-testid=suite-case]").await == i + 1 }).await;
            let row = format!("[data-testid=suite-case]:nth-child({})", i + 1);
            type_into(&c, &format!("{row} [data-testid=case-query]"), query).await?;
            choose(&c, &format!("{row} [data-testid=case-expect]"), expect).await;
        }
        wait_for("the suite's text", || async { count(&c, "[data-testid=suite-error]").await == 0 }).await;

        c.find(Locator::Css("[data-testid=eval-run]")).await?.click().await?;
        finished(&c, 9).await;
        assert_eq!(
            cases(&c, "saved").await,
            [
                ("case-1".into(), "none 2/3, pdf 1/3".into(), "33%".into(), "false".into()),
                ("case-2".into(), "csv 3/3".into(), "100%".into(), "true".into()),
                ("case-3".into(), "none 3/3".into(), "100%".into(), "true".into()),
            ]
        );
        assert_eq!(server.requests().len(), 9);
        // The chart: one bar per case, as wide as its trigger rate.
        let widths: Vec<f64> = serde_json::from_value(
            c.execute(
                "return [...document.querySelectorAll('[data-testid=case-bar]')].map(b => \
                 b.getBoundingClientRect().width / b.parentElement.getBoundingClientRect().width)",
                vec![],
            )
            .await?,
        )
        .unwrap();
        assert_eq!(widths.len(), 3);
        assert!((widths[0] - 1.0 / 3.0).abs() < 0.02 && widths[1] > 0.98 && widths[2] > 0.98, "{widths:?}");
        assert_eq!(count(&c, "[data-testid=eval-skill]").await, 2);
        assert_eq!(count(&c, "[data-testid=eval-report]").await, 1);

        // A different description typed in the editor (not saved), then A/B.
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        let ctrl_home: String = [char::from(Key::Control), char::from(Key::Home)].iter().collect();
        content.send_keys(&ctrl_home).await?;
        // Two lines down, past `description: `, a sentence in front of the old one.
        let keys: String = [Key::Down, Key::Down].into_iter().chain([Key::Right; 13]).map(char::from).collect();
        content.send_keys(&format!("{keys}Extracts tables from PDF reports. ")).await?;
        wait_for("the typed description", || async {
            text(&c, ".cm-content").await.contains("description: Extracts tables from PDF reports. Reads PDF files.")
        })
        .await;
        c.find(Locator::Css("[data-testid=eval-compare]")).await?.click().await?;
        c.find(Locator::Css("[data-testid=eval-run]")).await?.click().await?;
        finished(&c, 18).await;
        assert_eq!(count(&c, "[data-testid=eval-report]").await, 2);
        assert_eq!(cases(&c, "saved").await[0].1, "none 2/3, pdf 1/3");
        assert_eq!(
            cases(&c, "unsaved").await,
            [
                ("case-1".into(), "pdf 3/3".into(), "100%".into(), "true".into()),
                ("case-2".into(), "csv 3/3".into(), "100%".into(), "true".into()),
                ("case-3".into(), "none 3/3".into(), "100%".into(), "true".into()),
            ]
        );
        // The case that changed is highlighted on both sides, the others not.
        assert_eq!(count(&c, "[data-testid=eval-case].diff").await, 2);
        assert!(std::fs::read_to_string(lib.join("pdf/SKILL.md"))
            .unwrap()
            .contains("Reads PDF files. Use for PDF files.\n"));

        let out = screenshots_dir(tmp.path());
        // The reports and their charts in view.
        c.execute("document.querySelector('[data-testid=eval-reports]').scrollIntoView()", vec![]).await?;
        for (name, theme) in [("evals.png", "light"), ("evals-dark.png", "dark")] {
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
}
