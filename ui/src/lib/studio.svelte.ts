// The app's state and the actions on it, as one store per concern built here: the window's
// notices, the layout, the library, the editing of the open file, what is shown beside it (form,
// preview), the prompt, the session and the evals. Each store takes only what it reads, as its
// constructor's arguments (values and getters), and tells what happened through callbacks; this
// root builds them, wires each store's callbacks to the others (the reactions: a file opened
// renders its preview, a library opened renders the prompt), and runs what spans several of
// them (start, the window's agent, changes on disk). No store imports this root or holds a
// sibling (a store may name another's data types, such as `OpenFile`): `boundary.test.ts`.
// Components get the `Studio` and reach each store through it; every result comes from the
// engine through `api`.
import { api, asAppError, events } from './api';
import { EditingState } from './editing.svelte';
import { EvalsState } from './evals.svelte';
import { LayoutState, NARROW } from './layout.svelte';
import { LibraryState } from './library.svelte';
import { PreviewState } from './preview.svelte';
import { PackageState } from './package.svelte';
import { PromptState } from './prompt.svelte';
import { SessionState } from './session.svelte';
import type { LibraryChanged, LibraryEvent } from './bindings';
import { Notices } from './notices.svelte';

export type { Conflict, Jump, OpenFile } from './editing.svelte';

export type Pane = 'library' | 'editor' | 'problems' | 'prompt' | 'session' | 'evals' | 'matrix' | 'package' | 'conflict';

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
  focus = $state<{ pane: Pane; seq: number }>({ pane: 'library', seq: 0 });
  /** The bundled example library, when the app has one (the welcome screen offers it). */
  examples = $state<string | null>(null);
  /** Set once the first library is open (or failed to open): the welcome screen waits for it. */
  started = $state(false);

  readonly notices = new Notices();
  readonly layout = new LayoutState();
  readonly library: LibraryState;
  /** The open file and its editing (the CodeMirror view itself is the Editor pane's). */
  readonly editing: EditingState;
  readonly preview: PreviewState;
  readonly prompt: PromptState;
  readonly session: SessionState;
  readonly evals: EvalsState;
  readonly packages: PackageState;

  private unlisten: (() => void) | null = null;
  private unlistenProgress: (() => void) | null = null;
  private unlistenPackages: (() => void) | null = null;

  constructor() {
    const { notices, layout } = this;
    // The stores are built in order; a getter or callback names a store built later only when
    // it runs, after this constructor.
    const library: LibraryState = new LibraryState({
      notices,
      openFile: () => editing.file,
      live: () => editing.live,
      onOpened: () => prompt.render(),
      onSourcesChanged: () => {
        if (editing.closeIfGone()) library.selected = null;
      },
      useAgent: (id) => this.setAgent(id),
      onCreated: async (created) => {
        await editing.open(created.path, created);
        this.focusPane('editor');
      },
    });
    const editing: EditingState = new EditingState({
      notices,
      skill: (path) => library.skill(path),
      agent: () => library.agent,
      select: (path) => (library.selected = path),
      onOpened: (path) => {
        preview.opened();
        layout.setLastFile(path);
      },
      onEdited: () => preview.edited(),
      focusEditor: () => this.focusPane('editor'),
    });
    const preview = new PreviewState({
      notices,
      layout,
      file: () => editing.file,
      agent: () => library.agent,
      replaceText: (text) => editing.replaceText(text),
    });
    const prompt: PromptState = new PromptState({
      agent: () => library.agent,
      agentInfo: () => library.agentInfo,
      sources: () => library.sources,
    });
    const evals = new EvalsState({ editedFile: () => editing.file });
    const session = new SessionState({
      windowAgent: () => library.agent,
      agentInfo: () => library.agentInfo,
      agentLabel: (id) => library.agentLabel(id),
      sources: () => library.sources,
      skills: () => library.view?.skills ?? [],
      charBudget: () => prompt.charBudget,
      provider: async () => {
        await evals.init();
        return evals.settings;
      },
    });
    this.library = library;
    this.editing = editing;
    this.preview = preview;
    this.prompt = prompt;
    this.session = session;
    this.evals = evals;
    this.packages = new PackageState({
      sources: () => library.sources,
      goToPlace: (path, start) => editing.goToPlace(path, start),
    });
  }

  /** Works under agent `id` from now on: the library and the open file's unsaved text are linted
   *  under it again, and the Prompt and Session panes follow. */
  async setAgent(id: string) {
    if (id === this.library.agent) return;
    await this.library.setAgent(id);
    await this.editing.relint(id);
    this.session.agentChanged();
    // Evals run under the window's agent when it offers a skill tool (a suite may name another).
    if (this.library.agentInfo?.has_skill_tool) this.evals.agent = id;
  }

  focusPane(pane: Pane) {
    this.focus = { pane, seq: this.focus.seq + 1 };
  }

  async start() {
    try {
      this.unlisten ??= await events.on('library-changed', (c) => void this.libraryChanged(c));
      this.unlistenProgress ??= await events.on('eval-progress', (p) => this.evals.onProgress(p));
      this.unlistenPackages ??= await events.on('package-progress', (p) => this.packages.onProgress(p));
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
      await this.editing.loadDrafts();
      // The file left open last time, when it is still a skill of this library.
      const last = layout.lastFile;
      if (last && !this.editing.file && this.library.skill(last)) await this.editing.open(last);
    } catch (e) {
      this.notices.error = asAppError(e);
    }
    this.started = true;
  }

  /** Stops listening and drops pending debounced work (the window is going away). */
  stop() {
    this.unlisten?.();
    this.unlisten = null;
    this.unlistenProgress?.();
    this.unlistenProgress = null;
    this.unlistenPackages?.();
    this.unlistenPackages = null;
    this.editing.stop();
    this.preview.stop();
    this.layout.flush();
  }

  /** The watcher saw changes: show the refreshed library, and check the open file against the disk. */
  async libraryChanged(c: LibraryChanged) {
    this.library.view = c.library;
    if (c.errors.length) this.notices.status = c.errors.join('; ');
    const file = this.editing.file;
    if (file && c.events.some((e) => touches(e, file.path))) await this.editing.checkDisk(file.path);
    await this.prompt.render();
  }
}
