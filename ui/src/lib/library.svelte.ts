// The Library pane's state: the sources (lowest priority first), the profile the library is
// linted with, the library the engine opened from them, the skill selected, and new skills.
import { api, asAppError, dialogs } from './api';
import type { AgentInfo, Diagnostic, LibraryView, NewSkill, NewSkillCheck, SkillEntry, Version } from './bindings';
import type { OpenFile } from './editing.svelte';
import type { Notices } from './notices.svelte';
import { count } from './format';

/** What the library store reads and tells outside itself (the `Studio` root wires it). */
export interface LibraryDeps {
  notices: Notices;
  /** The file open in the editor, and its live diagnostics (its unsaved text's). */
  openFile: () => OpenFile | null;
  live: () => Diagnostic[];
  /** The library was opened again (from the sources, under the agent). */
  onOpened: () => Promise<void>;
  /** The sources changed and the library was opened from them. */
  onSourcesChanged: () => void;
  /** The window works under agent `id` from now on (a folder opened names it in its project). */
  useAgent: (id: string) => Promise<void>;
  /** A skill was created (and the library opened again with it). */
  onCreated: (created: { path: string; text: string; version: Version }) => Promise<void>;
}

export class LibraryState {
  agents = $state<AgentInfo[]>([]);
  sources = $state<string[]>([]);
  /** The profile the library is linted with. */
  agent = $state('spec');
  view = $state<LibraryView | null>(null);
  selected = $state<string | null>(null);
  /** The "New skill" dialog is open. */
  newSkillOpen = $state(false);
  /** The open skill's problems under each agent (for the agent pickers), and the text they are of. */
  perAgent = $state<{ path: string; text: string; counts: Record<string, { errors: number; warnings: number }> } | null>(null);

  constructor(private deps: LibraryDeps) {}

  /** The agent the whole window works under: lint, Problems, Prompt and Session. */
  get agentInfo(): AgentInfo | null {
    return this.agents.find((a) => a.id === this.agent) ?? null;
  }

  /** A plain name of agent `id` ("Claude Code 2.1"), the id when it is unknown. */
  agentLabel(id: string): string {
    return this.agents.find((a) => a.id === id)?.label ?? id;
  }

  skill(path: string) {
    return this.view?.skills.find((s) => s.path === path) ?? null;
  }

  /** Every diagnostic of the library, the open file's replaced by its live ones. */
  get problems(): { skill: SkillEntry; diagnostic: Diagnostic }[] {
    const file = this.deps.openFile();
    const live = this.deps.live();
    const out: { skill: SkillEntry; diagnostic: Diagnostic }[] = [];
    for (const skill of this.view?.skills ?? []) {
      const ds = file && skill.path === file.path ? live : skill.diagnostics;
      for (const diagnostic of ds) out.push({ skill, diagnostic });
    }
    return out;
  }

  /** A skill's errors and warnings as the Problems pane counts them: the open file's from its
   *  live (unsaved) text, the others' from the last check. */
  countsOf(skill: SkillEntry): { errors: number; warnings: number } {
    const file = this.deps.openFile();
    if (!file || skill.path !== file.path) return { errors: skill.errors, warnings: skill.warnings };
    const live = this.deps.live();
    return { errors: live.filter((d) => d.severity === 'error').length, warnings: live.filter((d) => d.severity === 'warning').length };
  }

  /** Opens the library from the sources, and renders the prompt of it. */
  async open() {
    const { notices } = this.deps;
    try {
      this.view = await api.open_library({ sources: this.sources, agent: this.agent });
      // A project configuration that cannot be read is left out: the banner says why.
      notices.error = this.view.config_error ?? null;
      notices.status = `${count(this.view.skills.length, 'skill')} in ${count(this.view.sources.length, 'source')}`;
    } catch (e) {
      notices.error = asAppError(e);
    }
    await this.deps.onOpened();
  }

  /** Opens the library with these sources (lowest priority first). */
  async setSources(sources: string[]) {
    this.sources = sources;
    await this.open();
    this.deps.onSourcesChanged();
  }

  /** Asks for a folder and opens it as the whole library, under the agent its project's
   *  `skillkit.toml` names when it names one (as `skillkit check` there would). */
  async openFolder() {
    try {
      const dir = await dialogs.pickFolder('Open a folder of skills');
      if (dir === null) return;
      await this.setSources([dir]);
      const configured = this.view?.configured_agent;
      if (configured && configured !== this.agent) await this.deps.useAgent(configured);
    } catch (e) {
      this.deps.notices.error = asAppError(e);
    }
  }

  /** Asks for a folder and adds it as the highest-priority source. */
  async addSource() {
    try {
      const dir = await dialogs.pickFolder('Add a folder of skills');
      if (dir === null) return;
      if (this.sources.includes(dir)) {
        this.deps.notices.status = `${dir} is already a source`;
        return;
      }
      await this.setSources([...this.sources, dir]);
    } catch (e) {
      this.deps.notices.error = asAppError(e);
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

  /** Counts the open skill's problems (its text as in the editor) under every agent, once per
   *  text: the agent pickers show them beside each agent. */
  async countPerAgent() {
    const file = this.deps.openFile();
    if (!file) return;
    const { path, text } = file;
    if (this.perAgent?.path === path && this.perAgent.text === text) return;
    const counts: Record<string, { errors: number; warnings: number }> = {};
    try {
      await Promise.all(
        this.agents.map(async (a) => {
          const { diagnostics } = await api.lint_text({ path, text, agent: a.id });
          counts[a.id] = {
            errors: diagnostics.filter((d) => d.severity === 'error').length,
            warnings: diagnostics.filter((d) => d.severity === 'warning').length,
          };
        }),
      );
    } catch (e) {
      console.warn('problems per agent not counted', e);
      return;
    }
    const now = this.deps.openFile();
    if (now?.path === path && now.text === text) this.perAgent = { path, text, counts };
  }

  /** Lints the library under another agent profile (the root has the open file linted again). */
  async setAgent(agent: string) {
    this.agent = agent;
    await this.open();
  }

  /** What every profile's checks say about a proposed new skill (`null` on a host error). */
  async checkNewSkill(args: NewSkill): Promise<NewSkillCheck | null> {
    try {
      return await api.check_new_skill(args);
    } catch (e) {
      this.deps.notices.error = asAppError(e);
      return null;
    }
  }

  /** Creates the skill, reopens the library and opens the new file in the editor. */
  async createSkill(args: NewSkill): Promise<boolean> {
    const { notices } = this.deps;
    try {
      const created = await api.create_skill(args);
      await this.open();
      await this.deps.onCreated(created);
      notices.status = `created ${created.path}`;
      return true;
    } catch (e) {
      notices.error = asAppError(e);
      return false;
    }
  }
}
