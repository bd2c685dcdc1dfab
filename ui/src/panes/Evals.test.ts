import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import type { Studio } from '../lib/studio.svelte';
import { nextId } from '../lib/evals.svelte';
import type { CaseReport, EvalReply, KeyStatus, ProviderSettings, Report, RunEval, Suite, SuiteFile } from '../lib/bindings';
import { $, $$, calls, change, pickerEntries, mountApp, oneSource, route, settle, skill, unmountApp, until, versionOf, type Handler } from '../testing/fixtures';

const PDF = '/lib/s0/pdf/SKILL.md';
const SUITE = '/lib/s0/pdf/evals/triggers.yaml';
const TEXT = '---\nname: pdf\ndescription: Reads PDF files.\n---\n\nBody.\n';

// A stand-in for the engine's YAML: enough to see that the pane sends what the table holds.
const yaml = (s: Suite) => `sources: ${JSON.stringify(s.sources)}\ncases:\n${s.cases.map((c) => `  - ${c.id}|${c.query}|${c.expect}`).join('\n')}`;

function caseReport(id: string, expect: string, activated: Record<string, number>, runs = 3): CaseReport {
  const hits = activated[expect] ?? 0;
  return { id, query: `query ${id}`, expect, activated, pass: hits * 2 > runs, runs, rate: Math.round((hits / runs) * 10000) / 10000 };
}

function report(cases: CaseReport[], cancelled = false): Report {
  return {
    agent: 'claude-code',
    provider: 'openai',
    model: 'mock-model',
    runs: 3,
    cases,
    skills: [
      { name: 'pdf', tp: 2, fp: 0, fn: 1, precision: 1, recall: 0.6667, f1: 0.8, confusions: { none: 1 } },
      { name: 'csv', tp: 3, fp: 0, fn: 0, precision: 1, recall: 1, f1: 1, confusions: {} },
    ],
    summary: { precision: 1, recall: 0.8333, accuracy: 0.8889, requests: cases.reduce((n, c) => n + c.runs, 0), input_tokens: 1200, output_tokens: 90 },
    confusion: [{ agent: 'claude-code', expected: 'pdf', took: 'none', count: 1 }],
    cancelled,
  };
}

const saved = () =>
  report([caseReport('tables', 'pdf', { none: 1, pdf: 2 }), caseReport('csv', 'csv', { csv: 3 }), caseReport('weather', 'none', { none: 3 })]);

let file: SuiteFile | null = null;
let settings: ProviderSettings;
let keys: KeyStatus[];
let answer: ((r: EvalReply) => void) | null = null;

function handlers(extra: Handler = {}): Handler {
  return oneSource([skill('pdf', 0, { resources: [{ path: 'evals/evals.json', kind: 'other', size: 10, discovered_by: [] }] }), skill('csv', 0)], () => TEXT, {
    agents: () => [
      { id: 'spec', kind: 'format', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false },
      { id: 'agentskills', kind: 'format', title: 'Agent Skills', label: 'Agent Skills', source: '', has_prompt: true, has_skill_tool: false },
      { id: 'claude-code', kind: 'agent', title: 'Claude Code', label: 'Claude Code', source: '', has_prompt: true, has_skill_tool: true },
      { id: 'codex', kind: 'agent', title: 'Codex', label: 'Codex', source: '', has_prompt: true, has_skill_tool: true },
    ],
    eval_settings: () => settings,
    remember_eval_settings: (s) => {
      settings = s;
      return null;
    },
    api_keys: () => keys,
    set_api_key: ({ api }) => {
      keys = keys.map((k) => (k.api === api ? { ...k, stored: true } : k));
      return keys.find((k) => k.api === api)!;
    },
    forget_api_key: ({ api }) => {
      keys = keys.map((k) => (k.api === api ? { ...k, stored: false } : k));
      return keys.find((k) => k.api === api)!;
    },
    open_suite: () => {
      const suite: Suite = file?.suite ?? { agent: null, sources: ['../..'], context_window: null, char_budget: null, cases: [] };
      return file ?? { path: SUITE, exists: false, text: yaml(suite), suite, version: null };
    },
    import_suite: ({ from, name }) => {
      const suite: Suite = {
        agent: null,
        sources: ['../..'],
        context_window: null,
        char_budget: null,
        cases: [
          { id: 'case-1', query: `from ${from}`, expect: name },
          { id: 'case-2', query: 'Hello', expect: 'none' },
        ],
      };
      return { path: SUITE, exists: false, text: yaml(suite), suite, version: null };
    },
    suite_yaml: (s) => {
      const empty = s.cases.findIndex((c) => c.query.trim() === '');
      if (empty >= 0) throw { code: 'invalid-suite', message: 'the suite: 1 mistake in the eval suite', details: [{ line: 5 + 3 * empty, column: 5, message: '`query` is empty' }] };
      return { text: yaml(s) };
    },
    save_suite: ({ path, text }) => ({ path, bytes: text.length, version: versionOf(text) }),
    run_eval: () => new Promise<EvalReply>((resolve) => (answer = resolve)),
    cancel_eval: () => null,
    ...extra,
  });
}

let studio: Studio;

async function start(suite: SuiteFile | null = null, extra: Handler = {}) {
  file = suite;
  answer = null;
  settings = { api: 'openai', base_url: '', model: 'mock-model', temperature: null, runs: 3, concurrency: 4, timeout_secs: 120 };
  keys = [
    { api: 'openai', stored: false, env: 'OPENAI_API_KEY', env_set: true, keyring_error: null },
    { api: 'anthropic', stored: false, env: 'ANTHROPIC_API_KEY', env_set: false, keyring_error: null },
  ];
  mockIPC(route(handlers(extra)), { shouldMockEvents: true });
  studio = await mountApp(2);
  $('[data-testid=tab-evals]')!.click();
  await studio.editing.open(PDF);
  await until(() => calls.some((c) => c.cmd === 'open_suite') && studio.evals.suite !== null);
  await settle();
}

const rows = () => $$('[data-testid=suite-case]');
const lastCall = <T>(cmd: string) => calls.filter((c) => c.cmd === cmd).at(-1)?.args as T;

async function finish(reply: EvalReply) {
  await until(() => answer !== null);
  answer!(reply);
  await until(() => !studio.evals.running);
  await settle();
}

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Evals pane', () => {
  it('creates a suite for the open skill, edits its cases with the engine and saves it', async () => {
    await start();
    expect($('[data-testid=suite-missing]')?.textContent).toContain('No trigger suite');
    expect(($('[data-testid=eval-run]') as HTMLButtonElement).disabled).toBe(true);
    $('[data-testid=suite-create]')!.click();
    await until(() => $('[data-testid=suite-cases]') !== null);
    expect($('[data-testid=suite-dirty]')).not.toBeNull();
    $('[data-testid=case-add]')!.click();
    $('[data-testid=case-add]')!.click();
    await until(() => rows().length === 2);
    // The expect picker offers the library's skills and none.
    const expect0 = rows()[0].querySelector('[data-testid=case-expect]') as HTMLSelectElement;
    expect([...expect0.options].map((o) => o.value)).toEqual(['none', 'csv', 'pdf']);
    change(rows()[0].querySelector('[data-testid=case-query]') as HTMLElement, 'Pull the tables out of report.pdf');
    change(expect0, 'pdf');
    await settle();
    // The second row has no query yet: the engine's located mistake shows, and Save does not write.
    $('[data-testid=suite-save]')!.click();
    await until(() => $('[data-testid=suite-error]') !== null);
    expect($('[data-testid=suite-error]')?.textContent).toContain('line 8, column 5: `query` is empty');
    expect(calls.some((c) => c.cmd === 'save_suite')).toBe(false);
    change(rows()[1].querySelector('[data-testid=case-query]') as HTMLElement, 'What is the weather?');
    await until(() => $('[data-testid=suite-error]') === null);
    $('[data-testid=suite-save]')!.click();
    await until(() => calls.some((c) => c.cmd === 'save_suite'));
    expect(lastCall('save_suite')).toEqual({
      path: SUITE,
      text: 'sources: ["../.."]\ncases:\n  - case-1|Pull the tables out of report.pdf|pdf\n  - case-2|What is the weather?|none',
    });
    await until(() => $('[data-testid=suite-dirty]') === null);
    // Removing a case goes through the engine again.
    (rows()[1].querySelector('[data-testid=case-remove]') as HTMLElement).click();
    await until(() => rows().length === 1);
    expect((lastCall('suite_yaml') as Suite).cases).toEqual([{ id: 'case-1', query: 'Pull the tables out of report.pdf', expect: 'pdf' }]);
    expect(nextId([{ id: 'case-2', query: 'q', expect: 'none' }])).toBe('case-3');
  });

  it('explains a trigger eval, and says why Run is disabled until it can run', async () => {
    await start();
    const why = () => $('[data-testid=eval-run-why]')?.textContent?.trim() ?? null;
    const run = () => $('[data-testid=eval-run]') as HTMLButtonElement;
    expect($('[data-testid=suite-missing]')?.textContent).toContain('A trigger eval asks a model each query');
    expect(run().disabled).toBe(true);
    expect(why()).toBe('Create a suite first.');
    $('[data-testid=suite-create]')!.click();
    await until(() => $('[data-testid=suite-no-cases]') !== null);
    expect(why()).toContain('Add a case first');
    expect(run().getAttribute('aria-describedby')).toBe('eval-run-why');
    $('[data-testid=case-add]')!.click();
    await until(() => why()?.includes('1 case has no query yet') ?? false);
    change(rows()[0].querySelector('[data-testid=case-query]') as HTMLElement, 'Read report.pdf');
    await until(() => why() === null);
    expect(run().disabled).toBe(false);
    expect($('[data-testid=suite-count]')?.textContent).toContain('1 case ·');
    // No model: said, not sent.
    change($('[data-testid=eval-model]'), '');
    await until(() => why() === 'Name the model to ask in Model.');
    expect(run().disabled).toBe(true);
    expect(($('[data-testid=eval-model]') as HTMLInputElement).placeholder).toBe('type a model name');
    change($('[data-testid=eval-model]'), 'gpt-4o-mini');
    // Anthropic has no key here (none stored, ANTHROPIC_API_KEY unset) and no local server.
    change($('[data-testid=eval-api]'), 'anthropic');
    await until(() => why()?.startsWith('No API key for Anthropic') ?? false);
    expect(why()).toContain('set ANTHROPIC_API_KEY');
    change($('[data-testid=eval-base-url]'), 'http://127.0.0.1:11434/v1');
    await until(() => why() === null);
    run().click();
    await until(() => answer !== null);
  });

  it('says the keyring is unavailable in words, with its own error on hover', async () => {
    const dbus = 'Platform secure storage failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files';
    await start(null, {
      api_keys: () => keys.map((k) => ({ ...k, keyring_error: dbus })),
      set_api_key: () => {
        throw { code: 'keyring', message: `the system keyring: ${dbus}`, details: [] };
      },
    });
    await until(() => $('[data-testid=eval-keyring]') !== null);
    const note = $('[data-testid=eval-keyring]')!;
    expect(note.textContent).toContain('The system keyring is unavailable');
    expect(note.textContent).toContain('Set OPENAI_API_KEY');
    expect(note.textContent).not.toContain('DBus');
    expect(note.title).toBe(dbus);
    change($('[data-testid=eval-key]'), 'sk-typed');
    ($('[data-testid=eval-key]')!.closest('form') as HTMLFormElement).requestSubmit();
    await until(() => $('[data-testid=eval-error]') !== null);
    const err = $('[data-testid=eval-error]')!;
    expect(err.dataset.field).toBe('key');
    expect(err.textContent).not.toContain('DBus');
    expect(err.textContent).toContain('keyring is unavailable');
    expect(err.querySelector('.chip')?.textContent).toBe('keyring');
  });

  it('imports skill-creator\'s list from the skill folder', async () => {
    await start();
    expect(($('[data-testid=suite-import-from]') as HTMLSelectElement).value).toBe('/lib/s0/pdf/evals/evals.json');
    $('[data-testid=suite-import]')!.click();
    await until(() => rows().length === 2);
    expect(lastCall('import_suite')).toEqual({ skill: PDF, name: 'pdf', from: '/lib/s0/pdf/evals/evals.json' });
    expect((rows()[0].querySelector('[data-testid=case-expect]') as HTMLSelectElement).value).toBe('pdf');
    expect($('[data-testid=suite-dirty]')).not.toBeNull();
    expect($('[data-testid=eval-status]')?.textContent).toContain('imported 2 cases');
  });

  it('remembers the provider settings and sends the key to the keyring only', async () => {
    await start();
    // Only agents with a skill tool can be evaluated.
    expect((await pickerEntries('eval-agent')).map(([id]) => id)).toEqual(['claude-code', 'codex']);
    expect($('[data-testid=eval-key-status]')?.textContent).toContain('from OPENAI_API_KEY');
    change($('[data-testid=eval-model]'), 'gpt-4o-mini');
    await until(() => settings.model === 'gpt-4o-mini');
    change($('[data-testid=eval-base-url]'), 'http://127.0.0.1:11434/v1');
    change($('[data-testid=eval-runs]'), '5');
    change($('[data-testid=eval-temperature]'), '0');
    await until(() => settings.runs === 5 && settings.temperature === 0);
    expect(settings.base_url).toBe('http://127.0.0.1:11434/v1');
    change($('[data-testid=eval-key]'), 'sk-typed');
    ($('[data-testid=eval-key]')!.closest('form') as HTMLFormElement).requestSubmit();
    await until(() => $('[data-testid=eval-key-status]')?.textContent?.includes('stored in the keyring') ?? false);
    expect(lastCall('set_api_key')).toEqual({ api: 'openai', key: 'sk-typed' });
    expect(($('[data-testid=eval-key]') as HTMLInputElement).value).toBe('');
    expect(JSON.stringify([studio.evals.keys, studio.evals.settings, studio.evals.error])).not.toContain('sk-typed');
    $('[data-testid=eval-key-forget]')!.click();
    await until(() => $('[data-testid=eval-key-status]')?.textContent?.includes('from OPENAI_API_KEY') ?? false);
    change($('[data-testid=eval-api]'), 'anthropic');
    await until(() => $('[data-testid=eval-key-status]')?.textContent?.includes('no key') ?? false);
    expect(settings.api).toBe('anthropic');
  });

  it('runs with progress and shows the counts, the rates and the charts', async () => {
    const suite: Suite = { agent: 'codex', sources: ['../..'], context_window: null, char_budget: null, cases: [{ id: 'tables', query: 'q', expect: 'pdf' }] };
    await start({ path: SUITE, exists: true, text: yaml(suite), suite, version: versionOf('x') });
    expect(rows()).toHaveLength(1);
    expect(studio.evals.agent).toBe('codex');
    $('[data-testid=eval-run]')!.click();
    await until(() => answer !== null);
    expect(lastCall<RunEval>('run_eval')).toMatchObject({ path: SUITE, text: yaml(suite), agent: 'codex', compare: null, provider: { runs: 3 } });
    expect(($('[data-testid=eval-run]') as HTMLButtonElement).disabled).toBe(true);
    await emit('eval-progress', { done: 4, total: 9, variant: 'saved' });
    await until(() => $('[data-testid=eval-progress]')?.dataset.done === '4');
    expect($('[data-testid=eval-progress]')?.textContent).toContain('4/9 requests');
    await emit('eval-progress', { done: 9, total: 9, variant: 'saved' });
    await finish({ saved: saved(), unsaved: null, key: 'environment' });
    expect($('[data-testid=eval-progress]')?.textContent).toContain('9/9 requests · finished');
    const cases = $$('[data-testid=eval-case]');
    expect(cases.map((c) => [c.dataset.id, c.querySelector('[data-testid=eval-activated]')?.textContent, c.querySelector('[data-testid=eval-rate]')?.textContent, c.dataset.pass])).toEqual([
      ['tables', 'none 1/3, pdf 2/3', '67%', 'true'],
      ['csv', 'csv 3/3', '100%', 'true'],
      ['weather', 'none 3/3', '100%', 'true'],
    ]);
    expect($$('[data-testid=case-bar]').map((b) => b.style.width)).toEqual(['66.67%', '100%', '100%']);
    expect($$('[data-testid=eval-skill]').map((s) => s.dataset.name)).toEqual(['pdf', 'csv']);
    expect($$('[data-testid=recall-bar]')[0].style.width).toBe('66.67%');
    expect($('[data-testid=confusions]')?.textContent).toContain('its queries went to: none 1');
    expect($('[data-testid=eval-summary]')?.textContent).toContain('3/3 passed');
    expect($$('[data-testid=eval-report]')).toHaveLength(1);
    expect($('.diff')).toBeNull();
  });

  it('counts the finished run from its reports, whatever order the last events come in', async () => {
    const suite: Suite = { agent: null, sources: ['../..'], context_window: null, char_budget: null, cases: [{ id: 'tables', query: 'q', expect: 'pdf' }] };
    await start({ path: SUITE, exists: true, text: yaml(suite), suite, version: versionOf('x') });
    $('[data-testid=eval-run]')!.click();
    await until(() => answer !== null);
    await emit('eval-progress', { done: 7, total: 9, variant: 'saved' });
    await until(() => $('[data-testid=eval-progress]')?.dataset.done === '7');
    // The answer comes before the events of the last two requests, which then arrive late.
    await finish({ saved: saved(), unsaved: null, key: 'environment' });
    await emit('eval-progress', { done: 8, total: 9, variant: 'saved' });
    const bar = $('[data-testid=eval-progress]')!;
    expect([bar.dataset.done, bar.dataset.total, bar.dataset.running]).toEqual(['9', '9', 'false']);
    expect(bar.textContent).toContain('9/9 requests · finished');
  });

  it('cancels a run and says the report is partial', async () => {
    const suite: Suite = { agent: null, sources: ['../..'], context_window: null, char_budget: null, cases: [{ id: 'tables', query: 'q', expect: 'pdf' }] };
    await start({ path: SUITE, exists: true, text: yaml(suite), suite, version: versionOf('x') });
    $('[data-testid=eval-run]')!.click();
    await until(() => answer !== null);
    expect(($('[data-testid=eval-cancel]') as HTMLButtonElement).disabled).toBe(false);
    $('[data-testid=eval-cancel]')!.click();
    await until(() => calls.some((c) => c.cmd === 'cancel_eval'));
    await finish({ saved: report([caseReport('tables', 'pdf', { pdf: 1 }, 1)], true), unsaved: null, key: 'keyring' });
    expect($('[data-testid=eval-cancelled]')).not.toBeNull();
    expect($('[data-testid=eval-status]')?.textContent).toContain('cancelled');
    expect(($('[data-testid=eval-cancel]') as HTMLButtonElement).disabled).toBe(true);
  });

  it('compares with the editor\'s unsaved text: two reports, differences highlighted', async () => {
    const suite: Suite = { agent: null, sources: ['../..'], context_window: null, char_budget: null, cases: [{ id: 'tables', query: 'q', expect: 'pdf' }] };
    await start({ path: SUITE, exists: true, text: yaml(suite), suite, version: versionOf('x') });
    const typed = TEXT.replace('Reads PDF files.', 'Extracts tables from PDF files.');
    studio.editing.file!.text = typed;
    change($('[data-testid=eval-compare]'), true);
    $('[data-testid=eval-run]')!.click();
    await until(() => answer !== null);
    expect(lastCall<RunEval>('run_eval').compare).toEqual({ path: PDF, text: typed });
    await emit('eval-progress', { done: 3, total: 3, variant: 'saved' });
    await emit('eval-progress', { done: 1, total: 3, variant: 'unsaved' });
    await until(() => $('[data-testid=eval-progress]')?.dataset.done === '4');
    expect($('[data-testid=eval-progress]')?.dataset.total).toBe('6');
    const before = report([caseReport('tables', 'pdf', { none: 3 })]);
    const after = report([caseReport('tables', 'pdf', { pdf: 3 })]);
    await finish({ saved: before, unsaved: after, key: 'none' });
    const reports = $$('[data-testid=eval-report]');
    expect(reports.map((r) => r.dataset.variant)).toEqual(['saved', 'unsaved']);
    const row = (r: HTMLElement) => r.querySelector('[data-testid=eval-case]') as HTMLElement;
    expect(reports.map((r) => row(r).dataset.pass)).toEqual(['false', 'true']);
    expect(reports.every((r) => row(r).classList.contains('diff'))).toBe(true);
    expect(reports[1].querySelector('[data-testid=eval-summary] .diff')?.textContent).toContain('1/1 passed');
    expect($('[data-testid=eval-status]')?.textContent).toBe('6 requests to mock-model');
  });

  it('shows the host\'s errors and stays usable', async () => {
    const suite: Suite = { agent: null, sources: ['../..'], context_window: null, char_budget: null, cases: [{ id: 'a', query: 'q', expect: 'pdf' }] };
    const noKey = { code: 'no-key', message: 'no API key for openai: store one, set OPENAI_API_KEY, or give the base URL of a local server', details: [] };
    await start({ path: SUITE, exists: true, text: yaml(suite), suite, version: versionOf('x') }, {
      run_eval: () => {
        throw noKey;
      },
    });
    $('[data-testid=eval-run]')!.click();
    await until(() => $('[data-testid=eval-error]') !== null);
    expect($('[data-testid=eval-error]')?.textContent).toContain('no-key');
    // Under the field it is about, the code apart from the words.
    expect($('[data-testid=eval-error]')?.dataset.field).toBe('key');
    expect($('[data-testid=eval-error] .chip')?.textContent).toBe('no-key');
    expect($('[data-testid=eval-error]')?.closest('form')?.getAttribute('aria-label')).toBe('API key');
    expect($('[data-testid=eval-error]')?.textContent).toContain('set OPENAI_API_KEY');
    expect(($('[data-testid=eval-run]') as HTMLButtonElement).disabled).toBe(false);
    expect($('[data-testid=eval-reports]')).toBeNull();
  });
});
