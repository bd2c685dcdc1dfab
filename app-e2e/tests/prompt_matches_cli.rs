//! The Prompt pane's text in the real window equals `skillkit prompt` for the window's agent (chosen in
//! the title bar) and
//! library, for every agent with a prompt, with the default settings and with a listing budget.

mod prompt_session_support;
use prompt_session_support::*;

const AGENTS: &[&str] = &[
    "claude-code",
    "deepagents",
    "deepagents-v1",
    "deepagents-v2",
    "codex",
    "gemini-cli",
    "agentskills",
    "harness9",
    "copilot-cli",
    "opencode",
    "cline",
    "qwen-code",
    "letta-code",
    "kimi-cli",
    "mistral-vibe",
];

#[tokio::test(flavor = "multi_thread")]
async fn prompt_pane_text_equals_skillkit_prompt_for_every_agent() {
    let skillkit = skillkit();
    let (tmp, lib) = library();
    let _driver = Driver::start(tmp.path(), 4550);
    let c = connect(&app_binary(), &[&lib], 4550).await;
    let result = async {
        let n = skill_count(&lib);
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;
        let main = "[data-testid=prompt-view-main] [data-testid=prompt-text]";
        for agent in AGENTS {
            let expected = cli_prompt(&skillkit, agent, &lib, &[]);
            choose(&c, "[data-testid=agent]", agent).await;
            wait_for(&format!("{agent}'s prompt"), || async {
                c.execute("return document.querySelector('[data-testid=prompt-view-main]')?.dataset.agent", vec![])
                    .await
                    .ok()
                    .and_then(|v| v.as_str().map(|s| s == *agent))
                    .unwrap_or(false)
            })
            .await;
            let shown = text_of(&c, main).await.unwrap();
            assert_eq!(shown, expected, "{agent}: the Prompt pane differs from `skillkit prompt`");
            // The counts, with the locale's digit grouping (if any) taken out.
            let counts = text_of(&c, "[data-testid=prompt-view-main] [data-testid=prompt-counts]").await.unwrap();
            let counts: String = counts.chars().filter(|ch| !matches!(ch, ',' | '\u{a0}' | '\u{202f}')).collect();
            let chars = expected.chars().count();
            assert!(counts.contains(&format!("{chars} chars")), "{agent}: {counts} vs {chars}");
        }

        // A listing budget reaches the engine: Claude Code with a tiny budget drops or shortens
        // entries exactly as the CLI does.
        choose(&c, "[data-testid=agent]", "claude-code").await;
        choose(&c, "[data-testid=char-budget]", "300").await;
        let expected = cli_prompt(&skillkit, "claude-code", &lib, &["--char-budget", "300"]);
        wait_for("the budgeted prompt", || async { text_of(&c, main).await.as_deref() == Some(expected.as_str()) })
            .await;
        let decisions: Vec<String> = c
            .execute(
                "return [...document.querySelectorAll('[data-testid=prompt-view-main] [data-testid=prompt-skills] tbody tr')].map(r => r.dataset.decision)",
                vec![],
            )
            .await?
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert!(decisions.iter().any(|d| d != "full"), "a 300-char budget lists everything in full? {decisions:?}");

        // Side by side: the second column is codex's prompt, again exactly the CLI's.
        choose(&c, "[data-testid=compare-agent]", "codex").await;
        let codex = cli_prompt(&skillkit, "codex", &lib, &["--char-budget", "300"]);
        wait_for("the side-by-side prompt", || async {
            text_of(&c, "[data-testid=prompt-view-compare] [data-testid=prompt-text]").await.as_deref()
                == Some(codex.as_str())
        })
        .await;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
