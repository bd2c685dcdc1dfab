// The Session pane's state: the steps the user took, replayed by the engine's simulator on each
// change (`run_session`), and session scripts saved and opened in the engine's YAML format.
import { api, asAppError } from './api';
import type { AgentInfo, AppError, Policy, ProviderSettings, SessionSettings, SessionView, SkillEntry, Step } from './bindings';
import { count } from './format';

/** `/name some args` as a slash step; null when it is not one. */
export function slashStep(line: string): Step | null {
  const m = /^\s*\/?([^\s/]\S*)(?:\s+([\s\S]*))?$/.exec(line);
  return m ? { action: 'slash', name: m[1], args: (m[2] ?? '').trimEnd() } : null;
}

/** A tool call from its name and JSON arguments; an error message when the JSON does not parse. */
export function toolStep(name: string, json: string): Step | string {
  if (!name.trim()) return 'name the tool, e.g. Bash';
  let args: unknown;
  try {
    args = json.trim() === '' ? {} : JSON.parse(json);
  } catch (e) {
    return `the arguments are not JSON: ${(e as Error).message}`;
  }
  return { action: 'tool', name: name.trim(), args };
}

/** What the Session pane's composer does: a skill action, a slash command, a tool call, or a
 *  message the model answers. */
export type ComposerAction = 'invoke' | 'load' | 'unload' | 'slash' | 'tool' | 'say';

/** The composer's input as a step to replay, a message for the model (`ask`), or what is
 *  missing, in words. A message that starts with `/` is a slash command. */
export function composerStep(action: ComposerAction, skill: string, text: string): Step | { ask: string } | string {
  switch (action) {
    case 'invoke':
    case 'load':
    case 'unload':
      if (!skill) return action === 'unload' ? 'no skill is loaded to unload' : 'pick a skill';
      if (action === 'invoke') return { action, skill, args: text.trim() === '' ? null : text };
      return { action, skill };
    case 'slash':
      return slashStep(text) ?? 'type a slash command: /name arguments';
    case 'tool': {
      const m = /^\s*([^\s{]+)\s*([\s\S]*)$/.exec(text);
      if (!m) return 'type a tool call: a name, then its JSON arguments, e.g. Bash {"command": "ls"}';
      return toolStep(m[1], m[2]);
    }
    case 'say':
      if (text.trim().startsWith('/')) return slashStep(text) ?? 'type a slash command: /name arguments';
      return text.trim() ? { ask: text } : 'type what the user says';
  }
}

/** What the session store reads (the `Studio` root wires it). */
export interface SessionDeps {
  /** The window's agent, what it is, and any agent's plain name. */
  windowAgent: () => string;
  agentInfo: () => AgentInfo | null;
  agentLabel: (id: string) => string;
  /** The library's sources and skills. */
  sources: () => string[];
  skills: () => SkillEntry[];
  /** The Prompt pane's listing budget. */
  charBudget: () => number | null;
  /** The provider settings a live turn runs with (the Evals pane's, loaded when not yet). */
  provider: () => Promise<ProviderSettings>;
}

export class SessionState {
  /** The agent picked in the pane to simulate; '' follows the window's agent. */
  override = $state('');
  policy = $state<Policy>('recommend');
  contextWindow = $state<number | null>(null);
  maxLoaded = $state<number | null>(null);
  /** The sources the session runs on: the library's, or a script's. */
  sources = $state<string[] | null>(null);
  steps = $state<Step[]>([]);
  view = $state<SessionView | null>(null);
  error = $state<AppError | null>(null);
  status = $state('');
  scriptPath = $state('');
  running = $state(0);
  private seq = 0;

  constructor(private deps: SessionDeps) {}

  /** The window's agent when it has a skill tool to simulate, else ''. */
  get windowAgent() {
    const info = this.deps.agentInfo();
    return info?.has_skill_tool ? info.id : '';
  }

  /** The agent simulated: the one picked in the pane, else the window's ('' when neither). */
  get agent() {
    return this.override || this.windowAgent;
  }

  /** Simulates `id` ('' follows the window's agent again). */
  async setOverride(id: string) {
    this.override = id;
    this.status = '';
    await this.run();
  }

  /** The window's agent changed (the root's `setAgent`): the session follows it when it can be
   *  simulated (an agent picked here gives way); otherwise the one picked here stays. */
  agentChanged() {
    const info = this.deps.agentInfo();
    if (info?.has_skill_tool && this.override) {
      this.override = '';
      this.status = `Now simulating ${info.label}, the window's agent.`;
    }
    void this.run();
  }

  private noAgent(): AppError {
    return { code: 'no-skill-tool', message: "pick an agent to simulate first: the window's agent has no skill tool", details: [] };
  }

  /** The settings the session runs with (the listing budget is the Prompt pane's). */
  get settings(): SessionSettings {
    return {
      context_window: this.contextWindow,
      max_loaded_skills: this.maxLoaded,
      policy: this.policy,
      char_budget: this.deps.charBudget(),
      allow: [],
    };
  }

  get runSources() {
    return this.sources ?? this.deps.sources();
  }

  /** Replays every step with the engine (nothing to replay without an agent). Only the latest
   *  replay's answer is shown. */
  async run() {
    const seq = ++this.seq;
    const agent = this.agent;
    if (!agent) {
      this.view = null;
      this.error = null;
      return;
    }
    this.running++;
    try {
      const view = await api.run_session({
        sources: this.runSources,
        agent,
        settings: this.settings,
        steps: this.steps,
      });
      if (seq !== this.seq) return;
      this.view = view;
      this.error = null;
    } catch (e) {
      if (seq === this.seq) this.error = asAppError(e);
    } finally {
      this.running--;
    }
  }

  /** Example steps on the library's first skill (the one the agent sees): invoke it, then a
   *  tool call it may or may not allow. */
  async example() {
    const first = this.deps.skills().find((s) => !s.hidden_by);
    if (!first) return;
    this.steps = [
      ...this.steps,
      { action: 'invoke', skill: first.name, args: null },
      { action: 'tool', name: 'Bash', args: { command: 'git status' } },
    ];
    await this.run();
  }

  /** A live turn: the user's message, answered by the model of the Evals pane's settings (its
   *  skill-tool calls run in the simulator); the model's turns join the steps, so the session
   *  replays and saves without the model. */
  async ask(text: string) {
    await this.live([...this.steps, { action: 'user', text }]);
  }

  /** The model's tool call behind turn `index` (1-based), when the model made it: the model
   *  step's place in the steps and the call's in the step. */
  modelCall(index: number): { step: number; call: number } | null {
    let turn = 0;
    for (let i = 0; i < this.steps.length; i++) {
      const s = this.steps[i];
      turn++;
      if (s.action === 'model') {
        for (let c = 0; c < s.calls.length; c++) {
          turn++;
          if (turn === index) return { step: i, call: c };
        }
      }
      if (turn >= index) return null;
    }
    return null;
  }

  /** Answers the model's tool call of turn `index` with `result` (as the tool would have) and
   *  lets the model go on from there: the later steps are dropped. */
  async answer(index: number, result: string) {
    const at = this.modelCall(index);
    if (!at) return;
    const steps = $state.snapshot(this.steps).slice(0, at.step + 1) as Step[];
    const model = steps[at.step];
    if (model.action !== 'model') return;
    model.calls[at.call].result = result;
    await this.live(steps);
  }

  /** Runs `steps` with the model answering the open turns. */
  private async live(steps: Step[]) {
    if (!this.agent) {
      this.error = this.noAgent();
      return;
    }
    const provider = await this.deps.provider();
    if (!provider.model.trim()) {
      this.error = { code: 'invalid-settings', message: 'choose a model first: the Evals pane has the provider settings', details: [] };
      return;
    }
    this.running++;
    try {
      const live = await api.run_session_live({
        session: {
          sources: this.runSources,
          agent: this.agent,
          settings: this.settings,
          steps,
        },
        provider: $state.snapshot(provider),
      });
      this.steps = live.steps;
      this.view = live.view;
      this.error = live.error ? { code: 'provider', message: live.error, details: [] } : null;
    } catch (e) {
      this.error = asAppError(e);
    } finally {
      this.running--;
    }
  }

  async add(step: Step) {
    this.steps = [...this.steps, step];
    await this.run();
  }

  async undo() {
    this.steps = this.steps.slice(0, -1);
    await this.run();
  }

  async reset() {
    this.steps = [];
    this.sources = null;
    await this.run();
  }

  defaultPath() {
    const root = this.runSources.at(-1) ?? '';
    return root ? `${root.replace(/\/$/, '')}/session.yaml` : 'session.yaml';
  }

  /** Saves the session as a script (only inside the opened library's sources). */
  async save(path = this.scriptPath || this.defaultPath()) {
    if (!this.agent) {
      this.error = this.noAgent();
      return;
    }
    try {
      const saved = await api.save_session_script({
        path,
        agent: this.agent,
        sources: this.runSources,
        settings: this.settings,
        steps: this.steps,
      });
      this.scriptPath = saved.path;
      this.status = `saved ${saved.path} (${count(saved.bytes, 'byte')})`;
      this.error = null;
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** Opens a script (only inside the opened library's sources) and continues from it. */
  async open(path = this.scriptPath || this.defaultPath()) {
    try {
      const s = await api.open_session_script({ path });
      // The script names its agent: the session simulates it, and says so when the window's differs.
      this.override = s.agent === this.windowAgent ? '' : s.agent;
      this.policy = s.settings.policy === 'restrict' ? 'restrict' : 'recommend';
      this.contextWindow = s.settings.context_window;
      this.maxLoaded = s.settings.max_loaded_skills;
      this.sources = s.sources;
      this.steps = s.steps;
      this.view = s.view;
      this.scriptPath = s.path;
      const steps = count(s.steps.length, 'step');
      const label = this.deps.agentLabel(s.agent);
      const window = this.deps.agentLabel(this.deps.windowAgent());
      this.status = this.override
        ? `Opened ${s.path}: ${steps}. The script simulates ${label}, so the session does too, not the window's ${window}.`
        : `Opened ${s.path}: ${steps}.`;
      this.error = null;
    } catch (e) {
      this.error = asAppError(e);
    }
  }
}
