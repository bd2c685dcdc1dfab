//! Hostile inputs shared by the end-to-end tests (`tests/tests/hostile_sizes.rs`) and the
//! benchmarks (`crates/skillkit/benches/sizes.rs`, which include this file by path), so that both
//! measure the same text.

/// A 9 MB SKILL.md: sections of prose with links to files that do not exist and paths in inline
/// code, and a last paragraph of one 1 MB line of links.
pub fn nine_megabytes() -> String {
    let mut text = String::from("---\nname: big\ndescription: Formats tables. Use when asked for a table.\n---\n");
    let mut i = 0;
    while text.len() < 8_000_000 {
        text.push_str(&format!(
            "## Step {i}\n\nRead [the notes](references/notes-{i}.md) and [the guide](references/guide.md), then \
             run `python3 scripts/step-{i}.py --fast` on the **input**.\n\n- one\n- two `assets/t-{i}.md`\n\n"
        ));
        i += 1;
    }
    while text.len() < 9_000_000 {
        text.push_str("[x](references/missing.md) ");
    }
    text.push('\n');
    text
}
