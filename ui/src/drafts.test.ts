import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, unmount } from 'svelte';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import App from './App.svelte';
import { Studio } from './lib/studio.svelte';
import type { Draft } from './lib/bindings';
import { $, $$, type Call, commonHandlers, dispatcher, emptyPrompt, type Handler, libraryOf, skill, until } from './testing/fixtures';

const PATH = '/lib/s0/demo/SKILL.md';
let calls: Call[] = [];
let offered: Draft[] = [];
let app: ReturnType<typeof mount> | null = null;
let studio: Studio;

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0'], agent: 'spec' }),
  agents: () => [{ id: 'spec', title: 'spec', source: '', has_prompt: false }],
  open_library: () => libraryOf(['/lib/s0'], [skill('demo', 0), skill('other', 0)]),
  render_prompt: () => emptyPrompt,
  read_file: ({ path }) => ({ path, text: 'on disk\n' }),
  lint_text: () => ({ diagnostics: [] }),
  save_file: ({ path, text }) => ({ path, bytes: text.length }),
  drafts: () => offered,
};

async function start() {
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = new Studio();
  app = mount(App, { target: document.body, props: { studio } });
  await until(() => $$('[data-testid=skill]').length === 2);
}

const draft = (path: string, text: string): Draft => ({ path, text, written_ms: 2000, file_modified_ms: 1000 });
const editorText = () => EditorView.findFromDOM($('.cm-editor')!)!.state.doc.toString();

beforeEach(() => {
  document.body.innerHTML = '';
  offered = [];
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
  clearMocks();
});

describe('Recovery drafts', () => {
  it('offers drafts newer than their file on start; restore opens the text unsaved, discard drops it', async () => {
    offered = [draft(PATH, 'recovered\n'), draft('/lib/s0/other/SKILL.md', 'old\n')];
    await start();
    await until(() => $$('[data-testid=draft]').length === 2);
    $$('[data-testid=draft-restore]')[0].click();
    await until(() => ($('.cm-content') !== null && editorText() === 'recovered\n'));
    expect(studio.file?.saved).toBe('on disk\n');
    expect(studio.dirty).toBe(true);
    $('[data-testid=draft-discard]')!.click();
    await until(() => $$('[data-testid=draft]').length === 0);
    expect(calls.find((c) => c.cmd === 'discard_draft')?.args).toEqual({ path: '/lib/s0/other/SKILL.md' });
  });

  it('writes unsaved text (debounced) and drops the draft once the text is clean again', async () => {
    await start();
    await studio.openSkill(PATH);
    await until(() => $('.cm-content') !== null);
    const view = EditorView.findFromDOM($('.cm-editor')!)!;
    view.dispatch({ changes: { from: 0, insert: 'a' } });
    view.dispatch({ changes: { from: 1, insert: 'b' } });
    await until(() => calls.some((c) => c.cmd === 'save_draft'));
    expect(calls.filter((c) => c.cmd === 'save_draft').map((c) => c.args)).toEqual([{ path: PATH, text: 'abon disk\n' }]);
    view.dispatch({ changes: { from: 0, to: 2, insert: '' } });
    await until(() => calls.some((c) => c.cmd === 'discard_draft'));
    expect(calls.find((c) => c.cmd === 'discard_draft')?.args).toEqual({ path: PATH });
  });
});
