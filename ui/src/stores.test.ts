// The stores built alone, each from only what it reads (the `Studio` root is not in these
// tests): what each reads goes through its getters, what it tells goes through its callbacks;
// and the root's wiring of them, without the app mounted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditingState, type OpenFile } from './lib/editing.svelte';
import { LibraryState } from './lib/library.svelte';
import { Notices } from './lib/notices.svelte';
import { PreviewState } from './lib/preview.svelte';
import { Studio } from './lib/studio.svelte';
import type { SkillEntry } from './lib/bindings';
import { type Call, diagnostic, dispatcher, libraryOf, oneSource, skill, until, versionOf } from './testing/fixtures';

const PATH = '/lib/s0/demo/SKILL.md';
const TEXT = '---\nname: demo\n---\n# Demo\n';
const demo = skill('demo', 0, { diagnostics: [diagnostic('SK101', 'a-rule', 'warning', 2, 1, 5)], warnings: 1 });
let calls: Call[] = [];

beforeEach(() => {
  calls = [];
  mockIPC(dispatcher(oneSource([demo], () => TEXT, { lint_text: () => ({ diagnostics: [] }) }), calls), { shouldMockEvents: true });
});

afterEach(() => clearMocks());

/** An editing store over a library of `skills`, recording what it tells. */
function editingOver(skills: SkillEntry[], agent = 'claude-code') {
  const told: string[] = [];
  const notices = new Notices();
  const editing = new EditingState({
    notices,
    skill: (path) => skills.find((s) => s.path === path) ?? null,
    agent: () => agent,
    select: (path) => told.push(`select ${path}`),
    onOpened: (path) => told.push(`opened ${path}`),
    onEdited: () => told.push('edited'),
    focusEditor: () => told.push('focus'),
  });
  return { editing, notices, told };
}

describe('the editing store alone', () => {
  it('opens a skill of the library through its getters and tells what happened', async () => {
    const { editing, told } = editingOver([demo]);
    await editing.open(PATH);
    expect(editing.file).toMatchObject({ path: PATH, name: 'demo', text: TEXT, saved: TEXT, base: versionOf(TEXT) });
    expect(editing.live).toEqual(demo.diagnostics);
    expect(told).toEqual([`select ${PATH}`, `opened ${PATH}`]);

    editing.edit(`${TEXT}more\n`);
    expect(told.at(-1)).toBe('edited');
    expect(editing.dirty).toBe(true);
  });

  it('opens nothing that is not a skill of the library', async () => {
    const { editing, told } = editingOver([]);
    await editing.open(PATH);
    expect(editing.file).toBeNull();
    expect(told).toEqual([]);
    expect(calls.map((c) => c.cmd)).not.toContain('read_file');
  });

  it('lints under the agent its getter gives', async () => {
    const { editing } = editingOver([demo], 'codex');
    await editing.open(PATH);
    await editing.lint(TEXT);
    expect(calls.find((c) => c.cmd === 'lint_text')?.args).toMatchObject({ path: PATH, agent: 'codex' });
  });

  it('closes a clean file the library no longer has, and keeps an edited one', async () => {
    const skills = [demo];
    const { editing } = editingOver(skills);
    await editing.open(PATH);
    expect(editing.closeIfGone()).toBe(false);
    skills.pop();
    editing.edit(`${TEXT}unsaved\n`);
    expect(editing.closeIfGone()).toBe(false);
    expect(editing.file?.path).toBe(PATH);
    editing.edit(TEXT);
    expect(editing.closeIfGone()).toBe(true);
    expect(editing.file).toBeNull();
  });

  it('reports a failed read in the notices it was given', async () => {
    mockIPC(dispatcher({ read_file: () => Promise.reject({ code: 'io', message: 'gone', details: [] }) }, calls));
    const { editing, notices } = editingOver([demo]);
    await editing.open(PATH);
    expect(editing.file).toBeNull();
    expect(notices.error).toMatchObject({ code: 'io', message: 'gone' });
  });
});

describe('the preview store alone', () => {
  const open: OpenFile = { path: PATH, name: 'demo', saved: TEXT, text: TEXT, version: 1, base: null };

  it('remembers its toggles in the layout it was given', () => {
    const layout = { showPreview: null as boolean | null, showForm: null as boolean | null, changes: 0, changed() { this.changes++; } };
    const preview = new PreviewState({ notices: new Notices(), layout, file: () => null, agent: () => 'spec', replaceText: () => {} });
    preview.toggle();
    preview.toggleForm();
    expect(layout).toMatchObject({ showPreview: true, showForm: false, changes: 2 });
  });

  it('rewrites a field through the callback, the form read under the agent its getter gives', async () => {
    let file: OpenFile | null = { ...open };
    const replaced: string[] = [];
    const preview = new PreviewState({
      notices: new Notices(),
      layout: { showPreview: null, showForm: null, changed: () => {} },
      file: () => file,
      agent: () => 'claude-code',
      replaceText: (text) => {
        replaced.push(text);
        file = { ...file!, text };
      },
    });
    await preview.setField('name', 'renamed');
    expect(replaced).toEqual(['---\nname: renamed\n---\n# Demo\n']);
    expect(calls.find((c) => c.cmd === 'frontmatter_form')?.args).toMatchObject({ agent: 'claude-code' });
    expect(preview.form).toEqual([{ key: 'name', value: 'renamed' }]);
  });
});

describe('the library store alone', () => {
  it("counts the open file's live diagnostics in place of its last check's", () => {
    const other = skill('other', 0, { diagnostics: [diagnostic('SK102', 'b-rule', 'error', 1, 1, 2)], errors: 1 });
    const live = [diagnostic('SK103', 'c-rule', 'error', 3, 1, 2), diagnostic('SK104', 'd-rule', 'error', 4, 1, 2)];
    let file: OpenFile | null = null;
    const library = new LibraryState({
      notices: new Notices(),
      openFile: () => file,
      live: () => live,
      onOpened: async () => {},
      onSourcesChanged: () => {},
      useAgent: async () => {},
      onCreated: async () => {},
    });
    library.view = libraryOf(['/lib/s0'], [demo, other]);
    expect(library.problems.map((p) => p.diagnostic.code)).toEqual(['SK101', 'SK102']);
    file = { path: PATH, name: 'demo', saved: TEXT, text: TEXT, version: 1, base: null };
    expect(library.problems.map((p) => p.diagnostic.code)).toEqual(['SK103', 'SK104', 'SK102']);
    expect(library.countsOf(demo)).toEqual({ errors: 2, warnings: 0 });
    expect(library.countsOf(other)).toEqual({ errors: 1, warnings: 0 });
  });

  it('opens the library into its notices and tells once opened, and when the sources changed', async () => {
    const told: string[] = [];
    const notices = new Notices();
    const library = new LibraryState({
      notices,
      openFile: () => null,
      live: () => [],
      onOpened: async () => void told.push('opened'),
      onSourcesChanged: () => told.push('sources'),
      useAgent: async () => {},
      onCreated: async () => {},
    });
    await library.setSources(['/lib/s0']);
    expect(calls.find((c) => c.cmd === 'open_library')?.args).toEqual({ sources: ['/lib/s0'], agent: 'spec' });
    expect(library.view?.skills.map((s) => s.name)).toEqual(['demo']);
    expect(notices.status).toBe('1 skill in 1 source');
    expect(told).toEqual(['opened', 'sources']);
  });
});

describe('the root', () => {
  it('wires a file opened to the library, the layout and the preview', async () => {
    const studio = new Studio();
    studio.library.view = libraryOf(['/lib/s0'], [demo]);
    studio.preview.showForm = true;
    await studio.editing.open(PATH);
    expect(studio.library.selected).toBe(PATH);
    expect(studio.layout.lastFile).toBe(PATH);
    await until(() => studio.preview.form.length === 1);
    expect(studio.preview.form).toEqual([{ key: 'name', value: 'demo' }]);
    studio.stop();
  });

  it('closes the open clean file when the sources no longer have it', async () => {
    const studio = new Studio();
    studio.library.view = libraryOf(['/lib/s0'], [demo]);
    await studio.editing.open(PATH);
    mockIPC(dispatcher(oneSource([], () => TEXT), calls), { shouldMockEvents: true });
    await studio.library.setSources(['/lib/other']);
    expect(studio.editing.file).toBeNull();
    expect(studio.library.selected).toBeNull();
    studio.stop();
  });
});
