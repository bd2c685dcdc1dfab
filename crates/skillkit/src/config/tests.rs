use super::*;
use crate::lint::diagnostic::Severity;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn nearest_file_wins_and_pyproject_needs_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("a/b");
    std::fs::create_dir_all(&inner).unwrap();
    assert!(find(&inner).unwrap().is_none());
    write(&dir.path().join("skillkit.toml"), "agent = \"codex\"\n[rules]\nSK601 = \"off\"\n");
    let p = find(&inner).unwrap().unwrap();
    assert_eq!((p.path.clone(), p.config.agent.as_deref()), (dir.path().join("skillkit.toml"), Some("codex")));
    write(&dir.path().join("a/pyproject.toml"), "[project]\nname = \"x\"\n");
    assert_eq!(
        find(&inner).unwrap().unwrap().config.agent.as_deref(),
        Some("codex"),
        "no [tool.skillkit]: keep walking"
    );
    write(&dir.path().join("a/pyproject.toml"), "[tool.skillkit]\nagent = \"gemini-cli\"\n");
    assert_eq!(find(&inner).unwrap().unwrap().config.agent.as_deref(), Some("gemini-cli"));
    // A file: its folder is where the walk starts.
    write(&inner.join("x/SKILL.md"), "---\n---\n");
    assert_eq!(find(&inner.join("x/SKILL.md")).unwrap().unwrap().config.agent.as_deref(), Some("gemini-cli"));
    write(&dir.path().join("a/b/skillkit.toml"), "agent = \"codex\"\nrules = [\n");
    let e = find(&inner).unwrap_err();
    assert!(e.path.ends_with("a/b/skillkit.toml") && e.message.starts_with("line 2"), "{e}");
}

#[test]
fn mistakes_are_named_and_unknown_keys_only_warn() {
    let project = |text: &str| Project::new(PathBuf::from("/p/skillkit.toml"), toml::from_str(text).unwrap());
    let e = project("[rules]\nno-such-rule = \"off\"\n").unwrap_err();
    assert!(e.message.contains("no rule `no-such-rule`"), "{e}");
    let e = project("[rules]\nSK601 = \"loud\"\n").unwrap_err();
    assert!(e.message.contains("\"off\", \"note\", \"warning\" or \"error\""), "{e}");
    let e = project("agent = \"claude\"\n").unwrap_err();
    assert!(e.message.starts_with("agent: "), "{e}");
    let e = project("[per-path-ignores]\n\"a/[\" = [\"*\"]\n").unwrap_err();
    assert!(e.message.contains("a/["), "{e}");
    let p = project("future-key = 1\n[rules]\nsk301 = \"warning\"\n").unwrap();
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert!(p.warnings[0].contains("future-key"));
    assert_eq!(p.level("SK301"), Some(RuleLevel::Set(Severity::Warning)));
}

#[test]
fn levels_and_path_ignores_change_what_a_check_reports() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    // SK301 (unquoted colon), SK403 (unknown key), SK601 (missing reference) in each skill.
    let text =
        "---\nname: NAME\ndescription: Does things. Use when: asked.\nversion: 1\n---\n\nSee [x](references/x.md).\n";
    for name in ["keep", "legacy-one"] {
        let sub = if name == "keep" { "skills" } else { "skills/legacy" };
        write(&root.join(sub).join(name).join("SKILL.md"), &text.replace("NAME", name));
    }
    let run = crate::check::check_run(&[root.join("skills")], &crate::agents::SPEC);
    let codes = |p: &Project, name: &str| {
        let c = run.skills.iter().find(|c| c.skill.dir.ends_with(name)).unwrap();
        let mut d = c.diagnostics.clone();
        p.adjust(&c.skill.path(), &mut d);
        let mut v: Vec<(String, &str)> = d.iter().map(|d| (d.code.to_string(), d.severity.as_str())).collect();
        v.sort();
        v
    };
    let p = Project::new(
        root.join("skillkit.toml"),
        toml::from_str(
            "[rules]\nunquoted-colon = \"warning\"\nSK403 = \"off\"\n[per-path-ignores]\n\"skills/legacy/**\" = [\"*\"]\n\"skills/*\" = [\"reference-missing\"]\n",
        )
        .unwrap(),
    )
    .unwrap();
    let keep = codes(&p, "keep");
    assert!(keep.contains(&("SK301".into(), "warning")), "{keep:?}");
    assert!(!keep.iter().any(|(c, _)| c == "SK403" || c == "SK601"), "{keep:?}");
    assert_eq!(codes(&p, "legacy-one"), vec![], "every rule ignored under skills/legacy/");
    let none = Project::new(root.join("skillkit.toml"), Config::default()).unwrap();
    let all = codes(&none, "keep");
    assert!(all.contains(&("SK301".into(), "error")) && all.iter().any(|(c, _)| c == "SK601"), "{all:?}");
}

#[test]
fn a_baseline_drops_each_accepted_finding_once_whatever_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let skill = crate::skill::Skill::parse(root.join("s"), "SKILL.md", "---\nname: s\ndescription: A: b\n---\n".into());
    let found = crate::lint::lint(&skill, &crate::agents::SPEC);
    assert!(!found.is_empty());
    let file = root.join("s/SKILL.md");
    let baseline = Baseline::of(root, [(file.as_path(), found.as_slice())]);
    assert!(baseline.findings.iter().all(|f| f.path == "s/SKILL.md"), "{baseline:?}");
    let back: Baseline = serde_json::from_str(&baseline.to_json()).unwrap();
    assert_eq!(back, baseline);
    // The same findings after an edit above them (other lines): all accepted.
    let moved = crate::skill::Skill::parse(
        root.join("s"),
        "SKILL.md",
        "---\n# a comment\nname: s\ndescription: A: b\n---\n".into(),
    );
    let mut again = crate::lint::lint(&moved, &crate::agents::SPEC);
    let mut filter = baseline.filter(root);
    filter.apply(&file, &mut again);
    assert_eq!((again.len(), filter.dropped), (0, found.len()));
    // A new finding of the same rule elsewhere is new: a second copy of each is shown.
    let mut twice: Vec<Diagnostic> = found.iter().chain(found.iter()).cloned().collect();
    let mut filter = baseline.filter(root);
    filter.apply(&file, &mut twice);
    assert_eq!(twice.len(), found.len());
    let path = root.join("b.json");
    std::fs::write(&path, "{\"version\": 2, \"findings\": []}").unwrap();
    assert!(Baseline::read(&path).unwrap_err().message.contains("version 2"));
}

#[test]
fn the_schema_accepts_what_the_reader_accepts_and_names_every_key() {
    let schema: serde_json::Value = serde_json::from_str(SCHEMA_JSON).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let example = "agent = \"claude-code\"\nsources = [\"skills\"]\nbaseline = \"b.json\"\n[rules]\nSK601 = \"off\"\nunquoted-colon = \"note\"\n[per-path-ignores]\n\"vendor/**\" = [\"*\", \"SK403\"]\n";
    let config: Config = toml::from_str(example).unwrap();
    assert!(config.unknown.is_empty(), "{:?}", config.unknown);
    Project::new(PathBuf::from("/p/skillkit.toml"), config).unwrap();
    let as_json: serde_json::Value = serde_json::to_value(toml::from_str::<toml::Value>(example).unwrap()).unwrap();
    assert!(validator.is_valid(&as_json));
    let bad: serde_json::Value = serde_json::json!({"rules": {"SK601": "loud"}});
    assert!(!validator.is_valid(&bad));
    let keys: Vec<&str> = schema["properties"].as_object().unwrap().keys().map(String::as_str).collect();
    for key in ["agent", "sources", "baseline", "rules", "per-path-ignores", "agents"] {
        assert!(keys.contains(&key), "{key}");
    }
    assert_eq!(keys.len(), 6, "a key the reader does not know: {keys:?}");
    // `[agents.X]` names exactly the settings of crate::agent_settings::SPECS.
    let tables = schema["properties"]["agents"]["properties"].as_object().unwrap();
    let mut in_schema: Vec<(String, String)> = tables
        .iter()
        .flat_map(|(a, t)| t["properties"].as_object().unwrap().keys().map(move |k| (a.clone(), k.clone())))
        .collect();
    in_schema.sort();
    let mut in_specs: Vec<(String, String)> =
        crate::agent_settings::SPECS.iter().map(|s| (s.agent.to_string(), s.key.to_string())).collect();
    in_specs.sort();
    assert_eq!(in_schema, in_specs);
    let agents: Vec<&str> =
        schema["properties"]["agent"]["enum"].as_array().unwrap().iter().filter_map(|a| a.as_str()).collect();
    let known: Vec<&str> = crate::agents::AGENTS.iter().map(|a| a.id).collect();
    let mut a = agents.clone();
    a.sort();
    let mut k = known.clone();
    k.sort();
    assert_eq!(a, k);
}

#[test]
fn agent_settings_tables_are_checked_with_their_place() {
    let schema: serde_json::Value = serde_json::from_str(SCHEMA_JSON).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let good = "[agents.claude-code]\nskillListingBudgetFraction = 0.02\nskillOverrides = { a = \"name-only\", b = \"off\" }\n[agents.codex]\nmodel_context_window = 100000\n";
    let config: Config = toml::from_str(good).unwrap();
    let p = Project::new(PathBuf::from("/p/skillkit.toml"), config).unwrap();
    let layer = &p.agent_settings["claude-code"];
    assert_eq!(layer.overrides.len(), 2);
    assert_eq!(p.agent_settings["codex"].scalars.len(), 1);
    let as_json: serde_json::Value = serde_json::to_value(toml::from_str::<toml::Value>(good).unwrap()).unwrap();
    assert!(validator.is_valid(&as_json));
    for (bad, says) in [
        ("[agents.claude-code]\nskillListingBudgetFraction = 1.5\n", "[agents.claude-code] skillListingBudgetFraction: skillListingBudgetFraction must be a number greater than 0 and at most 1"),
        ("[agents.claude-code]\nskillOverrides = { a = \"hide\" }\n", "[agents.claude-code] skillOverrides: skillOverrides.a must be"),
        ("[agents.claude-code]\nskillListingMaxDescChars = -3\n", "whole number greater than 0"),
        ("[agents.nobody]\nx = 1\n", "[agents.nobody]"),
        ("[agents.copilot-cli]\nbudget = 1\n", "no listing setting"),
    ] {
        let config: Config = toml::from_str(bad).unwrap();
        let e = Project::new(PathBuf::from("/p/skillkit.toml"), config).unwrap_err();
        assert!(e.to_string().contains(says), "{bad}: {e}");
        let as_json: serde_json::Value = serde_json::to_value(toml::from_str::<toml::Value>(bad).unwrap()).unwrap();
        assert!(!validator.is_valid(&as_json), "the schema accepts {bad}");
    }
}

/// The app's resolution: the project's `.claude/settings.json`, then skillkit.toml's
/// `[agents.claude-code]`, then the pane's own assignments, each over the one before.
#[test]
fn a_library_takes_the_agents_files_then_its_configuration_then_the_assignments() {
    let t = tempfile::tempdir().unwrap();
    let dir = crate::scope::resolve_lenient(t.path());
    std::fs::create_dir_all(dir.join(".claude")).unwrap();
    std::fs::create_dir_all(dir.join("skills")).unwrap();
    std::fs::write(
        dir.join(".claude/settings.json"),
        r#"{"skillListingMaxDescChars": 100, "skillListingBudgetFraction": 0.02}"#,
    )
    .unwrap();
    std::fs::write(dir.join("skillkit.toml"), "[agents.claude-code]\nskillListingMaxDescChars = 200\n").unwrap();
    let project = crate::config::load(&dir.join("skillkit.toml")).unwrap();
    let sources = [dir.join("skills")];
    let (s, _) = crate::config::agent_settings_for("claude-code", &sources, Some(&project), &[]).unwrap();
    assert_eq!(
        (s.count(crate::agent_settings::MAX_DESC_CHARS), s.number(crate::agent_settings::BUDGET_FRACTION)),
        (Some(200), Some(0.02))
    );
    let (s, _) = crate::config::agent_settings_for(
        "claude-code",
        &sources,
        Some(&project),
        &["skillListingMaxDescChars=300".into()],
    )
    .unwrap();
    assert_eq!(s.count(crate::agent_settings::MAX_DESC_CHARS), Some(300));
    let (s, _) = crate::config::agent_settings_for("claude-code", &sources, None, &[]).unwrap();
    assert_eq!(s.count(crate::agent_settings::MAX_DESC_CHARS), Some(100));
    assert!(crate::config::agent_settings_for("claude-code", &sources, None, &["skillListingMaxDescChars=0".into()])
        .is_err());
}
