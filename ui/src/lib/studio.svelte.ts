// The app's state and the actions on it, as one store per concern composed here: the library,
// the open file in the editor, what is shown beside it (form, preview), the prompt, the
// session and the evals. Components get the `Studio` and reach each store through it; every result comes from
// the engine through `api`.
import { api, asAppError, events } from './api';
import { EditingState } from './editing.svelte';
import { EvalsState } from './evals.svelte';
import { LayoutState, NARROW } from './layout.svelte';
import { LibraryState } from './library.svelte';
import { PreviewState } from './preview.svelte';
import { PromptState } from './prompt.svelte';
import { SessionState } from './session.svelte';
import type { AppError, Diagnostic, LibraryChanged, LibraryEvent, Version } from './bindings';

export type { Conflict, Jump, OpenFile } from './editing.svelte';

export type Pane = 'library' | 'editor' | 'problems' | 'prompt' | 'session' | 'evals' | 'matrix' | 'conflict';

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

export class Studio {
  error = $state<AppError | null>(null);
  status = $state('');
  focus = $state<{ pane: Pane; seq: number }>({ pane: 'library', seq: 0 });
  /** The bundled example library, when the app has one (the welcome screen offers it). */
  examples = $state<string | null>(null);
  /** Set once the first library is open (or failed to open): the welcome screen waits for it. */
  started = $state(false);

  readonly layout = new LayoutState();
  readonly library = new LibraryState(this);
  readonly editor = new EditingState(this);
  readonly preview = new PreviewState(this);
  readonly prompt = new PromptState(this);
  readonly session = new SessionState(this);
  readonly evals = new EvalsState(this);

  private unlisten: (() => void) | null = null;
  private unlistenProgress: (() => void) | null = null;

  /** The agent the whole window works under: lint, Problems, Prompt and Session. */
  get agentInfo() {
    return this.library.agents.find((a) => a.id === this.library.agent) ?? null;
  }

  /** A plain name of agent `id` ("Claude Code 2.1"), the id when it is unknown. */
  agentLabel(id: string) {
    return this.library.agents.find((a) => a.id === id)?.label ?? id;
  }

  /** Works under agent `id` from now on: the library is linted under it again, and the Prompt
   *  and Session panes follow. */
  async setAgent(id: string) {
    if (id === this.library.agent) return;
    await this.library.setAgent(id);
    this.session.agentChanged();
    // Evals run under the window's agent when it offers a skill tool (a suite may name another).
    if (this.agentInfo?.has_skill_tool) this.evals.agent = id;
  }

  focusPane(pane: Pane) {
    this.focus = { pane, seq: this.focus.seq + 1 };
  }

  async start() {
    try {
      this.unlisten ??= await events.on('library-changed', (c) => void this.libraryChanged(c));
      this.unlistenProgress ??= await events.on('eval-progress', (p) => this.evals.onProgress(p));
    } catch (e) {
      // Without the events the app still works; changes on disk are just not seen.
      console.warn('not listening to library changes', e);
    }
    try {
      const [startup, agents] = await Promise.all([api.startup(null), api.agents(null), this.layout.load()]);
      const layout = this.layout;
      this.examples = startup.examples ?? null;
      // The form and the preview as last left; on a first start, the form only in a wide window.
      this.preview.show = layout.showPreview ?? false;
      this.preview.showForm = layout.showForm ?? layout.width >= NARROW;
      this.library.agents = agents;
      this.library.sources = startup.sources;
      this.library.agent = startup.agent;
      await this.library.open();
      await this.editor.loadDrafts();
      // The file left open last time, when it is still a skill of this library.
      const last = layout.lastFile;
      if (last && !this.editor.file && this.library.skill(last)) await this.editor.open(last);
    } catch (e) {
      this.error = asAppError(e);
    }
    this.started = true;
  }

  /** Stops listening and drops pending debounced work (the window is going away). */
  stop() {
    this.unlisten?.();
    this.unlisten = null;
    this.unlistenProgress?.();
    this.unlistenProgress = null;
    this.editor.stop();
    this.preview.stop();
    this.layout.flush();
  }

  /** The watcher saw changes: show the refreshed library, and check the open file against the disk. */
  async libraryChanged(c: LibraryChanged) {
    this.library.view = c.library;
    if (c.errors.length) this.status = c.errors.join('; ');
    const file = this.editor.file;
    if (file && c.events.some((e) => touches(e, file.path))) await this.editor.checkDisk(file.path);
    await this.prompt.render();
  }

  // Shortcuts to what the tests drive most.

  get file() {
    return this.editor.file;
  }
  get dirty() {
    return this.editor.dirty;
  }
  get live() {
    return this.editor.live;
  }
  get jump() {
    return this.editor.jump;
  }
  /** The profile the library is linted with. */
  get agent() {
    return this.library.agent;
  }
  openSkill(path: string, given?: { text: string; version: Version }) {
    return this.editor.open(path, given);
  }
  lint(text: string): Promise<Diagnostic[]> {
    return this.editor.lint(text);
  }
  save() {
    return this.editor.save();
  }
  keepMine() {
    return this.editor.keepMine();
  }
  togglePreview() {
    this.preview.toggle();
  }
  addSource() {
    return this.library.addSource();
  }
  removeSource(index: number) {
    return this.library.removeSource(index);
  }
}
