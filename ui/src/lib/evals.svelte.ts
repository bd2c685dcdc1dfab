// The Evals pane's state: the open skill's trigger suite (opened, created, imported from
// skill-creator's JSON, edited case by case, saved), the provider settings (remembered by the
// host) and the API key's status, and the runs: progress, cancel, and the reports, on the library
// as saved and, for A/B, with the editor's unsaved text. The suite's text, its checks, the runs
// and the counts all come from the engine through `api`; the key only goes to the host.
import { api, asAppError } from './api';
import type {
  AppError,
  Case,
  EvalProgress,
  EvalReply,
  KeyStatus,
  ProviderSettings,
  Report,
  Suite,
  SuiteFile,
  Variant,
} from './bindings';
import { count } from './format';

/** The field of the Evals pane an error is about, so that it shows under that field. */
export type EvalField = 'suite' | 'model' | 'base_url' | 'temperature' | 'runs' | 'concurrency' | 'key' | 'run';

/** Where `e` belongs: a missing or refused key under the key, a bad setting under its field,
 *  a suite's mistakes under the suite; anything else under Run. */
export function errorField(e: AppError): EvalField {
  const m = e.message.toLowerCase();
  switch (e.code) {
    case 'keyring':
    case 'no-key':
      return 'key';
    case 'invalid-suite':
      return 'suite';
    case 'invalid-settings':
      if (m.includes('key')) return 'key';
      if (m.includes('model')) return 'model';
      if (m.includes('base url')) return 'base_url';
      if (m.includes('temperature')) return 'temperature';
      if (m.includes('runs')) return 'runs';
      if (m.includes('at once')) return 'concurrency';
      return 'run';
    default:
      return 'run';
  }
}

/** An API name as a person says it. */
export function apiName(api: string): string {
  return api === 'anthropic' ? 'Anthropic' : 'OpenAI';
}

/** What to tell a person when the system keyring cannot be reached (the host's own words, a
 *  D-Bus error more often than not, stay on hover): what it means and what to do instead. */
export function keyringTrouble(env: string): string {
  return `The system keyring is unavailable, so a key cannot be stored here. Set ${env} in the environment before starting the app, or start a keyring service (such as GNOME Keyring) and try again.`;
}

/** An error in words for the field it is shown under: the keyring's in plain words, the rest as
 *  the host says it (its code is shown apart, as a chip). */
export function errorWords(e: AppError, env: string): string {
  if (e.code === 'keyring') return keyringTrouble(env);
  const m = e.message;
  return m.charAt(0).toUpperCase() + m.slice(1);
}

export const defaultSettings: ProviderSettings = {
  api: 'openai',
  base_url: '',
  model: '',
  temperature: null,
  runs: 3,
  concurrency: 4,
  timeout_secs: 120,
};

type Count = { done: number; total: number };

/** How far each side of the run in flight is. */
export type Progress = Record<Variant, Count | null>;

/** A case id not used yet by `cases`: `case-N`. */
export function nextId(cases: Case[]): string {
  const used = new Set(cases.map((c) => c.id));
  let n = cases.length + 1;
  while (used.has(`case-${n}`)) n++;
  return `case-${n}`;
}

/** What the evals store reads (the `Studio` root wires it). */
export interface EvalsDeps {
  /** The file open in the editor, with its unsaved text (an A/B run compares it). */
  editedFile: () => { path: string; text: string } | null;
}

export class EvalsState {
  /** The suite file of the open skill as last read or saved (`exists` false: not saved yet). */
  file = $state<SuiteFile | null>(null);
  /** The suite as edited in the table. */
  suite = $state<Suite | null>(null);
  /** The engine's YAML of `suite`: what Save writes and Run runs. */
  text = $state('');
  /** The table differs from the file. */
  dirty = $state(false);
  /** The new suite of a skill without one is shown (Create). */
  creating = $state(false);
  /** What the engine says is wrong with the suite (located in its YAML). */
  suiteError = $state<AppError | null>(null);

  agent = $state('claude-code');
  settings = $state<ProviderSettings>({ ...defaultSettings });
  keys = $state<KeyStatus[]>([]);
  /** A/B: run again with the editor's unsaved text of the skill. */
  compare = $state(false);

  running = $state(false);
  progress = $state<Progress>({ saved: null, unsaved: null });
  result = $state<EvalReply | null>(null);
  error = $state<AppError | null>(null);
  status = $state('');

  /** The skill file the suite belongs to. */
  skill = $state<string | null>(null);
  /** Replies to an older request are dropped. */
  private loadSeq = 0;
  private yamlSeq = 0;
  private initialized = false;
  /** The settings were changed in the pane. */
  private touched = false;

  constructor(private deps: EvalsDeps) {}

  get key(): KeyStatus | null {
    return this.keys.find((k) => k.api === this.settings.api) ?? null;
  }

  /** Why Run cannot start, in words (null when it can): no suite, no cases, a case without a
   *  query, the suite's mistakes, no model, no key for a hosted API. */
  get blocked(): string | null {
    if (!this.suite || !this.shown) return 'Create a suite first.';
    const cases = this.suite.cases;
    if (cases.length === 0) return 'Add a case first: Run asks the model each case’s query.';
    const empty = cases.filter((c) => c.query.trim() === '').length;
    if (empty > 0) return `${count(empty, 'case has', 'cases have')} no query yet.`;
    if (this.suiteError) return 'Fix the suite’s mistakes first.';
    if (!this.agent) return 'Pick the agent whose skill tool the model is given.';
    if (!this.settings.model.trim()) return 'Name the model to ask in Model.';
    const k = this.key;
    if (k && !k.stored && !k.env_set && !this.settings.base_url.trim()) {
      return `No API key for ${apiName(k.api)}: paste one in Key, set ${k.env}, or give a local server’s Base URL.`;
    }
    return null;
  }

  /** The table is shown: a suite file exists, or a new one is being written. */
  get shown() {
    return this.suite !== null && (this.file?.exists || this.creating);
  }

  /** Reads the remembered settings and the keys' status, once, when the pane is first shown
   *  (asking the keyring may make the system ask to unlock it: not at the app's start). */
  async init() {
    if (this.initialized) return;
    this.initialized = true;
    try {
      const [settings, keys] = await Promise.all([api.eval_settings(null), api.api_keys(null)]);
      // Settings changed meanwhile win over the remembered ones.
      if (!this.touched) this.settings = settings;
      this.keys = keys;
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** Opens the suite of the skill at `skill` (its SKILL.md). */
  async load(skill: string) {
    const seq = ++this.loadSeq;
    this.skill = skill;
    this.creating = false;
    this.result = null;
    try {
      const file = await api.open_suite({ skill });
      if (seq !== this.loadSeq) return;
      this.take(file, false);
      if (file.suite.agent) this.agent = file.suite.agent;
    } catch (e) {
      if (seq !== this.loadSeq) return;
      this.file = null;
      this.suite = null;
      this.suiteError = asAppError(e);
    }
  }

  private take(file: SuiteFile, dirty: boolean) {
    this.file = file;
    this.suite = structuredClone(file.suite);
    this.text = file.text;
    this.dirty = dirty;
    this.suiteError = null;
    this.error = null;
  }

  /** Shows the new suite of a skill that has none (saved by Save). */
  create() {
    this.creating = true;
    this.dirty = true;
  }

  /** Turns skill-creator's JSON list `from` (in the skill's folder) into the suite, unsaved. */
  async importFrom(from: string, name: string) {
    if (!this.skill) return;
    try {
      const file = await api.import_suite({ skill: this.skill, name, from });
      this.take(file, true);
      this.creating = true;
      this.status = `imported ${count(file.suite.cases.length, 'case')} from ${from}`;
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  addCase() {
    if (!this.suite) return;
    this.suite.cases.push({ id: nextId(this.suite.cases), query: '', expect: 'none' });
    this.dirty = true;
    // A new row has no query yet: the engine checks it once one is typed.
  }

  removeCase(i: number) {
    if (!this.suite) return;
    this.suite.cases.splice(i, 1);
    void this.edited();
  }

  setCase(i: number, field: keyof Case, value: string) {
    if (!this.suite) return;
    this.suite.cases[i][field] = value;
    void this.edited();
  }

  /** The table changed: the engine writes the suite's text and checks it reads back. */
  async edited() {
    if (!this.suite) return;
    this.dirty = true;
    const asked = $state.snapshot(this.suite);
    const seq = ++this.yamlSeq;
    try {
      const { text } = await api.suite_yaml(asked);
      if (seq !== this.yamlSeq) return;
      this.text = text;
      this.suiteError = null;
    } catch (e) {
      if (seq !== this.yamlSeq) return;
      this.suiteError = asAppError(e);
    }
  }

  /** Brings the text up to date with the table; false when the engine finds a mistake. */
  private async current(): Promise<boolean> {
    await this.edited();
    return this.suiteError === null;
  }

  /** Saves the suite (inside the opened library; its `evals/` folder is created if needed). */
  async save() {
    if (!this.file || !(await this.current())) return;
    try {
      const saved = await api.save_suite({ path: this.file.path, text: this.text, base: this.file.version ?? undefined });
      this.file = { ...this.file, exists: true, text: this.text, version: saved.version, suite: $state.snapshot(this.suite!) };
      this.dirty = false;
      this.creating = false;
      this.error = null;
      this.status = `saved ${saved.path}`;
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** Remembers the provider settings (they hold no key). */
  async saveSettings() {
    this.touched = true;
    try {
      await api.remember_eval_settings($state.snapshot(this.settings));
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** Stores `key` in the system keyring for the chosen API; the UI keeps no copy. */
  async setKey(key: string) {
    try {
      const status = await api.set_api_key({ api: this.settings.api, key });
      this.keys = [...this.keys.filter((k) => k.api !== status.api), status];
      this.error = null;
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  async forgetKey() {
    try {
      const status = await api.forget_api_key({ api: this.settings.api });
      this.keys = [...this.keys.filter((k) => k.api !== status.api), status];
      this.error = null;
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** Runs the suite (and, with `compare`, again with the editor's text of the skill). */
  async run() {
    if (!this.file || this.running || this.blocked !== null || !(await this.current())) return;
    const file = this.deps.editedFile();
    const compare = this.compare && file && file.path === this.skill ? { path: file.path, text: file.text } : null;
    this.running = true;
    this.progress = { saved: null, unsaved: null };
    this.error = null;
    this.status = '';
    try {
      this.result = await api.run_eval({
        path: this.file.path,
        text: this.text,
        agent: this.agent,
        provider: $state.snapshot(this.settings),
        compare,
      });
      const { saved, unsaved } = this.result;
      // The reports' own counts: the host's progress events travel apart from the command's
      // answer, and the last of them may arrive after it (and is then ignored).
      const counted = (r: Report): Count => ({ done: r.summary.requests, total: r.cases.length * r.runs });
      this.progress = { saved: counted(saved), unsaved: unsaved ? counted(unsaved) : null };
      const requests = saved.summary.requests + (unsaved?.summary.requests ?? 0);
      const cancelled = saved.cancelled || (unsaved?.cancelled ?? false);
      this.status = `${count(requests, 'request')} to ${saved.model}${cancelled ? ' · cancelled: the counts are of the completed runs' : ''}`;
    } catch (e) {
      this.error = asAppError(e);
    } finally {
      this.running = false;
    }
  }

  async cancel() {
    try {
      await api.cancel_eval(null);
    } catch (e) {
      this.error = asAppError(e);
    }
  }

  /** The host's `eval-progress` event. */
  onProgress(p: EvalProgress) {
    if (!this.running) return;
    this.progress = { ...this.progress, [p.variant]: { done: p.done, total: p.total } };
  }
}
