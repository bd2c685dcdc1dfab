//! A live session turn in the real window: the user's message goes to the model (the mock
//! provider, set in the Evals pane), which calls `load_skill`; the call runs in the simulator,
//! the skill shows loaded, and the model's turns join the transcript.
//! Run after `cargo build -p skill-studio`, under a display (`xvfb-run -a cargo test -p app-e2e`).

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use mock_provider::{MockServer, Reply, Rule, Script};
use serde_json::json;

const PORT: u16 = 4636;

async fn type_into(c: &Client, css: &str, text: &str) -> Result<(), fantoccini::error::CmdError> {
    let field = c.find(Locator::Css(css)).await?;
    field.click().await?;
    field.send_keys(&format!("{text}{}", char::from(Key::Tab))).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_turn_calls_load_skill_through_the_mock() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("skills");
    std::fs::create_dir_all(lib.join("pdf")).unwrap();
    std::fs::write(
        lib.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Reads PDF files. Use for PDF files.\n---\n\n# PDF\n\nSteps.\n",
    )
    .unwrap();
    let lib = lib.canonicalize().unwrap();
    let server = MockServer::start(Script {
        rules: vec![Rule {
            contains: Some("report.pdf".into()),
            replies: vec![Reply::tool("load_skill", json!({"skill_name": "pdf"})), Reply::text("Done.")],
            ..Rule::default()
        }],
        ..Script::default()
    });
    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app_binary(), &[&lib], PORT).await;
    let result = async {
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == 1 }).await;
        open_skill(&c, "pdf").await?;
        // The model: set in the Evals pane (OpenAI-compatible at the mock; no key for a local server).
        c.find(Locator::Css("[data-testid=tab-evals]")).await?.click().await?;
        type_into(&c, "[data-testid=eval-base-url]", &server.base_url()).await?;
        type_into(&c, "[data-testid=eval-model]", "mock-model").await?;

        c.find(Locator::Css("[data-testid=tab-session]")).await?.click().await?;
        // The window starts under the spec, which has no skill tool: simulate DeepAgents V2 (load_skill).
        choose(&c, "[data-testid=session-agent]", "deepagents-v2").await;
        wait_for("the session's skills", || async { count(&c, "[data-testid=composer-skill] option").await == 1 })
            .await;
        // One composer: a message for the model.
        choose(&c, "[data-testid=composer-action]", "say").await;
        wait_for("the message field", || async { count(&c, "[data-testid=composer-text]").await == 1 }).await;
        type_into(&c, "[data-testid=composer-text]", "Summarise report.pdf for me").await?;
        // The button is disabled while the session replays (choosing the agent replays it).
        wait_for("the ask button", || async {
            c.execute("return !document.querySelector('[data-testid=composer-send]').disabled", vec![])
                .await
                .ok()
                .and_then(|v| v.as_bool())
                == Some(true)
        })
        .await;
        c.find(Locator::Css("[data-testid=composer-send]")).await?.click().await?;
        wait_for("the model's turns", || async { count(&c, "[data-testid=turn]").await == 4 }).await;
        let actions = c
            .execute("return [...document.querySelectorAll('[data-testid=turn]')].map(t => t.dataset.action)", vec![])
            .await?;
        assert_eq!(actions, json!(["user", "model", "load", "model"]));
        let loaded = text(&c, "[data-testid=session-loaded]").await;
        assert!(loaded.contains("pdf"), "{loaded}");
        assert_eq!(server.requests().len(), 2);
        let tools = &server.requests()[0].body["tools"];
        assert_eq!(tools[0]["function"]["name"], "load_skill", "{tools}");
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
