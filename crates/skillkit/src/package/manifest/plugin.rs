//! Plugin manifests: a Claude Code `.claude-plugin/plugin.json` (and a Copilot root
//! `plugin.json`), an Agent Plugins 1.0.0 `plugin.json` and its `mcp.json`, a Codex
//! `.codex-plugin/plugin.json`.

use super::checks::*;
use crate::lint::rules::package as r;
use crate::package::json::{Json, Kind};
use crate::package::upload::Finding;
use std::path::Path;

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

/// Component fields of a Claude Code plugin manifest that hold paths.
pub(super) const CLAUDE_COMPONENTS: [&str; 7] =
    ["commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers"];
/// Component fields of a Codex plugin manifest that hold paths.
pub(super) const CODEX_COMPONENTS: [&str; 4] = ["skills", "mcpServers", "apps", "hooks"];

/// `claude plugin validate`'s checks of a plugin's `name` (a string).
pub(super) fn claude_plugin_name(name: &Json, out: &mut Vec<Located>) -> bool {
    let Some(s) = name.as_str() else { return true };
    let meta = &r::plugin_name_format::PluginNameFormat::META;
    let help = "use lowercase letters, digits and single hyphens (`my-plugin`)";
    let error = if s.is_empty() {
        Some("name: Plugin name cannot be empty".to_string())
    } else if s.contains(' ') {
        Some("name: Plugin name cannot contain spaces. Use kebab-case (e.g., \"my-plugin\")".to_string())
    } else if s.chars().any(|c| {
        c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }) {
        Some("name: Plugin name cannot contain control or bidirectional-formatting characters".to_string())
    } else {
        None
    };
    if let Some(message) = error {
        at(out, name.span, Finding::new(meta, message, help));
        return false;
    }
    if !is_kebab(s) {
        let mut f = Finding::new(
            meta,
            format!("name: Plugin name \"{s}\" is not kebab-case. Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case (lowercase letters, digits, and hyphens only, e.g., \"my-plugin\")."),
            help,
        );
        f.severity = crate::Severity::Warning;
        at(out, name.span, f);
    }
    true
}

pub(super) fn claude_plugin(v: &Json, root: &Path, out: &mut Vec<Located>, kind: ManifestKind) {
    let _ = kind;
    let before = out.len();
    let mut schema_ok = true;
    if let Some(name) = required_name(v, "", out) {
        schema_ok &= claude_plugin_name(name, out);
    }
    for f in ["version", "description", "homepage", "repository", "license"] {
        string_field(v, "", f, out);
    }
    if let Some(a) = v.get_last("author") {
        if !matches!(a.value.kind, Kind::Object(_)) {
            at(out, a.value.span, type_error("author", "object", &a.value));
        } else if let Some(n) = string_field(&a.value, "author", "name", out) {
            if n.as_str() == Some("") {
                at(
                    out,
                    n.span,
                    Finding::new(
                        &r::manifest_field_type::ManifestFieldType::META,
                        "author.name: Author name cannot be empty",
                        "name the author, or drop `author`",
                    ),
                );
            }
        }
    }
    keywords(v, out);
    schema_ok &= out[before..].iter().all(|l| l.finding.severity != crate::Severity::Error);
    schema_ok &= claude_components(v, root, out);
    unknown_fields(v, "", &CLAUDE_PLUGIN_KEYS, true, out);
    // The recommendations, once the manifest passes its schema.
    if schema_ok {
        if v.get_last("version").is_none() {
            out.push(recommended(
                v,
                "version: No version specified. Consider adding a version following semver (e.g., \"1.0.0\")".into(),
                "version",
            ));
        }
        if v.get_last("description").is_none() {
            out.push(recommended(v, "description: No description provided. Adding a description helps users understand what your plugin does".into(), "description"));
        }
        if v.get_last("author").is_none() {
            out.push(recommended(
                v,
                "author: No author information provided. Consider adding author details for plugin attribution".into(),
                "author",
            ));
        }
    }
}

/// A Claude Code plugin's component paths, as `claude plugin validate` judges them: the schema
/// (`./`), then each path: no `..`, present, and for `skills` a folder. Returns whether the
/// schema part passed.
pub(super) fn claude_components(v: &Json, root: &Path, out: &mut Vec<Located>) -> bool {
    let mut ok = true;
    for field in CLAUDE_COMPONENTS {
        let Some(m) = v.get_last(field) else { continue };
        let array = matches!(m.value.kind, Kind::Array(_));
        let paths: Vec<&Json> = match &m.value.kind {
            Kind::String(_) => vec![&m.value],
            Kind::Array(items) => items.iter().collect(),
            // Inline configuration (hooks, MCP servers): no path to judge.
            _ => vec![],
        };
        // Fields that also take inline configuration: a union, whose error is zod's bare one.
        let union = matches!(field, "commands" | "hooks" | "mcpServers" | "lspServers");
        for (i, p) in paths.iter().enumerate() {
            let label = if array { format!("{field}.{i}") } else { field.to_string() };
            let Some(s) = p.as_str() else {
                if array {
                    ok = false;
                    at(out, p.span, type_error(&label, "string", p));
                }
                continue;
            };
            let indexed = format!("{field}[{i}]");
            let shown = if field == "skills" || array { indexed.clone() } else { field.to_string() };
            if !s.starts_with("./") {
                ok = false;
                let message = if union {
                    format!("{label}: Invalid input")
                } else {
                    format!("{label}: Invalid string: must start with \"./\"")
                };
                at(
                    out,
                    p.span,
                    Finding::new(
                        &r::component_path_not_relative::ComponentPathNotRelative::META,
                        message,
                        format!("write it `./{}`", s.trim_start_matches('/')),
                    ),
                );
            }
            if has_parent(s) {
                at(
                    out,
                    p.span,
                    Finding::new(
                        &r::component_path_outside::ComponentPathOutside::META,
                        format!("{indexed}: Path contains \"..\" which could be a path traversal attempt: {s}"),
                        "installs copy the plugin's folder alone: keep every path inside it",
                    ),
                );
                continue;
            }
            if Path::new(s).is_absolute() {
                continue;
            }
            if let Some(f) = outside(root, s, &shown) {
                at(out, p.span, f);
                continue;
            }
            let target = root.join(s);
            let missing_meta = &r::component_path_missing::ComponentPathMissing::META;
            if std::fs::symlink_metadata(&target).is_err() {
                at(
                    out,
                    p.span,
                    Finding::new(
                        missing_meta,
                        format!("{shown}: Path not found: {s}. The runtime loader will report this as a load failure."),
                        "point the path at a file or folder of the plugin",
                    ),
                );
            } else if field == "skills" && target.is_file() {
                let dir = s.rsplit_once('/').map_or(".", |(d, _)| d);
                let to = if dir == "." || dir.is_empty() {
                    " — point to the plugin root '.' instead".to_string()
                } else {
                    format!(" — point to the parent directory '{dir}' instead")
                };
                at(
                    out,
                    p.span,
                    Finding::new(
                        missing_meta,
                        format!(
                            "{shown}: Path is a file; skills entries must be directories containing SKILL.md{to}: {s}"
                        ),
                        "list the skill's folder, not its SKILL.md",
                    ),
                );
            }
        }
    }
    ok
}

pub(super) fn codex_plugin(v: &Json, root: &Path, out: &mut Vec<Located>) {
    if let Some(name) = required_name(v, "", out) {
        name_format(name, is_kebab, "kebab-case", crate::Severity::Error, out);
    }
    for f in ["version", "description"] {
        string_field(v, "", f, out);
    }
    keywords(v, out);
    components(v, root, &CODEX_COMPONENTS, out);
}

pub(super) fn agent_plugin(v: &Json, out: &mut Vec<Located>) {
    match v.get_last("$schema") {
        None => out.push(missing(v, "", "$schema", "string")),
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
pub(super) fn agent_mcp(v: &Json, root: &Path, out: &mut Vec<Located>) {
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
