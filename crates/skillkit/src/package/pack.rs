//! Building packages from a checked skill or library: the upload `.zip` of a skill (refused with
//! the upload's own message when a rule would fail, so a pack never writes what the upload
//! rejects), a Claude Code plugin inside a one-plugin marketplace, an Agent Plugins 1.0 package,
//! a Codex plugin inside a one-plugin Codex marketplace, a digest lock (`skills-lock.json`) and
//! the MCP Skills Extension's listing (`skills-list.json`). Archives are reproducible: entries in
//! path order, every time the zip epoch (1980-01-01 00:00), modes 0644 or 0755, one compression
//! level; the same input gives the same bytes.

use crate::lint::diagnostic::Severity;
use crate::package::digest::{self, Lock, SkillFile};
use crate::package::manifest::AGENT_PLUGINS_SCHEMA;
use crate::package::upload::{self, Finding, UploadEntry};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `pack` builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// The skill upload's `.zip` (Claude.ai, Desktop, Teams, the Claude API): one per skill.
    ClaudeAi,
    /// A Claude Code plugin in a one-plugin marketplace.
    ClaudePlugin,
    /// An Agent Plugins 1.0.0 package.
    AgentPlugin,
    /// A Codex plugin.
    CodexPlugin,
    /// A `skills-lock.json` with a SHA-256 per file.
    Digest,
    /// The MCP Skills Extension's (SEP-2640) listing of the skills as `skill://` resources.
    McpResources,
}

/// How to pack.
#[derive(Clone, Debug)]
pub struct PackOptions {
    pub target: Target,
    /// Where to write (default: `<name>.zip`, `<name>-<target>/`, `skills-lock.json`).
    pub out: Option<PathBuf>,
    /// The plugin's (and marketplace's) name (default: the skill's, else the library folder's,
    /// in kebab-case).
    pub name: Option<String>,
}

/// Why nothing (or not everything) was written.
#[derive(Clone, Debug)]
pub enum PackError {
    /// No skill under the path.
    NoSkill(PathBuf),
    /// Skills with errors (`skillkit check` shows them): each skill file and its first error.
    Invalid(Vec<(PathBuf, String)>),
    /// The upload would refuse the skill's archive: the upload's findings.
    Refused {
        skill: PathBuf,
        findings: Vec<Finding>,
    },
    /// The output exists (a folder that is not empty).
    Exists(PathBuf),
    Io(String),
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackError::NoSkill(p) => write!(f, "no skill found under {}", p.display()),
            PackError::Invalid(list) => {
                write!(f, "{} skill(s) have errors (run `skillkit check`):", list.len())?;
                for (p, m) in list {
                    write!(f, "\n  {}: {m}", p.display())?;
                }
                Ok(())
            }
            PackError::Refused { findings, .. } => {
                let first = findings.first().map_or("", |f| f.message.as_str());
                write!(f, "{first}")
            }
            PackError::Exists(p) => {
                write!(f, "{} exists and is not empty: remove it or choose another -o", p.display())
            }
            PackError::Io(m) => f.write_str(m),
        }
    }
}

/// What was written.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Packed {
    pub target: Target,
    /// The archive, folder or lock written.
    pub out: PathBuf,
    /// The files written (archives count as one each), and their bytes.
    pub files: usize,
    pub bytes: u64,
    /// The skills packed, by name.
    pub skills: Vec<String>,
}

/// A skill to pack: its folder and name.
#[derive(Clone, Debug)]
struct Source {
    dir: PathBuf,
    name: String,
}

fn io(e: impl std::fmt::Display) -> PackError {
    PackError::Io(e.to_string())
}

/// Lowercase letters, digits and single hyphens: a name every target takes.
pub fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "skills".into()
    } else {
        out.chars().take(64).collect::<String>().trim_end_matches('-').to_string()
    }
}

/// The skills under `path`, checked: any error refuses the pack.
fn sources(path: &Path) -> Result<Vec<Source>, PackError> {
    let run = crate::check::check_paths(&[path.to_path_buf()], &crate::agents::SPEC).map_err(io)?;
    let mut bad = vec![];
    let mut out = vec![];
    for c in &run.skills {
        if let Some(d) = c.diagnostics.iter().find(|d| d.severity == Severity::Error) {
            bad.push((c.skill.path(), format!("{} ({})", d.message, d.code)));
        } else {
            out.push(Source { dir: c.skill.dir.clone(), name: c.skill.display_name().to_string() });
        }
    }
    if !bad.is_empty() {
        return Err(PackError::Invalid(bad));
    }
    if out.is_empty() {
        return Err(PackError::NoSkill(path.to_path_buf()));
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The upload's findings on the archive of `files` under folder `name`.
pub fn upload_findings(name: &str, files: &[SkillFile]) -> Vec<Finding> {
    let names: Vec<String> = files.iter().map(|f| format!("{name}/{}", f.rel)).collect();
    let entries: Vec<UploadEntry> =
        names.iter().zip(files).map(|(n, f)| UploadEntry { name: n, is_dir: false, size: f.size }).collect();
    upload::check(&entries)
}

/// The upload archive of the skill in `dir`, its files under the folder `name`: refused (with
/// the upload's findings, before a byte is read) when the upload would refuse it.
pub fn zip_skill(dir: &Path, name: &str) -> Result<Vec<u8>, PackError> {
    let files = digest::skill_files(dir).map_err(io)?;
    let refusals: Vec<Finding> =
        upload_findings(name, &files).into_iter().filter(|f| f.severity == Severity::Error).collect();
    if !refusals.is_empty() {
        return Err(PackError::Refused { skill: dir.to_path_buf(), findings: refusals });
    }
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for f in &files {
        let bytes = digest::read_file(f).map_err(io)?;
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(6))
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(if f.executable { 0o755 } else { 0o644 });
        w.start_file(format!("{name}/{}", f.rel), opts).map_err(io)?;
        w.write_all(&bytes).map_err(io)?;
    }
    Ok(w.finish().map_err(io)?.into_inner())
}

/// Pack the skill or library at `path`.
pub fn pack(path: &Path, opts: &PackOptions) -> Result<Packed, PackError> {
    let skills = sources(path)?;
    let names: Vec<String> = skills.iter().map(|s| s.name.clone()).collect();
    let single = skills.len() == 1 && crate::read::skill_file_name(path).is_some();
    let base = opts.name.as_deref().map(kebab).unwrap_or_else(|| {
        if single {
            kebab(&skills[0].name)
        } else {
            let real = crate::read::resolve_dir(path);
            kebab(&real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
        }
    });
    let packed = |out: PathBuf, files: usize, bytes: u64| Packed {
        target: opts.target,
        out,
        files,
        bytes,
        skills: names.clone(),
    };
    match opts.target {
        Target::ClaudeAi => {
            if single {
                let out = opts.out.clone().unwrap_or_else(|| PathBuf::from(format!("{base}.zip")));
                let bytes = zip_skill(&skills[0].dir, &skills[0].name)?;
                std::fs::write(&out, &bytes).map_err(|e| PackError::Io(format!("{}: {e}", out.display())))?;
                return Ok(packed(out, 1, bytes.len() as u64));
            }
            // Every archive first: a library packs whole or not at all.
            let mut zips = vec![];
            for s in &skills {
                zips.push((format!("{}.zip", s.name), zip_skill(&s.dir, &s.name)?));
            }
            let out = opts.out.clone().unwrap_or_else(|| PathBuf::from(format!("{base}-claude-ai")));
            let files: Vec<(String, Vec<u8>, bool)> = zips.into_iter().map(|(n, b)| (n, b, false)).collect();
            write_tree(&out, &files).map(|(n, b)| packed(out.clone(), n, b))
        }
        Target::Digest => {
            let out = opts.out.clone().unwrap_or_else(|| PathBuf::from("skills-lock.json"));
            let mut lock = Lock { version: 1, skills: Default::default() };
            for s in &skills {
                let source =
                    s.dir.strip_prefix(crate::read::resolve_dir(path)).ok().filter(|p| !p.as_os_str().is_empty());
                let source = source.map_or_else(|| s.name.clone(), |p| p.to_string_lossy().replace('\\', "/"));
                lock.skills.insert(s.name.clone(), digest::entry(&s.dir, &source).map_err(io)?);
            }
            let text = lock.to_json();
            std::fs::write(&out, &text).map_err(|e| PackError::Io(format!("{}: {e}", out.display())))?;
            Ok(packed(out, 1, text.len() as u64))
        }
        Target::McpResources => {
            let out = opts.out.clone().unwrap_or_else(|| PathBuf::from("skills-list.json"));
            let text = mcp_resources(&skills)?;
            std::fs::write(&out, &text).map_err(|e| PackError::Io(format!("{}: {e}", out.display())))?;
            Ok(packed(out, 1, text.len() as u64))
        }
        Target::ClaudePlugin | Target::AgentPlugin | Target::CodexPlugin => {
            let suffix = match opts.target {
                Target::ClaudePlugin => "claude-plugin",
                Target::AgentPlugin => "agent-plugin",
                _ => "codex-plugin",
            };
            let out = opts.out.clone().unwrap_or_else(|| PathBuf::from(format!("{base}-{suffix}")));
            let description = format!("{} skill(s): {}", names.len(), names.join(", "));
            let (prefix, manifests): (String, Vec<(String, serde_json::Value)>) = match opts.target {
                Target::ClaudePlugin => (
                    format!("plugins/{base}/"),
                    vec![
                        (
                            ".claude-plugin/marketplace.json".into(),
                            serde_json::json!({
                                "name": base,
                                "owner": {"name": base},
                                "description": description,
                                "plugins": [{"name": base, "source": format!("./plugins/{base}"), "description": description}],
                            }),
                        ),
                        (
                            format!("plugins/{base}/.claude-plugin/plugin.json"),
                            serde_json::json!({"name": base, "version": "0.1.0", "description": description}),
                        ),
                    ],
                ),
                Target::AgentPlugin => (
                    String::new(),
                    vec![(
                        "plugin.json".into(),
                        serde_json::json!({"$schema": AGENT_PLUGINS_SCHEMA, "name": base, "version": "0.1.0", "description": description}),
                    )],
                ),
                // A one-plugin Codex marketplace, as Codex 0.171.0 reads one (see
                // `manifest::CODEX_MARKETPLACE`): the plugin under `plugins/<name>/`, its entry a
                // local source relative to the folder holding `.agents/`.
                _ => (
                    format!("plugins/{base}/"),
                    vec![
                        (
                            crate::package::manifest::CODEX_MARKETPLACE.into(),
                            serde_json::json!({
                                "name": base,
                                "interface": {"displayName": base},
                                "plugins": [{
                                    "name": base,
                                    "source": {"source": "local", "path": format!("./plugins/{base}")},
                                    "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"},
                                }],
                            }),
                        ),
                        (
                            format!("plugins/{base}/.codex-plugin/plugin.json"),
                            serde_json::json!({"name": base, "version": "0.1.0", "description": description, "skills": "./skills/"}),
                        ),
                    ],
                ),
            };
            let mut files: Vec<(String, Vec<u8>, bool)> = manifests
                .into_iter()
                .map(|(p, v)| {
                    let mut t = serde_json::to_string_pretty(&v).unwrap_or_default();
                    t.push('\n');
                    (p, t.into_bytes(), false)
                })
                .collect();
            for s in &skills {
                for f in digest::skill_files(&s.dir).map_err(io)? {
                    let bytes = digest::read_file(&f).map_err(io)?;
                    files.push((format!("{prefix}skills/{}/{}", s.name, f.rel), bytes, f.executable));
                }
            }
            let (n, b) = write_tree(&out, &files)?;
            Ok(packed(out, n, b))
        }
    }
}

/// The most files (`SKILL.md` included) and bytes of one skill every SEP-2640 host must accept.
pub const MCP_MAX_RESOURCES: usize = 512;
pub const MCP_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The media type a `skill://` resource is served with: `text/markdown` for `SKILL.md` (as
/// SEP-2640 says) and Markdown files, else by the file's extension.
pub fn mime_type(rel: &str) -> &'static str {
    let ext = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" => "text/plain",
        "py" => "text/x-python",
        "sh" | "bash" => "text/x-shellscript",
        "js" | "mjs" | "cjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// The skills as the MCP Skills Extension (SEP-2640, final; `specification/stable/skills.mdx` of
/// modelcontextprotocol/ext-skills) serves them: `skills` holds one `skills/list` entry per
/// skill (`uri` of its `SKILL.md`, `skill://<name>/SKILL.md`; `frontmatter`, the YAML as JSON,
/// every field the author wrote; `resources`, every file with its `uri`, `digest` as
/// `sha256:<64 lowercase hex>` of the raw bytes and `size` in bytes), and `resources` the same
/// files as `resources/list` shows them (`uri`, `name`, `mimeType`, `size`; `SKILL.md` with the
/// skill's `name` and `description` and `text/markdown`). A skill over the limits every host must
/// accept (512 files, 16 MiB) is refused. A server adds `resultType`, `ttlMs` and `cacheScope`.
fn mcp_resources(skills: &[Source]) -> Result<String, PackError> {
    use serde_json::{json, Value};
    let mut entries = vec![];
    let mut listed = vec![];
    let mut over = vec![];
    for s in skills {
        let skill = crate::read::read_skill(&s.dir);
        let frontmatter = skill.yaml.root.as_ref().map_or(Value::Null, crate::syntax::schema::to_json);
        let files = digest::entry(&s.dir, &s.name).map_err(io)?.files;
        let total: u64 = files.iter().map(|f| f.size).sum();
        if files.len() > MCP_MAX_RESOURCES || total > MCP_MAX_BYTES {
            over.push((
                skill.path(),
                format!(
                    "{} files, {total} bytes: over what SEP-2640 hosts must accept ({MCP_MAX_RESOURCES} files, {MCP_MAX_BYTES} bytes)",
                    files.len()
                ),
            ));
            continue;
        }
        let uri = |rel: &str| format!("skill://{}/{rel}", s.name);
        let resources: Vec<Value> =
            files.iter().map(|f| json!({"uri": uri(&f.path), "digest": f.digest, "size": f.size})).collect();
        for f in &files {
            let mut r = json!({"uri": uri(&f.path), "name": f.path, "mimeType": mime_type(&f.path), "size": f.size});
            if f.path == "SKILL.md" {
                r["name"] = frontmatter.get("name").cloned().unwrap_or_else(|| Value::String(s.name.clone()));
                if let Some(d) = frontmatter.get("description") {
                    r["description"] = d.clone();
                }
            }
            listed.push(r);
        }
        entries.push(json!({"uri": uri("SKILL.md"), "frontmatter": frontmatter, "resources": resources}));
    }
    if !over.is_empty() {
        return Err(PackError::Invalid(over));
    }
    let mut text = serde_json::to_string_pretty(&json!({
        "extension": "io.modelcontextprotocol/skills",
        "skills": entries,
        "resources": listed,
    }))
    .unwrap_or_default();
    text.push('\n');
    Ok(text)
}

/// Write `files` (relative path, bytes, executable) under `out`, which must not exist or be
/// empty; returns the count and bytes written.
fn write_tree(out: &Path, files: &[(String, Vec<u8>, bool)]) -> Result<(usize, u64), PackError> {
    if std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_some()) || out.is_file() {
        return Err(PackError::Exists(out.to_path_buf()));
    }
    let mut bytes = 0;
    for (rel, b, exec) in files {
        let p = out.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| PackError::Io(format!("{}: {e}", parent.display())))?;
        }
        std::fs::write(&p, b).map_err(|e| PackError::Io(format!("{}: {e}", p.display())))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = if *exec { 0o755 } else { 0o644 };
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).map_err(io)?;
        }
        #[cfg(not(unix))]
        let _ = exec;
        bytes += b.len() as u64;
    }
    Ok((files.len(), bytes))
}

#[cfg(test)]
fn digest_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(root: &Path, name: &str) -> PathBuf {
        let d = root.join(name);
        std::fs::create_dir_all(d.join("scripts")).unwrap();
        std::fs::write(d.join("SKILL.md"), format!("---\nname: {name}\ndescription: Packs {name}.\n---\nBody.\n"))
            .unwrap();
        std::fs::write(d.join("scripts/run.sh"), "echo hi\n").unwrap();
        d
    }

    #[test]
    fn a_skill_zips_byte_for_byte_the_same_twice_and_reads_back() {
        let t = tempfile::tempdir().unwrap();
        let d = skill(t.path(), "alpha");
        let a = zip_skill(&d, "alpha").unwrap();
        // Touch the files: times must not matter.
        std::fs::write(d.join("scripts/run.sh"), "echo hi\n").unwrap();
        assert_eq!(a, zip_skill(&d, "alpha").unwrap());
        let back = crate::package::archive::read_bytes(&a).unwrap();
        let names: Vec<&str> = back.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["alpha/SKILL.md", "alpha/scripts/run.sh"]);
        let entries: Vec<UploadEntry> =
            back.entries.iter().map(|e| UploadEntry { name: &e.name, is_dir: e.is_dir, size: e.size }).collect();
        assert!(upload::check(&entries).is_empty());
    }

    #[test]
    fn a_skill_the_upload_would_refuse_is_not_zipped() {
        let t = tempfile::tempdir().unwrap();
        let d = skill(t.path(), "many");
        for i in 0..200 {
            std::fs::write(d.join(format!("f{i}.txt")), "x").unwrap();
        }
        match zip_skill(&d, "many") {
            Err(e @ PackError::Refused { .. }) => {
                assert_eq!(e.to_string(), "Zip contains too many files (maximum 200)")
            }
            other => panic!("{other:?}"),
        }
    }

    /// The pack refuses what the upload refuses, at the same byte: 30 MiB of files pass its
    /// check, one byte more is refused with the upload's message (sparse files: nothing is read
    /// or zipped on either side).
    #[test]
    fn thirty_mib_is_the_last_size_packed() {
        let t = tempfile::tempdir().unwrap();
        let d = skill(t.path(), "big");
        let small: u64 = digest::skill_files(&d).unwrap().iter().map(|f| f.size).sum();
        let big = std::fs::File::create(d.join("big.bin")).unwrap();
        big.set_len(upload::MAX_UNCOMPRESSED_BYTES - small).unwrap();
        let files = digest::skill_files(&d).unwrap();
        assert_eq!(files.iter().map(|f| f.size).sum::<u64>(), 31_457_280);
        assert!(upload_findings("big", &files).is_empty());
        big.set_len(upload::MAX_UNCOMPRESSED_BYTES - small + 1).unwrap();
        match zip_skill(&d, "big") {
            Err(e @ PackError::Refused { .. }) => assert_eq!(e.to_string(), "Zip file uncompressed size exceeds 30MB"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn plugins_are_written_with_manifests_their_formats_accept() {
        let t = tempfile::tempdir().unwrap();
        let lib = t.path().join("My Lib");
        skill(&lib, "alpha");
        skill(&lib, "beta");
        for target in [Target::ClaudePlugin, Target::AgentPlugin, Target::CodexPlugin] {
            let out = t.path().join(format!("{target:?}"));
            let p = pack(&lib, &PackOptions { target, out: Some(out.clone()), name: None }).unwrap();
            assert_eq!(p.skills, ["alpha", "beta"]);
            let run = crate::package::check::check_package(&out, &crate::agents::SPEC, false).unwrap();
            // A pack knows no author: `claude plugin validate` recommends one (a warning).
            let errors: Vec<_> = run
                .skills
                .iter()
                .flat_map(|c| &c.diagnostics)
                .filter(|d| d.severity != Severity::Info && !d.message.starts_with("author: No author information"))
                .collect();
            assert!(errors.is_empty(), "{target:?}: {errors:#?}");
            assert!(run.skills.len() >= 3, "{target:?}: the manifest and both skills are reported");
        }
        assert!(matches!(
            pack(
                &lib,
                &PackOptions { target: Target::AgentPlugin, out: Some(t.path().join("AgentPlugin")), name: None }
            ),
            Err(PackError::Exists(_))
        ));
    }

    /// The SEP-2640 layout on a two-skill library: each skill's entry (`skill://<name>/SKILL.md`,
    /// the frontmatter verbatim, every file with `sha256:` digest and size), and the files as
    /// resources with their media types.
    #[test]
    fn mcp_resources_list_each_file_as_a_skill_resource() {
        let t = tempfile::tempdir().unwrap();
        let lib = t.path().join("lib");
        skill(&lib, "alpha");
        let b = skill(&lib, "beta");
        std::fs::write(
            b.join("SKILL.md"),
            "---\nname: beta\ndescription: Packs beta.\nlicense: MIT\nmetadata:\n  version: 2\n---\nBody.\n",
        )
        .unwrap();
        std::fs::write(b.join(".env"), "SECRET=1\n").unwrap();
        let out = t.path().join("skills-list.json");
        let p = pack(&lib, &PackOptions { target: Target::McpResources, out: Some(out.clone()), name: None }).unwrap();
        assert_eq!(p.skills, ["alpha", "beta"]);
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(v["extension"], "io.modelcontextprotocol/skills");
        let beta = &v["skills"][1];
        assert_eq!(beta["uri"], "skill://beta/SKILL.md");
        assert_eq!(
            beta["frontmatter"],
            serde_json::json!({"name": "beta", "description": "Packs beta.", "license": "MIT", "metadata": {"version": 2}})
        );
        let body = std::fs::read(b.join("SKILL.md")).unwrap();
        let files = beta["resources"].as_array().unwrap();
        assert_eq!(files.len(), 2, "no hidden file: {files:?}");
        assert_eq!(files[0]["uri"], "skill://beta/SKILL.md");
        assert_eq!(files[0]["size"], body.len());
        assert_eq!(files[0]["digest"], format!("sha256:{}", super::digest_hex(&body)));
        assert_eq!(files[1]["uri"], "skill://beta/scripts/run.sh");
        let listed = v["resources"].as_array().unwrap();
        assert_eq!(listed.len(), 4);
        assert_eq!(
            listed[2],
            serde_json::json!({"uri": "skill://beta/SKILL.md", "name": "beta", "description": "Packs beta.", "mimeType": "text/markdown", "size": body.len()})
        );
        assert_eq!(listed[3]["mimeType"], "text/x-shellscript");
    }

    #[test]
    fn names_are_kebab_case() {
        assert_eq!(kebab("My Lib_2"), "my-lib-2");
        assert_eq!(kebab("--"), "skills");
    }
}
