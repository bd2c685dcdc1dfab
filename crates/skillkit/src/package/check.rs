//! `check` on a package: its manifests judged (each a report of its own, findings located in
//! it), its skills linted as `check` lints any, plus what installing them from the package does
//! (too deep to be found, a bare alias another skill takes, a name two plugins share); an upload
//! archive judged by the upload's rules, with the skill file inside it linted.

use crate::agent::Agent;
use crate::check::{CheckRun, Checked};
use crate::lint::diagnostic::{Diagnostic, Severity};
use crate::lint::rules::package as r;
use crate::lint::rules::RuleMeta;
use crate::package::detect::{self, Package, PackageKind};
use crate::package::manifest::Manifest;
use crate::package::{archive, upload};
use crate::skill::Skill;
use crate::syntax::text::Span;
use std::path::{Path, PathBuf};

/// Check the package at `path` under `agent`'s rules; `None` when `path` holds no package (with
/// `force`, a folder is read as one plugin without a manifest, a file as an archive).
pub fn check_package(path: &Path, agent: &Agent, force: bool) -> Option<CheckRun> {
    let pkg = detect::open(path, force)?;
    Some(match pkg.kind {
        PackageKind::Upload => check_upload(path, agent),
        _ => check_folder(&pkg, agent),
    })
}

fn report_of(dir: &Path, file: &str, bytes: Vec<u8>) -> Skill {
    Skill::from_bytes(dir, file, bytes)
}

fn diag(skill: &Skill, f: &upload::Finding, span: Span) -> Diagnostic {
    f.rule.diagnostic(skill, f.severity, span, f.message.clone(), f.help.clone())
}

/// An upload archive: the upload's rules on its entries, and its skill files linted.
pub fn check_upload(path: &Path, agent: &Agent) -> CheckRun {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let report = report_of(&dir, &file, vec![]);
    let mut run = CheckRun { skills: vec![], issues: vec![], verdict: None };
    let mut diagnostics = vec![];
    match archive::read(path) {
        Err(e) => {
            let f = upload::Finding::new(
                &r::upload_invalid_zip::UploadInvalidZip::META,
                "Invalid zip file",
                format!("{e}; make the archive with `skillkit pack --target claude-ai`"),
            );
            diagnostics.push(diag(&report, &f, Span::empty(0)));
        }
        Ok(a) => {
            let entries: Vec<upload::UploadEntry> = a
                .entries
                .iter()
                .map(|e| upload::UploadEntry { name: &e.name, is_dir: e.is_dir, size: e.size })
                .collect();
            for f in upload::check(&entries) {
                diagnostics.push(diag(&report, &f, Span::empty(0)));
            }
            for e in &a.entries {
                if e.name.rsplit('/').next() != Some("SKILL.md") || upload::unsafe_name(&e.name) {
                    continue;
                }
                let Some(bytes) = &e.data else { continue };
                let folder = e.name.rsplit_once('/').map_or("", |(d, _)| d);
                let skill = Skill::from_bytes(path.join(folder), "SKILL.md", bytes.clone());
                let diagnostics = crate::lint::lint(&skill, agent);
                run.skills.push(Checked { skill: Box::new(skill), diagnostics });
            }
        }
    }
    run.skills.insert(0, Checked { skill: Box::new(report), diagnostics });
    run
}

fn manifest_report(m: &Manifest) -> Checked {
    let dir = m.path.parent().map(Path::to_path_buf).unwrap_or_default();
    let file = m.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let skill = report_of(&dir, &file, m.bytes.clone());
    let diagnostics = m.findings.iter().map(|l| diag(&skill, &l.finding, l.span)).collect();
    Checked { skill: Box::new(skill), diagnostics }
}

/// A folder with neither a manifest nor skills, reported at the folder.
fn no_manifest(root: &Path) -> Checked {
    let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
    let skill = report_of(&dir, &folder_name(root), vec![]);
    let f = upload::Finding::new(
        &r::package_manifest_missing::PackageManifestMissing::META,
        "directory: No manifest found in directory. Expected .claude-plugin/marketplace.json or .claude-plugin/plugin.json",
        "add `.claude-plugin/plugin.json`, or put the skills under `skills/<name>/SKILL.md`",
    );
    let diagnostics = vec![diag(&skill, &f, Span::empty(0))];
    Checked { skill: Box::new(skill), diagnostics }
}

/// A YAML value's type in the words of `claude plugin validate` (JavaScript's); `None` for null.
fn js_type(n: &crate::syntax::yaml::Node) -> Option<&'static str> {
    use crate::syntax::yaml::NodeKind;
    Some(match &n.kind {
        NodeKind::Sequence(_) => "array",
        NodeKind::Mapping(_) => "object",
        NodeKind::Alias => "string",
        NodeKind::Scalar { .. } => match n.kind_name() {
            "null" => return None,
            "integer" | "number" => "number",
            "boolean" => "boolean",
            _ => "string",
        },
    })
}

/// The checks `claude plugin validate` makes on a plugin skill's frontmatter (its errors), each
/// at its value: (span, message in its words).
pub fn claude_skill_frontmatter(skill: &Skill) -> Vec<(Span, String)> {
    use crate::syntax::frontmatter::Reading;
    let mut out = vec![];
    if skill.frontmatter.reading != Reading::Yaml {
        return out;
    }
    // Read again: a checked skill keeps only the fields the library needs.
    let span = skill.frontmatter.span;
    let Some(text) = skill.text.get(span.start..span.end) else { return out };
    let yaml = crate::syntax::yaml::parse(text, span.start);
    let Some(entries) = yaml.root.as_ref().and_then(|r| r.entries()) else { return out };
    let get = |key: &str| entries.iter().rev().find(|e| e.key.as_str() == Some(key)).map(|e| &e.value);
    if let Some(v) = get("description") {
        if let Some(t @ ("array" | "object")) = js_type(v) {
            out.push((
                v.span,
                format!("description: description must be a string, got {t}. At runtime this value is dropped."),
            ));
        }
    }
    if let Some(v) = get("name") {
        if let Some(t) = js_type(v).filter(|t| *t != "string") {
            out.push((v.span, format!("name: name must be a string, got {t}.")));
        }
    }
    if let Some(v) = get("allowed-tools") {
        match (js_type(v), &v.kind) {
            (Some("array"), crate::syntax::yaml::NodeKind::Sequence(items))
                if items.iter().any(|i| js_type(i) != Some("string")) =>
            {
                out.push((v.span, "allowed-tools: allowed-tools array must contain only strings.".into()));
            }
            (Some("array"), _) => {}
            (Some(t), _) if t != "string" => out
                .push((v.span, format!("allowed-tools: allowed-tools must be a string or array of strings, got {t}."))),
            _ => {}
        }
    }
    if let Some(v) = get("shell") {
        match js_type(v) {
            Some("string") => {
                let s = v.as_str().unwrap_or_default();
                if s != "bash" && s != "powershell" {
                    out.push((v.span, format!("shell: shell must be 'bash' or 'powershell', got '{s}'.")));
                }
            }
            Some(t) => out.push((v.span, format!("shell: shell must be a string, got {t}."))),
            None => {}
        }
    }
    out
}

/// A finding on a skill of the package.
struct OnSkill {
    dir: PathBuf,
    rule: &'static RuleMeta,
    severity: Severity,
    message: String,
    help: String,
}

fn folder_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The findings on the skills of `pkg` as installed from it.
fn installed(pkg: &Package) -> Vec<OnSkill> {
    let mut out = vec![];
    for p in &pkg.plugins {
        for deep in &p.too_deep {
            let rel = deep.strip_prefix(&p.root).unwrap_or(deep).to_string_lossy().replace('\\', "/");
            out.push(OnSkill {
                dir: deep.parent().map(Path::to_path_buf).unwrap_or_default(),
                rule: &r::plugin_skill_too_deep::PluginSkillTooDeep::META,
                severity: r::plugin_skill_too_deep::PluginSkillTooDeep::META.severity,
                message: format!(
                    "`{rel}` of plugin `{}` is not an immediate child of `skills/`: plugin loaders do not install it",
                    p.name
                ),
                help: "move its folder directly under `skills/`".into(),
            });
        }
    }
    // The bare alias: the first plugin (in listing order) to ship a name, and the repository's
    // own skills (`.claude/skills/<name>`), which win it.
    let mut first: std::collections::HashMap<String, &str> = Default::default();
    let in_repo: Vec<String> = std::fs::read_dir(pkg.root.join(".claude/skills"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("SKILL.md").is_file())
        .map(|p| folder_name(&p))
        .collect();
    for p in &pkg.plugins {
        for s in &p.skills {
            let name = folder_name(s);
            if in_repo.contains(&name) {
                out.push(OnSkill {
                    dir: s.clone(),
                    rule: &r::plugin_skill_alias_taken::PluginSkillAliasTaken::META,
                    severity: r::plugin_skill_alias_taken::PluginSkillAliasTaken::META.severity,
                    message: format!(
                        "installed as `{}:{name}`; its bare alias `{name}` goes to the repository's own skill `.claude/skills/{name}`: in Claude Code `/{name}` runs the project's skill, only `/{}:{name}` this one",
                        p.name, p.name
                    ),
                    help: format!("call it `/{}:{name}`, or rename one of the two", p.name),
                });
            }
            match first.get(&name) {
                Some(other) if *other != p.name => out.push(OnSkill {
                    dir: s.clone(),
                    rule: &r::plugin_skill_name_clash::PluginSkillNameClash::META,
                    severity: r::plugin_skill_name_clash::PluginSkillNameClash::META.severity,
                    message: format!(
                        "plugin `{other}` also ships a skill `{name}`: `{}:{name}` and `{other}:{name}` share the bare alias `{name}`, which Claude Code gives `{other}:{name}` (the first plugin listed)",
                        p.name
                    ),
                    help: "rename one of them: an installer that does not namespace plugin skills (`npx skills`: one folder per name) keeps only one".into(),
                }),
                Some(_) => {}
                None => {
                    first.insert(name, &p.name);
                }
            }
        }
    }
    out
}

/// A marketplace, a plugin or a folder of plugins.
fn check_folder(pkg: &Package, agent: &Agent) -> CheckRun {
    let mut run = crate::check::check_run(std::slice::from_ref(&pkg.root), agent);
    // A package may ship no skill (a marketplace of remote sources, a plugin of commands): its
    // root is not a skill folder missing its file.
    run.skills.retain(|c| !c.skill.file_problems.contains(&crate::skill::FileProblem::Missing));
    let mut reports: Vec<Checked> = vec![];
    if let [p] = pkg.plugins.as_slice() {
        let nothing = p.manifests.is_empty() && p.skills.is_empty() && p.too_deep.is_empty() && run.skills.is_empty();
        if pkg.marketplace.is_none() && nothing {
            reports.push(no_manifest(&pkg.root));
        }
    }
    reports.extend(pkg.marketplace.iter().map(manifest_report));
    for p in &pkg.plugins {
        reports.extend(p.manifests.iter().map(manifest_report));
        // Each skill's Codex metadata, which Codex reads into its list.
        for s in &p.skills {
            let file = s.join("agents/openai.yaml");
            let Ok(bytes) = crate::files::read(&file, crate::package::manifest::MAX_MANIFEST_BYTES) else { continue };
            let skill = report_of(&s.join("agents"), "openai.yaml", bytes);
            let findings = crate::package::manifest::codex_metadata(&skill.text, s);
            if !findings.is_empty() {
                let diagnostics = findings.iter().map(|l| diag(&skill, &l.finding, l.span)).collect();
                reports.push(Checked { skill: Box::new(skill), diagnostics });
            }
        }
    }
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    for f in installed(pkg) {
        let dir = real(&f.dir);
        let i = match run.skills.iter().position(|c| real(&c.skill.dir) == dir) {
            Some(i) => i,
            None => {
                let skill = crate::read::read_skill(&dir);
                let diagnostics = crate::lint::lint(&skill, agent);
                run.skills.push(Checked { skill: Box::new(skill), diagnostics });
                run.skills.len() - 1
            }
        };
        let c = &mut run.skills[i];
        let span = c.skill.frontmatter.get("name").map_or(Span::empty(0), |n| n.value.span);
        let d = f.rule.diagnostic(&c.skill, f.severity, span, f.message, f.help);
        c.diagnostics.push(d);
        c.diagnostics.sort_by(|x, y| (x.span.start, x.severity, x.code).cmp(&(y.span.start, y.severity, y.code)));
    }
    // The skills `claude plugin validate` judges: a plugin's own (not those of the plugins a
    // marketplace lists), with its checks.
    let judged: Vec<&PathBuf> = pkg
        .plugins
        .iter()
        .filter(|p| pkg.kind != PackageKind::Marketplace || real(&p.root) == real(&pkg.root))
        .filter(|p| p.manifests.iter().all(|m| m.kind == crate::package::manifest::ManifestKind::ClaudePlugin))
        .flat_map(|p| &p.skills)
        .collect();
    for dir in judged {
        let dir = real(dir);
        let Some(c) = run.skills.iter_mut().find(|c| real(&c.skill.dir) == dir) else { continue };
        let meta = &r::plugin_skill_frontmatter::PluginSkillFrontmatter::META;
        for (span, message) in claude_skill_frontmatter(&c.skill) {
            let d = meta.diagnostic(
                &c.skill,
                meta.severity,
                span,
                message,
                String::from("write the value as Claude Code reads it"),
            );
            c.diagnostics.push(d);
        }
        c.diagnostics.sort_by(|x, y| (x.span.start, x.severity, x.code).cmp(&(y.span.start, y.severity, y.code)));
    }
    reports.append(&mut run.skills);
    run.skills = reports;
    run
}
