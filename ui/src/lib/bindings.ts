// Generated from src-tauri (ts-rs) by `UPDATE_BINDINGS=1 cargo test -p skill-studio bindings`.
// Do not edit: a test fails when this file differs from what the Rust types generate.

export type Span = { start: number, end: number, };

export type Position = { 
/**
 * 1-based line number.
 */
line: number, 
/**
 * 1-based column, counted in Unicode scalar values (what a person counts).
 */
column: number, 
/**
 * 1-based column counted in UTF-16 code units (what JavaScript and CodeMirror count).
 */
column_utf16: number, };

export type Severity = "error" | "warning" | "info";

export type Applicability = "safe" | "unsafe" | "display-only";

export type Edit = { span: Span, replacement: string, };

export type Fix = { 
/**
 * What applying the fix does, e.g. "Quote the value".
 */
message: string, applicability: Applicability, 
/**
 * Non-overlapping edits, sorted by position.
 */
edits: Array<Edit>, };

export type Label = { span: Span, message: string, start: Position, end: Position, };

export type Diagnostic = { 
/**
 * Stable rule code, e.g. `SK201`.
 */
code: string, 
/**
 * Kebab-case rule name, e.g. `name-missing`.
 */
rule: string, severity: Severity, message: string, 
/**
 * Primary byte span in the file's text.
 */
span: Span, start: Position, end: Position, labels: Array<Label>, help: string | null, 
/**
 * Path of the rule's documentation inside the repository.
 */
docs: string, fix: Fix | null, };

export type AgentKind = "format" | "agent" | "test-profile";

export type AgentInfo = { id: string, title: string, 
/**
 * A format, a real agent or a test profile: the engine's grouping, for the pickers.
 */
kind: AgentKind, 
/**
 * A short plain name with the version, for menus ("Claude Code 2.1").
 */
label: string, 
/**
 * The program and version, or document, the profile was verified against.
 */
source: string, 
/**
 * The profile renders a prompt (all but `spec`).
 */
has_prompt: boolean, 
/**
 * The profile offers the model a skill tool, so its triggering can be evaluated.
 */
has_skill_tool: boolean, };

export type Source = { 
/**
 * As the user gave it.
 */
path: string, 
/**
 * Its real path.
 */
root: string, exists: boolean, };

export type ResourceKind = "script" | "reference" | "asset" | "other";

export type Resource = { 
/**
 * Relative to the skill folder, `/`-separated.
 */
path: string, kind: ResourceKind, size: number | null, 
/**
 * Agent ids whose listing shows the file (`deepagents-v2`, `gemini-cli`).
 */
discovered_by: Array<string>, };

export type HiddenBy = { name: string, source: number, dir: string, };

export type SkillEntry = { 
/**
 * Index into the library's sources.
 */
source: number, 
/**
 * The name the agent knows it by.
 */
name: string, 
/**
 * The skill folder.
 */
dir: string, 
/**
 * The skill file (`SKILL.md`), the path the editor opens and saves.
 */
path: string, errors: number, warnings: number, infos: number, hidden_by: HiddenBy | null, resources: Array<Resource>, diagnostics: Array<Diagnostic>, };

export type SourceIssue = { source: number, path: string, message: string, };

export type LibraryView = { agent: string, 
/**
 * Lowest priority first.
 */
sources: Array<Source>, 
/**
 * In source order, then discovery order.
 */
skills: Array<SkillEntry>, issues: Array<SourceIssue>, 
/**
 * The agent the library's project names (`skillkit.toml` or `[tool.skillkit]`), if any: a
 * folder opened as the library switches the window to it.
 */
configured_agent?: string, 
/**
 * Why the project's configuration (`skillkit.toml` or `[tool.skillkit]`) was left out: the
 * error `skillkit check` there gives (`invalid-settings`). The library is opened without it.
 */
config_error?: AppError, };

export type Decision = "full" | "truncated" | "name-only" | "dropped" | "hidden" | "invalid" | "shadowed";

export type PromptSkill = { name: string, folder: string, path: string, source: number | null, decision: Decision, reason: string | null, 
/**
 * Byte range of the entry in the text.
 */
range: Span | null, chars: number, tokens: number, };

export type Budget = { limit: number, unit: string, needed: number, rule: string, };

export type AgentSetting = { 
/**
 * The key `agent_settings` take (`skillListingBudgetFraction`), the agent's own name for it.
 */
key: string, 
/**
 * `fraction`, `count`, `bool` or `overrides` (per skill: on, name-only,
 * user-invocable-only, off).
 */
kind: string, 
/**
 * Where the agent itself reads it.
 */
agent_name: string, 
/**
 * The value used, as JSON text.
 */
value: string, 
/**
 * The agent's default, as JSON text.
 */
default: string, 
/**
 * Where the value came from: `default`, a settings file's path, or the flag.
 */
origin: string, };

export type PromptView = { agent: string, source: string, 
/**
 * Where in the request the text goes, e.g. `system-prompt`.
 */
placement: string, placement_detail: string, text: string, failure: string | null, skills: Array<PromptSkill>, warnings: Array<string>, budget: Budget | null, 
/**
 * The encoding of the token counts, and whether they are an estimate for this agent.
 */
encoding: string, estimate: boolean, bytes: number, chars: number, tokens: number, context_window: number, percent_of_context: number, 
/**
 * The agent's own listing settings as the render used them (none for most agents).
 */
settings: Array<AgentSetting>, };

export type Status = "full" | "shortened" | "name-only" | "dropped" | "hidden" | "shadowed" | "skipped" | "not-discovered";

export type Cell = { status: Status, 
/**
 * Why, in the agent's words where it has any: every status but a full listing has one.
 */
reason?: string, 
/**
 * What makes the outcome vary between runs of the agent, when it does.
 */
chance?: string, };

export type Row = { 
/**
 * The name the agents list it under (the first that lists it), else its folder's name.
 */
name: string, 
/**
 * Its skill file as found through the source (symlinks kept).
 */
path: string, 
/**
 * Its skill file's real path (the folder's symlinks resolved): the path an editor opens.
 */
file: string, 
/**
 * Index of its source.
 */
source: number, 
/**
 * One cell per column, in the columns' order.
 */
cells: Array<Cell>, };

export type ColumnBudget = { limit: number, needed: number, unit: string, rule: string, };

export type Column = { agent: string, title: string, 
/**
 * A short name with the version it matches ("Claude Code 2.1").
 */
label: string, 
/**
 * The program and version the profile reproduces.
 */
source: string, budget?: ColumnBudget, 
/**
 * How many of the rows have each status, in [`Status::ALL`]'s order.
 */
counts: Array<number>, 
/**
 * Rows whose outcome depends on chance.
 */
by_chance: number, 
/**
 * The agent's own skills it lists besides the library's.
 */
built_in: Array<string>, 
/**
 * What the agent reports while loading.
 */
warnings: Array<string>, };

export type Matrix = { 
/**
 * The sources, as given, lowest priority first.
 */
sources: Array<string>, columns: Array<Column>, rows: Array<Row>, };

export type RenderMatrix = { sources: Array<string>, 
/**
 * The agents to show, in order; empty shows every agent with a loader.
 */
agents: Array<string>, 
/**
 * Tokens; `null` uses each agent's default.
 */
context_window: number | null, char_budget: number | null, 
/**
 * The open file's unsaved text, which stands for the file on disk.
 */
edit: MatrixEdit | null, };

export type MatrixEdit = { path: string, text: string, };

export type PackageTarget = "claude-ai" | "claude-plugin" | "codex-plugin" | "agent-plugin";

export type PackageTargets = { sources: Array<string>, };

export type PackageFailure = { path: string, code: string, severity: Severity, message: string, help: string | null, start: Position | null, };

export type PackageRow = { target: PackageTarget, 
/**
 * The skill's name (uploads) or the plugin's.
 */
name: string, 
/**
 * The source folder it is built from.
 */
source: string, 
/**
 * What it writes inside the chosen folder: `alpha.zip`, `skills-claude-plugin`.
 */
out: string, skills: Array<string>, 
/**
 * No error: the build writes it.
 */
ready: boolean, files: number, bytes: number, 
/**
 * The target's limits, when it has any (the upload: 200 files, 30 MB uncompressed).
 */
max_files: number | null, max_bytes: number | null, failures: Array<PackageFailure>, };

export type PackageView = { rows: Array<PackageRow>, };

export type BuildPackages = { sources: Array<string>, 
/**
 * The targets to build; every package of each is written.
 */
targets: Array<PackageTarget>, 
/**
 * The folder the user chose: absolute, existing. Nothing is written outside it.
 */
out: string, 
/**
 * Replace the packages' files or folders that exist (otherwise `exists`, nothing written).
 */
overwrite: boolean, };

export type BuiltPackage = { target: PackageTarget, name: string, path: string, files: number, bytes: number, };

export type BuildReport = { out: string, written: Array<BuiltPackage>, };

export type Size = { chars: number, tokens: number, };

export type ModelCall = { tool: string, args: unknown, 
/**
 * What the tool returned, as the user typed it: tools other than the skill tools are not run
 * in simulation, and are answered "not run in simulation" without one.
 */
result?: string | null, };

export type Step = { "action": "load", skill: string, } | { "action": "unload", skill: string, } | { "action": "invoke", skill: string, args?: string | null, } | { "action": "slash", name: string, args: string, } | { "action": "tool", name: string, args: unknown, } | { "action": "edit", skill: string, content: string, } | { "action": "user", text: string, } | { "action": "model", text: string, calls: Array<ModelCall>, };

export type Turn = { index: number, step: Step, 
/**
 * The call as the model or user made it, e.g. `load_skill("pdf")`.
 */
call: string, 
/**
 * Exactly the text that enters the context.
 */
result: string, is_error: boolean, blocks: Array<string>, note: string | null, cost: Size, loaded: Array<string>, 
/**
 * Prompt plus history after the step.
 */
used: Size, context_window: number, percent: number, prompt_changes: Array<string>, };

export type SessionView = { agent: string, initial_prompt: string, turns: Array<Turn>, prompt: string, loaded: Array<string>, };

export type Policy = "recommend" | "restrict";

export type SessionSettings = { context_window: number | null, max_loaded_skills: number | null, policy: Policy, char_budget: number | null, 
/**
 * Claude Code permission rules, e.g. `Bash(git:*)`.
 */
allow: Array<string>, };

export type Startup = { 
/**
 * Library sources, lowest priority first.
 */
sources: Array<string>, agent: string, 
/**
 * The bundled example library (the welcome screen offers to open it), when the app has one.
 */
examples?: string, };

export type OpenLibrary = { 
/**
 * Lowest priority first.
 */
sources: Array<string>, agent: string, };

export type LintText = { 
/**
 * The skill file's path (its folder's files are read for the rules that need them).
 */
path: string, 
/**
 * The editor's text, unsaved.
 */
text: string, agent: string, };

export type Linted = { diagnostics: Array<Diagnostic>, };

export type ApplyFixes = { text: string, fixes: Array<Fix>, };

export type Fixed = { text: string, };

export type QuickFixes = { path: string, text: string, agent: string, 
/**
 * The cursor: 1-based line and 1-based UTF-16 column.
 */
line: number, column_utf16: number, };

export type QuickFixList = { diagnostics: Array<Diagnostic>, };

export type AssistAt = { path: string, text: string, agent: string, 
/**
 * 1-based line.
 */
line: number, 
/**
 * 1-based UTF-16 column.
 */
column_utf16: number, };

export type HoverView = { markdown: string, start: Position, end: Position, };

export type Hovered = { 
/**
 * `null` where there is nothing to say (outside the frontmatter's keys and values).
 */
hover: HoverView | null, };

export type CompletionItemKind = "key" | "value" | "file" | "folder";

export type CompletionItem = { label: string, kind: CompletionItemKind, 
/**
 * "specification field", "claude-code extension", …
 */
detail: string, 
/**
 * Markdown: what the key is and which agents read it (empty for files).
 */
documentation: string, insert: string, start: Position, end: Position, };

export type Completions = { items: Array<CompletionItem>, };

export type RenderPrompt = { sources: Array<string>, agent: string, 
/**
 * Tokens; `null` uses the agent's default.
 */
context_window: number | null, char_budget: number | null, 
/**
 * Skills already loaded (agents that mark them).
 */
loaded: Array<string>, 
/**
 * The agent's own listing settings, `KEY=VALUE` as `skillkit prompt --agent-setting` takes
 * them; they win over the project's own settings files of the agent (`.claude/settings.json`)
 * and its `skillkit.toml`'s `[agents.<agent>]`.
 */
agent_settings: Array<string>, };

export type RunSession = { sources: Array<string>, agent: string, settings: SessionSettings, steps: Array<Step>, };

export type RunSessionScript = { 
/**
 * Where the script is (its `sources` are relative to its folder).
 */
path: string, text: string, };

export type RunSessionLive = { session: RunSession, 
/**
 * The model (the Evals pane's settings; the key from the keyring or the environment).
 */
provider: ProviderSettings, };

export type LiveSessionView = { view: SessionView, steps: Array<Step>, error: string | null, };

export type ReadFile = { path: string, };

export type Version = { 
/**
 * Modification time, nanoseconds since the Unix epoch (as text: it does not fit a JS number).
 */
modified_ns: string, 
/**
 * Size in bytes.
 */
size: number, 
/**
 * FNV-1a hash of the bytes, as 16 hex digits.
 */
hash: string, };

export type FileText = { path: string, text: string, 
/**
 * What the file was when read: a save based on this text carries it (see `SaveFile::base`).
 */
version: Version, };

export type SaveFile = { path: string, text: string, 
/**
 * The version of the file the text was based on (from `read_file` or the last save): the
 * save is refused with the `conflict` code when the file changed since. Absent: no check.
 */
base?: Version, };

export type Saved = { path: string, bytes: number, 
/**
 * The file's version after the save, the base of the next one.
 */
version: Version, };

export type RenderPreview = { 
/**
 * The skill file whose folder images and links are resolved in.
 */
path: string, 
/**
 * The editor's text, unsaved.
 */
text: string, };

export type Heading = { level: number, title: string, 
/**
 * The heading's `id` in the HTML.
 */
id: string, };

export type SkippedImage = { path: string, reason: string, };

export type PreviewView = { html: string, headings: Array<Heading>, skipped_images: Array<SkippedImage>, };

export type FrontmatterText = { text: string, 
/**
 * The agent whose limits the form counts against (none: no limits).
 */
agent?: string, };

export type FormField = { key: string, 
/**
 * `null` when the value is a list, a mapping or an alias (edited in the text).
 */
value: string | null, };

export type FieldLimit = { 
/**
 * The field's key, e.g. `description`.
 */
key: string, max_chars: number, 
/**
 * How the agent's profile reports a value over it.
 */
severity: Severity, 
/**
 * The rule's code, e.g. `SK213`.
 */
code: string, 
/**
 * Who sets the limit, in a few words: "the specification", "Claude Code's listing".
 */
by: string, };

export type FrontmatterForm = { fields: Array<FormField>, 
/**
 * The fields' length limits under the agent, tightest first for each field.
 */
limits: Array<FieldLimit>, };

export type SetFrontmatterField = { text: string, key: string, value: string, };

export type NewSkill = { 
/**
 * One of the opened library's sources.
 */
source: string, name: string, description: string, 
/**
 * Resource folders to create: `scripts`, `references`, `assets`.
 */
folders: Array<string>, };

export type NewSkillProblem = { code: string, severity: Severity, message: string, 
/**
 * The frontmatter field it is about (`name`, `description`), when it is one of them.
 */
field: string | null, agents: Array<string>, };

export type NewSkillCheck = { 
/**
 * Errors and warnings under every profile; empty when the skill can be created.
 */
problems: Array<NewSkillProblem>, 
/**
 * The skill file it would create.
 */
path: string, 
/**
 * A file or folder is already there.
 */
exists: boolean, 
/**
 * When the name has a problem: a name close to it that every profile accepts (the engine's
 * suggestion, offered as "Use my-skill").
 */
suggestion: string | null, };

export type Draft = { path: string, text: string, 
/**
 * When the draft was written, in milliseconds since the Unix epoch.
 */
written_ms: number, 
/**
 * When the file was last modified; `null` when it no longer exists.
 */
file_modified_ms: number | null, };

export type SaveSessionScript = { 
/**
 * Where to write the script (inside an opened source).
 */
path: string, agent: string, 
/**
 * Absolute source folders, lowest priority first; written relative to the script's folder.
 */
sources: Array<string>, settings: SessionSettings, steps: Array<Step>, };

export type OpenSessionScript = { path: string, };

export type ScriptSettings = { context_window: number | null, max_loaded_skills: number, policy: string, char_budget: number | null, allow: Array<string>, };

export type SessionScript = { path: string, text: string, agent: string, 
/**
 * Resolved against the script's folder.
 */
sources: Array<string>, settings: ScriptSettings, steps: Array<Step>, 
/**
 * The simulated session.
 */
view: SessionView, };

export type Case = { id: string, query: string, 
/**
 * A skill name, or [`NONE`].
 */
expect: string, };

export type Suite = { 
/**
 * The agent profile, when the suite names one.
 */
agent: string | null, 
/**
 * As written, relative to the suite's folder.
 */
sources: Array<string>, context_window: number | null, char_budget: number | null, cases: Array<Case>, };

export type CaseReport = { id: string, query: string, expect: string, 
/**
 * Runs per activated skill (`none`: no skill), over the runs that completed.
 */
activated: { [key in string]: number }, 
/**
 * The expected activation won a strict majority of the completed runs.
 */
pass: boolean, 
/**
 * Completed runs (fewer than asked when the suite was stopped).
 */
runs: number, 
/**
 * The share of runs that activated what was expected.
 */
rate: number, };

export type SkillReport = { name: string, tp: number, fp: number, fn: number, 
/**
 * `null` when the skill was never activated.
 */
precision: number | null, 
/**
 * `null` when no case expects the skill.
 */
recall: number | null, f1: number | null, 
/**
 * What was activated instead on the runs that expected this skill (`none`: nothing).
 */
confusions: { [key in string]: number }, };

export type Summary = { precision: number | null, recall: number | null, accuracy: number | null, requests: number, input_tokens: number, output_tokens: number, };

export type Confusion = { agent: string, expected: string, took: string, count: number, };

export type Report = { agent: string, provider: string, model: string, 
/**
 * Runs asked per case.
 */
runs: number, cases: Array<CaseReport>, skills: Array<SkillReport>, summary: Summary, 
/**
 * Which skill took which skill's queries (`none`: no skill), most runs first: the cells of
 * the confusion table off its diagonal (`eval::confusion`).
 */
confusion: Array<Confusion>, 
/**
 * Stopped before every run completed (Ctrl+C, Cancel): the counts are of the completed runs.
 */
cancelled: boolean, };

export type Variant = "saved" | "unsaved";

export type ModelApi = "openai" | "anthropic";

export type ProviderSettings = { api: ModelApi, 
/**
 * Blank: the provider's own API.
 */
base_url: string, model: string, 
/**
 * `null`: the provider's default.
 */
temperature: number | null, 
/**
 * Times each case is asked (1 to 100).
 */
runs: number, 
/**
 * Requests in flight at most (1 to 32).
 */
concurrency: number, 
/**
 * Seconds one request may take.
 */
timeout_secs: number, };

export type OpenSuite = { 
/**
 * The skill's `SKILL.md`.
 */
skill: string, };

export type ImportSuite = { 
/**
 * The skill's `SKILL.md`.
 */
skill: string, 
/**
 * The skill's name: what the list's `should_trigger: true` queries expect.
 */
name: string, 
/**
 * A JSON file inside the skill's folder.
 */
from: string, };

export type SuiteFile = { 
/**
 * `<skill folder>/evals/triggers.yaml`.
 */
path: string, 
/**
 * The file exists; otherwise `text` is a new suite (or an import), not saved yet.
 */
exists: boolean, text: string, suite: Suite, 
/**
 * The file's version on disk, the base of the next save; `null` when there is no file.
 */
version: Version | null, };

export type SuiteText = { text: string, };

export type UnsavedSkill = { path: string, text: string, };

export type RunEval = { 
/**
 * Where the suite is (it need not be saved): its `sources` are relative to its folder.
 */
path: string, 
/**
 * The suite, in the YAML format.
 */
text: string, 
/**
 * The agent whose prompt and skill tools the model sees.
 */
agent: string, provider: ProviderSettings, 
/**
 * A/B: the suite also runs with this skill's unsaved text in place of the saved one.
 */
compare: UnsavedSkill | null, };

export type KeyUse = "keyring" | "environment" | "none";

export type EvalReply = { saved: Report, unsaved: Report | null, key: KeyUse, };

export type ApiArg = { api: ModelApi, };

export type SetApiKey = { api: ModelApi, key: string, };

export type KeyStatus = { api: ModelApi, 
/**
 * A key is stored in the system keyring.
 */
stored: boolean, 
/**
 * The environment variable read when none is stored (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`).
 */
env: string, env_set: boolean, 
/**
 * Why the keyring could not be asked (`stored` is then false).
 */
keyring_error: string | null, };

export type Split = { train: Array<string>, test: Array<string>, };

export type SplitName = "train" | "test";

export type QueryResult = { id: string, split: SplitName, should_trigger: boolean, 
/**
 * Runs that activated the skill.
 */
triggered: number, 
/**
 * Runs completed.
 */
runs: number, 
/**
 * `triggered / runs`.
 */
rate: number, 
/**
 * Triggered (rate ≥ threshold) exactly when it should.
 */
pass: boolean, };

export type Scores = { passed: number, total: number, tp: number, fp: number, fn: number, tn: number, 
/**
 * Should-trigger queries that triggered; `null` without any.
 */
recall: number | null, 
/**
 * Should-not queries that triggered; `null` without any.
 */
false_trigger_rate: number | null, 
/**
 * `null` when nothing triggered.
 */
precision: number | null, f1: number | null, };

export type AgentResult = { agent: string, 
/**
 * How the agent's render lists the skill with this description (`full` unless cut or
 * left out).
 */
listed: Decision, train: Scores, test: Scores, queries: Array<QueryResult>, };

export type Change = { "op": "same", "text": string } | { "op": "added", "text": string } | { "op": "removed", "text": string };

export type Iteration = { 
/**
 * 0: the description as saved.
 */
iteration: number, description: string, 
/**
 * Characters (Unicode scalar values).
 */
chars: number, 
/**
 * Word by word from the previous iteration's description (empty for iteration 0).
 */
diff: Array<Change>, 
/**
 * Every target lists it whole and it is within [`MAX_DESCRIPTION_CHARS`].
 */
eligible: boolean, 
/**
 * Why not, one sentence per reason.
 */
limits: Array<string>, agents: Array<AgentResult>, 
/**
 * Training queries passed, over all targets.
 */
train_passed: number, 
/**
 * Test queries passed, over all targets.
 */
test_passed: number, };

export type StopReason = "all-train-pass" | "iterations" | "too-long" | "no-description" | "cancelled" | "error";

export type Stop = { reason: StopReason, message: string, };

export type Best = { iteration: number, description: string, };

export type OptimizeReport = { skill: string, agents: Array<string>, provider: string, model: string, improver_model: string, runs: number, threshold: number, holdout: number, seed: number, max_chars: number, split: Split, iterations: Array<Iteration>, 
/**
 * `null` when no measured candidate is eligible.
 */
best: Best | null, stop: Stop, 
/**
 * Requests sent (measurements and improver calls).
 */
requests: number, input_tokens: number, output_tokens: number, };

export type OptimizeDescription = { 
/**
 * Where the suite is (it need not be saved): its `sources` are relative to its folder.
 */
path: string, 
/**
 * The suite, in the YAML format.
 */
text: string, 
/**
 * The skill's `SKILL.md`: the description optimized is its saved one.
 */
skill: string, 
/**
 * The target agents, each candidate measured under each one's exact prompt.
 */
agents: Array<string>, 
/**
 * The model measured (runs, concurrency and the rest).
 */
provider: ProviderSettings, 
/**
 * The improver's model on the same provider; blank: the measured model.
 */
improver_model: string, 
/**
 * The share of runs that counts as triggered (0.5).
 */
threshold: number, 
/**
 * Improvements at most (5; 0 to 50).
 */
iterations: number, 
/**
 * The test split's share of each class (0.4).
 */
holdout: number, seed: number, };

export type OptimizeReply = { report: OptimizeReport, key: KeyUse, };

export type DraftSuite = { 
/**
 * The skill's `SKILL.md`.
 */
skill: string, 
/**
 * Queries asked for (2 to 200): half should trigger, half are near misses.
 */
count: number, provider: ProviderSettings, };

export type UiState = { 
/**
 * Panel sizes in CSS pixels by panel (`library`, `side`, `bottom`, `form`, `preview`).
 */
sizes: { [key in string]: number }, 
/**
 * The panels the user collapsed (`library`, `side`, `bottom`).
 */
collapsed: Array<string>, 
/**
 * `system`, `light` or `dark`.
 */
theme: string, 
/**
 * The tab of the side panel (`prompt`, `session`, `evals`).
 */
side_tab: string, 
/**
 * The file open in the editor when the window was left.
 */
last_file: string | null, 
/**
 * Whether the frontmatter form and the preview were shown beside the text.
 */
show_form: boolean | null, show_preview: boolean | null, };

export type ErrorCode = "unknown-agent" | "no-prompt" | "outside-library" | "not-a-skill-file" | "invalid-script" | "io" | "not-editable" | "invalid-new-skill" | "conflict" | "invalid-suite" | "no-skill-tool" | "no-key" | "keyring" | "provider" | "busy" | "invalid-settings" | "package-refused" | "exists" | "internal";

export type ErrorDetail = { message: string, line: number, column: number, };

export type AppError = { code: ErrorCode, message: string, details: Array<ErrorDetail>, };

export type LibraryEvent = { "kind": "skill-added", dir: string, name: string, } | { "kind": "skill-changed", dir: string, name: string, } | { "kind": "skill-removed", dir: string, name: string, } | { "kind": "skill-renamed", from: string, to: string, name: string, } | { "kind": "resource-changed", dir: string, name: string, path: string, };

export type LibraryChanged = { events: Array<LibraryEvent>, library: LibraryView, 
/**
 * The watcher's own troubles since the last batch (an overflowed queue, a source deleted).
 */
errors: Array<string>, };

export type EvalProgress = { done: number, total: number, variant: Variant, };

export type PackageProgress = { done: number, total: number, path: string, };

/** Every command: its one argument (`args`) and its reply. Errors are `AppError`. */
export type Commands = {
  startup: { args: null; reply: Startup };
  agents: { args: null; reply: Array<AgentInfo> };
  open_library: { args: OpenLibrary; reply: LibraryView };
  lint_text: { args: LintText; reply: Linted };
  apply_fixes: { args: ApplyFixes; reply: Fixed };
  quick_fixes: { args: QuickFixes; reply: QuickFixList };
  hover: { args: AssistAt; reply: Hovered };
  complete: { args: AssistAt; reply: Completions };
  render_prompt: { args: RenderPrompt; reply: PromptView };
  render_matrix: { args: RenderMatrix; reply: Matrix };
  package_targets: { args: PackageTargets; reply: PackageView };
  build_packages: { args: BuildPackages; reply: BuildReport };
  run_session: { args: RunSession; reply: SessionView };
  run_session_script: { args: RunSessionScript; reply: SessionView };
  run_session_live: { args: RunSessionLive; reply: LiveSessionView };
  read_file: { args: ReadFile; reply: FileText };
  save_file: { args: SaveFile; reply: Saved };
  save_session_script: { args: SaveSessionScript; reply: Saved };
  open_session_script: { args: OpenSessionScript; reply: SessionScript };
  render_preview: { args: RenderPreview; reply: PreviewView };
  frontmatter_form: { args: FrontmatterText; reply: FrontmatterForm };
  set_frontmatter_field: { args: SetFrontmatterField; reply: Fixed };
  check_new_skill: { args: NewSkill; reply: NewSkillCheck };
  create_skill: { args: NewSkill; reply: FileText };
  save_draft: { args: SaveFile; reply: null };
  discard_draft: { args: ReadFile; reply: null };
  drafts: { args: null; reply: Array<Draft> };
  open_suite: { args: OpenSuite; reply: SuiteFile };
  import_suite: { args: ImportSuite; reply: SuiteFile };
  suite_yaml: { args: Suite; reply: SuiteText };
  save_suite: { args: SaveFile; reply: Saved };
  run_eval: { args: RunEval; reply: EvalReply };
  optimize_description: { args: OptimizeDescription; reply: OptimizeReply };
  draft_suite: { args: DraftSuite; reply: SuiteFile };
  cancel_eval: { args: null; reply: null };
  eval_settings: { args: null; reply: ProviderSettings };
  remember_eval_settings: { args: ProviderSettings; reply: null };
  api_keys: { args: null; reply: Array<KeyStatus> };
  set_api_key: { args: SetApiKey; reply: KeyStatus };
  forget_api_key: { args: ApiArg; reply: KeyStatus };
  ui_state: { args: null; reply: UiState };
  remember_ui_state: { args: UiState; reply: null };
};

/** Every event the host emits: its name and payload. */
export type Events = {
  'library-changed': LibraryChanged;
  'eval-progress': EvalProgress;
  'package-progress': PackageProgress;
};
