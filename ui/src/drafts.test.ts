import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import type { Studio } from './lib/studio.svelte';
import type { Draft } from './lib/bindings';
import { $$, $, type Call, dispatcher, type Handler, mountApp, oneSource, skill, unmountApp, until, versionOf } from './testing/fixtures';

const PATH = '/lib/s0/demo/SKILL.md';
let calls: Call[] = [];
let offered: Draft[] = [];
let studio: Studio;

const handlers: Handler = oneSource([skill('demo', 0), skill('other', 0)], () => 'on disk\n', {
  save_file: ({ path, text }) => ({ path, bytes: text.length, version: versionOf(text) }),
  drafts: () => offered,
});

async function start() {
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(2);
}

const draft = (path: string, text: string): Draft => ({ path, text, written_ms: 2000, file_modified_ms: 1000 });
const editorText = () => EditorView.findFromDOM($('.cm-editor')!)!.state.doc.toString();

beforeEach(() => {
  offered = [];
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Recovery drafts', () => {
  it('offers drafts newer than their file on start; restore opens the text unsaved, discard drops it', async () => {
    offered = [draft(PATH, 'recovered\n'), draft('/lib/s0/other/SKILL.md', 'old\n')];
    await start();
    await until(() => $$('[data-testid=draft]').length === 2);
    $$('[data-testid=draft-restore]')[0].click();
    await until(() => ($('.cm-content') !== null && editorText() === 'recovered\n'));
    expect(studio.editing.file?.saved).toBe('on disk\n');
    expect(studio.editing.dirty).toBe(true);
    $('[data-testid=draft-discard]')!.click();
    await until(() => $$('[data-testid=draft]').length === 0);
    expect(calls.find((c) => c.cmd === 'discard_draft')?.args).toEqual({ path: '/lib/s0/other/SKILL.md' });
  });

  it('writes unsaved text (debounced) and drops the draft once the text is clean again', async () => {
    await start();
    await studio.editing.open(PATH);
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
