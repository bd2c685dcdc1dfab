//! The Session pane in the real window: Load and Unload add turns to the transcript and change
//! the next prompt (the session starts from exactly `skillkit prompt`'s text and returns to it);
//! the session saved as a script runs with `skillkit simulate`.

mod prompt_session_support;
use fantoccini::Locator;
use prompt_session_support::*;

#[tokio::test(flavor = "multi_thread")]
async fn load_and_unload_change_the_transcript_and_the_prompt() {
    let skillkit = skillkit();
    let (tmp, lib) = library();
    let _driver = Driver::start(tmp.path(), 4552);
    let c = connect(&app_binary(), &[&lib], 4552).await;
    let result = async {
        let n = skill_count(&lib);
        wait_for("the library", || async { count(&c, "[data-testid=skill]").await == n }).await;
        c.find(Locator::Css("[data-testid=tab-session]")).await?.click().await?;
        // The window starts under the spec, which has no skill tool: simulate DeepAgents V2.
        choose(&c, "[data-testid=session-agent]", "deepagents-v2").await;
        wait_for("the session's skills", || async { count(&c, "[data-testid=composer-skill] option").await == n })
            .await;
        let prompt = "[data-testid=session-prompt]";
        wait_for("the initial prompt", || async { text_of(&c, prompt).await.is_some() }).await;
        let initial = text_of(&c, prompt).await.unwrap();
        assert_eq!(initial, cli_prompt(&skillkit, "deepagents-v2", &lib, &[]), "the session starts from the prompt");
        assert_eq!(count(&c, "[data-testid=turn]").await, 0);

        // One composer: Load, the skill, send.
        choose(&c, "[data-testid=composer-action]", "load").await;
        choose(&c, "[data-testid=composer-skill]", "commit-message").await;
        c.find(Locator::Css("[data-testid=composer-send]")).await?.click().await?;
        wait_for("the load turn", || async { count(&c, "[data-testid=turn]").await == 1 }).await;
        let turn = text_of(&c, "[data-testid=turn]").await.unwrap();
        assert!(turn.contains("load_skill(\"commit-message\")"), "{turn}");
        let loaded = text_of(&c, prompt).await.unwrap();
        assert_ne!(loaded, initial);
        assert!(loaded.contains("**commit-message** [Loaded]"), "{loaded}");
        let changes = text_of(&c, "[data-testid=prompt-changes]").await.unwrap();
        assert!(changes.contains("+ - **commit-message** [Loaded]"), "{changes}");
        // The result is the skill file's exact text, as the agent's tool returns it.
        let result = text_of(&c, "[data-testid=turn-result]").await.unwrap();
        let file = std::fs::read_to_string(lib.join("commit-message/SKILL.md")).unwrap();
        assert!(result.starts_with(file.trim_end()), "{}", &result[..200.min(result.len())]);

        choose(&c, "[data-testid=composer-action]", "unload").await;
        wait_for("the loaded skill offered", || async {
            text_of(&c, "[data-testid=composer-skill]").await.as_deref() == Some("commit-message")
        })
        .await;
        c.find(Locator::Css("[data-testid=composer-send]")).await?.click().await?;
        wait_for("the unload turn", || async { count(&c, "[data-testid=turn]").await == 2 }).await;
        let turns: Vec<String> = c
            .execute("return [...document.querySelectorAll('[data-testid=turn]')].map(t => t.dataset.action)", vec![])
            .await?
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(turns, ["load", "unload"]);
        wait_for("the prompt back as it was", || async { text_of(&c, prompt).await.as_deref() == Some(&initial) })
            .await;
        assert_eq!(count(&c, "[data-testid=meter-bar]").await, 2);

        // Saved as a session script inside the library; the CLI replays it.
        c.find(Locator::Css("[data-testid=script-save]")).await?.click().await?;
        let script = lib.join("session.yaml");
        wait_for("the saved script", || async { script.exists() }).await;
        let out = std::process::Command::new(&skillkit).arg("simulate").arg(&script).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("load_skill(\"commit-message\")") && stdout.contains("unload_skill"), "{stdout}");
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
