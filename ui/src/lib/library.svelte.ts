// The Library pane's state: the sources (lowest priority first), the profile the library is
// linted with, the library the engine opened from them, the skill selected, and new skills.
import { api, asAppError, dialogs } from './api';
import type { AgentInfo, Diagnostic, LibraryView, NewSkill, NewSkillCheck, SkillEntry } from './bindings';
import type { Studio } from './studio.svelte';
import { count } from './format';

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

  constructor(private studio: Studio) {}

  skill(path: string) {
    return this.view?.skills.find((s) => s.path === path) ?? null;
  }

  /** Every diagnostic of the library, the open file's replaced by its live ones. */
  get problems(): { skill: SkillEntry; diagnostic: Diagnostic }[] {
    const { file, live } = this.studio.editor;
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
    const { file, live } = this.studio.editor;
    if (!file || skill.path !== file.path) return { errors: skill.errors, warnings: skill.warnings };
    return { errors: live.filter((d) => d.severity === 'error').length, warnings: live.filter((d) => d.severity === 'warning').length };
  }

  /** Opens the library from the sources, and renders the prompt of it. */
  async open() {
    const studio = this.studio;
    try {
      this.view = await api.open_library({ sources: this.sources, agent: this.agent });
      studio.error = null;
      studio.status = `${count(this.view.skills.length, 'skill')} in ${count(this.view.sources.length, 'source')}`;
    } catch (e) {
      studio.error = asAppError(e);
    }
    await studio.prompt.render();
  }

  /** Opens the library with these sources (lowest priority first). */
  async setSources(sources: string[]) {
    this.sources = sources;
    await this.open();
    // A clean file that is no longer in the library is closed; unsaved text stays.
    const editor = this.studio.editor;
    if (editor.file && !this.skill(editor.file.path) && !editor.dirty) {
      editor.file = null;
      this.selected = null;
    }
  }

  /** Asks for a folder and opens it as the whole library, under the agent its project's
   *  `skillkit.toml` names when it names one (as `skillkit check` there would). */
  async openFolder() {
    try {
      const dir = await dialogs.pickFolder('Open a folder of skills');
      if (dir === null) return;
      await this.setSources([dir]);
      const configured = this.view?.configured_agent;
      if (configured && configured !== this.agent) await this.studio.setAgent(configured);
    } catch (e) {
      this.studio.error = asAppError(e);
    }
  }

  /** Asks for a folder and adds it as the highest-priority source. */
  async addSource() {
    try {
      const dir = await dialogs.pickFolder('Add a folder of skills');
      if (dir === null) return;
      if (this.sources.includes(dir)) {
        this.studio.status = `${dir} is already a source`;
        return;
      }
      await this.setSources([...this.sources, dir]);
    } catch (e) {
      this.studio.error = asAppError(e);
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
    const file = this.studio.editor.file;
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
    const now = this.studio.editor.file;
    if (now?.path === path && now.text === text) this.perAgent = { path, text, counts };
  }

  /** Lints the library (and the open file's unsaved text) under another agent profile. */
  async setAgent(agent: string) {
    this.agent = agent;
    await this.open();
    await this.studio.editor.relint(agent);
  }

  /** What every profile's checks say about a proposed new skill (`null` on a host error). */
  async checkNewSkill(args: NewSkill): Promise<NewSkillCheck | null> {
    try {
      return await api.check_new_skill(args);
    } catch (e) {
      this.studio.error = asAppError(e);
      return null;
    }
  }

  /** Creates the skill, reopens the library and opens the new file in the editor. */
  async createSkill(args: NewSkill): Promise<boolean> {
    const studio = this.studio;
    try {
      const created = await api.create_skill(args);
      await this.open();
      await studio.editor.open(created.path, created);
      studio.status = `created ${created.path}`;
      studio.focusPane('editor');
      return true;
    } catch (e) {
      studio.error = asAppError(e);
      return false;
    }
  }
}
