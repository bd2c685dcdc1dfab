// The Session pane's state: the steps the user took, replayed by the engine's simulator on each
// change (`run_session`), and session scripts saved and opened in the engine's YAML format.
import { api, asAppError } from './api';
import type { AppError, Policy, SessionSettings, SessionView, Step } from './bindings';
import type { Studio } from './studio.svelte';

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

export class SessionState {
  agent = $state('deepagents-v2');
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

  constructor(private studio: Studio) {}

  /** The window's agent changed (`Studio.setAgent`). */
  agentChanged() {}

  /** The settings the session runs with (the listing budget is the Prompt pane's). */
  get settings(): SessionSettings {
    return {
      context_window: this.contextWindow,
      max_loaded_skills: this.maxLoaded,
      policy: this.policy,
      char_budget: this.studio.prompt.charBudget,
      allow: [],
    };
  }

  get runSources() {
    return this.sources ?? this.studio.library.sources;
  }

  /** Replays every step with the engine. */
  async run() {
    this.running++;
    try {
      this.view = await api.run_session({
        sources: this.runSources,
        agent: this.agent,
        settings: this.settings,
        steps: this.steps,
      });
      this.error = null;
    } catch (e) {
      this.error = asAppError(e);
    } finally {
      this.running--;
    }
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
    await this.studio.evals.init();
    if (!this.studio.evals.settings.model.trim()) {
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
        provider: $state.snapshot(this.studio.evals.settings),
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
    try {
      const saved = await api.save_session_script({
        path,
        agent: this.agent,
        sources: this.runSources,
        settings: this.settings,
        steps: this.steps,
      });
      this.scriptPath = saved.path;
      this.status = `saved ${saved.path} (${saved.bytes} bytes)`;
      this.error = null;
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** Opens a script (only inside the opened library's sources) and continues from it. */
  async open(path = this.scriptPath || this.defaultPath()) {
    try {
      const s = await api.open_session_script({ path });
      this.agent = s.agent;
      this.policy = s.settings.policy === 'restrict' ? 'restrict' : 'recommend';
      this.contextWindow = s.settings.context_window;
      this.maxLoaded = s.settings.max_loaded_skills;
      this.sources = s.sources;
      this.steps = s.steps;
      this.view = s.view;
      this.scriptPath = s.path;
      this.status = `opened ${s.path}: ${s.steps.length} step(s)`;
      this.error = null;
    } catch (e) {
      this.error = asAppError(e);
    }
  }
}
