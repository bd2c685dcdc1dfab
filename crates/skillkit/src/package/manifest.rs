//! Package manifests read and judged: a Claude Code `plugin.json` and `marketplace.json`, an
//! Agent Plugins 1.0.0 `plugin.json`, a Codex `.codex-plugin/plugin.json` and a Copilot root
//! `plugin.json`. Each is read as the skill files are (a regular file, never a FIFO, at most
//! [`MAX_MANIFEST_BYTES`], not through a symlink leading out of its package), parsed with spans
//! ([`crate::package::json`]), and each finding points at the JSON node it is about.

use crate::lint::rules::package as r;
use crate::package::json::{self, Json, Kind};
use crate::package::upload::Finding;
use crate::syntax::text::Span;
use std::path::{Component, Path, PathBuf};

/// The largest manifest read.
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

/// The `$schema` of an Agent Plugins 1.0.0 manifest.
pub const AGENT_PLUGINS_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/// The top-level fields of an Agent Plugins 1.0.0 manifest (its schema is closed).
pub const AGENT_PLUGINS_FIELDS: [&str; 10] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "extensions",
];

/// Which manifest a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ManifestKind {
    /// `.claude-plugin/plugin.json`.
    ClaudePlugin,
    /// `.claude-plugin/marketplace.json`.
    Marketplace,
    /// A root `plugin.json` whose `$schema` is an Agent Plugins one.
    AgentPlugin,
    /// A root `plugin.json` without it: GitHub Copilot's (it wins over `.claude-plugin/`).
    CopilotPlugin,
    /// `.codex-plugin/plugin.json`.
    CodexPlugin,
    /// An Agent Plugins package's `mcp.json` (its MCP servers).
    AgentMcp,
}

impl ManifestKind {
    pub fn title(self) -> &'static str {
        match self {
            ManifestKind::ClaudePlugin => "Claude Code plugin",
            ManifestKind::Marketplace => "Claude Code marketplace",
            ManifestKind::AgentPlugin => "Agent Plugins 1.0 package",
            ManifestKind::CopilotPlugin => "GitHub Copilot plugin",
            ManifestKind::CodexPlugin => "Codex plugin",
            ManifestKind::AgentMcp => "Agent Plugins MCP servers",
        }
    }
}

/// A finding at a place in the manifest's text.
#[derive(Clone, Debug)]
pub struct Located {
    pub finding: Finding,
    pub span: Span,
}

/// A manifest as read.
#[derive(Clone, Debug)]
pub struct Manifest {
    pub kind: ManifestKind,
    pub path: PathBuf,
    /// The bytes, when read (the report shows them).
    pub bytes: Vec<u8>,
    pub json: Option<Json>,
    pub findings: Vec<Located>,
}

impl Manifest {
    /// The manifest's `name`, when it is a string.
    pub fn name(&self) -> Option<&str> {
        self.json.as_ref()?.get_last("name")?.value.as_str()
    }
}

fn at(findings: &mut Vec<Located>, span: Span, finding: Finding) {
    findings.push(Located { finding, span });
}

/// Read the manifest `rel` of the package at `root` as `kind`; `None` when there is none.
pub fn read(root: &Path, rel: &str, kind: ManifestKind) -> Option<Manifest> {
    let path = root.join(rel);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    let mut m = Manifest { kind, path: path.clone(), bytes: vec![], json: None, findings: vec![] };
    let unread = |m: &mut Manifest, why: String| {
        let f = Finding::new(
            &r::manifest_invalid_json::ManifestInvalidJson::META,
            format!("{}: {why}", rel),
            "the agent drops the package when its manifest cannot be read",
        );
        m.findings.push(Located { finding: f, span: Span::empty(0) });
    };
    if meta.file_type().is_symlink() {
        let inside = std::fs::canonicalize(&path)
            .ok()
            .zip(std::fs::canonicalize(root).ok())
            .is_some_and(|(real, root)| real.starts_with(root));
        if !inside {
            unread(&mut m, "a symlink leading outside the package: not read".into());
            return Some(m);
        }
    }
    match crate::files::read(&path, MAX_MANIFEST_BYTES) {
        Err(e) => unread(&mut m, crate::files::reason(&e)),
        Ok(bytes) => {
            m.bytes = bytes;
            match std::str::from_utf8(&m.bytes) {
                Err(e) => {
                    let at_byte = e.valid_up_to();
                    let f = Finding::new(
                        &r::manifest_invalid_json::ManifestInvalidJson::META,
                        format!("not UTF-8 (byte {at_byte})"),
                        "JSON is UTF-8 text",
                    );
                    // The report shows the text decoded lossily: U+FFFD (3 bytes) stands there.
                    m.findings.push(Located { finding: f, span: Span::new(at_byte, at_byte + 3) });
                }
                Ok(text) => match json::parse(text) {
                    Err(e) => {
                        let f = Finding::new(
                            &r::manifest_invalid_json::ManifestInvalidJson::META,
                            format!("invalid JSON: {}", e.message),
                            "JSON takes no comments and no trailing commas",
                        );
                        m.findings.push(Located { finding: f, span: e.span });
                    }
                    Ok(v) => {
                        let mut findings = vec![];
                        validate(kind, &v, root, &mut findings);
                        m.findings = findings;
                        m.json = Some(v);
                    }
                },
            }
        }
    }
    Some(m)
}

/// Judge a parsed manifest of `kind`, whose package is at `root`.
pub fn validate(kind: ManifestKind, v: &Json, root: &Path, out: &mut Vec<Located>) {
    if !matches!(v.kind, Kind::Object(_)) {
        at(out, v.span, type_error("", "object", v));
        return;
    }
    match kind {
        ManifestKind::ClaudePlugin | ManifestKind::CopilotPlugin => {
            claude_plugin(v, root, out, kind);
        }
        ManifestKind::CodexPlugin => codex_plugin(v, root, out),
        ManifestKind::AgentPlugin => agent_plugin(v, out),
        ManifestKind::Marketplace => marketplace(v, root, out),
        ManifestKind::AgentMcp => agent_mcp(v, root, out),
    }
}

fn type_error(path: &str, want: &str, got: &Json) -> Finding {
    let path = if path.is_empty() { "(root)" } else { path };
    Finding::new(
        &r::manifest_field_type::ManifestFieldType::META,
        format!("{path}: expected {want}, received {}", got.type_name()),
        format!("`{path}` takes {}", article(want)),
    )
}

fn article(want: &str) -> String {
    if want.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {want}")
    } else {
        format!("a {want}")
    }
}

fn missing(v: &Json, path: &str, field: &str) -> Located {
    Located {
        finding: Finding::new(
            &r::manifest_field_missing::ManifestFieldMissing::META,
            format!("{}: Required", if path.is_empty() { field.to_string() } else { format!("{path}.{field}") }),
            format!("add `\"{field}\"`"),
        ),
        // At the object's opening brace.
        span: Span::new(v.span.start, v.span.start + 1),
    }
}

/// `field` of object `v`: a string (or absent); reports other types.
fn string_field<'a>(v: &'a Json, path: &str, field: &str, out: &mut Vec<Located>) -> Option<&'a Json> {
    let m = v.get_last(field)?;
    if m.value.as_str().is_none() {
        at(out, m.value.span, type_error(&join(path, field), "string", &m.value));
        return None;
    }
    Some(&m.value)
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

/// The required string `name`; reports it missing or of another type.
fn required_name<'a>(v: &'a Json, path: &str, out: &mut Vec<Located>) -> Option<&'a Json> {
    if v.get_last("name").is_none() {
        out.push(missing(v, path, "name"));
        return None;
    }
    string_field(v, path, "name", out)
}

fn keywords(v: &Json, out: &mut Vec<Located>) {
    if let Some(k) = v.get_last("keywords") {
        if !matches!(k.value.kind, Kind::Array(_)) {
            at(out, k.value.span, type_error("keywords", "array", &k.value));
        }
        for (i, item) in k.value.items().iter().enumerate() {
            if item.as_str().is_none() {
                at(out, item.span, type_error(&format!("keywords.{i}"), "string", item));
            }
        }
    }
}

/// Kebab-case: lowercase letters and digits in words joined by single hyphens.
pub fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// Agent Plugins 1.0.0 §5.5: 1–64 of `a-z0-9-.`, alphanumeric ends, no `--` or `..`.
pub fn is_agent_plugin_name(name: &str) -> bool {
    let b = name.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    (1..=64).contains(&b.len())
        && b.iter().all(|c| alnum(c) || *c == b'-' || *c == b'.')
        && b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && !name.contains("--")
        && !name.contains("..")
}

fn name_format(name: &Json, ok: fn(&str) -> bool, rule: &str, severity: crate::Severity, out: &mut Vec<Located>) {
    let Some(s) = name.as_str() else { return };
    if !ok(s) {
        let mut f = Finding::new(
            &r::plugin_name_format::PluginNameFormat::META,
            format!("plugin name `{s}` is not {rule}"),
            "use lowercase letters, digits and single hyphens (`my-plugin`)",
        );
        f.severity = severity;
        at(out, name.span, f);
    }
}

/// Component fields of a Claude Code plugin manifest that hold paths.
const CLAUDE_COMPONENTS: [&str; 7] =
    ["commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers"];
/// Component fields of a Codex plugin manifest that hold paths.
const CODEX_COMPONENTS: [&str; 4] = ["skills", "mcpServers", "apps", "hooks"];

fn claude_plugin(v: &Json, root: &Path, out: &mut Vec<Located>, kind: ManifestKind) {
    if let Some(name) = required_name(v, "", out) {
        let sev = crate::Severity::Warning;
        let _ = kind;
        name_format(name, is_kebab, "kebab-case", sev, out);
    }
    for f in ["version", "description", "homepage", "repository", "license"] {
        string_field(v, "", f, out);
    }
    if let Some(a) = v.get_last("author") {
        if !matches!(a.value.kind, Kind::Object(_)) {
            at(out, a.value.span, type_error("author", "object", &a.value));
        } else {
            string_field(&a.value, "author", "name", out);
        }
    }
    keywords(v, out);
    components(v, root, &CLAUDE_COMPONENTS, out);
}

fn codex_plugin(v: &Json, root: &Path, out: &mut Vec<Located>) {
    if let Some(name) = required_name(v, "", out) {
        name_format(name, is_kebab, "kebab-case", crate::Severity::Error, out);
    }
    for f in ["version", "description"] {
        string_field(v, "", f, out);
    }
    keywords(v, out);
    components(v, root, &CODEX_COMPONENTS, out);
}

fn agent_plugin(v: &Json, out: &mut Vec<Located>) {
    match v.get_last("$schema") {
        None => out.push(missing(v, "", "$schema")),
        Some(m) => match m.value.as_str() {
            None => at(out, m.value.span, type_error("$schema", "string", &m.value)),
            Some(s) if s != AGENT_PLUGINS_SCHEMA => at(
                out,
                m.value.span,
                Finding::new(
                    &r::manifest_field_type::ManifestFieldType::META,
                    format!("$schema: unsupported Agent Plugins version `{s}`"),
                    format!("Agent Plugins 1.0.0's is `{AGENT_PLUGINS_SCHEMA}`"),
                ),
            ),
            Some(_) => {}
        },
    }
    if let Some(name) = required_name(v, "", out) {
        name_format(
            name,
            is_agent_plugin_name,
            "1-64 of `a-z0-9-.`, alphanumeric at both ends, without `--` or `..`",
            crate::Severity::Error,
            out,
        );
    }
    for f in ["version", "description", "homepage", "repository", "license"] {
        string_field(v, "", f, out);
    }
    if let Some(a) = v.get_last("author") {
        if !matches!(a.value.kind, Kind::Object(_)) {
            at(out, a.value.span, type_error("author", "object", &a.value));
        }
        for m in a.value.members() {
            if !["name", "email", "url"].contains(&m.key.as_str()) {
                at(
                    out,
                    m.key_span,
                    Finding::new(
                        &r::manifest_field_type::ManifestFieldType::META,
                        format!("author.{}: not allowed (an author has only `name`, `email` and `url`)", m.key),
                        "remove the key",
                    ),
                );
            } else if m.value.as_str().is_none() {
                at(out, m.value.span, type_error(&format!("author.{}", m.key), "string", &m.value));
            }
        }
    }
    keywords(v, out);
    if let Some(e) = v.get_last("extensions") {
        if !matches!(e.value.kind, Kind::Object(_)) {
            at(out, e.value.span, type_error("extensions", "object", &e.value));
        }
    }
    for m in v.members() {
        if !AGENT_PLUGINS_FIELDS.contains(&m.key.as_str()) {
            at(
                out,
                m.key_span,
                Finding::new(
                    &r::manifest_unknown_field::ManifestUnknownField::META,
                    format!("unknown field `{}`: the Agent Plugins 1.0.0 manifest is closed; clients ignore it", m.key),
                    "client-specific data belongs under `extensions.\"<reverse.domain>\"`",
                ),
            );
        }
    }
}

/// Agent Plugins 1.0.0 §4.1, §7.2: `mcpServers` is an object of servers; a server's `cwd` is a
/// plugin-relative path (`./…`), and its `command`, when it is a path (`./…`, `../…`), stays
/// inside the plugin.
fn agent_mcp(v: &Json, root: &Path, out: &mut Vec<Located>) {
    let Some(servers) = v.get_last("mcpServers") else { return };
    if !matches!(servers.value.kind, Kind::Object(_)) {
        at(out, servers.value.span, type_error("mcpServers", "object", &servers.value));
        return;
    }
    for server in servers.value.members() {
        let path = format!("mcpServers.{}", server.key);
        if !matches!(server.value.kind, Kind::Object(_)) {
            at(out, server.value.span, type_error(&path, "object", &server.value));
            continue;
        }
        if let Some(cwd) = string_field(&server.value, &path, "cwd", out) {
            let c = cwd.as_str().unwrap_or_default();
            if !c.starts_with("./") {
                at(
                    out,
                    cwd.span,
                    Finding::new(
                        &r::component_path_not_relative::ComponentPathNotRelative::META,
                        format!("{path}.cwd: `{c}` does not start with `./`"),
                        format!("write it `./{}`", c.trim_start_matches('/')),
                    ),
                );
            } else if let Some(f) = outside(root, c, &format!("{path}.cwd")) {
                at(out, cwd.span, f);
            }
        }
        if let Some(cmd) = string_field(&server.value, &path, "command", out) {
            let c = cmd.as_str().unwrap_or_default();
            if c.starts_with("./") || c.starts_with("../") || c.starts_with('/') {
                if let Some(f) = outside(root, c, &format!("{path}.command")) {
                    at(out, cmd.span, f);
                }
            }
        }
    }
}

fn marketplace(v: &Json, root: &Path, out: &mut Vec<Located>) {
    required_name(v, "", out);
    match v.get_last("owner") {
        None => out.push(missing(v, "", "owner")),
        Some(o) if !matches!(o.value.kind, Kind::Object(_)) => {
            at(out, o.value.span, type_error("owner", "object", &o.value))
        }
        Some(o) => {
            required_name(&o.value, "owner", out);
        }
    }
    let plugins = match v.get_last("plugins") {
        None => {
            out.push(missing(v, "", "plugins"));
            return;
        }
        Some(p) if !matches!(p.value.kind, Kind::Array(_)) => {
            at(out, p.value.span, type_error("plugins", "array", &p.value));
            return;
        }
        Some(p) => p.value.items(),
    };
    for (i, p) in plugins.iter().enumerate() {
        let path = format!("plugins.{i}");
        if !matches!(p.kind, Kind::Object(_)) {
            at(out, p.span, type_error(&path, "object", p));
            continue;
        }
        required_name(p, &path, out);
        match p.get_last("source") {
            None => out.push(missing(p, &path, "source")),
            Some(s) => match &s.value.kind {
                Kind::String(src) => relative_source(src, s.value.span, root, &format!("{path}.source"), out),
                Kind::Object(_) => {
                    let ok = match s.value.get_last("source").and_then(|k| k.value.as_str()) {
                        Some("github") => s.value.get_last("repo").is_some_and(|r| r.value.as_str().is_some()),
                        Some("url" | "git") => s.value.get_last("url").is_some_and(|r| r.value.as_str().is_some()),
                        Some(_) => true,
                        None => false,
                    };
                    if !ok {
                        at(out, s.value.span, invalid_source(&path));
                    }
                }
                _ => at(out, s.value.span, invalid_source(&path)),
            },
        }
    }
}

fn invalid_source(path: &str) -> Finding {
    Finding::new(
        &r::manifest_field_type::ManifestFieldType::META,
        format!("{path}.source: Invalid input"),
        "a source is a relative path (`./plugins/x`) or an object such as `{\"source\": \"github\", \"repo\": \"owner/name\"}`",
    )
}

/// A marketplace entry's relative source: `./`-relative, inside the marketplace, a folder.
fn relative_source(src: &str, span: Span, root: &Path, path: &str, out: &mut Vec<Located>) {
    if !src.starts_with("./") {
        at(
            out,
            span,
            Finding::new(
                &r::component_path_not_relative::ComponentPathNotRelative::META,
                format!("{path}: `{src}` does not start with `./`"),
                format!("write it `./{}`", src.trim_start_matches('/')),
            ),
        );
        return;
    }
    if let Some(f) = outside(root, src, path) {
        at(out, span, f);
        return;
    }
    if !root.join(src).is_dir() {
        at(
            out,
            span,
            Finding::new(
                &r::marketplace_source_missing::MarketplaceSourceMissing::META,
                format!("{path}: `{src}` is not a folder of the marketplace"),
                "point `source` at the plugin's folder",
            ),
        );
    }
}

/// Whether `rel`, resolved against `root`, leads outside it (by `..` or by a symlink).
fn outside(root: &Path, rel: &str, path: &str) -> Option<Finding> {
    let mut depth: i32 = 0;
    let mut climbs = false;
    for c in Path::new(rel).components() {
        match c {
            Component::ParentDir => {
                depth -= 1;
                climbs |= depth < 0;
            }
            Component::Normal(_) => depth += 1,
            Component::RootDir | Component::Prefix(_) => climbs = true,
            Component::CurDir => {}
        }
    }
    let escapes = climbs || {
        let joined = root.join(rel);
        match (std::fs::canonicalize(&joined), std::fs::canonicalize(root)) {
            (Ok(real), Ok(root)) => !real.starts_with(root),
            _ => false,
        }
    };
    escapes.then(|| {
        Finding::new(
            &r::component_path_outside::ComponentPathOutside::META,
            format!("{path}: `{rel}` leads outside the package"),
            "installs copy the package's folder alone: keep every path inside it",
        )
    })
}

fn components(v: &Json, root: &Path, fields: &[&str], out: &mut Vec<Located>) {
    for field in fields {
        let Some(m) = v.get_last(field) else { continue };
        let paths: Vec<&Json> = match &m.value.kind {
            Kind::String(_) => vec![&m.value],
            Kind::Array(items) => items.iter().collect(),
            // Inline configuration (hooks, MCP servers): no path to judge.
            _ => vec![],
        };
        for (i, p) in paths.iter().enumerate() {
            let label = if matches!(m.value.kind, Kind::Array(_)) { format!("{field}.{i}") } else { field.to_string() };
            let Some(s) = p.as_str() else {
                if matches!(m.value.kind, Kind::Array(_)) {
                    at(out, p.span, type_error(&label, "string", p));
                }
                continue;
            };
            if !s.starts_with("./") {
                at(
                    out,
                    p.span,
                    Finding::new(
                        &r::component_path_not_relative::ComponentPathNotRelative::META,
                        format!("{label}: `{s}` does not start with `./`"),
                        format!("write it `./{}`", s.trim_start_matches('/')),
                    ),
                );
            } else if let Some(f) = outside(root, s, &label) {
                at(out, p.span, f);
            }
        }
    }
}

/// The value of `key` in a YAML mapping's `entries`.
fn get<'a>(entries: &'a [crate::syntax::yaml::Entry], key: &str) -> Option<&'a crate::syntax::yaml::Node> {
    entries.iter().find(|e| e.key.as_str() == Some(key)).map(|e| &e.value)
}

/// The findings on a skill's Codex metadata (`agents/openai.yaml`, `text`) whose skill folder is
/// `skill_dir`, each at its YAML node.
pub fn codex_metadata(text: &str, skill_dir: &Path) -> Vec<Located> {
    use crate::syntax::yaml::{self, NodeKind};
    let meta = &r::codex_skill_metadata::CodexSkillMetadata::META;
    let mut out = vec![];
    let y = yaml::parse(text, 0);
    if let Some(e) = &y.error {
        at(
            &mut out,
            e.span,
            Finding::new(
                meta,
                format!("agents/openai.yaml: invalid YAML: {}", e.message),
                "Codex drops metadata it cannot read",
            ),
        );
        return out;
    }
    let Some(root) = &y.root else { return out };
    let Some(entries) = root.entries() else {
        at(
            &mut out,
            root.span,
            Finding::new(
                meta,
                format!("agents/openai.yaml: expected a mapping, found {}", root.kind_name()),
                "the file is a mapping of `interface` and `policy`",
            ),
        );
        return out;
    };
    if let Some(interface) = get(entries, "interface").and_then(|n| n.entries()) {
        for key in ["icon_small", "icon_large"] {
            let Some(node) = get(interface, key) else { continue };
            let Some(path) = node.as_str() else { continue };
            let rel = path.trim_start_matches("./");
            let inside = !Path::new(rel).components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
            if !inside || !skill_dir.join(rel).is_file() {
                at(
                    &mut out,
                    node.span,
                    Finding::new(
                        meta,
                        format!("interface.{key}: `{path}` is not a file of the skill"),
                        "Codex shows a broken entry for a dangling icon",
                    ),
                );
            }
        }
    }
    if let Some(policy) = get(entries, "policy").and_then(|n| n.entries()) {
        if let Some(node) = get(policy, "allow_implicit_invocation") {
            let boolean = matches!(&node.kind, NodeKind::Scalar { value, .. } if node.is_plain() && matches!(value.as_str(), "true" | "false"));
            if !boolean {
                at(
                    &mut out,
                    node.span,
                    Finding::new(
                        meta,
                        "policy.allow_implicit_invocation: expected `true` or `false`",
                        "write the boolean unquoted",
                    ),
                );
            }
        }
    }
    out
}
