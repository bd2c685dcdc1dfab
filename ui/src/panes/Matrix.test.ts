import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from '../lib/studio.svelte';
import type { Matrix, RenderMatrix } from '../lib/bindings';
import { $, $$, calls, oneSource, route, skill, until, mountApp, unmountApp } from '../testing/fixtures';

const ALPHA = '---\nname: alpha\ndescription: A.\n---\n';

function matrix(args: RenderMatrix): Matrix {
  // The editor's unsaved text reaches the engine: a broken frontmatter typed in is skipped.
  const broken = args.edit?.path === '/lib/s0/alpha/SKILL.md' && args.edit.text.includes('[unclosed');
  return {
    sources: args.sources,
    columns: [
      { agent: 'claude-code', title: 'Claude Code', label: 'Claude Code 2.1', source: 'Claude Code CLI 2.1.330', budget: { limit: 100, needed: 150, unit: 'display columns', rule: '1%' }, counts: [1, 0, 1, 0, 0, 0, 0, 0], by_chance: 0, built_in: [], warnings: [] },
      { agent: 'opencode', title: 'OpenCode', label: 'OpenCode 1.18', source: 'OpenCode 1.18.33', counts: [2, 0, 0, 0, 0, 0, 0, 0], by_chance: 1, built_in: [], warnings: [] },
    ],
    rows: [
      {
        name: 'alpha',
        path: '/lib/s0/alpha/SKILL.md',
        file: '/lib/s0/alpha/SKILL.md',
        source: 0,
        cells: broken
          ? [{ status: 'skipped', reason: 'the frontmatter is not YAML' }, { status: 'skipped', reason: 'not YAML' }]
          : [{ status: 'full' }, { status: 'full', chance: 'a race' }],
      },
      { name: 'beta', path: '/lib/s0/beta/SKILL.md', file: '/lib/s0/beta/SKILL.md', source: 0, cells: [{ status: 'name-only', reason: 'over budget: listed by name only' }, { status: 'full' }] },
    ],
  };
}

let studio: Studio;

async function start() {
  const read = (p: string) => (p.includes('alpha') ? ALPHA : '---\nname: beta\n---\n');
  mockIPC(route(oneSource([skill('alpha', 0), skill('beta', 0)], read, { render_matrix: matrix })), { shouldMockEvents: true });
  studio = await mountApp(2);
}

const renders = () => calls.filter((c) => c.cmd === 'render_matrix').map((c) => c.args as RenderMatrix);
const cells = (name: string) => [...($(`[data-testid=matrix-row] th[title$="${name}/SKILL.md"]`)?.parentElement?.querySelectorAll('td') ?? [])];

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Matrix pane', () => {
  it('renders only while shown, then every skill by every agent with each reason on hover', async () => {
    await start();
    expect(renders()).toHaveLength(0);
    studio.focusPane('matrix');
    await until(() => $$('[data-testid=matrix-row]').length === 2);
    expect(renders().at(-1)).toMatchObject({ sources: ['/lib/s0'], agents: [] });
    expect($('[data-testid=matrix-agent-claude-code]')?.textContent).toBe('Claude Code');
    const beta = cells('beta');
    expect(beta.map((c) => c.dataset.status)).toEqual(['name-only', 'full']);
    expect(beta[0].title).toBe('Claude Code 2.1: name only — over budget: listed by name only');
    // Chance is marked and said.
    const alpha = cells('alpha');
    expect(alpha[1].textContent).toBe('●?');
    expect(alpha[1].title).toContain('depends on chance: a race');
    // The budget bar: over the budget, full and marked.
    const meter = $('[data-testid=matrix-budget-claude-code] .meter')!;
    expect(meter.classList.contains('over')).toBe(true);
    expect($('[data-testid=matrix-budget-claude-code]')!.title).toContain('listing: 150% of the budget (150 of 100 display columns)');
    expect($('[data-testid=matrix-budget-opencode] .meter')).toBeNull();
  });

  it("marks the open file's row and follows its unsaved text", async () => {
    await start();
    studio.focusPane('matrix');
    await until(() => $$('[data-testid=matrix-row]').length === 2);
    await studio.editing.open('/lib/s0/alpha/SKILL.md');
    await until(() => $('[data-testid=matrix-row][data-current=true]') !== null);
    expect($('[data-testid=matrix-row][data-current=true] th')?.textContent).toBe('alpha');
    studio.editing.file!.text = '---\nname: [unclosed\n---\n';
    await until(() => cells('alpha')[0]?.dataset.status === 'skipped');
    expect(renders().at(-1)?.edit).toEqual({ path: '/lib/s0/alpha/SKILL.md', text: '---\nname: [unclosed\n---\n' });
  });

  it('filters rows and shows only the skills short of a full listing', async () => {
    await start();
    studio.focusPane('matrix');
    await until(() => $$('[data-testid=matrix-row]').length === 2);
    const only = $('[data-testid=matrix-only-problems]') as HTMLInputElement;
    only.click();
    // alpha's OpenCode cell depends on chance: it stays; both rows are short of certain.
    await until(() => $('[data-testid=matrix-count]')?.textContent === '2 of 2 skills × 2 agents');
    const filter = $('[data-testid=matrix-filter]') as HTMLInputElement;
    filter.value = 'bet';
    filter.dispatchEvent(new Event('input'));
    await until(() => $$('[data-testid=matrix-row]').length === 1);
    expect($('[data-testid=matrix-count]')?.textContent).toBe('1 of 2 skills × 2 agents');
  });
});
