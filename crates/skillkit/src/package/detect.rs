//! What a path holds: an upload archive, a Claude Code marketplace, a Codex marketplace, a plugin
//! (Claude Code, Agent Plugins 1.0, Codex, Copilot), or a folder of plugins; and each plugin's
//! skills as they are installed (`plugin:skill`, one level under `skills/`).
//!
//! Codex reads its marketplace at `.agents/plugins/marketplace.json` under a repository's root
//! (or the home folder), its local plugin sources relative to the folder holding `.agents/`:
//! `MARKETPLACE_RELATIVE_PATH`, `discover_marketplace_paths_from_roots` and
//! `resolve_plugin_source_path` in `codex-rs/core/src/plugins/marketplace.rs` of openai/codex,
//! the path and its messages found again in the Codex 0.171.0 binary (which also names
//! `.claude-plugin/marketplace.json`).

use crate::package::manifest::{self, Manifest, ManifestKind};
use std::path::{Path, PathBuf};

/// What kind of package a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PackageKind {
    /// A `.zip` (or `.skill`) for the skill upload.
    Upload,
    /// A repository with `.claude-plugin/marketplace.json` (Claude Code's) or
    /// `.agents/plugins/marketplace.json` (Codex's).
    Marketplace,
    /// One plugin.
    Plugin,
    /// A folder whose immediate children are plugins.
    PluginFolder,
}

/// A plugin of a package.
#[derive(Clone, Debug)]
pub struct Plugin {
    pub root: PathBuf,
    /// Its name: the manifest's, else the marketplace entry's, else the folder's.
    pub name: String,
    pub manifests: Vec<Manifest>,
    /// Its skills as installed: folders `skills/<name>/` holding a `SKILL.md`.
    pub skills: Vec<PathBuf>,
    /// `SKILL.md` files deeper under `skills/`, which plugin loaders do not find.
    pub too_deep: Vec<PathBuf>,
}

/// A package found at a path.
#[derive(Clone, Debug)]
pub struct Package {
    pub root: PathBuf,
    pub kind: PackageKind,
    pub marketplace: Option<Manifest>,
    pub plugins: Vec<Plugin>,
}

/// Whether `path` names an upload archive (by its extension).
pub fn is_archive(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("zip") || e == "skill")
}

fn exists(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok()
}

/// Whether folder `dir` is a plugin by its manifests.
pub fn has_plugin_manifest(dir: &Path) -> bool {
    [".claude-plugin/plugin.json", ".codex-plugin/plugin.json", "plugin.json"].iter().any(|m| exists(&dir.join(m)))
}

/// Whether `path` holds a package (`check` judges it as one without `--package`).
pub fn is_package(path: &Path) -> bool {
    if path.is_file() {
        return is_archive(path) || manifest_root(path).is_some();
    }
    if !path.is_dir() {
        return false;
    }
    exists(&path.join(".claude-plugin/marketplace.json"))
        || exists(&path.join(manifest::CODEX_MARKETPLACE))
        || has_plugin_manifest(path)
        || !child_plugins(path).is_empty()
}

/// The immediate children of `dir` that are plugins, sorted.
fn child_plugins(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| has_plugin_manifest(p))
        .collect();
    out.sort();
    out
}

/// The package at `path`, or `None` when it holds none; with `force`, a folder holding none is
/// read as one plugin without a manifest (skills under `skills/`).
pub fn open(path: &Path, force: bool) -> Option<Package> {
    // A manifest named itself (`claude plugin validate .claude-plugin/plugin.json`): its package.
    if path.is_file() && !is_archive(path) {
        if let Some(root) = manifest_root(path) {
            return open(&root, force);
        }
    }
    if path.is_file() {
        return (force || is_archive(path)).then(|| Package {
            root: path.to_path_buf(),
            kind: PackageKind::Upload,
            marketplace: None,
            plugins: vec![],
        });
    }
    if !path.is_dir() {
        return None;
    }
    let root = path.to_path_buf();
    if let Some(m) = manifest::read(&root, ".claude-plugin/marketplace.json", ManifestKind::Marketplace) {
        let mut plugins = vec![];
        if let Some(json) = &m.json {
            if let Some(list) = json.get_last("plugins") {
                for entry in list.value.items() {
                    let src = entry.get_last("source").and_then(|s| s.value.as_str());
                    let name = entry.get_last("name").and_then(|n| n.value.as_str());
                    if let Some(src) = src.filter(|s| s.starts_with("./") && !s.split('/').any(|c| c == "..")) {
                        let dir = root.join(src);
                        if dir.is_dir() {
                            plugins.push(plugin(&dir, name));
                        }
                    }
                }
            }
        }
        // `claude plugin validate` judges the listed plugins' manifests once the marketplace
        // passes its schema.
        if m.findings.iter().any(|l| manifest::schema_error(&l.finding)) {
            for p in &mut plugins {
                p.manifests.iter_mut().for_each(|m| m.findings.clear());
            }
        }
        // A plugin at the marketplace's root, listed or not, is judged as one too.
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        if has_plugin_manifest(&root) && !plugins.iter().any(|p| real(&p.root) == real(&root)) {
            plugins.push(plugin(&root, None));
        }
        return Some(Package { root, kind: PackageKind::Marketplace, marketplace: Some(m), plugins });
    }
    // Codex's marketplace: local sources are `{"source": "local", "path": "./…"}`, relative to the
    // folder holding `.agents/`.
    if let Some(m) = manifest::read(&root, manifest::CODEX_MARKETPLACE, ManifestKind::CodexMarketplace) {
        let mut plugins = vec![];
        if let Some(list) = m.json.as_ref().and_then(|j| j.get_last("plugins")) {
            for entry in list.value.items() {
                let name = entry.get_last("name").and_then(|n| n.value.as_str());
                let Some(source) = entry.get_last("source").map(|s| &s.value) else { continue };
                if source.get_last("source").and_then(|s| s.value.as_str()) != Some("local") {
                    continue;
                }
                let path = source.get_last("path").and_then(|p| p.value.as_str());
                if let Some(rel) = path.and_then(|p| p.strip_prefix("./")).filter(|r| !r.split('/').any(|c| c == ".."))
                {
                    let dir = root.join(rel);
                    if !rel.is_empty() && !rel.starts_with('/') && dir.is_dir() {
                        plugins.push(plugin(&dir, name));
                    }
                }
            }
        }
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        if has_plugin_manifest(&root) && !plugins.iter().any(|p| real(&p.root) == real(&root)) {
            plugins.push(plugin(&root, None));
        }
        return Some(Package { root, kind: PackageKind::Marketplace, marketplace: Some(m), plugins });
    }
    if has_plugin_manifest(&root) {
        return Some(Package {
            plugins: vec![plugin(&root, None)],
            root,
            kind: PackageKind::Plugin,
            marketplace: None,
        });
    }
    let children = child_plugins(&root);
    if !children.is_empty() {
        let plugins = children.iter().map(|c| plugin(c, None)).collect();
        return Some(Package { root, kind: PackageKind::PluginFolder, marketplace: None, plugins });
    }
    if !force {
        return None;
    }
    // Forced: plugins without manifests, by their `skills/` folders: the folder's own, else its
    // children's.
    if root.join("skills").is_dir() {
        return Some(Package {
            plugins: vec![plugin(&root, None)],
            root,
            kind: PackageKind::Plugin,
            marketplace: None,
        });
    }
    let mut children: Vec<PathBuf> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| p.join("skills").is_dir())
        .collect();
    children.sort();
    if children.is_empty() {
        return Some(Package {
            plugins: vec![plugin(&root, None)],
            root,
            kind: PackageKind::Plugin,
            marketplace: None,
        });
    }
    let plugins = children.iter().map(|c| plugin(c, None)).collect();
    Some(Package { root, kind: PackageKind::PluginFolder, marketplace: None, plugins })
}

/// The package folder of a manifest file: above `.claude-plugin/` (or `.codex-plugin/`), or the
/// folder of a root `plugin.json`; `None` for another file.
fn manifest_root(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_str()?;
    let dir = file.parent()?;
    let in_meta =
        dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n == ".claude-plugin" || n == ".codex-plugin");
    let in_codex = dir.file_name().is_some_and(|n| n == "plugins")
        && dir.parent().and_then(|p| p.file_name()).is_some_and(|n| n == ".agents");
    match (name, in_meta) {
        ("marketplace.json", false) if in_codex => Some(dir.parent()?.parent()?.to_path_buf()),
        ("plugin.json" | "marketplace.json", true) => Some(dir.parent()?.to_path_buf()),
        ("plugin.json", false) => Some(dir.to_path_buf()),
        _ => None,
    }
}

/// Read the plugin at `dir` (its manifests, its skills).
pub fn plugin(dir: &Path, listed_as: Option<&str>) -> Plugin {
    let mut manifests = vec![];
    manifests.extend(manifest::read(dir, ".claude-plugin/plugin.json", ManifestKind::ClaudePlugin));
    manifests.extend(manifest::read(dir, ".codex-plugin/plugin.json", ManifestKind::CodexPlugin));
    if let Some(mut m) = manifest::read(dir, "plugin.json", ManifestKind::CopilotPlugin) {
        // An Agent Plugins manifest names its schema; judged again as one.
        let agent = m
            .json
            .as_ref()
            .and_then(|j| j.get_last("$schema"))
            .and_then(|s| s.value.as_str())
            .is_some_and(|s| s.starts_with("https://agent-plugins.org/"));
        if agent {
            m.kind = ManifestKind::AgentPlugin;
            m.findings.clear();
            if let Some(json) = &m.json {
                manifest::validate(ManifestKind::AgentPlugin, json, dir, &mut m.findings);
            }
        }
        manifests.push(m);
        if agent {
            manifests.extend(manifest::read(dir, "mcp.json", ManifestKind::AgentMcp));
        }
    }
    // Copilot's root plugin.json wins over the others; then Claude Code's, then Codex's.
    let order = |k: ManifestKind| match k {
        ManifestKind::AgentPlugin | ManifestKind::CopilotPlugin => 0,
        ManifestKind::ClaudePlugin => 1,
        _ => 2,
    };
    let name = manifests
        .iter()
        .filter(|m| m.name().is_some())
        .min_by_key(|m| order(m.kind))
        .and_then(|m| m.name().map(str::to_string))
        .or_else(|| listed_as.map(str::to_string))
        .unwrap_or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
    let (skills, too_deep) = plugin_skills(&dir.join("skills"));
    Plugin { root: dir.to_path_buf(), name, manifests, skills, too_deep }
}

/// The skill folders immediately under `skills` (sorted), and the `SKILL.md` files deeper down
/// (searched to a few levels, not through symlinks).
fn plugin_skills(skills: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut direct = vec![];
    let mut deep = vec![];
    let mut stack: Vec<(PathBuf, usize)> = vec![(skills.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let p = e.path();
            if p.join("SKILL.md").is_file() {
                if depth == 0 {
                    direct.push(p.clone());
                } else {
                    deep.push(p.join("SKILL.md"));
                }
            }
            if depth < 4 && !(depth == 0 && p.join("SKILL.md").is_file()) {
                stack.push((p, depth + 1));
            }
        }
    }
    direct.sort();
    deep.sort();
    (direct, deep)
}
