//! `skillkit prompt` for the three seed-based profiles, compared with the seeds' exact text:
//! `deepagents-v1` (seed 004_3536bc534ef998c7.txt), `deepagents-v2` (seed 000_248ad29e8601cff1.txt)
//! and `harness9` (seed 002_246df5754482a3d2.txt). The templates below are copied from the seeds
//! (not from the engine) and filled in by hand.

use e2e::goldens::{assert_same, tree, TREES};
use e2e::{skillkit, write_tree};
use serde_json::Value;
use std::path::Path;

/// Seed 004 §3 (系统提示模板), verbatim.
const V1_TEMPLATE: &str = r#"## Skills System

You have access to a skills library that provides specialized capabilities and domain knowledge.

{skills_locations}

**Available Skills:**

{skills_list}

**How to Use Skills (Progressive Disclosure):**

Skills follow a **progressive disclosure** pattern - you see their name and description above, but only read full instructions when needed:

1. **Recognize when a skill applies**: Check if the user's task matches a skill's description
2. **Read the skill's full instructions**: Use the path shown in the skill list above
3. **Follow the skill's instructions**: SKILL.md contains step-by-step workflows, best practices, and examples
4. **Access supporting files**: Skills may include helper scripts, configs, or reference docs - use absolute paths

**When to Use Skills:**
- User's request matches a skill's domain (e.g., "research X" -> web-research skill)
- You need specialized knowledge or structured workflows
- A skill provides proven patterns for complex tasks

**Executing Skill Scripts:**
Skills may contain Python scripts or other executable files. Always use absolute paths from the skill list.

**Example Workflow:**

User: "Can you research the latest developments in quantum computing?"

1. Check available skills -> See "web-research" skill with its path
2. Read the skill using the path shown
3. Follow the skill's research workflow (search -> organize -> synthesize)
4. Use any helper scripts with absolute paths

Remember: Skills make you more capable and consistent. When in doubt, check if a skill exists for the task!"#;

/// Seed 000 §3.6.3 `SKILLS_SYSTEM_PROMPT`, as the Python literal evaluates (the `\`-newline
/// continuations joined; two leading newlines, one trailing).
const V2_TEMPLATE: &str = "\n\n## Skills System

You have access to a skills library that provides specialized capabilities and domain knowledge.

{skills_locations}

**Available Skills:**

{skills_list}

**How to Use Skills (Progressive Disclosure):**

Skills follow a **progressive disclosure** pattern - you see their name and description above, but only read full instructions when needed:

1. **Recognize when a skill applies**: Check if the user's task matches a skill's description
2. **Load the skill**: Use `load_skill(\"skill-name\")` to read full instructions and discover resources
3. **Follow the skill's instructions**: The loaded content contains step-by-step workflows, best practices, and examples
4. **Access supporting files**: Use the resource paths shown in the loaded skill output with `read_file`
5. **Unload when done**: Use `unload_skill(\"skill-name\")` to free up a loading slot when a skill is no longer needed

**When to Use Skills:**
- User's request matches a skill's domain (e.g., \"research X\" -> web-research skill)
- You need specialized knowledge or structured workflows
- A skill provides proven patterns for complex tasks

Remember: Skills make you more capable and consistent. When in doubt, check if a skill exists for the task!
";

fn fill(template: &str, locations: &str, list: &str) -> String {
    template.replacen("{skills_locations}", locations, 1).replacen("{skills_list}", list, 1)
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

fn run(agent: &str, sources: &[&Path], extra: &[&str]) -> String {
    let srcs: Vec<String> = sources.iter().map(|p| s(p)).collect();
    let mut args = vec!["prompt", "--agent", agent];
    for src in &srcs {
        args.extend(["--source", src.as_str()]);
    }
    args.extend_from_slice(extra);
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

fn json(agent: &str, sources: &[&Path], extra: &[&str]) -> Value {
    let mut args = extra.to_vec();
    args.extend(["--format", "json"]);
    serde_json::from_str(&run(agent, sources, &args)).unwrap()
}

fn skill_md(name: &str, description: &str, extra: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: {description}\n{extra}---\n\n# {name}\n\nSteps.\n").into_bytes()
}

/// The text of a skill's range in a JSON prompt.
fn range_text<'a>(v: &'a Value, name: &str) -> &'a str {
    let text = v["text"].as_str().unwrap();
    let sk = v["skills"].as_array().unwrap().iter().find(|k| k["name"] == name && k.get("range").is_some());
    let r = &sk.unwrap_or_else(|| panic!("{name} not listed"))["range"];
    &text[r["start"].as_u64().unwrap() as usize..r["end"].as_u64().unwrap() as usize]
}

fn decisions(v: &Value) -> Vec<(String, String)> {
    v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["folder"].as_str().unwrap().to_string(), k["decision"].as_str().unwrap().to_string()))
        .collect()
}

/// Two skills of seed 004 §2.2's shape: `web-research` with every `SkillMetadata` field (§2.3.1)
/// and a minimal one.
fn research_library(root: &Path) {
    write_tree(
        root,
        &[
            (
                "user/web-research/SKILL.md",
                &skill_md(
                    "web-research",
                    "Structured approach to conducting thorough web research",
                    "license: MIT\ncompatibility: Python 3.10+\nallowed-tools: search read_file\n",
                ),
            ),
            ("user/web-research/helper.py", b"print('hi')\n"),
            ("user/code-review/SKILL.md", &skill_md("code-review", "Systematic code review process", "")),
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// deepagents-v1 (seed 004)

/// Seed 004 §3: the blog's template, with the locations and list slots filled as DeepAgents
/// fills them (§2.3.1 fields: license, compatibility, allowed tools; the path to read, §3 step 2).
#[test]
fn v1_fills_the_blog_template() {
    let tmp = tempfile::tempdir().unwrap();
    research_library(tmp.path());
    let user = tmp.path().join("user");
    let u = s(&user);
    let list = format!(
        "- **code-review**: Systematic code review process\n  -> Read `{u}/code-review/SKILL.md` for full instructions\n\
         - **web-research**: Structured approach to conducting thorough web research (License: MIT, Compatibility: Python 3.10+)\n  -> Allowed tools: search, read_file\n  -> Read `{u}/web-research/SKILL.md` for full instructions"
    );
    let want = fill(V1_TEMPLATE, &format!("**User Skills**: `{u}` (higher priority)"), &list);
    assert_same(&run("deepagents-v1", &[&user], &[]), &want, "v1");
}

/// Seed 004 §3 with an empty library: the list slot says where skills can be created.
#[test]
fn v1_empty_library() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("user");
    std::fs::create_dir(&user).unwrap();
    let u = s(&user);
    let want = fill(
        V1_TEMPLATE,
        &format!("**User Skills**: `{u}` (higher priority)"),
        &format!("(No skills available yet. You can create skills in {u})"),
    );
    assert_same(&run("deepagents-v1", &[&user], &[]), &want, "v1 empty");
}

/// Seed 004 §2.1: sources load in order and a later source overrides an earlier one's skill of
/// the same name ("last one wins"); the winner keeps the earlier one's place.
#[test]
fn v1_later_source_wins() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            ("base/base-only/SKILL.md", &skill_md("base-only", "Only in base", "")),
            ("base/lint-helper/SKILL.md", &skill_md("lint-helper", "Base version", "")),
            ("project/lint-helper/SKILL.md", &skill_md("lint-helper", "Project version", "")),
            ("project/project-only/SKILL.md", &skill_md("project-only", "Only in project", "")),
        ],
    );
    let (base, project) = (tmp.path().join("base"), tmp.path().join("project"));
    let (b, p) = (s(&base), s(&project));
    let list = format!(
        "- **base-only**: Only in base\n  -> Read `{b}/base-only/SKILL.md` for full instructions\n\
         - **lint-helper**: Project version\n  -> Read `{p}/lint-helper/SKILL.md` for full instructions\n\
         - **project-only**: Only in project\n  -> Read `{p}/project-only/SKILL.md` for full instructions"
    );
    let locations = format!("**Base Skills**: `{b}`\n**Project Skills**: `{p}` (higher priority)");
    assert_same(&run("deepagents-v1", &[&base, &project], &[]), &fill(V1_TEMPLATE, &locations, &list), "v1 override");
    let v = json("deepagents-v1", &[&base, &project], &[]);
    let shadowed = v["skills"].as_array().unwrap().iter().find(|k| k["decision"] == "shadowed").unwrap();
    assert_eq!(shadowed["path"], format!("{b}/lint-helper/SKILL.md"));
    assert_eq!(shadowed["source"], 0);
}

/// Seed 004 §4 (name rules) and §2.3.1 (description ≤ 1,024 characters): a skill without a
/// description or with broken YAML is not loaded; a name that breaks the rules is listed (the
/// real loader only warns); a long description is cut to 1,024 characters.
#[test]
fn v1_invalid_skills() {
    let tmp = tempfile::tempdir().unwrap();
    let long = "x".repeat(1100);
    write_tree(
        tmp.path(),
        &[
            ("user/bad-yaml/SKILL.md", b"---\nname: bad-yaml\ndescription: a: b\n---\n"),
            ("user/long-desc/SKILL.md", &skill_md("long-desc", &long, "")),
            ("user/mismatch/SKILL.md", &skill_md("other-name", "Name differs from folder", "")),
            ("user/no-desc/SKILL.md", b"---\nname: no-desc\n---\nbody\n"),
        ],
    );
    let user = tmp.path().join("user");
    let u = s(&user);
    let list = format!(
        "- **long-desc**: {}\n  -> Read `{u}/long-desc/SKILL.md` for full instructions\n\
         - **other-name**: Name differs from folder\n  -> Read `{u}/mismatch/SKILL.md` for full instructions",
        &long[..1024]
    );
    let want = fill(V1_TEMPLATE, &format!("**User Skills**: `{u}` (higher priority)"), &list);
    assert_same(&run("deepagents-v1", &[&user], &[]), &want, "v1 invalid");
    let v = json("deepagents-v1", &[&user], &[]);
    let mut d = decisions(&v);
    d.sort();
    assert_eq!(
        d,
        [("bad-yaml", "invalid"), ("long-desc", "truncated"), ("mismatch", "full"), ("no-desc", "invalid")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let warnings: Vec<&str> = v["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
    assert!(warnings.iter().any(|w| w.contains("does not follow Agent Skills specification")), "{warnings:?}");
}

/// Seed 004 §3 in JSON: each listed skill's byte range is its whole entry; no skill tool (the
/// model reads the path, §3 step 2, §7).
#[test]
fn v1_json_ranges_and_no_tools() {
    let tmp = tempfile::tempdir().unwrap();
    research_library(tmp.path());
    let user = tmp.path().join("user");
    let v = json("deepagents-v1", &[&user], &[]);
    let entry = range_text(&v, "web-research");
    assert!(entry.starts_with("- **web-research**: Structured"), "{entry:?}");
    assert!(entry.ends_with("/web-research/SKILL.md` for full instructions"), "{entry:?}");
    assert!(range_text(&v, "code-review").starts_with("- **code-review**: "));
    assert_eq!(v["tools"], serde_json::json!([]));
    assert_eq!(v["placement"], "system-prompt");
    assert_eq!(v["agent"], "deepagents-v1");
    assert!(v.get("budget").is_none());
}

/// Seed 004 describes the DeepAgents loader itself: on every captured tree, the skills V1 lists
/// (and how) are the real DeepAgents 0.7.32's, and its list slot is the same text.
#[test]
fn v1_lists_what_the_real_loader_lists() {
    let list = |t: &str| {
        let a = t.find("**Available Skills:**\n\n").unwrap() + "**Available Skills:**\n\n".len();
        t[a..t.find("\n\n**How to Use Skills").unwrap()].to_string()
    };
    for name in TREES {
        let t = tree(name);
        let p = Path::new(&t);
        let (ours, real) = (run("deepagents-v1", &[p], &[]), run("deepagents", &[p], &[]));
        assert_same(&list(&ours), &list(&real), name);
    }
}

// ---------------------------------------------------------------------------------------------
// deepagents-v2 (seed 000, seed 003)

/// Seed 000 §3.6.3 (template) and §3.6.1 (`_format_skills_list`): nothing loaded, so every skill
/// gets the `load_skill` hint; `allowed-tools` shows as `Recommended tools` (§5.3).
#[test]
fn v2_fills_the_design_template() {
    let tmp = tempfile::tempdir().unwrap();
    research_library(tmp.path());
    let user = tmp.path().join("user");
    let u = s(&user);
    let list = "- **code-review**: Systematic code review process\n  -> Use `load_skill(\"code-review\")` to read full instructions\n\
         - **web-research**: Structured approach to conducting thorough web research (License: MIT, Compatibility: Python 3.10+)\n  -> Recommended tools: search, read_file\n  -> Use `load_skill(\"web-research\")` to read full instructions";
    let want = fill(V2_TEMPLATE, &format!("**User Skills**: `{u}` (higher priority)"), list);
    assert_same(&run("deepagents-v2", &[&user], &[]), &want, "v2");
}

/// Seed 000 §3.6.1: a loaded skill is marked ` [Loaded]`, loses the `load_skill` hint and shows
/// `-> Resources:` (§3.2.1 lazy discovery: first-level files of `scripts/`, `references/`,
/// `assets/`, root files as `other`; `_format_resource_summary` sorts the types, §5.3's line
/// shape). A loaded skill without resources gets no resources line.
#[test]
fn v2_loaded_marks_and_resource_summaries() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            (
                "user/web-research/SKILL.md",
                &skill_md(
                    "web-research",
                    "Research topics using web search",
                    "compatibility: \"requires: search\"\nallowed-tools: search, read_file\n",
                ),
            ),
            ("user/web-research/scripts/fetch.py", b"x"),
            ("user/web-research/scripts/parse.py", b"x"),
            ("user/web-research/scripts/util/deep.py", b"not first level"),
            ("user/web-research/references/api.md", b"x"),
            ("user/web-research/notes/ignored.md", b"non-standard folder"),
            ("user/web-research/template.md", b"root file"),
            ("user/plain/SKILL.md", &skill_md("plain", "No resources at all", "")),
            ("user/zeta/SKILL.md", &skill_md("zeta", "Not loaded", "")),
        ],
    );
    let user = tmp.path().join("user");
    let u = s(&user);
    let list = "- **plain** [Loaded]: No resources at all\n\
         - **web-research** [Loaded]: Research topics using web search (Compatibility: requires: search)\n  -> Recommended tools: search, read_file\n  -> Resources: 1 other, 1 reference, 2 scripts\n\
         - **zeta**: Not loaded\n  -> Use `load_skill(\"zeta\")` to read full instructions";
    let want = fill(V2_TEMPLATE, &format!("**User Skills**: `{u}` (higher priority)"), list);
    let args = ["--loaded", "web-research", "--loaded", "plain", "--loaded", "not-a-skill"];
    assert_same(&run("deepagents-v2", &[&user], &args), &want, "v2 loaded");
    let v = json("deepagents-v2", &[&user], &args);
    assert_eq!(
        range_text(&v, "web-research"),
        "- **web-research** [Loaded]: Research topics using web search (Compatibility: requires: search)\n  -> Recommended tools: search, read_file\n  -> Resources: 1 other, 1 reference, 2 scripts"
    );
    let rec = v["skills"].as_array().unwrap().iter().find(|k| k["name"] == "web-research").unwrap();
    assert_eq!(rec["decision"], "full");
    assert!(rec["reason"].as_str().unwrap().contains("[Loaded]"), "{rec}");
}

/// Seed 000 §3.6.1: an empty library prints `(No skills available yet. You can create skills in
/// {sources joined by " or "})`.
#[test]
fn v2_empty_library() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("base"), tmp.path().join("project"));
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    let (sa, sb) = (s(&a), s(&b));
    let want = fill(
        V2_TEMPLATE,
        &format!("**Base Skills**: `{sa}`\n**Project Skills**: `{sb}` (higher priority)"),
        &format!("(No skills available yet. You can create skills in {sa} or {sb})"),
    );
    assert_same(&run("deepagents-v2", &[&a, &b], &[]), &want, "v2 empty");
}

/// Seed 000 §1.2 and §3.3: sources merge into a dict by name, so a later source's skill replaces
/// the earlier one in its place; `[Loaded]` applies to the winner.
#[test]
fn v2_later_source_wins() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            ("base/lint-helper/SKILL.md", &skill_md("lint-helper", "Base version", "")),
            ("base/z-base/SKILL.md", &skill_md("z-base", "Only in base", "")),
            ("project/lint-helper/SKILL.md", &skill_md("lint-helper", "Project version", "")),
            ("project/lint-helper/assets/logo.png", b"png"),
            ("project/a-project/SKILL.md", &skill_md("a-project", "Only in project", "")),
        ],
    );
    let (base, project) = (tmp.path().join("base"), tmp.path().join("project"));
    let (b, p) = (s(&base), s(&project));
    let list = "- **lint-helper** [Loaded]: Project version\n  -> Resources: 1 asset\n\
         - **z-base**: Only in base\n  -> Use `load_skill(\"z-base\")` to read full instructions\n\
         - **a-project**: Only in project\n  -> Use `load_skill(\"a-project\")` to read full instructions";
    let locations = format!("**Base Skills**: `{b}`\n**Project Skills**: `{p}` (higher priority)");
    let out = run("deepagents-v2", &[&base, &project], &["--loaded", "lint-helper"]);
    assert_same(&out, &fill(V2_TEMPLATE, &locations, list), "v2 override");
}

/// Seed 000 §1.2 / §6.1: V2 keeps V1's reader, so invalid skills are left out the same way, and
/// a non-conforming name only warns.
#[test]
fn v2_invalid_skills() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            ("user/no-frontmatter/SKILL.md", b"# Just a title\n"),
            ("user/Upper/SKILL.md", &skill_md("Upper", "Uppercase name", "")),
            ("user/empty-desc/SKILL.md", b"---\nname: empty-desc\ndescription: \"\"\n---\n"),
        ],
    );
    let user = tmp.path().join("user");
    let u = s(&user);
    let list = "- **Upper**: Uppercase name\n  -> Use `load_skill(\"Upper\")` to read full instructions";
    let want = fill(V2_TEMPLATE, &format!("**User Skills**: `{u}` (higher priority)"), list);
    assert_same(&run("deepagents-v2", &[&user], &[]), &want, "v2 invalid");
    let v = json("deepagents-v2", &[&user], &[]);
    let mut d = decisions(&v);
    d.sort();
    assert_eq!(
        d,
        [("Upper", "full"), ("empty-desc", "invalid"), ("no-frontmatter", "invalid")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
}

/// Seed 000 §3.4 and §3.5: the `load_skill` and `unload_skill` tools with the descriptions given
/// to `StructuredTool.from_function` and their `Annotated` parameter descriptions; ranges cover
/// each entry.
#[test]
fn v2_json_tools_and_ranges() {
    let tmp = tempfile::tempdir().unwrap();
    research_library(tmp.path());
    let user = tmp.path().join("user");
    let v = json("deepagents-v2", &[&user], &[]);
    assert_eq!(
        v["tools"],
        serde_json::json!([
            {
                "name": "load_skill",
                "description": "Load a skill's full instructions and discover its resources. Use this instead of read_file when you need to activate a skill from the available skills list.",
                "parameters": {
                    "type": "object",
                    "properties": { "skill_name": { "type": "string", "description": "Name of the skill to load from the available skills list." } },
                    "required": ["skill_name"]
                }
            },
            {
                "name": "unload_skill",
                "description": "Unload a previously loaded skill to free up a loading slot. Use this when you have reached the maximum number of loaded skills and need to load a different one.",
                "parameters": {
                    "type": "object",
                    "properties": { "skill_name": { "type": "string", "description": "Name of the loaded skill to unload." } },
                    "required": ["skill_name"]
                }
            }
        ])
    );
    assert_eq!(
        range_text(&v, "code-review"),
        "- **code-review**: Systematic code review process\n  -> Use `load_skill(\"code-review\")` to read full instructions"
    );
    assert!(range_text(&v, "web-research").ends_with("-> Use `load_skill(\"web-research\")` to read full instructions"));
    assert_eq!(v["agent"], "deepagents-v2");
    assert_eq!(v["totals"]["bytes"].as_u64().unwrap() as usize, v["text"].as_str().unwrap().len());
    assert!(v.get("budget").is_none(), "seed 000 §4.1.1: no description budget");
}

// ---------------------------------------------------------------------------------------------
// harness9 (seed 002)

/// Seed 002 §5: the index appended to the system prompt, exactly the block the seed prints (the
/// three skills of §5, in folder order; `trigger` is documentation only, §3).
#[test]
fn harness9_index_is_the_seed_block() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            (
                "skills/1-go-refactor/SKILL.md",
                "---\nname: go-refactor\ndescription: Use when refactoring Go code — team conventions and patterns\ntrigger: \"refactor, clean up, restructure, simplify\"\n---\n# Go 重构指南\n".as_bytes(),
            ),
            ("skills/2-testing-guide/SKILL.md", &skill_md("testing-guide", "Use when writing or reviewing tests", "")),
            ("skills/3-deploy-guide/SKILL.md", &skill_md("deploy-guide", "Use when deploying to production", "")),
        ],
    );
    let skills = tmp.path().join("skills");
    let want = "## Available Skills\n\
                Use the `use_skill` tool to load the full content of any skill when needed.\n\
                - go-refactor: Use when refactoring Go code — team conventions and patterns\n\
                - testing-guide: Use when writing or reviewing tests\n\
                - deploy-guide: Use when deploying to production";
    assert_same(&run("harness9", &[&skills], &[]), want, "harness9");
}

/// Seed 002 §8: a missing `skills/` folder is an empty index, skipped silently; so is a folder
/// with no valid skill (nothing is appended).
#[test]
fn harness9_empty_index_prints_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = tmp.path().join("skills");
    let v = json("harness9", &[&skills], &[]);
    assert_eq!(v["text"], "");
    assert_eq!(v["warnings"], serde_json::json!([]));
    std::fs::create_dir(&skills).unwrap();
    assert_eq!(run("harness9", &[&skills], &[]), "");
}

/// Seed 002 §8: a subfolder without `SKILL.md` and a file without `name` or `description` are
/// skipped with a warn log; §3 has no other rule (a name that differs from its folder is fine).
#[test]
fn harness9_invalid_skills_are_skipped_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            ("skills/empty-folder/notes.md", b"no skill file"),
            ("skills/no-desc/SKILL.md", b"---\nname: no-desc\n---\nbody\n"),
            ("skills/no-name/SKILL.md", b"---\ndescription: Nameless\n---\nbody\n"),
            ("skills/no-frontmatter/SKILL.md", b"# Title only\n"),
            ("skills/renamed/SKILL.md", &skill_md("Any_Name", "Names follow no pattern", "")),
        ],
    );
    let skills = tmp.path().join("skills");
    let want = "## Available Skills\nUse the `use_skill` tool to load the full content of any skill when needed.\n- Any_Name: Names follow no pattern";
    assert_same(&run("harness9", &[&skills], &[]), want, "harness9 invalid");
    let v = json("harness9", &[&skills], &[]);
    let mut d = decisions(&v);
    d.sort();
    assert_eq!(
        d,
        [("no-desc", "invalid"), ("no-frontmatter", "invalid"), ("no-name", "invalid"), ("renamed", "full")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let warnings = v["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 4, "{warnings:?}");
    assert!(warnings[0].as_str().unwrap().ends_with("/empty-folder: no SKILL.md"), "{warnings:?}");
}

/// Seed 002 §2 has one folder; with several sources (a studio extension), a later skill of the
/// same `name` replaces the earlier one and is listed in its own place.
#[test]
fn harness9_later_source_wins() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            ("a/skills/shared/SKILL.md", &skill_md("shared", "From a", "")),
            ("a/skills/x-only-a/SKILL.md", &skill_md("only-a", "Only in a", "")),
            ("b/skills/shared/SKILL.md", &skill_md("shared", "From b", "")),
        ],
    );
    let (a, b) = (tmp.path().join("a/skills"), tmp.path().join("b/skills"));
    let want = "## Available Skills\nUse the `use_skill` tool to load the full content of any skill when needed.\n- only-a: Only in a\n- shared: From b";
    assert_same(&run("harness9", &[&a, &b], &[]), want, "harness9 override");
    let v = json("harness9", &[&a, &b], &[]);
    let shadowed: Vec<&Value> =
        v["skills"].as_array().unwrap().iter().filter(|k| k["decision"] == "shadowed").collect();
    assert_eq!(shadowed.len(), 1);
    assert_eq!(shadowed[0]["source"], 0);
}

/// Seed 002 §4.1 and §6: the `use_skill` tool takes `skill_name` (a string); each listed skill's
/// range is its index line.
#[test]
fn harness9_json_tool_and_ranges() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(tmp.path(), &[("skills/go-refactor/SKILL.md", &skill_md("go-refactor", "Refactor Go code", ""))]);
    let skills = tmp.path().join("skills");
    let v = json("harness9", &[&skills], &[]);
    let tools = v["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "use_skill");
    assert_eq!(
        tools[0]["parameters"],
        serde_json::json!({"type": "object", "properties": {"skill_name": {"type": "string"}}, "required": ["skill_name"]})
    );
    assert_eq!(range_text(&v, "go-refactor"), "- go-refactor: Refactor Go code");
    let rec = &v["skills"][0];
    assert_eq!(rec["path"], format!("{}/go-refactor/SKILL.md", s(&skills)));
    assert_eq!(v["tokenizer"]["estimate"], true);
}
