import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import type { Studio } from './lib/studio.svelte';
import type { RenderPreview } from './lib/bindings';
import { $$, $, type Call, dispatcher, type Handler, mountApp, oneSource, skill, unmountApp, until } from './testing/fixtures';

const PATH = '/lib/s0/demo/SKILL.md';
let calls: Call[] = [];
let studio: Studio;

const GUIDE = '/lib/s0/demo/references/guide one.md';
const handlers: Handler = oneSource([skill('demo', 0)], (path) => (path === GUIDE ? '# The guide\n' : '---\nname: demo\n---\n# Demo\n'), {
  // A stand-in for the engine: the heading of the text's last line, one skipped image, and links
  // to a file, a missing file and a path outside the folder, marked as the engine marks them.
  render_preview: ({ text }: RenderPreview) => ({
    html:
      `<h1 id="top">${text.trim().split('\n').at(-1)}</h1><p><a href="#top">up</a> <a href="https://example.com">ext</a> ` +
      `<a href="references/guide%20one.md" title="references/guide one.md: open it in the preview" data-link="file" data-path="references/guide one.md">guide</a> ` +
      `<a href="./references/none.md" title="references/none.md: no such file in the skill folder" data-link="missing" data-path="references/none.md">none</a> ` +
      `<a href="../x.md" title="../x.md: outside the skill folder" data-link="outside" data-path="../x.md">out</a></p>`,
    headings: [{ level: 1, title: 'top', id: 'top' }],
    skipped_images: [{ path: 'assets/none.png', reason: 'no such file in the skill folder' }],
  }),
});

beforeEach(async () => {
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(1);
  await studio.editing.open(PATH);
  await until(() => $('.cm-content') !== null);
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Markdown preview', () => {
  it('toggles with the button and the key, showing the engine HTML of the current text', async () => {
    expect($('[data-testid=preview]')).toBeNull();
    $('[data-testid=preview-toggle]')!.click();
    await until(() => $('[data-testid=preview] h1')?.textContent === '# Demo');
    expect(calls.find((c) => c.cmd === 'render_preview')?.args).toEqual({ path: PATH, text: '---\nname: demo\n---\n# Demo\n' });
    expect($('[data-testid=skipped-image]')?.textContent).toContain('assets/none.png');

    const view = EditorView.findFromDOM($('.cm-editor')!)!;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: '---\nname: demo\n---\n# Changed\n' } });
    await until(() => $('[data-testid=preview] h1')?.textContent === '# Changed');

    // VS Code's chord: Ctrl+K, then V (Ctrl+Shift+P is the command palette).
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true }));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'v' }));
    await until(() => $('[data-testid=preview]') === null);
  });

  it('never navigates: anchors scroll, other links are only named', async () => {
    studio.preview.toggle();
    await until(() => $('[data-testid=preview] a') !== null);
    const [up, ext] = $$('[data-testid=preview] a');
    const upClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    up.dispatchEvent(upClick);
    expect(upClick.defaultPrevented).toBe(true);
    const extClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    ext.dispatchEvent(extClick);
    expect(extClick.defaultPrevented).toBe(true);
    expect(studio.notices.status).toContain('external link');
  });

  it("marks links with what the engine found; a file of the skill opens read-only in the preview's place", async () => {
    studio.preview.toggle();
    await until(() => $('[data-testid=preview] a[data-link]') !== null);
    const link = (text: string) => $$('[data-testid=preview] a').find((a) => a.textContent === text)!;
    expect(link('guide').dataset.link).toBe('file');
    expect(link('none').dataset.link).toBe('missing');
    expect(link('none').title).toBe('references/none.md: no such file in the skill folder');
    expect(link('out').dataset.link).toBe('outside');
    expect(link('ext').dataset.link).toBeUndefined();

    link('none').click();
    expect(studio.notices.status).toBe('references/none.md: no such file in the skill folder');
    expect($('[data-testid=viewing]')).toBeNull();

    link('guide').click();
    await until(() => $('[data-testid=viewing-text]')?.textContent === '# The guide\n');
    expect(calls.filter((c) => c.cmd === 'read_file').at(-1)?.args).toEqual({ path: GUIDE });
    expect($('[data-testid=viewing]')?.textContent).toContain('references/guide one.md');
    // The editor keeps the skill file.
    expect(studio.editing.file?.path).toBe(PATH);
    $('[data-testid=viewing-back]')!.click();
    await until(() => $('[data-testid=preview] h1') !== null);
    expect($('[data-testid=viewing]')).toBeNull();
  });
});
