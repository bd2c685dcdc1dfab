import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from '../lib/studio.svelte';
import type { PromptSkill, PromptView, RenderPrompt } from '../lib/bindings';
import promptSource from './Prompt.svelte?raw';
import viewSource from './PromptView.svelte?raw';
import compareSource from './PromptCompare.svelte?raw';
import { $, $$, calls, change, pickerEntries, commonHandlers, route, settle, skill, until, versionOf, type Handler, mountApp, unmountApp } from '../testing/fixtures';

function ps(
  name: string,
  decision: PromptSkill['decision'],
  range: [number, number] | null,
  reason: string | null = null,
  source: number | null = 0,
): PromptSkill {
  const chars = range ? range[1] - range[0] : 0;
  return { name, folder: name, path: '', source, decision, reason, range: range && { start: range[0], end: range[1] }, chars, tokens: Math.ceil(chars / 4) };
}

// "é" is two bytes in UTF-8: the mark must still land on `beta` exactly.
const TEXT = '- alpha: é first\n- beta: second\n- gamma\n- plugin-authoring';

/** What the engine decides: everything fits the budget, or the budget is spent. */
let scenario: 'fits' | 'over' = 'fits';

/** The engine's part for the agent settings: each `KEY=VALUE` checked and reported with its origin. */
function settingsOf(args: RenderPrompt): PromptView['settings'] {
  if (args.agent === 'codex') return [];
  const given = new Map(args.agent_settings.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const));
  const frac = given.get('skillListingBudgetFraction');
  if (frac !== undefined && !(Number(frac) > 0 && Number(frac) <= 1))
    throw { code: 'invalid-settings', message: `--agent-setting skillListingBudgetFraction=${frac}: skillListingBudgetFraction must be a number greater than 0 and at most 1`, details: [] };
  const overrides = Object.fromEntries([...given].filter(([k]) => k.startsWith('skillOverrides.')).map(([k, v]) => [k.slice(15), v]));
  const from = (k: string) => (given.has(k) ? `--agent-setting ${k}=${given.get(k)}` : 'default');
  return [
    { key: 'skillListingBudgetFraction', kind: 'fraction', agent_name: 'settings.json', value: frac ?? '0.01', default: '0.01', origin: from('skillListingBudgetFraction') },
    { key: 'skillListingMaxDescChars', kind: 'count', agent_name: 'settings.json', value: '1536', default: '1536', origin: 'default' },
    { key: 'skillOverrides', kind: 'overrides', agent_name: 'settings.json', value: JSON.stringify(overrides), default: '{}', origin: Object.keys(overrides).length ? 'command line' : 'default' },
    given.has('disableBundledSkills')
      ? { key: 'disableBundledSkills', kind: 'bool', agent_name: 'settings.json', value: given.get('disableBundledSkills')!, default: 'false', origin: from('disableBundledSkills') }
      : { key: 'disableBundledSkills', kind: 'bool', agent_name: 'settings.json', value: 'false', default: 'false', origin: 'default' },
  ];
}

function render(args: RenderPrompt): PromptView {
  const settings = settingsOf(args);
  const other = args.agent === 'codex';
  const text = other ? 'codex listing' : TEXT;
  const fits = scenario === 'fits';
  return {
    agent: args.agent,
    source: 'Claude Code 2.1.0 (captured)',
    placement: 'system-message',
    placement_detail: 'a system message',
    text,
    failure: null,
    skills: other
      ? [ps('alpha', 'full', [0, 13])]
      : fits
        ? [ps('alpha', 'full', [0, 17]), ps('beta', 'full', [18, 32]), ps('plugin-authoring', 'full', [41, 59], null, null)]
        : [
            ps('alpha', 'full', [0, 17]),
            ps('beta', 'full', [18, 32]),
            ps('gamma', 'name-only', [33, 40], 'over budget: listed by name only'),
            ps('delta', 'dropped', null, 'the budget is spent'),
            ps('broken', 'invalid', null, 'name is missing'),
          ],
    warnings: ['one warning'],
    budget: other
      ? { limit: 2000, unit: 'token units', needed: 500, rule: 'ceil(bytes / 4)' }
      : fits
        ? { limit: args.char_budget ?? 30000, unit: 'characters', needed: 2757, rule: 'floor(1000000 × 3 × 0.01)' }
        : { limit: args.char_budget ?? 30, unit: 'chars', needed: 60, rule: '1% of the context window' },
    encoding: 'o200k_base',
    estimate: false,
    bytes: new TextEncoder().encode(text).length,
    chars: [...text].length,
    tokens: 1234,
    context_window: args.context_window ?? 200000,
    percent_of_context: 0.62,
    settings,
  };
}

let startAgent = 'claude-code';

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0'], agent: startAgent }),
  agents: () => [
    { id: 'spec', kind: 'format', title: 'Agent Skills spec', label: 'Agent Skills spec', source: '', has_prompt: false, has_skill_tool: false },
    { id: 'claude-code', kind: 'agent', title: 'Claude Code', label: 'Claude Code 2.1', source: '', has_prompt: true, has_skill_tool: true },
    { id: 'codex', kind: 'agent', title: 'Codex', label: 'Codex 0.5', source: '', has_prompt: true, has_skill_tool: true },
  ],
  open_library: ({ agent }) => ({
    agent,
    sources: [{ path: '/lib/s0', root: '/lib/s0', exists: true }],
    skills: [skill('alpha', 0), skill('beta', 0)],
    issues: [],
  }),
  render_prompt: render,
  run_session: ({ agent }) => ({ agent, initial_prompt: '', turns: [], prompt: '', loaded: [] }),
  read_file: ({ path }) => ({ path, text: '---\nname: beta\n---\n', version: versionOf('---\nname: beta\n---\n') }),
  lint_text: () => ({ diagnostics: [] }),
};

let studio: Studio;

async function start(agent = 'claude-code', s: typeof scenario = 'fits') {
  startAgent = agent;
  scenario = s;
  mockIPC(route(handlers), { shouldMockEvents: true });
  studio = await mountApp(2);
  if (agent === 'spec') await until(() => $('[data-testid=prompt-spec]') !== null);
  else await until(() => $('[data-testid=prompt-text]') !== null);
}

const renders = () => calls.filter((c) => c.cmd === 'render_prompt').map((c) => c.args as RenderPrompt);
const row = (name: string) => $(`[data-testid=prompt-view-main] [data-testid=prompt-skills] tr[data-name=${name}]`)!;
const summary = () => $('[data-testid=prompt-view-main] [data-testid=prompt-summary]')?.textContent;

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Prompt pane', () => {
  it("says first, in words and with separators, what the window's agent lists", async () => {
    await start();
    expect(summary()).toBe('Claude Code 2.1 lists 3 skills in full, using 9.2% of its listing budget.');
    // The agent's own unit on hover.
    expect($('[data-testid=budget-share]')?.getAttribute('title')).toBe('2,757 of 30,000 characters');
    expect($('[data-testid=prompt-text]')?.textContent).toBe(TEXT);
    const counts = $('[data-testid=prompt-counts]')?.textContent;
    expect(counts).toContain(`${[...TEXT].length} chars`);
    expect(counts).toContain('1,234 tokens');
    expect(counts).toContain('200,000-token context window');
    // The pane's own agent picker is gone: the window's agent is the one shown.
    expect($('[data-testid=prompt-agent]')).toBeNull();
    expect(renders().at(-1)).toMatchObject({ agent: 'claude-code' });
    // The jargon is in the details, folded.
    const details = $('[data-testid=prompt-details]') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain('o200k_base');
    expect(details.textContent).toContain('floor(1000000 × 3 × 0.01)');
    expect(details.querySelector('summary')?.textContent).toContain('1 warning');
  });

  it("follows the window's agent: another agent set in the window renders at once", async () => {
    await start();
    await studio.setAgent('codex');
    await until(() => $('[data-testid=prompt-view-main]')?.dataset.agent === 'codex');
    expect($('[data-testid=prompt-text]')?.textContent).toBe('codex listing');
    // The same measure for an agent that counts in another unit: a share of its own budget.
    expect(summary()).toBe('Codex 0.5 lists 1 skill in full, using 25% of its listing budget.');
    expect($('[data-testid=budget-share]')?.getAttribute('title')).toBe('500 of 2,000 token units');
    expect(renders().at(-1)).toMatchObject({ agent: 'codex' });
  });

  it('tags built-in skills and gives a reason only where a decision needs one', async () => {
    await start();
    expect(row('plugin-authoring').querySelector('[data-testid=built-in]')?.textContent).toBe('built in');
    expect(row('alpha').querySelector('[data-testid=built-in]')).toBeNull();
    // No empty "why" column: a plain "in full" has no reason.
    expect($$('[data-testid=prompt-skills] th').map((t) => t.textContent)).not.toContain('why');
    expect($$('[data-testid=prompt-view-main] [data-testid=why]')).toHaveLength(0);
    // Decisions are tags, not links.
    expect(row('alpha').querySelector('.tag.dec')?.textContent).toBe('in full');
    expect(row('alpha').querySelector('a')).toBeNull();

    unmountApp();
    clearMocks();
    await start('claude-code', 'over');
    const why = (name: string) => row(name).querySelector('[data-testid=why]')?.textContent ?? null;
    expect(why('alpha')).toBeNull();
    expect(why('gamma')).toBe('over budget: listed by name only');
    expect(why('delta')).toBe('the budget is spent');
    expect(why('broken')).toBe('name is missing');
    expect(row('gamma').dataset.decision).toBe('name-only');
  });

  it('draws the budget as used against the limit, with a legend and the part over it marked', async () => {
    await start();
    // On a scale of 0 to 100% of the budget.
    expect(parseFloat(($('[data-testid=budget-fill]') as HTMLElement).style.width)).toBeCloseTo((100 * 2757) / 30000, 6);
    expect($('[data-testid=budget-over]')).toBeNull();
    const legend = $('[data-testid=budget-legend]')?.textContent;
    expect(legend).toContain('needed in full: 9.2%');
    expect(legend).toContain('budget: 100% = 30,000 characters');
    expect(legend).toContain('left: 91%');
    expect($('[data-testid=budget-cut]')?.textContent).toBe('nothing cut');
    expect($('[data-testid=budget-bar]')?.getAttribute('title')).toBe('2,757 of 30,000 characters');

    unmountApp();
    clearMocks();
    await start('claude-code', 'over');
    expect(summary()).toBe(
      'Claude Code 2.1 lists 2 skills in full and 1 by name only: in full they would need 200% of its listing budget, so gamma is cut first. Not listed: 1 dropped, 1 invalid.',
    );
    expect($('[data-testid=budget-share]')?.getAttribute('title')).toBe('60 of 30 characters');
    // On a scale of 0 to 200%: the budget is half of it, the other half is over.
    expect(($('[data-testid=budget-fill]') as HTMLElement).style.width).toBe('50%');
    expect(($('[data-testid=budget-over]') as HTMLElement).style.width).toBe('50%');
    expect($('[data-testid=budget-legend]')?.textContent).toContain('over by 100%');
    expect($('[data-testid=budget-cut]')?.textContent).toBe('cut first: gamma (2 skills cut)');
  });

  it('explains that the spec injects nothing, and offers a second agent or a preview as Claude Code', async () => {
    await start('spec');
    expect($('[data-testid=prompt-spec]')?.textContent).toContain('the Agent Skills spec is a format, not an agent');
    expect($('[data-testid=prompt-view-main]')).toBeNull();
    expect(renders()).toHaveLength(0);

    change($('[data-testid=compare-agent]'), 'codex');
    await until(() => $('[data-testid=prompt-view-compare]') !== null);
    expect($$('[data-testid=prompt-text]').map((e) => e.textContent)).toEqual(['codex listing']);

    $('[data-testid=prompt-preview-claude]')!.click();
    await until(() => $('[data-testid=prompt-view-main]')?.dataset.agent === 'claude-code');
    expect(studio.library.agent).toBe('claude-code');
    expect($('[data-testid=prompt-spec]')).toBeNull();
    expect($$('[data-testid=prompt-text]').map((e) => e.textContent)).toEqual([TEXT, 'codex listing']);
  });

  it('sends the context window and the budget to the engine', async () => {
    await start();
    change($('[data-testid=context-window]'), '32000');
    await settle();
    change($('[data-testid=char-budget]'), '500');
    await until(() => $('[data-testid=budget-legend]')?.textContent?.includes('budget: 100% = 500 characters') ?? false);
    expect(renders().at(-1)).toEqual({
      sources: ['/lib/s0'],
      agent: 'claude-code',
      context_window: 32000,
      char_budget: 500,
      loaded: [],
      agent_settings: [],
    });
    change($('[data-testid=char-budget]'), 'lots');
    await settle();
    expect(renders().at(-1)).toMatchObject({ char_budget: null });
  });

  it("switches the agent's bundled skills with a checkbox (a true/false setting)", async () => {
    await start();
    const bundled = $('[data-testid=agent-setting-disableBundledSkills]') as HTMLInputElement;
    expect(bundled.type).toBe('checkbox');
    expect(bundled.checked).toBe(false);
    bundled.click();
    await until(() => $('[data-testid=agent-setting-origin-disableBundledSkills]') !== null);
    expect(renders().at(-1)?.agent_settings).toEqual(['disableBundledSkills=true']);
    expect(($('[data-testid=agent-setting-disableBundledSkills]') as HTMLInputElement).checked).toBe(true);
    expect($('[data-testid=agent-setting-origin-disableBundledSkills]')?.textContent).toBe(
      'true from --agent-setting disableBundledSkills=true',
    );
    const again = $('[data-testid=agent-setting-disableBundledSkills]') as HTMLInputElement;
    again.click();
    await until(() => renders().at(-1)?.agent_settings?.[0] === 'disableBundledSkills=false');
  });

  it("takes the agent's own listing settings as inputs and shows where each value came from", async () => {
    await start();
    const bar = $('[data-testid=agent-settings]')!;
    expect(bar).not.toBeNull();
    const frac = $('[data-testid=agent-setting-skillListingBudgetFraction]') as HTMLInputElement;
    expect(frac.placeholder).toBe('0.01');
    expect(($('[data-testid=agent-setting-disableBundledSkills]') as HTMLInputElement).checked).toBe(false);
    expect($('[data-testid=agent-setting-origin-skillListingBudgetFraction]')).toBeNull();
    change(frac, '0.002');
    await until(() => $('[data-testid=agent-setting-origin-skillListingBudgetFraction]') !== null);
    expect(renders().at(-1)?.agent_settings).toEqual(['skillListingBudgetFraction=0.002']);
    expect($('[data-testid=agent-setting-origin-skillListingBudgetFraction]')?.textContent).toBe(
      '0.002 from --agent-setting skillListingBudgetFraction=0.002',
    );
    // One skill's override: picked from the library's skills, then removed again.
    const skills = [...($('[data-testid=override-skill]') as HTMLSelectElement).options].map((o) => o.value);
    expect(skills).toEqual(['', 'alpha', 'beta']);
    expect(($('[data-testid=override-add]') as HTMLButtonElement).disabled).toBe(true);
    change($('[data-testid=override-skill]'), 'beta');
    change($('[data-testid=override-value]'), 'off');
    await settle();
    ($('[data-testid=override-add]') as HTMLButtonElement).click();
    await until(() => $$('[data-testid=override-chip]').length === 1);
    expect(renders().at(-1)?.agent_settings).toEqual(['skillListingBudgetFraction=0.002', 'skillOverrides.beta=off']);
    expect($('[data-testid=override-chip]')?.textContent?.trim()).toBe('beta: off ×');
    ($('[data-testid=override-chip]') as HTMLButtonElement).click();
    await until(() => $$('[data-testid=override-chip]').length === 0);
    expect(renders().at(-1)?.agent_settings).toEqual(['skillListingBudgetFraction=0.002']);
    // Emptying the field unsets it.
    change($('[data-testid=agent-setting-skillListingBudgetFraction]'), '');
    await until(() => renders().at(-1)?.agent_settings.length === 0);
  });

  it("says what the engine refuses in an agent setting, and keeps each agent's settings its own", async () => {
    await start();
    change($('[data-testid=agent-setting-skillListingBudgetFraction]'), '2');
    await until(() => $('[data-testid=prompt-error]') !== null);
    expect($('[data-testid=prompt-error]')?.textContent).toContain('invalid-settings');
    expect($('[data-testid=prompt-error]')?.textContent).toContain('must be a number greater than 0 and at most 1');
    change($('[data-testid=agent-setting-skillListingBudgetFraction]'), '0.05');
    await until(() => $('[data-testid=prompt-text]') !== null);
    // A second agent renders with its own settings (Codex has none set here).
    change($('[data-testid=compare-agent]'), 'codex');
    await until(() => renders().some((r) => r.agent === 'codex'));
    expect(renders().filter((r) => r.agent === 'codex').at(-1)?.agent_settings).toEqual([]);
    expect(renders().filter((r) => r.agent === 'claude-code').at(-1)?.agent_settings).toEqual(['skillListingBudgetFraction=0.05']);
  });

  it('marks the byte range of the skill open in the editor, and a picked one', async () => {
    await start('claude-code', 'over');
    expect($('[data-testid=prompt-mark]')).toBeNull();
    await studio.editing.open('/lib/s0/beta/SKILL.md');
    await until(() => $('[data-testid=prompt-mark]') !== null);
    expect($('[data-testid=prompt-mark]')?.textContent).toBe('- beta: second');
    const pick = row('gamma').querySelector('button')!;
    expect(pick.getAttribute('aria-pressed')).toBe('false');
    pick.click();
    await settle();
    expect($('[data-testid=prompt-mark]')?.textContent).toBe('- gamma');
    expect(row('gamma').querySelector('button')!.getAttribute('aria-pressed')).toBe('true');
    // A skill not in the text has nothing to mark.
    expect(row('delta').querySelector('button')).toBeNull();
  });

  it('renders a second agent side by side with the same settings, picked by its plain name', async () => {
    await start();
    // Not the agent it compares with (the window's).
    expect(await pickerEntries('compare-agent')).toEqual([
      ['', 'no second agent'],
      ['codex', 'Codex 0.5'],
    ]);
    change($('[data-testid=compare-agent]'), 'codex');
    await until(() => $('[data-testid=prompt-view-compare]') !== null);
    expect($('[data-testid=prompt-view-main]')?.dataset.agent).toBe('claude-code');
    expect($('[data-testid=prompt-view-compare]')?.dataset.agent).toBe('codex');
    expect($$('[data-testid=prompt-text]').map((e) => e.textContent)).toEqual([TEXT, 'codex listing']);
    // One table, a column per agent, not two reports stacked.
    expect($$('[data-testid=prompt-summary]')).toHaveLength(0);
    const table = $('[data-testid=prompt-compare] table')!;
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Skill', 'Claude Code 2.1', 'Codex 0.5']);
    const cells = (testid: string) => [...table.querySelectorAll(`[data-testid=${testid}] td`)].map((td) => td.textContent?.trim());
    expect(cells('compare-budget')).toEqual(['9.2%', '25%']);
    expect(table.querySelector('[data-testid=compare-budget] td')?.getAttribute('title')).toBe('2,757 of 30,000 characters');
    expect(cells('compare-cut')).toEqual(['nothing', 'nothing']);
    const decisions = (name: string) => [...table.querySelectorAll(`tr[data-name="${name}"] td`)].map((td) => (td as HTMLElement).dataset.decision);
    expect(decisions('alpha')).toEqual(['full', 'full']);
    expect(decisions('beta')).toEqual(['full', 'none']);
    // Picking a skill marks it in both texts where they have it.
    (table.querySelector('tr[data-name=alpha] button') as HTMLElement).click();
    await until(() => $$('[data-testid=prompt-mark]').length === 2);
    change($('[data-testid=compare-agent]'), '');
    await until(() => $('[data-testid=prompt-view-compare]') === null);
  });

  it('copies the exact text', async () => {
    await start();
    let copied = '';
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void (copied = t) }, configurable: true });
    $('[data-testid=copy]')!.click();
    await until(() => copied !== '');
    expect(copied).toBe(TEXT);
  });

  it('colours only with the theme tokens, so both themes keep their contrast', () => {
    const allowed = ['bg', 'bg-alt', 'bg-raised', 'fg', 'muted', 'border', 'control-border', 'accent', 'accent-fg', 'accent-soft', 'error', 'warning', 'info', 'ok', 'diff-added', 'diff-removed', 'mono'];
    for (const src of [promptSource, viewSource, compareSource]) {
      const css = src.slice(src.indexOf('<style>'));
      expect(css).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
      const used = [...css.matchAll(/var\(--([a-z-]+)\)/g)].map((m) => m[1]);
      expect(used.filter((v) => !allowed.includes(v))).toEqual([]);
    }
  });
});
