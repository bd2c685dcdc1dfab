import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import { diagnosticCount } from '@codemirror/lint';
import type { Studio } from './lib/studio.svelte';
import type { Linted } from './lib/bindings';
import { $, type Call, diagnostic, dispatcher, type Handler, mountApp, oneSource, settle, skill, unmountApp, until } from './testing/fixtures';

const TEXT = '---\nname: demo\ndescription: d\n---\n# Body\n';
let calls: Call[] = [];
let studio: Studio;
/** The lints asked for and not answered yet: the test answers them. */
let pending: { text: string; answer: (l: Linted) => void }[] = [];

const handlers: Handler = oneSource([skill('demo', 0)], () => TEXT, {
  lint_text: ({ text }) => new Promise<Linted>((answer) => pending.push({ text, answer })),
});

const view = () => EditorView.findFromDOM($('.cm-editor')!)!;
const lints = () => calls.filter((c) => c.cmd === 'lint_text').map((c) => (c.args as { text: string }).text);
const type = (s: string) => view().dispatch({ changes: { from: view().state.doc.length, insert: s } });

beforeEach(async () => {
  calls = [];
  pending = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(1);
  await studio.editing.open('/lib/s0/demo/SKILL.md');
  await until(() => pending.length === 1);
  pending.shift()!.answer({ diagnostics: [] });
  await settle();
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Linting as you type', () => {
  it('lints each change at once, one lint at a time, skipping the texts typed meanwhile', async () => {
    type('a');
    await until(() => pending.length === 1);
    expect(pending[0].text).toBe(`${TEXT}a`);
    // Three more keys while that lint runs: no new lint yet.
    type('b');
    type('c');
    type('d');
    await settle();
    expect(pending).toHaveLength(1);
    // When it ends, the latest text alone is linted, and its diagnostics are shown.
    pending.shift()!.answer({ diagnostics: [] });
    await until(() => pending.length === 1);
    expect(pending[0].text).toBe(`${TEXT}abcd`);
    const d = {
      code: 'SK999',
      rule: 'demo',
      severity: 'error' as const,
      message: 'm',
      span: { start: 0, end: 3 },
      start: { line: 1, column: 1, column_utf16: 1 },
      end: { line: 1, column: 4, column_utf16: 4 },
      labels: [],
      help: null,
      docs: '',
      fix: null,
    };
    pending.shift()!.answer({ diagnostics: [d] });
    await until(() => diagnosticCount(view().state) === 1);
    await until(() => studio.editing.live.length === 1);
    expect(lints()).toEqual([TEXT, `${TEXT}a`, `${TEXT}abcd`]);
  });

  it('lints the same text again when the agent changes, and its squiggles follow', async () => {
    const squiggles = () => diagnosticCount(view().state);
    expect(squiggles()).toBe(0);
    void studio.setAgent('claude-code');
    // The agent's finding: each lint asked for from now on answers with it.
    const found = diagnostic('SK999', 'demo', 'error', 1, 1, 4);
    for (let i = 0; i < 5 && squiggles() === 0; i++) {
      await until(() => pending.length > 0);
      pending.shift()!.answer({ diagnostics: [found] });
      await settle();
    }
    expect(squiggles()).toBe(1);
    await until(() => studio.editing.live.length === 1);
    // The unchanged text, under the new agent.
    const asked = calls.filter((c) => c.cmd === 'lint_text').slice(1);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((c) => (c.args as { text: string; agent: string }).agent === 'claude-code')).toBe(true);
    expect(asked.every((c) => (c.args as { text: string }).text === TEXT)).toBe(true);
  });

  it('keeps the Problems pane as it is when a lint finds what the one before found', async () => {
    const found = diagnostic('SK999', 'demo', 'error', 1, 1, 4);
    const answer = async (ds: Linted['diagnostics']) => {
      await until(() => pending.length === 1);
      pending.shift()!.answer({ diagnostics: ds });
    };
    type('a');
    await answer([found]);
    await until(() => studio.editing.live.length === 1);
    const shown = studio.editing.live;
    // The same finding again (a copy, as the engine sends it): the list shown stays.
    type('b');
    await answer([{ ...found }]);
    await until(() => lints().length === 3);
    await settle();
    await new Promise((r) => setTimeout(r, 150));
    expect(studio.editing.live).toBe(shown);
    // Another one replaces it.
    type('c');
    await answer([diagnostic('SK999', 'demo', 'error', 2, 1, 4)]);
    await until(() => studio.editing.live[0]?.start.line === 2);
  });
});
