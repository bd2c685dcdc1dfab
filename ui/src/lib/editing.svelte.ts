// The Editor pane's state: the open file and its text, the engine's diagnostics for that text
// and its fixes, saves (one at a time, each over the version on disk it replaces), changes on
// disk and the conflicts they raise, and the drafts that keep unsaved text across runs.
import { api, asAppError } from './api';
import { debounce } from './debounce';
import { afterPaint } from './frame';
import type { CompletionItem, Diagnostic, Draft, HoverView, SkillEntry, Version } from './bindings';
import type { Notices } from './notices.svelte';
import { count } from './format';

/** What the editing store reads and tells outside itself (the `Studio` root wires it). */
export interface EditingDeps {
  notices: Notices;
  /** The library's skill at `path`, `null` when the library has none there. */
  skill: (path: string) => SkillEntry | null;
  /** The profile the library is linted with (the open file is linted under it too). */
  agent: () => string;
  /** A skill was asked to be opened: it is the library's selected one. */
  select: (path: string) => void;
  /** Another file was opened. */
  onOpened: (path: string) => void;
  /** The open file's text changed in the editor. */
  onEdited: () => void;
  /** Brings the editor to the front (a diagnostic jumped to, a draft restored). */
  focusEditor: () => void;
}

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

export interface Jump {
  line: number;
  columnUtf16: number;
  seq: number;
  /** The end of the span to select (a diagnostic's end); none puts the cursor at the start. */
  end?: { line: number; columnUtf16: number };
}

/** Whether two lists of diagnostics say the same (the same findings, at the same places). */
export function sameDiagnostics(a: Diagnostic[], b: Diagnostic[]): boolean {
  return a === b || (a.length === b.length && JSON.stringify(a) === JSON.stringify(b));
}

export class EditingState {
  file = $state<OpenFile | null>(null);
  /** The engine's diagnostics for the editor's current text (replaced whole, never changed in
   *  place: no deep proxy to build per lint). */
  live = $state.raw<Diagnostic[]>([]);
  jump = $state<Jump | null>(null);
  /** The cursor's line and column (1-based, in characters), for the status bar. */
  cursor = $state<{ line: number; column: number } | null>(null);
  conflict = $state<Conflict | null>(null);
  /** Unsaved text from an earlier run, newer than its file, offered for restoring. */
  drafts = $state<Draft[]>([]);
  /** Files whose draft this run wrote (and must remove when the text is clean again). */
  private drafted = new Set<string>();
  private writeDraftSoon = debounce(() => void this.writeDraft(), 400);
  /** The text being saved by the app itself: its change on disk is not a conflict. */
  private saving: { path: string; text: string } | null = null;
  /** The save running now, so that one key press handled twice saves once. */
  private inFlight: { path: string; text: string } | null = null;
  /** The saves queued and running, one at a time. */
  private saveQueue: Promise<void> = Promise.resolve();

  constructor(private deps: EditingDeps) {}

  private get notices() {
    return this.deps.notices;
  }

  /** A save of the open file is running. */
  get isSaving() {
    return this.savingNow;
  }
  private savingNow = $state(false);

  get dirty() {
    return this.file !== null && this.file.text !== this.file.saved;
  }

  /** Opens a skill of the library (selecting it); `given` is its text when already read. */
  async open(path: string, given?: { text: string; version: Version }) {
    const skill = this.deps.skill(path);
    if (!skill) return;
    this.deps.select(path);
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
    this.cursor = { line: 1, column: 1 };
    this.live = skill.diagnostics;
    this.deps.onOpened(path);
  }

  async read(path: string): Promise<{ text: string; version: Version } | null> {
    try {
      return await api.read_file({ path });
    } catch (e) {
      this.notices.error = asAppError(e);
      return null;
    }
  }

  /** Opens the skill at `path` with the diagnostic's span selected, and focuses the editor. */
  goTo(path: string, d: Diagnostic) {
    void this.open(path).then(() => {
      this.jump = {
        line: d.start.line,
        columnUtf16: d.start.column_utf16,
        seq: (this.jump?.seq ?? 0) + 1,
        end: { line: d.end.line, columnUtf16: d.end.column_utf16 },
      };
      this.deps.focusEditor();
    });
  }

  /** Opens the skill at `path` with the cursor at `start` (its top when none), and focuses the
   *  editor: a place a finding names without a span to select. */
  goToPlace(path: string, start: { line: number; column_utf16: number } | null) {
    void this.open(path).then(() => {
      const at = start ?? { line: 1, column_utf16: 1 };
      this.jump = { line: at.line, columnUtf16: at.column_utf16, seq: (this.jump?.seq ?? 0) + 1 };
      this.deps.focusEditor();
    });
  }

  /** The editor's text changed. */
  edit(text: string) {
    if (this.file) this.file.text = text;
    this.deps.onEdited();
    this.writeDraftSoon();
  }

  /** Lints the editor's text; returns the diagnostics for that text. */
  async lint(text: string): Promise<Diagnostic[]> {
    if (!this.file) return [];
    this.file.text = text;
    try {
      const { diagnostics } = await api.lint_text({ path: this.file.path, text, agent: this.deps.agent() });
      // The editor shows its squiggles first; the Problems pane and the status bar follow once
      // that frame is painted, and only when the diagnostics differ from those they show.
      afterPaint(() => {
        if (this.file?.text === text && !sameDiagnostics(this.live, diagnostics)) this.live = diagnostics;
      });
      return diagnostics;
    } catch (e) {
      this.notices.error = asAppError(e);
      return [];
    }
  }

  /** The diagnostics whose fix the engine offers at the cursor in `text`, the preferred first. */
  async quickFixes(text: string, line: number, column: number): Promise<Diagnostic[]> {
    if (!this.file) return [];
    const { diagnostics } = await api.quick_fixes({
      path: this.file.path,
      text,
      agent: this.deps.agent(),
      line,
      column_utf16: column,
    });
    return diagnostics;
  }

  /** The engine's hover at a place of `text` (the open file's, unsaved): `null` where it has
   *  nothing to say. */
  async hover(text: string, line: number, column: number): Promise<HoverView | null> {
    if (!this.file) return null;
    const { hover } = await api.hover({ path: this.file.path, text, agent: this.deps.agent(), line, column_utf16: column });
    return hover;
  }

  /** The engine's completions at a place of `text` (the open file's, unsaved). */
  async complete(text: string, line: number, column: number): Promise<CompletionItem[]> {
    if (!this.file) return [];
    const { items } = await api.complete({ path: this.file.path, text, agent: this.deps.agent(), line, column_utf16: column });
    return items;
  }

  /** Lints the open file's text under the profile `agent` (the library was just opened with it). */
  async relint(agent: string) {
    if (!this.file) return;
    const { path, text } = this.file;
    try {
      const { diagnostics } = await api.lint_text({ path, text, agent });
      if (this.file?.path === path && this.file.text === text && this.deps.agent() === agent) this.live = diagnostics;
    } catch (e) {
      this.notices.error = asAppError(e);
    }
    // The editor re-lints (its squiggles) when the version changes.
    if (this.file) this.file = { ...this.file, version: this.file.version + 1 };
  }

  /** Replaces the open file's text from outside the editor (a form field rewritten). */
  replaceText(text: string) {
    const now = this.file;
    if (now && text !== now.text) this.file = { ...now, text, version: now.version + 1 };
  }

  /** Closes the open file when it is clean and no longer a skill of the library (its sources
   *  changed); unsaved text stays. Returns whether it closed it. */
  closeIfGone(): boolean {
    if (!this.file || this.deps.skill(this.file.path) || this.dirty) return false;
    this.file = null;
    return true;
  }

  /** Applies a fix the engine offered for `linted`, the text it was computed for: its byte spans
   *  fit that text only, so after any other change it is refused (the next lint offers it anew). */
  async applyFix(d: Diagnostic, linted: string) {
    const file = this.file;
    if (!file || !d.fix) return;
    const stale = 'the text changed since this fix was offered: try it again now';
    if (file.text !== linted) {
      this.notices.status = stale;
      return;
    }
    try {
      const { text } = await api.apply_fixes({ text: linted, fixes: [d.fix] });
      const now = this.file;
      if (!now || now.path !== file.path || now.text !== linted) {
        this.notices.status = stale;
        return;
      }
      this.file = { ...now, text, version: now.version + 1 };
    } catch (e) {
      this.notices.error = asAppError(e);
    }
  }

  async save() {
    if (!this.file) return;
    const { path, text } = this.file;
    if (this.inFlight && this.inFlight.path === path && this.inFlight.text === text) return;
    const mine = (this.inFlight = { path, text });
    this.savingNow = true;
    // Saves run one after another, each over the version the one before wrote: an older save can
    // never land after a newer one.
    const run = this.saveQueue.then(() => this.saveNow(path, text));
    this.saveQueue = run.catch(() => {});
    try {
      await run;
    } finally {
      if (this.inFlight === mine) {
        this.inFlight = null;
        this.savingNow = false;
      }
    }
  }

  private async saveNow(path: string, text: string) {
    const { notices } = this;
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
      notices.status = `saved ${saved.path} (${count(saved.bytes, 'byte')})`;
      notices.error = null;
      // The watcher reports the save and refreshes the library.
    } catch (e) {
      const err = asAppError(e);
      if (err.code === 'conflict') {
        // Changed on disk since it was read: show both instead of overwriting it.
        this.saving = null;
        await this.raiseConflict(path);
        notices.status = `not saved: ${path} changed on disk; choose which text to keep`;
      } else {
        notices.error = err;
      }
    }
  }

  private async raiseConflict(path: string) {
    try {
      const disk = await api.read_file({ path });
      if (this.file?.path === path) this.conflict = { path, disk: disk.text, base: disk.version };
    } catch (e) {
      this.notices.error = asAppError(e);
    }
  }

  /** Compares the open file with the disk: reload it when clean, raise a conflict when dirty. */
  async checkDisk(path: string) {
    let disk: string;
    let base: Version;
    try {
      ({ text: disk, version: base } = await api.read_file({ path }));
    } catch {
      if (this.file?.path === path) this.notices.status = `${path} is no longer on disk; saving writes it again`;
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
      this.notices.status = `reloaded ${path}: it changed on disk`;
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
      this.notices.status = `unsaved text not kept: ${asAppError(e).message}`;
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
    await this.open(d.path);
    const file = this.file;
    if (file?.path !== d.path) {
      this.notices.status = `${d.path} is not a skill of the opened library; its draft is kept`;
      return;
    }
    this.file = { ...file, text: d.text, version: file.version + 1 };
    this.drafted.add(d.path);
    this.deps.focusEditor();
  }

  async discardDraft(d: Draft) {
    this.drafts = this.drafts.filter((x) => x.path !== d.path);
    try {
      await api.discard_draft({ path: d.path });
    } catch (e) {
      this.notices.error = asAppError(e);
    }
  }

  /** Drops the draft waiting to be written (the window is going away). */
  stop() {
    this.writeDraftSoon.cancel();
  }
}
