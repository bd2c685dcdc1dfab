//! The quick picks in the real window, on a library of 500 skills written here: `Ctrl+P` goes to
//! a skill by a fuzzy name, `Ctrl+Shift+P` lists every command with its key and runs the one
//! picked, the agent picker groups every profile the engine has with the open skill's problems
//! under each (and Compare does not offer the window's agent), and the Library's filter narrows
//! the 500. Screenshots of the palette, the agent picker and the filtered library;
//! `SKILL_STUDIO_SCREENSHOTS=1` writes them into `docs/screenshots/`.

use app_e2e::*;
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use std::path::Path;

const PORT: u16 = 4674;
const WORDS: [&str; 7] = ["pdf", "commit", "review", "deploy", "release", "triage", "notes"];

/// 500 skills, `skill-NNN-word`; skill-042 has a name no agent accepts (an error under each).
fn write_library(root: &Path) {
    for i in 0..500 {
        let dir = format!("skill-{i:03}-{}", WORDS[i % WORDS.len()]);
        let name = if i == 42 { "Skill 042 Bad".to_string() } else { dir.clone() };
        let folder = root.join(&dir);
        std::fs::create_dir_all(folder.join("references")).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Helps with {} work, case {i}. Use when asked about it.\n---\n# {dir}\n\nSteps: see [the notes](references/notes.md).\n", WORDS[i % WORDS.len()]),
        )
        .unwrap();
        std::fs::write(folder.join("references/notes.md"), "Notes.\n").unwrap();
    }
}

fn chord(keys: &[Key], last: &str) -> String {
    let mut s: String = keys.iter().map(|k| char::from(*k)).collect();
    s.push_str(last);
    s.push(char::from(Key::Null));
    s
}

async fn painted(c: &Client) {
    c.execute_async("requestAnimationFrame(() => requestAnimationFrame(() => arguments[0]()))", vec![]).await.ok();
}

/// Types `keys` into whatever has the focus (the picks focus their input when they open).
async fn type_here(c: &Client, keys: &str) -> Result<(), fantoccini::error::CmdError> {
    c.active_element().await?.send_keys(keys).await
}

#[tokio::test(flavor = "multi_thread")]
async fn palette_agent_picker_and_go_to_skill() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("skills500");
    write_library(&lib);
    let lib = lib.canonicalize().unwrap();
    let out = screenshots_dir(tmp.path());
    let _driver = Driver::start(tmp.path(), PORT);
    let c = connect(&app_binary(), &[&lib], PORT).await;
    let result = async {
        c.set_window_size(1280, 800).await?;
        wait_for("the 500 skills", || async { count(&c, "[data-testid=skill]").await > 10 }).await;
        let placeholder = c.find(Locator::Css("[data-testid=library-filter]")).await?.attr("placeholder").await?;
        assert_eq!(placeholder.as_deref(), Some("Filter 500 skills"));
        // Only the rows in view are in the page.
        assert!(count(&c, "[data-testid=skill]").await < 80, "the tree draws the rows in view only");

        // Ctrl+P: go to a skill by a few of its letters.
        let tree = c.find(Locator::Css("[data-testid=library]")).await?;
        tree.click().await?;
        tree.send_keys(&chord(&[Key::Control], "p")).await?;
        wait_for("go to skill", || async { count(&c, "[data-testid=goto-input]").await == 1 }).await;
        type_here(&c, "042").await?;
        wait_for("one match", || async { count(&c, "[data-testid=goto-item]").await == 1 }).await;
        type_here(&c, &char::from(Key::Enter).to_string()).await?;
        wait_for("the skill in the editor", || async {
            text_of(&c, "[data-testid=editor-path]").await.is_some_and(|p| p.ends_with("/skill-042-pdf/SKILL.md"))
        })
        .await;

        // Ctrl+Shift+P: every command with its key; typing narrows; Enter runs it.
        let content = c.find(Locator::Css(".cm-content")).await?;
        content.click().await?;
        content.send_keys(&chord(&[Key::Control, Key::Shift], "p")).await?;
        wait_for("the palette", || async { count(&c, "[data-testid=palette-input]").await == 1 }).await;
        let all = count(&c, "[data-testid=palette-item]").await;
        assert!(all >= 25, "every command is listed ({all})");
        let keys = c
            .execute(
                "return [...document.querySelectorAll('[data-testid=palette-item]')].map((r) => r.querySelector('kbd')?.textContent || '')",
                vec![],
            )
            .await?;
        let keys: Vec<&str> = keys.as_array().unwrap().iter().filter_map(|k| k.as_str()).filter(|k| !k.is_empty()).collect();
        for k in ["Ctrl+Shift+P", "Ctrl+P", "Ctrl+K V", "Ctrl+Alt+F", "Ctrl+K Ctrl+T", "Ctrl+B", "Ctrl+J", "Alt+1"] {
            assert!(keys.contains(&k), "the palette lists {k}: {keys:?}");
        }
        type_here(&c, "markdown preview").await?;
        wait_for("the preview command", || async { count(&c, "[data-testid=palette-item]").await == 1 }).await;
        painted(&c).await;
        std::fs::write(out.join("command-palette.png"), c.screenshot().await?).unwrap();
        type_here(&c, &char::from(Key::Enter).to_string()).await?;
        wait_for("the preview", || async { count(&c, "[data-testid=preview]").await == 1 }).await;
        assert_eq!(count(&c, "[data-testid=palette]").await, 0, "the palette closed");

        // The agent picker: every profile the engine has, grouped, by plain name, with the open
        // skill's problems under each.
        c.find(Locator::Css("[data-testid=agent]")).await?.click().await?;
        wait_for("the agent picker", || async { count(&c, "[data-testid=agent-pick-item]").await == 16 }).await;
        wait_for("the problems per agent", || async { count(&c, "[data-testid=agent-pick-errors]").await >= 3 }).await;
        let groups = c
            .execute(
                "return [...document.querySelectorAll('[data-testid=agent-pick] [role=group]')].map((g) => g.getAttribute('aria-label'))",
                vec![],
            )
            .await?;
        assert_eq!(groups, serde_json::json!(["Agents", "Formats", "Test profiles (seed designs)"]));
        let labels = c
            .execute(
                "return [...document.querySelectorAll('[data-testid=agent-pick-item] .label')].map((l) => l.textContent)",
                vec![],
            )
            .await?;
        for l in labels.as_array().unwrap() {
            let l = l.as_str().unwrap();
            assert!(l.contains(' ') || l.chars().next().unwrap().is_uppercase(), "a plain name, not an id: {l}");
        }
        painted(&c).await;
        std::fs::write(out.join("agent-picker.png"), c.screenshot().await?).unwrap();
        type_here(&c, "codex").await?;
        wait_for("Codex", || async { count(&c, "[data-testid=agent-pick-item]").await == 1 }).await;
        type_here(&c, &char::from(Key::Enter).to_string()).await?;
        wait_for("the window under Codex", || async {
            text_of(&c, "[data-testid=agent]").await.is_some_and(|t| t.contains("Codex CLI"))
        })
        .await;

        // Compare does not offer the agent it compares with.
        c.find(Locator::Css("[data-testid=tab-prompt]")).await?.click().await?;
        wait_for("Compare", || async { count(&c, "[data-testid=compare-agent]").await == 1 }).await;
        c.find(Locator::Css("[data-testid=compare-agent]")).await?.click().await?;
        wait_for("the compare picker", || async { count(&c, "[data-testid=compare-agent-pick-item]").await > 3 }).await;
        assert_eq!(count(&c, "[data-testid=compare-agent-pick-item][data-id=codex]").await, 0);
        assert_eq!(count(&c, "[data-testid=compare-agent-pick-item][data-id=claude-code]").await, 1);
        type_here(&c, &char::from(Key::Escape).to_string()).await?;
        wait_for("the compare picker closed", || async { count(&c, "[data-testid=compare-agent-pick]").await == 0 }).await;

        // The Library's filter narrows the 500 as typed.
        let filter = c.find(Locator::Css("[data-testid=library-filter]")).await?;
        filter.click().await?;
        filter.send_keys("4 pdf").await?;
        wait_for("the filtered library", || async { text(&c, "[data-testid=library-matches]").await.ends_with("of 500") }).await;
        let names = c
            .execute("return [...document.querySelectorAll('[data-testid=skill]')].map((e) => e.dataset.name)", vec![])
            .await?;
        let names: Vec<&str> = names.as_array().unwrap().iter().filter_map(|n| n.as_str()).collect();
        assert!(!names.is_empty());
        for n in &names {
            assert!(n.contains("pdf") && n.contains('4'), "{n} matches");
        }
        painted(&c).await;
        std::fs::write(out.join("library-500-filtered.png"), c.screenshot().await?).unwrap();
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    c.close().await.ok();
    result.unwrap();
}
