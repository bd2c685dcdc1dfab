import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import type { Studio } from './lib/studio.svelte';
import { minimalChange } from './lib/codemirror';
import { $, type Call, dispatcher, type Handler, mountApp, oneSource, skill, unmountApp, until } from './testing/fixtures';

const PATH = '/lib/s0/demo/SKILL.md';
const TEXT = '---\nname: demo\ndescription: Old.\n---\n# Body\n';
let calls: Call[] = [];
let studio: Studio;

const handlers: Handler = oneSource([skill('demo', 0)], () => TEXT);

const field = (key: string) => $(`[data-testid=frontmatter-form] [data-key="${key}"]`) as HTMLInputElement | null;
const editorText = () => EditorView.findFromDOM($('.cm-editor')!)!.state.doc.toString();

beforeEach(async () => {
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(1);
  await studio.editing.open(PATH);
  // A window narrower than 1,400 px starts with the form hidden.
  if (!$('[data-testid=frontmatter-form]')) $('[data-testid=form-toggle]')!.click();
  await until(() => field('name')?.value === 'demo');
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Frontmatter form', () => {
  it('shows the fields, the known missing ones as not set', () => {
    expect(field('description')?.value).toBe('Old.');
    expect(field('license')?.value).toBe('');
    expect(field('license')?.closest('label')?.textContent).toContain('(not set)');
  });

  it('labels each field in words, its YAML key on hover', () => {
    const label = (key: string) => field(key)!.closest('label')!.querySelector('[data-testid=form-label]')!;
    expect(label('allowed-tools').textContent).toBe('Allowed tools');
    expect(label('allowed-tools').getAttribute('title')).toBe('Frontmatter key: allowed-tools');
    expect(label('description').textContent).toBe('Description');
  });

  it('counts the description and the name live against the agent\'s limits', async () => {
    const counter = (key: string) => $(`[data-testid=counter-${key}]`);
    await until(() => counter('description') !== null);
    // The engine was asked for the window's agent's limits.
    expect(calls.some((c) => c.cmd === 'frontmatter_form' && (c.args as { agent?: string }).agent === studio.library.agent)).toBe(true);
    expect(counter('description')!.textContent).toBe('4 / 1,024');
    expect(counter('name')!.textContent).toBe('4 / 64');
    expect(counter('description')!.getAttribute('title')).toContain("1,536 characters: Claude Code's listing (warning SK310)");
    expect(counter('license')).toBeNull();
    // While typing (before the text is rewritten): characters, not UTF-16 units.
    const input = field('description')!;
    input.value = '😀'.repeat(1030);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await until(() => counter('description')!.textContent === '1,030 / 1,536');
    expect(counter('description')!.classList.contains('sev-error')).toBe(true);
    input.value = 'x'.repeat(1024);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await until(() => counter('description')!.textContent === '1,024 / 1,024');
    expect(counter('description')!.classList.contains('sev-none')).toBe(true);
    // Leaving the field writes it (no rewrite left waiting for the next test).
    input.dispatchEvent(new Event('blur'));
    await until(() => editorText().includes('x'.repeat(1024)));
  });

  it('editing a field rewrites that value in the editor text', async () => {
    const input = field('description')!;
    input.value = 'New description.';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await until(() => editorText().includes('description: New description.'));
    expect(calls.find((c) => c.cmd === 'set_frontmatter_field')?.args).toEqual({
      text: TEXT,
      key: 'description',
      value: 'New description.',
    });
    expect(editorText()).toBe('---\nname: demo\ndescription: New description.\n---\n# Body\n');
    expect(studio.editing.dirty).toBe(true);
  });

  it('typing in the text updates the form', async () => {
    const view = EditorView.findFromDOM($('.cm-editor')!)!;
    const at = view.state.doc.toString().indexOf('demo');
    view.dispatch({ changes: { from: at, to: at + 4, insert: 'renamed' } });
    await until(() => field('name')?.value === 'renamed');
  });

  it('hides with the toggle, which shows its state, and the choice is remembered', async () => {
    expect($('[data-testid=form-toggle]')!.getAttribute('aria-pressed')).toBe('true');
    calls.length = 0;
    $('[data-testid=form-toggle]')!.click();
    await until(() => $('[data-testid=frontmatter-form]') === null);
    expect($('[data-testid=form-toggle]')!.getAttribute('aria-pressed')).toBe('false');
    await until(() => calls.some((c) => c.cmd === 'remember_ui_state'));
    const kept = calls.filter((c) => c.cmd === 'remember_ui_state').at(-1)!.args as { show_form: boolean };
    expect(kept.show_form).toBe(false);
  });
});

describe('minimalChange', () => {
  it('keeps the common start and end', () => {
    expect(minimalChange('name: a\nx', 'name: bb\nx')).toEqual({ from: 6, to: 7, insert: 'bb' });
    expect(minimalChange('same', 'same')).toEqual({ from: 4, to: 4, insert: '' });
    expect(minimalChange('aaa', 'aa')).toEqual({ from: 2, to: 3, insert: '' });
    expect(minimalChange('', 'new')).toEqual({ from: 0, to: 0, insert: 'new' });
  });
});
