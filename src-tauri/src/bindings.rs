//! The TypeScript side of the command surface, generated from the Rust types with ts-rs: every
//! type that crosses, and a `Commands` map from each command to its argument and reply types.
//! The file is committed (`ui/src/lib/bindings.ts`); a test fails when it is stale, and
//! `UPDATE_BINDINGS=1 cargo test -p skill-studio bindings` rewrites it.

use crate::commands::*;
use crate::error::*;
use crate::events::*;
use crate::wire::*;
use skillkit::scope::Version;
use ts_rs::{Config, TS};

/// Where the generated file lives, relative to this crate.
pub const PATH: &str = "../ui/src/lib/bindings.ts";

macro_rules! decls {
    ($cfg:expr; $($t:ty),* $(,)?) => { vec![$(<$t as TS>::decl($cfg)),*] };
}

/// The whole generated file.
pub fn generate() -> String {
    let cfg = Config::default().with_large_int("number");
    let cfg = &cfg;
    let types = decls![cfg;
        // Shared values.
        Span, Position, Severity, Applicability, Edit, Fix, Label, Diagnostic, AgentInfo,
        // Library.
        Source, ResourceKind, Resource, HiddenBy, SkillEntry, SourceIssue, LibraryView,
        // Prompt.
        Decision, PromptSkill, Budget, PromptView,
        // Session.
        Size, Step, Turn, SessionView, Policy, SessionSettings,
        // Command arguments and replies.
        Startup, OpenLibrary, LintText, Linted, ApplyFixes, Fixed, RenderPrompt, RunSession,
        RunSessionScript, ReadFile, Version, FileText, SaveFile, Saved, RenderPreview, Heading, SkippedImage,
        PreviewView, FrontmatterText, FormField, FrontmatterForm, SetFrontmatterField,
        NewSkill, NewSkillProblem, NewSkillCheck, Draft,
        // Session scripts (the Session pane).
        SaveSessionScript, OpenSessionScript, ScriptSettings, SessionScript,
        // Errors.
        ErrorCode, ErrorDetail, AppError,
        // Events.
        LibraryEvent, LibraryChanged,
    ];
    let mut out = String::from(
        "// Generated from src-tauri (ts-rs) by `UPDATE_BINDINGS=1 cargo test -p skill-studio bindings`.\n\
         // Do not edit: a test fails when this file differs from what the Rust types generate.\n\n",
    );
    for t in types {
        out.push_str("export ");
        out.push_str(&t);
        out.push_str("\n\n");
    }
    out.push_str("/** Every command: its one argument (`args`) and its reply. Errors are `AppError`. */\n");
    out.push_str("export type Commands = {\n");
    for (name, args, reply) in crate::command_types(cfg) {
        out.push_str(&format!("  {name}: {{ args: {args}; reply: {reply} }};\n"));
    }
    out.push_str("};\n\n");
    out.push_str("/** Every event the host emits: its name and payload. */\n");
    out.push_str("export type Events = {\n");
    for (name, payload) in event_types(cfg) {
        out.push_str(&format!("  '{name}': {payload};\n"));
    }
    out.push_str("};\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_ts_is_up_to_date() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
        let fresh = generate();
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::write(&path, &fresh).unwrap();
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{} is stale: run `UPDATE_BINDINGS=1 cargo test -p skill-studio bindings` and commit it",
            path.display()
        );
    }

    #[test]
    fn capability_grants_exactly_the_declared_commands() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities/default.json");
        let cap: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let granted: Vec<&str> = cap["permissions"].as_array().unwrap().iter().filter_map(|p| p.as_str()).collect();
        let mut wanted: Vec<String> =
            crate::COMMANDS.iter().map(|c| format!("allow-{}", c.replace('_', "-"))).collect();
        wanted.extend(crate::PLUGIN_PERMISSIONS.iter().map(|p| p.to_string()));
        assert_eq!(
            granted, wanted,
            "capabilities/default.json must grant each command, the listed plugin permissions and nothing else"
        );
    }
}
