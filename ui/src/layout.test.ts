// The window's layout: panels resized by pointer and keyboard, collapsed and shown again, the
// sizes, theme and open file remembered across a restart, Problems folded away when empty, the
// one agent in the title bar, the status bar and the welcome screen.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView } from '@codemirror/view';
import type { Studio } from './lib/studio.svelte';
import type { AgentInfo } from './lib/bindings';
import { EDITOR_MIN, LayoutState, LIMITS } from './lib/layout.svelte';
import {
  $,
  $$,
  type Call,
  change,
  diagnostic,
  dispatcher,
  type Handler,
  libraryOf,
  mountApp,
  oneSource,
  settle,
  skill,
  uiState,
  unmountApp,
  until,
} from './testing/fixtures';

const TEXT = '---\nname: demo\ndescription: Demo.\n---\n# Body\n';
let calls: Call[] = [];
let opened: { agent: string }[] = [];

const agents: AgentInfo[] = [
  { id: 'spec', kind: 'format', title: 'Agent Skills specification', label: 'Agent Skills spec', source: '', has_prompt: false, has_skill_tool: false },
  { id: 'claude-code', kind: 'agent', title: 'Claude Code', label: 'Claude Code 2.1', source: '', has_prompt: true, has_skill_tool: true },
];

function host(problems = false, extra: Handler = {}): Handler {
  const skills = [skill('demo', 0), skill('other', 0, problems ? { errors: 1, diagnostics: [diagnostic('SK201', 'name-invalid', 'error', 2, 7, 11)] } : {})];
  return oneSource(skills, () => TEXT, {
    startup: () => ({ sources: ['/lib/s0'], agent: 'spec', examples: '/app/skills' }),
    agents: () => agents,
    open_library: (a) => {
      opened.push({ agent: a.agent });
      return { ...libraryOf(a.sources, skills), agent: a.agent };
    },
    ...extra,
  });
}

async function start(h: Handler, restart = false): Promise<Studio> {
  calls = [];
  opened = [];
  mockIPC(dispatcher(h, calls), { shouldMockEvents: true });
  return mountApp(2, restart);
}

const width = (css: string) => parseFloat(($(css) as HTMLElement).style.width);
const key = (el: Element, k: string, extra: KeyboardEventInit = {}) =>
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, ...extra }));
const remembered = () => uiState.kept;

type HappyWindow = { happyDOM: { setWindowSize(s: { width: number; height: number }): void } };

beforeEach(() => {
  // A 1280×800 window (the default of the app's configuration).
  (window as unknown as HappyWindow).happyDOM.setWindowSize({ width: 1280, height: 800 });
  uiState.kept = { sizes: {}, collapsed: [], theme: '', side_tab: '', last_file: null, show_form: null, show_preview: null };
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('resizable panels', () => {
  it('a split moves by keyboard: arrows in steps, Home and End to the bounds, Enter collapses', async () => {
    await start(host());
    const split = $('[data-testid=split-library]')!;
    const before = width('#panel-library');
    key(split, 'ArrowRight');
    await settle();
    expect(width('#panel-library')).toBe(before + 16);
    key(split, 'ArrowLeft', { shiftKey: true });
    await settle();
    expect(width('#panel-library')).toBe(before + 16 - 64);
    key(split, 'Home');
    await settle();
    expect(width('#panel-library')).toBe(LIMITS.library.min);
    expect(split.getAttribute('aria-valuenow')).toBe(String(LIMITS.library.min));
    key(split, 'Enter');
    await settle();
    expect($('#panel-library')).toBeNull();
    expect($('[data-testid=toggle-library]')!.getAttribute('aria-pressed')).toBe('false');
  });

  it('the side panel grows when its split is dragged left, and never past its share of the window', async () => {
    await start(host());
    const split = $('[data-testid=split-side]')!;
    const before = width('#panel-side');
    split.dispatchEvent(new PointerEvent('pointerdown', { button: 0, clientX: 600, clientY: 300, bubbles: true }));
    window.dispatchEvent(new PointerEvent('pointermove', { clientX: 560, clientY: 300 }));
    window.dispatchEvent(new PointerEvent('pointerup', { clientX: 560, clientY: 300 }));
    await settle();
    expect(width('#panel-side')).toBe(before + 40);
    // Dragged far: capped so that the editor stays the widest.
    split.dispatchEvent(new PointerEvent('pointerdown', { button: 0, clientX: 600, clientY: 300, bubbles: true }));
    window.dispatchEvent(new PointerEvent('pointermove', { clientX: 0, clientY: 300 }));
    window.dispatchEvent(new PointerEvent('pointerup', { clientX: 0, clientY: 300 }));
    await settle();
    expect(width('#panel-side')).toBeLessThan(innerWidth * 0.35);
  });

  it('Ctrl+B, Ctrl+J and Ctrl+Alt+B hide and show the panels; the title bar toggles say which are on', async () => {
    await start(host(true));
    await until(() => $('#panel-bottom') !== null);
    key(document.body, 'b', { ctrlKey: true });
    key(document.body, 'j', { ctrlKey: true });
    key(document.body, 'b', { ctrlKey: true, altKey: true });
    await settle();
    expect($('#panel-library')).toBeNull();
    expect($('#panel-bottom')).toBeNull();
    expect($('#panel-side')).toBeNull();
    expect($$('[data-testid^=toggle-]').map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'false']);
    // The folded Problems still says how many there are, and opens with a click.
    $('[data-testid=problems-show]')!.click();
    await settle();
    expect($('#panel-bottom')).not.toBeNull();
    // Going to a pane opens its panel.
    key(document.body, '1', { altKey: true });
    await settle();
    expect($('#panel-library')).not.toBeNull();
  });

  it('Problems takes no room while there are none', async () => {
    await start(host(false));
    expect($('#panel-bottom')).toBeNull();
    expect($('[data-testid=problems-strip]')!.textContent).toContain('No problems under Agent Skills spec');
  });

  it('sizes, collapsed panels, the theme, the tab and the open file survive a restart', async () => {
    const studio = await start(host(true));
    key($('[data-testid=split-library]')!, 'End');
    key($('[data-testid=split-bottom]')!, 'ArrowUp');
    key(document.body, 'b', { ctrlKey: true, altKey: true });
    change($('[data-testid=theme]'), 'dark');
    await studio.editing.open('/lib/s0/demo/SKILL.md');
    await until(() => remembered().last_file === '/lib/s0/demo/SKILL.md' && remembered().collapsed.includes('side'));
    const library = remembered().sizes.library!;
    const bottom = remembered().sizes.bottom!;
    expect(library).toBeGreaterThan(232);
    expect(bottom).toBe(170 + 16);
    expect(remembered().theme).toBe('dark');

    const again = await start(host(true), true);
    await until(() => again.editing.file?.path === '/lib/s0/demo/SKILL.md');
    expect(width('#panel-library')).toBe(library);
    expect(parseFloat(($('#panel-bottom') as HTMLElement).style.height)).toBe(bottom);
    expect($('#panel-side')).toBeNull();
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('a remembered state out of bounds or of the wrong kind falls back', async () => {
    uiState.kept = {
      sizes: { library: 99999, side: -5 },
      collapsed: ['nonsense'],
      theme: 'purple',
      side_tab: 'nowhere',
      last_file: '/elsewhere/SKILL.md',
      show_form: null,
      show_preview: null,
    };
    const studio = await start(host(), true);
    expect(width('#panel-library')).toBeLessThanOrEqual(LIMITS.library.max);
    expect(width('#panel-side')).toBeGreaterThanOrEqual(LIMITS.side.min);
    expect(studio.layout.theme).toBe('system');
    expect(studio.editing.file).toBeNull();
  });
});

describe('panels give way in a narrow window', () => {
  const text = (l: LayoutState, form: boolean, preview: boolean) => {
    const a = l.arrange(form, preview);
    const beside = { none: 0, one: form ? 210 : 280, columns: 490, tabs: 280 }[a.beside];
    return l.width - a.library - a.side - 2 - beside;
  };

  it('keeps the text 480 px wide at any width from 1000 px, whatever is on', () => {
    const l = new LayoutState();
    for (const w of [1000, 1024, 1280, 1366, 1600, 1920, 2560]) {
      l.width = w;
      for (const [form, preview] of [
        [false, false],
        [true, false],
        [false, true],
        [true, true],
      ]) {
        expect(text(l, form, preview), `${w} form ${form} preview ${preview}`).toBeGreaterThanOrEqual(EDITOR_MIN);
      }
    }
    // What gives: at 1024 with everything on, the form and preview share a column and the side
    // panel is a strip; at 1280 the side panel stays; at 1920 nothing gives.
    l.width = 1024;
    expect(l.arrange(true, true)).toMatchObject({ beside: 'tabs', rail: true });
    l.width = 1280;
    expect(l.arrange(true, true)).toMatchObject({ beside: 'tabs', rail: false });
    expect(l.arrange(false, true)).toMatchObject({ beside: 'one', rail: false });
    l.width = 1920;
    expect(l.arrange(true, true)).toMatchObject({ beside: 'columns', rail: false, library: 232, side: 380 });
  });

  it('shows the side panel as a strip that opens over the editor, and gives it back when wide again', async () => {
    (window as unknown as HappyWindow).happyDOM.setWindowSize({ width: 1024, height: 768 });
    const studio = await start(host());
    await studio.editing.open('/lib/s0/demo/SKILL.md');
    studio.preview.show = true;
    studio.preview.showForm = true;
    await settle();
    expect($('[data-testid=editor-split]')?.dataset.beside).toBe('tabs');
    expect($('[data-testid=side-rail]')).not.toBeNull();
    expect($('[data-testid=side-panel]')).toBeNull();
    // The toggles still say what is on.
    for (const t of ['library', 'bottom', 'side']) expect($(`[data-testid=toggle-${t}]`)?.getAttribute('aria-pressed')).toBe('true');
    expect($('[data-testid=form-toggle]')?.getAttribute('aria-pressed')).toBe('true');
    expect($('[data-testid=preview-toggle]')?.getAttribute('aria-pressed')).toBe('true');
    // One of the two beside the text at a time, by its tab.
    expect($('[data-testid=preview]')).toBeNull();
    $('[data-testid=beside-preview]')!.click();
    await until(() => $('[data-testid=preview]') !== null);
    expect($('[data-testid=frontmatter-form]')).toBeNull();

    // Going to a side tab opens the panel over the editor, the rest inert; Escape closes it.
    key(window as unknown as Element, '6', { altKey: true });
    await until(() => $('[data-testid=side-panel]') !== null);
    expect($('[data-testid=pane-evals]')?.hidden).toBe(false);
    expect(($('.center') as HTMLElement).inert).toBe(true);
    key(window as unknown as Element, 'Escape');
    await until(() => $('[data-testid=side-panel]') === null);

    (window as unknown as HappyWindow).happyDOM.setWindowSize({ width: 1920, height: 1080 });
    window.dispatchEvent(new Event('resize'));
    await until(() => $('[data-testid=side-panel]') !== null);
    expect($('[data-testid=side-rail]')).toBeNull();
    expect($('[data-testid=editor-split]')?.dataset.beside).toBe('columns');
    expect(studio.layout.collapsed).toEqual({ library: false, side: false, bottom: false });
  });
});

describe('one agent for the window', () => {
  it('the title bar names agents plainly (the id in a tooltip); a pick relints the library under it', async () => {
    const studio = await start(host());
    const picker = $('[data-testid=agent]')!;
    expect(picker.textContent).toContain('Agent Skills spec');
    picker.click();
    await until(() => $$('[data-testid=agent-pick-item]').length === 2);
    // Grouped as the engine says: the agents first, then the formats.
    expect($$('[data-testid=agent-pick-item]').map((o) => [o.querySelector('.label')!.textContent, o.title.split(':')[0]])).toEqual([
      ['Claude Code 2.1', 'Claude Code (claude-code)'],
      ['Agent Skills spec', 'Agent Skills specification (spec)'],
    ]);
    ($('[data-testid=agent-pick-item][data-id=claude-code]') as HTMLElement).click();
    await until(() => studio.library.agent === 'claude-code' && opened.at(-1)?.agent === 'claude-code');
    await until(() => $('[data-testid=status-agent]')!.textContent === 'Claude Code 2.1');
    // The Problems pane names it, and Evals run under it (it has a skill tool).
    expect(studio.evals.agent).toBe('claude-code');
  });
});

describe('status bar', () => {
  it('says whether the open file is saved, its problems and where the cursor is', async () => {
    const studio = await start(host());
    await studio.editing.open('/lib/s0/demo/SKILL.md');
    await until(() => $('[data-testid=file-state]')?.textContent === 'Saved');
    expect($('[data-testid=lint-state]')!.textContent).toContain('No problems');
    expect($('[data-testid=cursor]')!.textContent).toBe('Ln 1, Col 1');
    const view = EditorView.findFromDOM($('.cm-editor')!)!;
    view.dispatch({ changes: { from: view.state.doc.length, insert: 'more' }, selection: { anchor: view.state.doc.length + 4 } });
    await until(() => $('[data-testid=cursor]')!.textContent === 'Ln 6, Col 5');
    await until(() => $('[data-testid=file-state]')?.textContent === 'Unsaved');
  });
});

describe('welcome', () => {
  it('with no file open: open a folder, the bundled examples, a new skill, or a skill of the library', async () => {
    const studio = await start(host());
    await until(() => $('[data-testid=welcome]') !== null);
    expect($$('[data-testid=welcome-skill]').map((b) => b.textContent)).toEqual(['demo', 'other']);
    $('[data-testid=welcome-new]')!.click();
    await settle();
    expect(studio.library.newSkillOpen).toBe(true);
    studio.library.newSkillOpen = false;
    $('[data-testid=welcome-examples]')!.click();
    await until(() => studio.library.sources[0] === '/app/skills');
    $$('[data-testid=welcome-skill]')[1].click();
    await until(() => studio.editing.file?.path === '/lib/s0/other/SKILL.md');
    expect($('[data-testid=welcome]')).toBeNull();
  });
});
