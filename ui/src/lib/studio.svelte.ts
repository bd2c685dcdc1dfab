// The app's state and the actions on it. Components read it and call its methods; every result
// comes from the engine through `api`.
import { api, dialogs, events } from './api';
import { HostError } from './host';
import { debounce } from './debounce';
import { PreviewState } from './preview.svelte';
import { PromptState } from './prompt.svelte';
import { SessionState } from './session.svelte';
import type {
  AgentInfo,
  AppError,
  Diagnostic,
  Draft,
  LibraryChanged,
  LibraryEvent,
  LibraryView,
  NewSkill,
  NewSkillCheck,
  SkillEntry,
  Version,
} from './bindings';

export type Pane = 'library' | 'editor' | 'problems' | 'prompt' | 'session' | 'conflict';

export interface OpenFile {
  path: string;
  name: string;
  /** The text on disk when opened or last saved. */
  saved: string;
  /** The editor's text. */
  text: string;
  /** Bumped when the text is replaced from outside the editor (open, fix). */
  version: number;
  /** The file's version on disk that `saved` is: the next save is made only over it. */
  base: Version | null;
}

/** The open file changed on disk while it had unsaved changes. */
export interface Conflict {
  path: string;
  /** The text on disk now. */
  disk: string;
  /** Its version: keeping mine saves over exactly this. */
  base: Version | null;
}

function dirOf(path: string) {
  return path.slice(0, path.lastIndexOf('/'));
}

/** Whether a library event concerns the skill file at `path`. */
export function touches(e: LibraryEvent, path: string): boolean {
  const dir = dirOf(path);
  switch (e.kind) {
    case 'skill-renamed':
      return e.from === dir;
    case 'resource-changed':
      return false;
    default:
      return e.dir === dir;
  }
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
  error = $state<AppError | null>(null);
  status = $state('');
  focus = $state<{ pane: Pane; seq: number }>({ pane: 'library', seq: 0 });
  conflict = $state<Conflict | null>(null);
  /** The text being saved by the app itself: its change on disk is not a conflict. */
  private saving: { path: string; text: string } | null = null;
  private unlisten: (() => void) | null = null;
  /** The save running now, so that one key press handled twice saves once. */
  private inFlight: { path: string; text: string } | null = null;
  /** The saves queued and running, one at a time. */
  private saveQueue: Promise<void> = Promise.resolve();
  /** The Session pane's steps and settings. */
  readonly preview = new PreviewState(this);
  readonly prompt = new PromptState(this);
  readonly session = new SessionState(this);

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
      this.unlisten ??= await events.on('library-changed', (c) => void this.libraryChanged(c));
    } catch (e) {
      // Without the events the app still works; changes on disk are just not seen.
      console.warn('not listening to library changes', e);
    }
    try {
      const [startup, agents] = await Promise.all([api.startup(null), api.agents(null)]);
      this.agents = agents;
      this.sources = startup.sources;
      this.agent = startup.agent;
      await this.openLibrary();
      await this.loadDrafts();
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
    await this.prompt.render();
  }

  /** Opens the library with these sources (lowest priority first). */
  async setSources(sources: string[]) {
    this.sources = sources;
    await this.openLibrary();
    // A clean file that is no longer in the library is closed; unsaved text stays.
    if (this.file && !this.skill(this.file.path) && !this.dirty) {
      this.file = null;
      this.selected = null;
    }
  }

  /** Unsaved text from an earlier run, newer than its file, offered for restoring. */
  drafts = $state<Draft[]>([]);
  private scheduleDraft = debounce(() => void this.writeDraft(), 400);
  /** Files whose draft this run wrote (and must remove when the text is clean again). */
  private drafted = new Set<string>();

  /** Keeps the open file's unsaved text in the data folder, or drops it once the text is clean. */
  async writeDraft() {
    const file = this.file;
    if (!file) return;
    const { path, text, saved } = file;
    try {
      if (text !== saved) {
        await api.save_draft({ path, text });
        this.drafted.add(path);
      } else if (this.drafted.has(path)) {
        await api.discard_draft({ path });
        this.drafted.delete(path);
      }
    } catch (e) {
      this.status = `unsaved text not kept: ${asAppError(e).message}`;
    }
  }

  async loadDrafts() {
    try {
      this.drafts = await api.drafts(null);
    } catch {
      this.drafts = [];
    }
  }

  /** Opens the draft's file with the draft's text (unsaved). */
  async restoreDraft(d: Draft) {
    this.drafts = this.drafts.filter((x) => x.path !== d.path);
    await this.openSkill(d.path);
    const file = this.file;
    if (file?.path !== d.path) {
      this.status = `${d.path} is not a skill of the opened library; its draft is kept`;
      return;
    }
    this.file = { ...file, text: d.text, version: file.version + 1 };
    this.drafted.add(d.path);
    this.focusPane('editor');
  }

  async discardDraft(d: Draft) {
    this.drafts = this.drafts.filter((x) => x.path !== d.path);
    try {
      await api.discard_draft({ path: d.path });
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** The "New skill" dialog is open. */
  newSkillOpen = $state(false);

  /** What every profile's checks say about a proposed new skill (`null` on a host error). */
  async checkNewSkill(args: NewSkill): Promise<NewSkillCheck | null> {
    try {
      return await api.check_new_skill(args);
    } catch (e) {
      this.error = asAppError(e);
      return null;
    }
  }

  /** Creates the skill, reopens the library and opens the new file in the editor. */
  async createSkill(args: NewSkill): Promise<boolean> {
    try {
      const created = await api.create_skill(args);
      await this.openLibrary();
      await this.openSkill(created.path, created);
      this.status = `created ${created.path}`;
      this.focusPane('editor');
      return true;
    } catch (e) {
      this.error = asAppError(e);
      return false;
    }
  }

  /** Asks for a folder and adds it as the highest-priority source. */
  async addSource() {
    try {
      const dir = await dialogs.pickFolder('Add a folder of skills');
      if (dir === null) return;
      if (this.sources.includes(dir)) {
        this.status = `${dir} is already a source`;
        return;
      }
      await this.setSources([...this.sources, dir]);
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  async removeSource(index: number) {
    if (index < 0 || index >= this.sources.length) return;
    await this.setSources(this.sources.filter((_, i) => i !== index));
  }

  /** Moves source `from` to position `to` (priority order: later wins). */
  async moveSource(from: number, to: number) {
    const n = this.sources.length;
    if (from < 0 || from >= n || to < 0 || to >= n || from === to) return;
    const next = [...this.sources];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    await this.setSources(next);
  }

  skill(path: string) {
    return this.library?.skills.find((s) => s.path === path) ?? null;
  }

  async openSkill(path: string, given?: { text: string; version: Version }) {
    const skill = this.skill(path);
    if (!skill) return;
    this.selected = path;
    if (this.file?.path === path) return;
    // The engine reads files; the UI gets the text through a lint-free read: the library's
    // diagnostics are for the saved file, so the text comes from `read`.
    const got = given ?? (await this.read(path));
    if (got === null) return;
    const content = got.text;
    this.file = {
      path,
      name: skill.name,
      saved: content,
      text: content,
      version: (this.file?.version ?? 0) + 1,
      base: got.version,
    };
    this.conflict = null;
    this.preview.opened();
    this.live = skill.diagnostics;
  }

  async read(path: string): Promise<{ text: string; version: Version } | null> {
    try {
      return await api.read_file({ path });
    } catch (e) {
      this.error = asAppError(e);
      return null;
    }
  }

  /** The editor's text changed. */
  edit(text: string) {
    if (this.file) this.file.text = text;
    this.preview.edited();
    this.scheduleDraft();
  }

  /** Lints the editor's text; returns the diagnostics for that text. */
  async lint(text: string): Promise<Diagnostic[]> {
    if (!this.file) return [];
    this.file.text = text;
    try {
      const { diagnostics } = await api.lint_text({ path: this.file.path, text, agent: this.agent });
      // The editor shows its squiggles first; the Problems pane follows in the next task.
      setTimeout(() => {
        if (this.file?.text === text) this.live = diagnostics;
      }, 0);
      return diagnostics;
    } catch (e) {
      this.error = asAppError(e);
      return [];
    }
  }

  /** Applies a fix the engine offered for `linted`, the text it was computed for: its byte spans
   *  fit that text only, so after any other change it is refused (the next lint offers it anew). */
  async applyFix(d: Diagnostic, linted: string) {
    const file = this.file;
    if (!file || !d.fix) return;
    const stale = 'the text changed since this fix was offered: try it again now';
    if (file.text !== linted) {
      this.status = stale;
      return;
    }
    try {
      const { text } = await api.apply_fixes({ text: linted, fixes: [d.fix] });
      const now = this.file;
      if (!now || now.path !== file.path || now.text !== linted) {
        this.status = stale;
        return;
      }
      this.file = { ...now, text, version: now.version + 1 };
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  togglePreview() {
    this.preview.toggle();
  }

  /** Stops listening and drops pending debounced work (the window is going away). */
  stop() {
    this.unlisten?.();
    this.unlisten = null;
    this.scheduleDraft.cancel();
    this.preview.stop();
  }

  async save() {
    if (!this.file) return;
    const { path, text } = this.file;
    if (this.inFlight && this.inFlight.path === path && this.inFlight.text === text) return;
    const mine = (this.inFlight = { path, text });
    // Saves run one after another, each over the version the one before wrote: an older save can
    // never land after a newer one.
    const run = this.saveQueue.then(() => this.saveNow(path, text));
    this.saveQueue = run.catch(() => {});
    try {
      await run;
    } finally {
      if (this.inFlight === mine) this.inFlight = null;
    }
  }

  private async saveNow(path: string, text: string) {
    const base = this.file?.path === path ? this.file.base : null;
    this.saving = { path, text };
    try {
      const saved = await api.save_file(base ? { path, text, base } : { path, text });
      if (this.file?.path === path) {
        this.file.saved = text;
        this.file.base = saved.version;
      }
      if (this.conflict?.path === path) this.conflict = null;
      // The host removed the draft with the save.
      this.drafted.delete(path);
      this.status = `saved ${saved.path} (${saved.bytes} bytes)`;
      this.error = null;
      // The watcher reports the save and refreshes the library.
    } catch (e) {
      const err = asAppError(e);
      if (err.code === 'conflict') {
        // Changed on disk since it was read: show both instead of overwriting it.
        this.saving = null;
        await this.raiseConflict(path);
        this.status = `not saved: ${path} changed on disk; choose which text to keep`;
      } else {
        this.error = err;
      }
    }
  }

  private async raiseConflict(path: string) {
    try {
      const disk = await api.read_file({ path });
      if (this.file?.path === path) this.conflict = { path, disk: disk.text, base: disk.version };
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** The watcher saw changes: show the refreshed library, and check the open file against the disk. */
  async libraryChanged(c: LibraryChanged) {
    this.library = c.library;
    if (c.errors.length) this.status = c.errors.join('; ');
    const file = this.file;
    if (file && c.events.some((e) => touches(e, file.path))) await this.checkDisk(file.path);
    await this.prompt.render();
  }

  /** Compares the open file with the disk: reload it when clean, raise a conflict when dirty. */
  async checkDisk(path: string) {
    let disk: string;
    let base: Version;
    try {
      ({ text: disk, version: base } = await api.read_file({ path }));
    } catch {
      if (this.file?.path === path) this.status = `${path} is no longer on disk; saving writes it again`;
      return;
    }
    const file = this.file;
    if (!file || file.path !== path) return;
    const own = this.saving?.path === path && this.saving.text === disk;
    if (own) this.saving = null;
    if (disk === file.saved || own) {
      if (disk === file.saved) file.base = base;
      return;
    }
    if (disk === file.text) {
      file.saved = disk;
      file.base = base;
    } else if (file.text === file.saved) {
      this.file = { ...file, saved: disk, text: disk, version: file.version + 1, base };
      this.status = `reloaded ${path}: it changed on disk`;
    } else {
      this.conflict = { path, disk, base };
    }
  }

  /** Conflict: keep the editor's text and write it over the disk's. */
  async keepMine() {
    const c = this.conflict;
    if (!c || this.file?.path !== c.path) return;
    this.file.saved = c.disk;
    this.file.base = c.base;
    this.conflict = null;
    await this.save();
  }

  /** Conflict: replace the editor's text with the disk's. */
  takeDisk() {
    const c = this.conflict;
    if (!c || this.file?.path !== c.path) return;
    this.file = { ...this.file, saved: c.disk, text: c.disk, version: this.file.version + 1, base: c.base };
    this.conflict = null;
  }

  /** Conflict: close the view and keep editing; the disk's text becomes the one saves replace. */
  keepEditing() {
    const c = this.conflict;
    if (!c) return;
    if (this.file?.path === c.path) {
      this.file.saved = c.disk;
      this.file.base = c.base;
    }
    this.conflict = null;
  }

  /** Re-opens the library (after a save) keeping the open file. */
  async refresh() {
    try {
      this.library = await api.open_library({ sources: this.sources, agent: this.agent });
    } catch (e) {
      this.error = asAppError(e);
    }
    await this.prompt.render();
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

}
