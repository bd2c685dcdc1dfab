//! `skillkit lsp` driven by a real editor: Neovim (Debian's `neovim`, headless; `scripts/setup`
//! installs it) runs `tests/nvim/e2e.lua` against the built binary on a fixture library: open a
//! skill, read the diagnostics, apply a code action, see the diagnostic go, hover a key, complete
//! a key, read the code lenses, go to a referenced file.

use serde_json::Value;
use std::process::Command;

#[test]
fn neovim_reads_diagnostics_applies_a_fix_hovers_completes_and_follows_a_link() {
    let nvim = Command::new("nvim").arg("--version").output();
    assert!(
        nvim.as_ref().is_ok_and(|o| o.status.success()),
        "this test needs Neovim on PATH (`apt-get install neovim`; scripts/setup installs it)"
    );
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let skill = root.join("pdf");
    std::fs::create_dir_all(skill.join("references")).unwrap();
    std::fs::write(skill.join("references/guide.md"), "# Guide\n\nHow to read the PDF.\n").unwrap();
    let text = "---\nname: pdf\ndescription: Reads PDF files. Use when: the user has a PDF.\n---\n\n# PDF\n\nRead [the guide](references/guide.md) first.\n";
    std::fs::write(skill.join("SKILL.md"), text).unwrap();
    let result = root.join("result.json");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/nvim/e2e.lua");
    let run = Command::new("timeout")
        .args(["120", "nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {script}"))
        .env("SKILLKIT", env!("CARGO_BIN_EXE_skillkit"))
        .env("SKILL_FILE", skill.join("SKILL.md"))
        .env("ROOT", &root)
        .env("RESULT", &result)
        .env("XDG_STATE_HOME", root.join("state"))
        .env("XDG_DATA_HOME", root.join("data"))
        .output()
        .unwrap();
    let written = std::fs::read_to_string(&result).unwrap_or_default();
    assert!(
        run.status.success(),
        "nvim: {:?}\nresult: {written}\nstderr: {}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let r: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(r["ok"], true, "{r}");
    let codes: Vec<&str> = r["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(codes.contains(&"SK301"), "{r}");
    let sk301 = r["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "SK301").unwrap();
    assert_eq!((sk301["line"].as_u64(), sk301["col"].as_u64()), (Some(2), Some(13)), "{sk301}");
    assert_eq!(r["actions"][0], "Quote the value", "{r}");
    assert_eq!(r["fixed_line"], "description: \"Reads PDF files. Use when: the user has a PDF.\"", "{r}");
    assert!(r["after_fix"].as_array().unwrap().iter().all(|d| d["code"] != "SK301"), "{r}");
    let hover = r["hover"].as_str().unwrap();
    assert!(hover.contains("name") && hover.contains("folder"), "{hover}");
    let completion: Vec<&str> = r["completion"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(completion.contains(&"license: ") || completion.contains(&"license"), "{completion:?}");
    let lenses: Vec<&str> = r["lenses"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(lenses.iter().any(|l| l.starts_with("listed by Claude Code")), "{lenses:?}");
    assert_eq!(r["definition"].as_str().unwrap(), skill.join("references/guide.md").to_str().unwrap());
}
