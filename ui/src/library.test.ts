// The Library pane as a tree: one line per source, skill and file, chevrons that fold them, a
// filter typed in the box or in the tree, names and paths cut with their whole text in a title,
// which agents list a file on hover; at 500 skills only the rows in view are in the page.
import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { $, $$, change, route, mountApp, oneSource, settle, skill, unmountApp, until } from './testing/fixtures';

const LONG = 'a-skill-with-a-name-long-enough-to-be-cut-in-a-narrow-library-pane';

afterEach(() => {
  unmountApp();
  clearMocks();
});

const key = (el: HTMLElement, k: string) => el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));

describe('Library tree', () => {
  it('shows a skill on one line, its files on one line each when unfolded, which agents list a file on hover', async () => {
    const entry = skill(LONG, 0, {
      errors: 2,
      resources: [
        { path: 'references/a-very-long-reference-file-name.md', kind: 'reference', size: 10, discovered_by: ['gemini-cli'] },
        { path: 'scripts/run.sh', kind: 'script', size: 10, discovered_by: ['deepagents-v2', 'gemini-cli'] },
      ],
    });
    mockIPC(route(oneSource([entry, skill('other', 0)], () => '---\nname: x\n---\n')), { shouldMockEvents: true });
    await mountApp(2);

    const row = $(`[data-testid=skill][data-name=${LONG}]`)!;
    expect(row.querySelector('.name')!.getAttribute('title')).toBe(LONG);
    expect(row.getAttribute('aria-expanded')).toBe('false');
    // No files, no kind labels, no agent ids until the skill is unfolded.
    expect($$('[data-testid=file]')).toHaveLength(0);
    expect(row.textContent).not.toContain('gemini');
    (row.querySelector('.chevron') as HTMLElement).click();
    await until(() => $$('[data-testid=file]').length === 2);
    const files = $$('[data-testid=file]');
    expect(files.map((f) => f.querySelector('.file-path')!.textContent)).toEqual(['references/a-very-long-reference-file-name.md', 'scripts/run.sh']);
    expect(files[0].getAttribute('aria-level')).toBe('3');
    expect(files[0].querySelector('.file-path')!.getAttribute('title')).toContain('listed by gemini-cli');
    expect(files[1].querySelector('.file-path')!.getAttribute('title')).toContain('listed by deepagents-v2 and gemini-cli');
    // Folding the source hides its skills; its row counts them.
    const source = $('[data-testid=tree-source]')!;
    expect(source.querySelector('.count')?.textContent).toBe('2');
    (source.querySelector('.row') as HTMLElement).click();
    await until(() => $$('[data-testid=skill]').length === 0);
    expect(source.getAttribute('aria-expanded')).toBe('false');
  });

  it('folds and unfolds by keyboard, and typing in the tree filters it', async () => {
    const entry = skill('alpha', 0, { resources: [{ path: 'notes.md', kind: 'reference', size: 1, discovered_by: [] }] });
    mockIPC(route(oneSource([entry, skill('beta', 0), skill('gamma', 0)], () => '---\nname: x\n---\n')), { shouldMockEvents: true });
    const studio = await mountApp(3);
    const tree = $('[data-testid=library]')!;
    key(tree, 'ArrowDown'); // the source
    key(tree, 'ArrowDown'); // alpha
    await settle();
    expect(studio.library.selected).toBe(entry.path);
    key(tree, 'ArrowRight');
    await until(() => $$('[data-testid=file]').length === 1);
    key(tree, 'ArrowLeft');
    await until(() => $$('[data-testid=file]').length === 0);
    key(tree, 'ArrowLeft'); // to the source
    key(tree, 'ArrowLeft'); // folds it
    await until(() => $$('[data-testid=skill]').length === 0);
    key(tree, 'ArrowRight');
    await until(() => $$('[data-testid=skill]').length === 3);

    key(tree, 'g');
    key(tree, 'm');
    await until(() => $$('[data-testid=skill]').length === 1);
    expect(($('[data-testid=library-filter]') as HTMLInputElement).value).toBe('gm');
    expect($('[data-testid=skill]')!.dataset.name).toBe('gamma');
    expect($('[data-testid=library-matches]')?.textContent).toBe('1 of 3');
    // The matched letters are marked.
    expect($$('[data-testid=skill] mark').map((m) => m.textContent)).toEqual(['g', 'm']);
    key($('[data-testid=library-filter]')!, 'Escape');
    await until(() => $$('[data-testid=skill]').length === 3);
  });

  it('keeps the page small at 500 skills and filters them', async () => {
    const many = Array.from({ length: 500 }, (_, i) => skill(`skill-${String(i).padStart(3, '0')}-${i % 7 === 0 ? 'pdf' : 'text'}`, 0));
    mockIPC(route(oneSource(many, () => '---\nname: x\n---\n')), { shouldMockEvents: true });
    const studio = await mountApp(500);
    // The rows in view and a few more, not 500; the tree is as tall as all of them.
    const drawn = $$('[data-testid=skill]').length;
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(60);
    expect(parseInt(($('.spacer-rows') as HTMLElement).style.height, 10)).toBe(501 * 22);
    expect($('[data-testid=library-filter]')!.getAttribute('placeholder')).toBe('Filter 500 skills');
    // A skill opened from elsewhere (Ctrl+P, Problems) is scrolled into the drawn rows.
    expect($('[data-testid=skill][data-name=skill-476-pdf]')).toBeNull();
    await studio.editing.open('/lib/s0/skill-476-pdf/SKILL.md');
    await until(() => $('[data-testid=skill][data-name=skill-476-pdf]')?.classList.contains('active') === true);

    change($('[data-testid=library-filter]'), '12 pdf');
    await settle();
    // The letters in order, not together: the first in the library's order is skill-112-pdf.
    const names = $$('[data-testid=skill]').map((e) => e.dataset.name!);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toMatch(/1.*2.*pdf/);
    expect(names[0]).toBe('skill-112-pdf');
    expect($('[data-testid=library-matches]')?.textContent).toBe(`${names.length} of 500`);
  });
});
