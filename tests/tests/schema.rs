//! The published frontmatter schema (`schema/skill.schema.json`): a valid JSON Schema, accepted
//! by every bundled skill, and in agreement with the spec rules on the constraints both encode.

use e2e::skillkit;
use serde_json::Value;
use skillkit::agents::SPEC;
use skillkit::{lint, Skill};

fn schema() -> Value {
    serde_json::from_str(&std::fs::read_to_string(e2e::repo_root().join("schema/skill.schema.json")).unwrap()).unwrap()
}

fn frontmatter_json(text: &str) -> Value {
    let skill = Skill::parse("/skills/x", "SKILL.md", text.to_string());
    skillkit::syntax::schema::to_json(skill.yaml.root.as_ref().unwrap())
}

#[test]
fn schema_is_valid_draft_2020_12_and_printed_by_the_cli() {
    let s = schema();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert!(jsonschema::meta::is_valid(&s));
    assert_eq!(
        skillkit(&["schema"]).stdout,
        std::fs::read_to_string(e2e::repo_root().join("schema/skill.schema.json")).unwrap()
    );
}

#[test]
fn bundled_skills_validate_against_the_schema() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    for e in std::fs::read_dir(e2e::repo_root().join("skills")).unwrap().flatten() {
        let text = std::fs::read_to_string(e.path().join("SKILL.md")).unwrap();
        let json = frontmatter_json(&text);
        let errors: Vec<String> = validator.iter_errors(&json).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", e.path().display());
    }
}

#[test]
fn schema_and_spec_rules_agree_on_ascii_frontmatter() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let cases = [
        "name: x\ndescription: d",
        "name: X\ndescription: d",
        "name: -x\ndescription: d",
        "name: x-\ndescription: d",
        "name: a--b\ndescription: d",
        "name: a_b\ndescription: d",
        "name: a-b-9\ndescription: d",
        "description: d",
        "name: x",
        "name: x\ndescription: \"\"",
        "name: x\ndescription: d\ncompatibility: \"\"",
        "name: x\ndescription: d\ncompatibility: ok",
        "name: x\ndescription: d\nmetadata:\n  a: \"1\"",
        "name: x\ndescription: d\nmetadata:\n  a:\n    b: c",
        "name: x\ndescription: d\nlicense:\n  - MIT",
        "name: x\ndescription: d\nallowed-tools: Read Bash",
    ];
    let mut long = vec![
        format!("name: {}\ndescription: d", "a".repeat(64)),
        format!("name: {}\ndescription: d", "a".repeat(65)),
        format!("name: x\ndescription: {}", "d".repeat(1024)),
        format!("name: x\ndescription: {}", "d".repeat(1025)),
        format!("name: x\ndescription: d\ncompatibility: {}", "c".repeat(501)),
    ];
    long.extend(cases.iter().map(|c| c.to_string()));
    for fm in long {
        let name = fm.lines().find_map(|l| l.strip_prefix("name: ")).unwrap_or("x").to_string();
        let text = format!("---\n{fm}\n---\nBody.\n");
        let skill = Skill::parse(format!("/skills/{name}"), "SKILL.md", text.clone());
        let rules_ok = !lint(&skill, &SPEC).iter().any(|d| d.severity == skillkit::Severity::Error);
        let schema_ok = validator.is_valid(&frontmatter_json(&text));
        assert_eq!(rules_ok, schema_ok, "rules and schema disagree on:\n{fm}");
    }
}
