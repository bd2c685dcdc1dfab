//! Marketplaces: a Claude Code `.claude-plugin/marketplace.json` (its name judged as `claude
//! plugin validate` judges it, each plugin entry and its source) and a Codex
//! `.agents/plugins/marketplace.json`.

use super::checks::*;
use crate::lint::rules::package as r;
use crate::package::json::{self, Json, Kind};
use crate::package::upload::Finding;
use crate::syntax::text::Span;
use std::path::Path;

/// Where Codex reads a marketplace, relative to its root (a repository's, or the home folder).
pub const CODEX_MARKETPLACE: &str = ".agents/plugins/marketplace.json";

/// Codex's marketplace (`.agents/plugins/marketplace.json`), as Codex 0.171.0 reads it
/// (`codex-rs/core/src/plugins/marketplace.rs` of openai/codex: `RawMarketplaceManifest` and
/// `resolve_plugin_source_path`; its strings are in the 0.171.0 binary): `name` (a string) and
/// `plugins` (an array) required, `interface.displayName` optional; each plugin `name` and
/// `source` required, `source` an object tagged by its own `source` (`local`, with `path`:
/// starting with `./`, not empty after it, only plain folder names, resolved against the
/// marketplace's root, the folder holding `.agents/`), `policy.installation` one of
/// `NOT_AVAILABLE`, `AVAILABLE` (the default), `INSTALLED_BY_DEFAULT`, `policy.authentication`
/// `ON_INSTALL` (the default) or `ON_USE`, `category` a string. Other keys are ignored. Any
/// error makes Codex skip the whole marketplace ("skipping marketplace that failed to load").
pub(super) fn codex_marketplace(v: &Json, root: &Path, out: &mut Vec<Located>) {
    required_name(v, "", out);
    if let Some(i) = v.get_last("interface") {
        if !matches!(i.value.kind, Kind::Object(_)) {
            at(out, i.value.span, type_error("interface", "object", &i.value));
        } else {
            string_field(&i.value, "interface", "displayName", out);
        }
    }
    let plugins = match v.get_last("plugins") {
        None => return out.push(missing(v, "", "plugins", "array")),
        Some(p) if !matches!(p.value.kind, Kind::Array(_)) => {
            return at(out, p.value.span, type_error("plugins", "array", &p.value))
        }
        Some(p) => p,
    };
    for (i, p) in plugins.value.items().iter().enumerate() {
        let path = format!("plugins.{i}");
        if !matches!(p.kind, Kind::Object(_)) {
            at(out, p.span, type_error(&path, "object", p));
            continue;
        }
        required_name(p, &path, out);
        string_field(p, &path, "category", out);
        if let Some(policy) = p.get_last("policy") {
            if !matches!(policy.value.kind, Kind::Object(_)) {
                at(out, policy.value.span, type_error(&format!("{path}.policy"), "object", &policy.value));
            } else {
                for (field, allowed) in [
                    ("installation", &["NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"][..]),
                    ("authentication", &["ON_INSTALL", "ON_USE"][..]),
                ] {
                    let Some(value) = string_field(&policy.value, &format!("{path}.policy"), field, out) else {
                        continue;
                    };
                    let given = value.as_str().unwrap_or_default();
                    if !allowed.contains(&given) {
                        let list = allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
                        at(
                            out,
                            value.span,
                            Finding::new(
                                &r::manifest_field_type::ManifestFieldType::META,
                                format!("{path}.policy.{field}: unknown variant `{given}`, expected one of {list}"),
                                format!("Codex takes {list}"),
                            ),
                        );
                    }
                }
            }
        }
        let Some(source) = p.get_last("source") else {
            out.push(missing(p, &path, "source", "object"));
            continue;
        };
        let source = &source.value;
        if !matches!(source.kind, Kind::Object(_)) {
            at(out, source.span, type_error(&format!("{path}.source"), "object", source));
            continue;
        }
        let Some(kind) = string_field(source, &format!("{path}.source"), "source", out) else {
            if source.get_last("source").is_none() {
                out.push(missing(source, &format!("{path}.source"), "source", "string"));
            }
            continue;
        };
        if kind.as_str() != Some("local") {
            // Codex 0.171.0 knows other sources too (git); only local ones are checked here.
            continue;
        }
        let Some(rel) = string_field(source, &format!("{path}.source"), "path", out) else {
            if source.get_last("path").is_none() {
                out.push(missing(source, &format!("{path}.source"), "path", "string"));
            }
            continue;
        };
        let text = rel.as_str().unwrap_or_default();
        let bad = |message: &str, rule: &'static crate::lint::rules::RuleMeta| {
            Finding::new(
                rule,
                format!("{path}.source.path: {message}"),
                "write `./` and the plugin's folder under the marketplace's root, as `./plugins/notes`",
            )
        };
        let Some(inner) = text.strip_prefix("./") else {
            at(
                out,
                rel.span,
                bad(
                    "local plugin source path must start with `./`",
                    &r::component_path_not_relative::ComponentPathNotRelative::META,
                ),
            );
            continue;
        };
        if inner.is_empty() {
            at(
                out,
                rel.span,
                bad(
                    "local plugin source path must not be empty",
                    &r::component_path_not_relative::ComponentPathNotRelative::META,
                ),
            );
            continue;
        }
        // Codex wants every component of `Path::new(inner)` a plain name: no root, no `..`, no
        // leading `.` (a `.` further on is dropped by the path's own normalisation).
        if inner.starts_with('/') || inner.split('/').next() == Some(".") || inner.split('/').any(|c| c == "..") {
            at(
                out,
                rel.span,
                bad(
                    "local plugin source path must stay within the marketplace root",
                    &r::component_path_outside::ComponentPathOutside::META,
                ),
            );
            continue;
        }
        if !root.join(inner).is_dir() {
            at(
                out,
                rel.span,
                Finding::new(
                    &r::marketplace_source_missing::MarketplaceSourceMissing::META,
                    format!("{path}.source.path: no plugin folder at `{text}`: Codex cannot install it"),
                    "point `path` at the plugin's folder, relative to the folder holding `.agents/`",
                ),
            );
        }
    }
}

/// The marketplace names Claude Code 2.1.332 keeps for Anthropic's own marketplaces (its
/// bundle's `J6`: the official names, the community ones, the plugin directory's). They pass
/// `claude plugin validate` (adding one from a source outside Anthropic's GitHub organization is
/// refused later, at `claude plugin marketplace add`).
pub const OFFICIAL_MARKETPLACES: &[&str] = &[
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "life-sciences",
    "knowledge-work-plugins",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "first-party-plugins",
    "claude-tag-plugins",
    "claude-community",
    "claude-plugins-community",
    "healthcare",
    "anthropic-plugin-directory",
    "claude-plugin-directory",
];

/// The marketplace names Claude Code keeps for its own kinds of plugins, and what for (its
/// bundle's `Ke`): `Marketplace name "{name}" is reserved for {what}`.
pub const RESERVED_MARKETPLACES: &[(&str, &str)] = &[
    ("inline", "--plugin-dir session plugins"),
    ("builtin", "built-in plugins"),
    ("skills-dir", "plugins auto-loaded from .claude/skills/"),
    ("synced", "plugins synced from your claude.ai account"),
    ("claude-plugin-test", "plugins loaded by claude plugin test"),
];

/// Whether a marketplace name impersonates an official Anthropic/Claude marketplace, as Claude
/// Code 2.1.332 decides it (its bundle's `aHt`, read in `claude.exe`): never for an official name
/// itself; always for a name with a character outside printable ASCII; else when "official" and
/// "anthropic"/"claude" meet with only punctuation between them (either order, anywhere, also
/// once all punctuation is removed), or the name starts with "anthropic"/"claude" followed (after
/// punctuation) by "marketplace", "plugins", "official", "directory" or "directories", also when
/// its first words are run together (`claude.market.place`).
pub fn impersonates_official(name: &str) -> bool {
    use std::sync::LazyLock;
    const OFFICIAL: &str = "official[^a-z0-9]*(anthropic|claude)|(?:anthropic|claude)[^a-z0-9]*official";
    static PREFIX: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(&format!(
            "(?i){OFFICIAL}|^(?:anthropic|claude)[^a-z0-9]*(marketplace|plugins|official|directory|directories)"
        ))
        .expect("a valid pattern")
    });
    static JOINED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new("(?i)official(?:anthropic|claude)|(?:anthropic|claude)official").expect("a valid pattern")
    });
    static WHOLE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new("(?i)^(?:anthropic|claude)(?:marketplace|plugins|official|directory|directories)s?$")
            .expect("a valid pattern")
    });
    if OFFICIAL_MARKETPLACES.contains(&name.to_lowercase().as_str()) {
        return false;
    }
    if name.chars().any(|c| !(' '..='~').contains(&c)) || PREFIX.is_match(name) {
        return true;
    }
    let alnum = |c: char| c.is_ascii_alphanumeric();
    if PREFIX.is_match(name.trim_start_matches(|c: char| !alnum(c))) {
        return true;
    }
    let squeezed: String = name.chars().filter(|c| alnum(*c)).collect();
    if JOINED.is_match(&squeezed) {
        return true;
    }
    // The first words run together, one more at a time, until longer than 21 characters.
    let mut joined = String::new();
    for word in name.split(|c: char| !alnum(c)).filter(|w| !w.is_empty()) {
        joined.push_str(word);
        if WHOLE.is_match(&joined) {
            return true;
        }
        if joined.len() > 21 {
            break;
        }
    }
    false
}

/// `claude plugin validate`'s checks of a marketplace's `name` (a string): each that fails is
/// an error, in its schema's order.
pub(super) fn marketplace_name(name: &Json, out: &mut Vec<Located>) {
    let Some(s) = name.as_str() else { return };
    let meta = &r::plugin_name_format::PluginNameFormat::META;
    let mut errors = vec![];
    if s.is_empty() {
        errors.push("name: Marketplace must have a name".to_string());
    }
    if s.contains(' ') {
        errors.push("name: Marketplace name cannot contain spaces. Use kebab-case (e.g., \"my-marketplace\")".into());
    }
    if s.chars().any(|c| {
        c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }) {
        errors.push("name: Marketplace name cannot contain control or bidirectional-formatting characters".into());
    }
    if s.contains('/') || s.contains('\\') || s.contains("..") || s == "." {
        errors.push(
            "name: Marketplace name cannot contain path separators (/ or \\), \"..\" sequences, or be \".\"".into(),
        );
    }
    if impersonates_official(s) {
        errors.push("name: Marketplace name impersonates an official Anthropic/Claude marketplace".into());
    }
    let lower = s.to_lowercase();
    if let Some((_, what)) = RESERVED_MARKETPLACES.iter().find(|(n, _)| *n == lower) {
        errors.push(format!("name: Marketplace name \"{lower}\" is reserved for {what}"));
    }
    for message in errors {
        at(out, name.span, Finding::new(meta, message, "choose a kebab-case name of your own (`team-skills`)"));
    }
}

pub(super) fn marketplace(v: &Json, root: &Path, out: &mut Vec<Located>) {
    let before = out.len();
    let mut advice = vec![];
    marketplace_checks(v, root, out, &mut advice);
    // The recommendations, once the manifest passes its schema.
    if !out[before..].iter().any(|l| schema_error(&l.finding)) {
        out.append(&mut advice);
    }
}

pub(super) fn marketplace_checks(v: &Json, root: &Path, out: &mut Vec<Located>, advice: &mut Vec<Located>) {
    unknown_fields(v, "", &MARKETPLACE_KEYS, false, out);
    if let Some(name) = required_name(v, "", out) {
        marketplace_name(name, out);
    }
    match v.get_last("owner") {
        None => out.push(missing(v, "", "owner", "object")),
        Some(o) if !matches!(o.value.kind, Kind::Object(_)) => {
            at(out, o.value.span, type_error("owner", "object", &o.value))
        }
        Some(o) => {
            required_name(&o.value, "owner", out);
        }
    }
    let described = v.get_last("description").is_some()
        || v.get_last("metadata").and_then(|m| m.value.get_last("description")).is_some();
    if !described {
        advice.push(recommended(v, "description: No marketplace description provided. Adding a description helps users understand what this marketplace offers".into(), "description"));
    }
    let plugins = match v.get_last("plugins") {
        None => {
            out.push(missing(v, "", "plugins", "array"));
            return;
        }
        Some(p) if !matches!(p.value.kind, Kind::Array(_)) => {
            at(out, p.value.span, type_error("plugins", "array", &p.value));
            return;
        }
        Some(p) => p,
    };
    if plugins.value.items().is_empty() {
        let mut f = recommended(v, "plugins: Marketplace has no plugins defined".into(), "plugins");
        f.span = plugins.value.span;
        advice.push(f);
    }
    let mut names: std::collections::HashMap<&str, usize> = Default::default();
    for p in plugins.value.items() {
        if let Some(n) = p.get_last("name").and_then(|n| n.value.as_str()) {
            *names.entry(n).or_default() += 1;
        }
    }
    for (i, p) in plugins.value.items().iter().enumerate() {
        let path = format!("plugins.{i}");
        if !matches!(p.kind, Kind::Object(_)) {
            at(out, p.span, type_error(&path, "object", p));
            continue;
        }
        unknown_fields(p, &format!("plugins[{i}]"), &MARKETPLACE_ENTRY_KEYS, false, out);
        if let Some(name) = required_name(p, &path, out) {
            let n = name.as_str().unwrap_or_default();
            if names.get(n).copied().unwrap_or(0) > 1 {
                at(
                    out,
                    name.span,
                    Finding::new(
                        &r::marketplace_duplicate_plugin::MarketplaceDuplicatePlugin::META,
                        format!("plugins[{i}].name: Duplicate plugin name \"{n}\" found in marketplace"),
                        "give each plugin of the marketplace its own name",
                    ),
                );
            }
        }
        match p.get_last("source") {
            None => {
                let mut f = invalid_source(&path);
                f.rule = &r::manifest_field_missing::ManifestFieldMissing::META;
                at(out, Span::new(p.span.start, p.span.start + 1), f)
            }
            Some(s) => match &s.value.kind {
                Kind::String(src) => relative_source(src, s.value.span, root, i, out),
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
        entry_version(p, root, i, out);
    }
}

/// An entry's `version` against its plugin's own plugin.json (which wins at install).
pub(super) fn entry_version(p: &Json, root: &Path, i: usize, out: &mut Vec<Located>) {
    let Some(version) = p.get_last("version") else { return };
    let Some(a) = version.value.as_str() else { return };
    let Some(src) = p.get_last("source").and_then(|s| s.value.as_str()) else { return };
    if !src.starts_with("./") || has_parent(src) {
        return;
    }
    let rel = src.trim_start_matches("./").trim_end_matches('/');
    let Ok(bytes) = crate::files::read(&root.join(rel).join(".claude-plugin/plugin.json"), MAX_MANIFEST_BYTES) else {
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    let Ok(plugin) = json::parse(text.trim_start_matches('\u{feff}')) else { return };
    let Some(b) = plugin.get_last("version").and_then(|v| v.value.as_str().map(str::to_string)) else { return };
    if a != b {
        let mut f = Finding::new(
            &r::marketplace_version_mismatch::MarketplaceVersionMismatch::META,
            format!("plugins[{i}].version: Entry declares version \"{a}\" but {rel}/.claude-plugin/plugin.json says \"{b}\". At install time, plugin.json wins (calculatePluginVersion precedence) — the entry version is silently ignored. Update this entry to \"{b}\" to match."),
            format!("write `\"version\": \"{b}\"` in the entry, or drop it"),
        );
        f.severity = crate::Severity::Warning;
        at(out, version.value.span, f);
    }
}

pub(super) fn invalid_source(path: &str) -> Finding {
    Finding::new(
        &r::manifest_field_type::ManifestFieldType::META,
        format!("{path}.source: Invalid input"),
        "a source is a relative path (`./plugins/x`) or an object such as `{\"source\": \"github\", \"repo\": \"owner/name\"}`",
    )
}

/// A marketplace entry's relative source: `./`-relative, without `..`. A folder that is missing
/// is not reported (`claude plugin validate` does not); one that is a file is.
pub(super) fn relative_source(src: &str, span: Span, root: &Path, i: usize, out: &mut Vec<Located>) {
    if has_parent(src) {
        let mut rest = src.trim_start_matches("./");
        while let Some(r) = rest.strip_prefix("../") {
            rest = r;
        }
        at(
            out,
            span,
            Finding::new(
                &r::component_path_outside::ComponentPathOutside::META,
                format!("plugins[{i}].source: Path contains \"..\": {src}. Plugin source paths are resolved relative to the marketplace root (the directory containing .claude-plugin/), not relative to marketplace.json. Use \"./{rest}\" instead of \"{src}\"."),
                "installs copy the marketplace's folder alone: keep every source inside it",
            ),
        );
    }
    if !src.starts_with("./") {
        at(
            out,
            span,
            Finding::new(
                &r::component_path_not_relative::ComponentPathNotRelative::META,
                format!("plugins.{i}.source: Invalid string: must start with \"./\""),
                format!("write it `./{}`", src.trim_start_matches('/')),
            ),
        );
        return;
    }
    if has_parent(src) {
        return;
    }
    if let Some(f) = outside(root, src, &format!("plugins[{i}].source")) {
        at(out, span, f);
        return;
    }
    let dir = root.join(src);
    if dir.exists() && !dir.is_dir() {
        let file = dir.join(".claude-plugin/plugin.json");
        at(
            out,
            span,
            Finding::new(
                &r::marketplace_source_missing::MarketplaceSourceMissing::META,
                format!("plugins[{i}].source: A path component of {} is not a directory, so the file cannot be read. The entry will fail to load at install time.", file.display()),
                "point `source` at the plugin's folder",
            ),
        );
    }
}
