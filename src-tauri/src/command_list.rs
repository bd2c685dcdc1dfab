// The command surface, declared once: name(argument type) -> reply type. `lib.rs` turns it into
// the Tauri functions (each calls the `AppState` method of the same name), the invoke handler and
// the TypeScript bindings; `build.rs` includes this file too, to declare each command to Tauri's
// permission system and generate the `app-commands` permission set the capability grants.
app_commands! {
    startup(()) -> Startup;
    agents(()) -> Vec<AgentInfo>;
    open_library(OpenLibrary) -> LibraryView;
    lint_text(LintText) -> Linted;
    apply_fixes(ApplyFixes) -> Fixed;
    quick_fixes(QuickFixes) -> QuickFixList;
    hover(AssistAt) -> Hovered;
    complete(AssistAt) -> Completions;
    render_prompt(RenderPrompt) -> PromptView;
    render_matrix(RenderMatrix) -> Matrix;
    package_targets(PackageTargets) -> PackageView;
    build_packages(BuildPackages) -> BuildReport;
    run_session(RunSession) -> SessionView;
    run_session_script(RunSessionScript) -> SessionView;
    run_session_live(RunSessionLive) -> LiveSessionView;
    read_file(ReadFile) -> FileText;
    save_file(SaveFile) -> Saved;
    save_session_script(SaveSessionScript) -> Saved;
    open_session_script(OpenSessionScript) -> SessionScript;
    render_preview(RenderPreview) -> PreviewView;
    frontmatter_form(FrontmatterText) -> FrontmatterForm;
    set_frontmatter_field(SetFrontmatterField) -> Fixed;
    check_new_skill(NewSkill) -> NewSkillCheck;
    create_skill(NewSkill) -> FileText;
    save_draft(SaveFile) -> ();
    discard_draft(ReadFile) -> ();
    drafts(()) -> Vec<Draft>;
    open_suite(OpenSuite) -> SuiteFile;
    import_suite(ImportSuite) -> SuiteFile;
    suite_yaml(Suite) -> SuiteText;
    save_suite(SaveFile) -> Saved;
    run_eval(RunEval) -> EvalReply;
    optimize_description(OptimizeDescription) -> OptimizeReply;
    draft_suite(DraftSuite) -> SuiteFile;
    cancel_eval(()) -> ();
    eval_settings(()) -> ProviderSettings;
    remember_eval_settings(ProviderSettings) -> ();
    api_keys(()) -> Vec<KeyStatus>;
    set_api_key(SetApiKey) -> KeyStatus;
    forget_api_key(ApiArg) -> KeyStatus;
    ui_state(()) -> UiState;
    remember_ui_state(UiState) -> ();
}
