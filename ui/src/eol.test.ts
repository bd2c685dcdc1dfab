import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import { insertNewline } from '@codemirror/commands';
import type { Studio } from './lib/studio.svelte';
import { lineSeparatorOf } from './lib/codemirror';
import { $, type Call, dispatcher, type Handler, mountApp, oneSource, skill, unmountApp, until, versionOf } from './testing/fixtures';

const CRLF = '---\r\nname: crlf\r\ndescription: d\r\n---\r\n# Body\r\n';
const LF = '---\nname: lf\n---\n';
let calls: Call[] = [];
let studio: Studio;

const handlers: Handler = oneSource([skill('crlf', 0), skill('lf', 0)], (path) => (path.includes('/crlf/') ? CRLF : LF), {
  save_file: ({ path, text }) => ({ path, bytes: text.length, version: versionOf(text) }),
});

const view = () => EditorView.findFromDOM($('.cm-editor')!)!;
const saved = () => calls.filter((c) => c.cmd === 'save_file').at(-1)?.args as { text: string } | undefined;

beforeEach(async () => {
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(2);
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Line endings', () => {
  it('detects a file line ending by its first line break', () => {
    expect(lineSeparatorOf(CRLF)).toBe('\r\n');
    expect(lineSeparatorOf(LF)).toBeNull();
    expect(lineSeparatorOf('one line')).toBeNull();
  });

  it('a CRLF file keeps CRLF, also on new lines, when saved; an LF file keeps LF', async () => {
    await studio.editing.open('/lib/s0/crlf/SKILL.md');
    await until(() => $('.cm-content') !== null);
    expect(studio.editing.dirty).toBe(false);
    const v = view();
    v.dispatch({ selection: { anchor: v.state.doc.length } });
    insertNewline(v);
    v.dispatch({ changes: { from: v.state.doc.length, insert: 'more' } });
    await studio.editing.save();
    expect(saved()?.text).toBe(`${CRLF}\r\nmore`);

    // Switching to an LF file switches the editor's line ending too.
    await studio.editing.open('/lib/s0/lf/SKILL.md');
    await until(() => view().state.doc.toString() === LF);
    const w = view();
    w.dispatch({ selection: { anchor: w.state.doc.length } });
    insertNewline(w);
    await studio.editing.save();
    expect(saved()?.text).toBe(`${LF}\n`);
  });
});
