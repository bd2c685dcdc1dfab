//! The TypeScript side of the command surface, generated from the Rust types with ts-rs: every
//! type that crosses, and a `Commands` map from each command to its argument and reply types.
//! The file is committed (`ui/src/lib/bindings.ts`); a test fails when it is stale, and
//! `UPDATE_BINDINGS=1 cargo test -p skill-studio bindings` rewrites it.

use skillkit::frontmatter_edit::FieldLimit;
use skillkit::matrix::{Cell, Column, ColumnBudget, Matrix, Row, Status};
use skillkit::scope::Version;
use skillkit_api::error::*;
use skillkit_api::events::*;
use skillkit_api::settings::{ModelApi, ProviderSettings};
use skillkit_api::studio::*;
use skillkit_api::views::*;
use skillkit_api::Startup;
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
        Span, Position, Severity, Applicability, Edit, Fix, Label, Diagnostic, AgentKind, AgentInfo,
        // Library.
        Source, ResourceKind, Resource, HiddenBy, SkillEntry, SourceIssue, LibraryView,
        // Prompt.
        Decision, PromptSkill, Budget, AgentSetting, PromptView,
        // Matrix.
        Status, Cell, Row, ColumnBudget, Column, Matrix, RenderMatrix, MatrixEdit,
        // Packages (the Package pane).
        PackageTarget, PackageTargets, PackageFailure, PackageRow, PackageView, BuildPackages, BuiltPackage, BuildReport,
        // Session.
        Size, ModelCall, Step, Turn, SessionView, Policy, SessionSettings,
        // Command arguments and replies.
        Startup, OpenLibrary, LintText, Linted, ApplyFixes, Fixed, QuickFixes, QuickFixList, AssistAt, HoverView, Hovered,
        CompletionItemKind, CompletionItem, Completions, RenderPrompt, RunSession,
        RunSessionScript, RunSessionLive, LiveSessionView, ReadFile, Version, FileText, SaveFile, Saved, RenderPreview, Heading, SkippedImage,
        PreviewView, FrontmatterText, FormField, FieldLimit, FrontmatterForm, SetFrontmatterField,
        NewSkill, NewSkillProblem, NewSkillCheck, Draft,
        // Session scripts (the Session pane).
        SaveSessionScript, OpenSessionScript, ScriptSettings, SessionScript,
        // Evals (the Evals pane).
        Case, Suite, CaseReport, SkillReport, Summary, Confusion, Report, Variant, ModelApi, ProviderSettings,
        OpenSuite, ImportSuite, SuiteFile, SuiteText, UnsavedSkill, RunEval, KeyUse, EvalReply, ApiArg,
        SetApiKey, KeyStatus,
        // The description optimizer and drafted suites (the Evals pane).
        Split, SplitName, QueryResult, Scores, AgentResult, Change, Iteration, StopReason, Stop, Best, OptimizeReport,
        OptimizeDescription, OptimizeReply, DraftSuite,
        // The window's remembered state.
        UiState,
        // Errors.
        ErrorCode, ErrorDetail, AppError,
        // Events.
        LibraryEvent, LibraryChanged, EvalProgress, PackageProgress,
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
            // The engine's atomic save, inside the UI's folder.
            skillkit::files::save(&path, fresh.as_bytes(), path.parent().unwrap()).unwrap();
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
        let mut wanted = vec!["app-commands"];
        wanted.extend(crate::PLUGIN_PERMISSIONS);
        assert_eq!(
            granted, wanted,
            "capabilities/default.json must grant the commands' set, the listed plugin permissions and nothing else"
        );
        // The set, generated by build.rs, grants each command of the list and nothing else.
        let set = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("permissions/autogenerated/app-commands.toml");
        let set = std::fs::read_to_string(set).unwrap();
        let listed: Vec<&str> = set.lines().filter_map(|l| l.trim().strip_prefix('"')?.strip_suffix("\",")).collect();
        let commands: Vec<String> = crate::COMMANDS.iter().map(|c| format!("allow-{}", c.replace('_', "-"))).collect();
        assert_eq!(listed, commands);
    }
}
