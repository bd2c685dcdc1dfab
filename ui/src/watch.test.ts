import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import { EditorView } from '@codemirror/view';
import type { Studio } from './lib/studio.svelte';
import type { LibraryChanged } from './lib/bindings';
import { $$, $, type Call, dispatcher, type Handler, libraryOf, mountApp, oneSource, settle, skill, unmountApp, until, versionOf } from './testing/fixtures';

const PATH = '/lib/s0/demo/SKILL.md';
let disk = '';
let calls: Call[] = [];
let studio: Studio;

const handlers: Handler = oneSource([skill('demo', 0)], () => disk, {
  save_file: ({ path, text }) => {
    disk = text;
    return { path, bytes: text.length, version: versionOf(text) };
  },
});

function changed(errors = 0): LibraryChanged {
  return {
    events: [{ kind: 'skill-changed', dir: '/lib/s0/demo', name: 'demo' }],
    library: libraryOf(['/lib/s0'], [skill('demo', 0, { errors }), ...(errors ? [skill('other', 0, { errors })] : [])]),
    errors: [],
  };
}

async function startWithOpenFile() {
  disk = 'original\n';
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(1);
  await studio.editing.open(PATH);
  await until(() => $('.cm-content')?.textContent?.includes('original') ?? false);
  // The editor lints the opened text once; the tests' own edits come after it.
  await until(() => calls.some((c) => c.cmd === 'lint_text'));
  await settle();
}

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('watching the library', () => {
  it('refreshes the Library pane with the host event', async () => {
    await startWithOpenFile();
    expect($('[data-testid=skill] .badge.error')).toBeNull();
    await emit('library-changed', changed(2));
    await until(() => $('[data-testid=skill][data-name=other] .badge.error')?.textContent === '2');
    // The open file's badge counts its text in the editor, as the status bar and Problems do.
    expect($('[data-testid=skill][data-name=demo] .badge.error')).toBeNull();
  });

  it('reloads the open file when the editor is clean', async () => {
    await startWithOpenFile();
    disk = 'changed outside\n';
    await emit('library-changed', changed());
    await until(() => $('.cm-content')?.textContent?.includes('changed outside') ?? false);
    expect(studio.editing.dirty).toBe(false);
    expect($('[data-testid=conflict]')).toBeNull();
  });

  it('raises a conflict on a dirty editor and each choice resolves it', async () => {
    await startWithOpenFile();
    await studio.editing.lint('mine\n');
    disk = 'theirs\n';
    await emit('library-changed', changed());
    await until(() => $('[data-testid=conflict]') !== null);
    // The changes, line by line: the disk's line removed, yours added.
    const rows = $$('[data-testid=conflict-diff] [data-kind]').map((r) => `${r.dataset.kind} ${r.querySelector('.text')?.textContent}`);
    expect(rows).toEqual(['removed theirs', 'added mine']);
    expect($('[data-testid=conflict-disk]')).toBeNull();
    // Both versions in full, on demand.
    $('[data-testid=conflict-both]')!.click();
    await until(() => $('[data-testid=conflict-disk]') !== null);
    expect($('[data-testid=conflict-disk]')?.textContent).toBe('theirs\n');
    expect($('[data-testid=conflict-mine]')?.textContent).toBe('mine\n');
    expect($('[data-testid=conflict-diff]')).toBeNull();
    $('[data-testid=conflict-both]')!.click();

    // Take the disk version: the editor shows it, clean.
    $('[data-testid=take-disk]')!.click();
    await until(() => $('[data-testid=conflict]') === null);
    await until(() => $('.cm-content')?.textContent?.includes('theirs') ?? false);
    expect(studio.editing.dirty).toBe(false);

    // Keep mine: the editor's text is saved over the disk's.
    await studio.editing.lint('mine again\n');
    disk = 'theirs 2\n';
    await emit('library-changed', changed());
    await until(() => $('[data-testid=conflict]') !== null);
    $('[data-testid=keep-mine]')!.click();
    await until(() => $('[data-testid=conflict]') === null && disk === 'mine again\n');
    expect(studio.editing.dirty).toBe(false);

    // Keep editing: the view closes, the text stays and is unsaved against the disk's.
    await studio.editing.lint('still mine\n');
    disk = 'theirs 3\n';
    await emit('library-changed', changed());
    await until(() => $('[data-testid=conflict]') !== null);
    $('[data-testid=keep-editing]')!.click();
    await until(() => $('[data-testid=conflict]') === null);
    expect(studio.editing.file?.text).toBe('still mine\n');
    expect(studio.editing.file?.saved).toBe('theirs 3\n');
    expect(studio.editing.dirty).toBe(true);
  });

  it("does not raise a conflict for the app's own save", async () => {
    await startWithOpenFile();
    await studio.editing.lint('saved by the app\n');
    await studio.editing.save();
    await studio.editing.lint('saved by the app\nand typed after\n');
    await emit('library-changed', changed());
    await settle();
    expect($('[data-testid=conflict]')).toBeNull();
    expect(studio.editing.file?.saved).toBe('saved by the app\n');
    expect(calls.filter((c) => c.cmd === 'read_file')).toHaveLength(2);
  });

  it('ignores events about other skills', async () => {
    await startWithOpenFile();
    await studio.editing.lint('mine\n');
    disk = 'theirs\n';
    const other = changed();
    other.events = [{ kind: 'skill-changed', dir: '/lib/s0/other', name: 'other' }];
    await emit('library-changed', other);
    await settle();
    expect($('[data-testid=conflict]')).toBeNull();
  });
});

describe('saving', () => {
  it('saves the text typed a moment ago, before it is linted', async () => {
    await startWithOpenFile();
    const view = EditorView.findFromDOM($('.cm-editor')!)!;
    view.dispatch({ changes: { from: view.state.doc.length, insert: 'typed' } });
    await studio.editing.save();
    expect(disk).toBe('original\ntyped');
  });
});
