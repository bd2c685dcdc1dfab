// What is shown beside the editor: the frontmatter form read from the editor's text, the
// Markdown preview rendered by the engine, and in the preview's place a file of the skill a link
// in it points to.
import { api, asAppError } from './api';
import { debounce } from './debounce';
import type { FieldLimit, FormField, PreviewView } from './bindings';
import type { OpenFile } from './editing.svelte';
import type { LayoutState } from './layout.svelte';
import type { Notices } from './notices.svelte';

/** What the preview store reads and tells outside itself (the `Studio` root wires it). */
export interface PreviewDeps {
  notices: Notices;
  /** Where whether the form and the preview are shown is remembered. */
  layout: Pick<LayoutState, 'showPreview' | 'showForm' | 'changed'>;
  /** The file open in the editor. */
  file: () => OpenFile | null;
  /** The profile whose field limits the form shows. */
  agent: () => string;
  /** Replaces the open file's text (a field rewritten). */
  replaceText: (text: string) => void;
}

export class PreviewState {
  /** The Markdown preview beside the editor. */
  show = $state(false);
  view = $state<PreviewView | null>(null);
  /** The frontmatter form beside the editor, read from the editor's text. */
  showForm = $state(true);
  form = $state<FormField[]>([]);
  /** The fields' length limits under `limitsAgent` (the engine's, per profile). */
  limits = $state<FieldLimit[]>([]);
  limitsAgent = $state<string | null>(null);
  /** A file of the open skill shown in the preview's place (a link followed), read-only. */
  viewing = $state<{ path: string; text: string | null; error: string | null } | null>(null);
  private renderSoon = debounce(() => void this.render(), 150);
  private refreshFormSoon = debounce(() => void this.refreshForm(), 120);

  constructor(private deps: PreviewDeps) {}

  /** The editor still has `path` open with this `text` (an answer for it is not stale). */
  private stillOpen(path: string, text: string) {
    const now = this.deps.file();
    return now?.path === path && now.text === text;
  }

  /** Another file was opened in the editor. */
  opened() {
    this.viewing = null;
    if (this.show) void this.render();
    if (this.showForm) void this.refreshForm();
  }

  /** The editor's text changed: both follow once the typing pauses. */
  edited() {
    if (this.show) this.renderSoon();
    if (this.showForm) this.refreshFormSoon();
  }

  toggle() {
    this.show = !this.show;
    this.deps.layout.showPreview = this.show;
    this.deps.layout.changed();
    this.viewing = null;
    if (this.show) void this.render();
  }

  toggleForm() {
    this.showForm = !this.showForm;
    this.deps.layout.showForm = this.showForm;
    this.deps.layout.changed();
    if (this.showForm) void this.refreshForm();
  }

  /** Reads the form's fields from the editor's text. */
  async refreshForm() {
    const file = this.deps.file();
    if (!file) {
      this.form = [];
      return;
    }
    const { path, text } = file;
    const agent = this.deps.agent();
    try {
      const { fields, limits } = await api.frontmatter_form({ text, agent });
      if (this.deps.agent() === agent) {
        this.limits = limits;
        this.limitsAgent = agent;
      }
      if (this.stillOpen(path, text)) this.form = fields;
    } catch (e) {
      this.deps.notices.error = asAppError(e);
    }
  }

  /** A form field was edited: rewrite only that value in the text. */
  async setField(key: string, value: string) {
    const file = this.deps.file();
    if (!file) return;
    try {
      const { text } = await api.set_frontmatter_field({ text: file.text, key, value });
      if (this.deps.file()?.path !== file.path) return;
      this.deps.replaceText(text);
      await this.refreshForm();
    } catch (e) {
      this.deps.notices.error = asAppError(e);
    }
  }

  /** Shows the file at `rel` (relative to the open skill's folder) in the preview's place. */
  async viewFile(rel: string) {
    const file = this.deps.file();
    if (!file) return;
    const path = `${file.path.slice(0, file.path.lastIndexOf('/'))}/${rel}`;
    this.viewing = { path: rel, text: null, error: null };
    // The same file still open (its text may have changed meanwhile) and the same link asked for.
    const current = () => this.deps.file()?.path === file.path && this.viewing?.path === rel;
    try {
      const { text } = await api.read_file({ path });
      if (current()) this.viewing = { path: rel, text, error: null };
    } catch (e) {
      if (current()) this.viewing = { path: rel, text: null, error: asAppError(e).message };
    }
  }

  /** Renders the editor's text with the engine (images only from the skill's folder). */
  async render() {
    const file = this.deps.file();
    if (!file) {
      this.view = null;
      return;
    }
    const { path, text } = file;
    try {
      const view = await api.render_preview({ path, text });
      if (this.stillOpen(path, text)) this.view = view;
    } catch (e) {
      this.deps.notices.error = asAppError(e);
    }
  }

  /** Drops the pending renders (the window is going away). */
  stop() {
    this.renderSoon.cancel();
    this.refreshFormSoon.cancel();
  }
}
