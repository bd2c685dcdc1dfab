import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, unmount } from 'svelte';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import { insertNewline } from '@codemirror/commands';
import App from './App.svelte';
import { Studio } from './lib/studio.svelte';
import { lineSeparatorOf } from './lib/editor';
import { $, $$, type Call, commonHandlers, dispatcher, emptyPrompt, type Handler, libraryOf, skill, until } from './testing/fixtures';

const CRLF = '---\r\nname: crlf\r\ndescription: d\r\n---\r\n# Body\r\n';
const LF = '---\nname: lf\n---\n';
let calls: Call[] = [];
let app: ReturnType<typeof mount> | null = null;
let studio: Studio;

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0'], agent: 'spec' }),
  agents: () => [{ id: 'spec', title: 'spec', source: '', has_prompt: false }],
  open_library: () => libraryOf(['/lib/s0'], [skill('crlf', 0), skill('lf', 0)]),
  render_prompt: () => emptyPrompt,
  read_file: ({ path }) => ({ path, text: path.includes('/crlf/') ? CRLF : LF }),
  lint_text: () => ({ diagnostics: [] }),
  save_file: ({ path, text }) => ({ path, bytes: text.length }),
};

const view = () => EditorView.findFromDOM($('.cm-editor')!)!;
const saved = () => calls.filter((c) => c.cmd === 'save_file').at(-1)?.args as { text: string } | undefined;

beforeEach(async () => {
  document.body.innerHTML = '';
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = new Studio();
  app = mount(App, { target: document.body, props: { studio } });
  await until(() => $$('[data-testid=skill]').length === 2);
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
  clearMocks();
});

describe('Line endings', () => {
  it('detects a file line ending by its first line break', () => {
    expect(lineSeparatorOf(CRLF)).toBe('\r\n');
    expect(lineSeparatorOf(LF)).toBeNull();
    expect(lineSeparatorOf('one line')).toBeNull();
  });

  it('a CRLF file keeps CRLF, also on new lines, when saved; an LF file keeps LF', async () => {
    await studio.openSkill('/lib/s0/crlf/SKILL.md');
    await until(() => $('.cm-content') !== null);
    expect(studio.dirty).toBe(false);
    const v = view();
    v.dispatch({ selection: { anchor: v.state.doc.length } });
    insertNewline(v);
    v.dispatch({ changes: { from: v.state.doc.length, insert: 'more' } });
    await studio.save();
    expect(saved()?.text).toBe(`${CRLF}\r\nmore`);

    // Switching to an LF file switches the editor's line ending too.
    await studio.openSkill('/lib/s0/lf/SKILL.md');
    await until(() => view().state.doc.toString() === LF);
    const w = view();
    w.dispatch({ selection: { anchor: w.state.doc.length } });
    insertNewline(w);
    await studio.save();
    expect(saved()?.text).toBe(`${LF}\n`);
  });
});
