// The app's state and the actions on it. Components read it and call its methods; every result
// comes from the engine through `api`.
import { api } from './api';
import { HostError } from './host';
import type { AgentInfo, AppError, Diagnostic, LibraryView, PromptView, SkillEntry } from './bindings';

export type Pane = 'library' | 'editor' | 'problems' | 'prompt' | 'session';

export interface OpenFile {
  path: string;
  name: string;
  /** The text on disk when opened or last saved. */
  saved: string;
  /** The editor's text. */
  text: string;
  /** Bumped when the text is replaced from outside the editor (open, fix). */
  version: number;
}

export interface Jump {
  line: number;
  columnUtf16: number;
  seq: number;
  /** The end of the span to select (a diagnostic's end); none puts the cursor at the start. */
  end?: { line: number; columnUtf16: number };
}

function asAppError(e: unknown): AppError {
  return e instanceof HostError ? e.error : { code: 'internal', message: String(e), details: [] };
}

export class Studio {
  agents = $state<AgentInfo[]>([]);
  sources = $state<string[]>([]);
  /** The profile the library is linted with. */
  agent = $state('spec');
  library = $state<LibraryView | null>(null);
  selected = $state<string | null>(null);
  file = $state<OpenFile | null>(null);
  /** The engine's diagnostics for the editor's current text. */
  live = $state<Diagnostic[]>([]);
  jump = $state<Jump | null>(null);
  promptAgent = $state('claude-code');
  contextWindow = $state<number | null>(null);
  charBudget = $state<number | null>(null);
  prompt = $state<PromptView | null>(null);
  promptError = $state<AppError | null>(null);
  error = $state<AppError | null>(null);
  status = $state('');
  focus = $state<{ pane: Pane; seq: number }>({ pane: 'library', seq: 0 });

  get dirty() {
    return this.file !== null && this.file.text !== this.file.saved;
  }

  /** Every diagnostic of the library, the open file's replaced by its live ones. */
  get problems(): { skill: SkillEntry; diagnostic: Diagnostic }[] {
    const out: { skill: SkillEntry; diagnostic: Diagnostic }[] = [];
    for (const skill of this.library?.skills ?? []) {
      const ds = this.file && skill.path === this.file.path ? this.live : skill.diagnostics;
      for (const diagnostic of ds) out.push({ skill, diagnostic });
    }
    return out;
  }

  focusPane(pane: Pane) {
    this.focus = { pane, seq: this.focus.seq + 1 };
  }

  async start() {
    try {
      const [startup, agents] = await Promise.all([api.startup(null), api.agents(null)]);
      this.agents = agents;
      this.sources = startup.sources;
      this.agent = startup.agent;
      await this.openLibrary();
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  async openLibrary() {
    try {
      this.library = await api.open_library({ sources: this.sources, agent: this.agent });
      this.error = null;
      this.status = `${this.library.skills.length} skills in ${this.library.sources.length} source(s)`;
    } catch (e) {
      this.error = asAppError(e);
    }
    await this.renderPrompt();
  }

  skill(path: string) {
    return this.library?.skills.find((s) => s.path === path) ?? null;
  }

  async openSkill(path: string, text?: string) {
    const skill = this.skill(path);
    if (!skill) return;
    this.selected = path;
    if (this.file?.path === path) return;
    // The engine reads files; the UI gets the text through a lint-free read: the library's
    // diagnostics are for the saved file, so the text comes from `read`.
    const content = text ?? (await this.read(path));
    if (content === null) return;
    this.file = { path, name: skill.name, saved: content, text: content, version: (this.file?.version ?? 0) + 1 };
    this.live = skill.diagnostics;
  }

  async read(path: string): Promise<string | null> {
    try {
      return (await api.read_file({ path })).text;
    } catch (e) {
      this.error = asAppError(e);
      return null;
    }
  }

  /** Lints the editor's text; returns the diagnostics for that text. */
  async lint(text: string): Promise<Diagnostic[]> {
    if (!this.file) return [];
    this.file.text = text;
    try {
      const { diagnostics } = await api.lint_text({ path: this.file.path, text, agent: this.agent });
      if (this.file.text === text) this.live = diagnostics;
      return diagnostics;
    } catch (e) {
      this.error = asAppError(e);
      return [];
    }
  }

  async applyFix(d: Diagnostic) {
    if (!this.file || !d.fix) return;
    try {
      const { text } = await api.apply_fixes({ text: this.file.text, fixes: [d.fix] });
      this.file = { ...this.file, text, version: this.file.version + 1 };
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  async save() {
    if (!this.file) return;
    const { path, text } = this.file;
    try {
      const saved = await api.save_file({ path, text });
      if (this.file?.path === path) this.file.saved = text;
      this.status = `saved ${saved.path} (${saved.bytes} bytes)`;
      this.error = null;
      await this.refresh();
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** Re-opens the library (after a save) keeping the open file. */
  async refresh() {
    try {
      this.library = await api.open_library({ sources: this.sources, agent: this.agent });
    } catch (e) {
      this.error = asAppError(e);
    }
    await this.renderPrompt();
  }

  goTo(path: string, d: Diagnostic) {
    void this.openSkill(path).then(() => {
      this.jump = {
        line: d.start.line,
        columnUtf16: d.start.column_utf16,
        seq: (this.jump?.seq ?? 0) + 1,
        end: { line: d.end.line, columnUtf16: d.end.column_utf16 },
      };
      this.focusPane('editor');
    });
  }

  /** Lints the library (and the open file's unsaved text) under another agent profile. */
  async setAgent(agent: string) {
    this.agent = agent;
    await this.openLibrary();
    if (this.file) {
      const { path, text } = this.file;
      try {
        const { diagnostics } = await api.lint_text({ path, text, agent });
        if (this.file?.path === path && this.file.text === text && this.agent === agent) this.live = diagnostics;
      } catch (e) {
        this.error = asAppError(e);
      }
      // The editor re-lints (its squiggles) when the version changes.
      if (this.file) this.file = { ...this.file, version: this.file.version + 1 };
    }
  }

  async renderPrompt() {
    try {
      this.prompt = await api.render_prompt({
        sources: this.sources,
        agent: this.promptAgent,
        context_window: this.contextWindow,
        char_budget: this.charBudget,
        loaded: [],
      });
      this.promptError = null;
    } catch (e) {
      this.prompt = null;
      this.promptError = asAppError(e);
    }
  }
}
