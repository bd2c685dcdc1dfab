import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { EditorView, activateHover, hasHoverTooltips } from '@codemirror/view';
import { forEachDiagnostic, type Action } from '@codemirror/lint';
import type { Studio } from './lib/studio.svelte';
import { quickFixMenuAt } from './lib/codemirror/quickfix';
import type { Diagnostic, Fix, Severity } from './lib/bindings';
import { $$, $, type Call, dispatcher, settle, type Handler, mountApp, oneSource, skill, unmountApp, until } from './testing/fixtures';

const TEXT = '---\nname: DemoX\ndescription: d\n---\n# Body\n';
const NAME = { start: 10, end: 15 }; // `DemoX` on line 2, columns 7..12

function diagnostic(code: string, severity: Severity, fix: Fix | null): Diagnostic {
  return {
    code,
    rule: code.toLowerCase(),
    severity,
    message: `${code} message`,
    span: NAME,
    start: { line: 2, column: 7, column_utf16: 7 },
    end: { line: 2, column: 12, column_utf16: 12 },
    labels: [],
    help: null,
    docs: '',
    fix,
  };
}
const rename = (to: string, message: string): Fix => ({
  message,
  applicability: 'unsafe',
  edits: [{ span: NAME, replacement: to }],
});

let calls: Call[] = [];
let studio: Studio;

const handlers: Handler = oneSource([skill('demo', 0)], () => TEXT, {
  // A warning listed before an error: the menu puts errors first.
  lint_text: ({ text }) => ({
    diagnostics: text.includes('DemoX')
      ? [
          diagnostic('SK205', 'warning', rename('demo', 'Set `name` to `demo`')),
          diagnostic('SK204', 'error', rename('demox', 'Rename to `demox`')),
          diagnostic('SK999', 'info', { message: 'shown only', applicability: 'display-only', edits: [] }),
        ]
      : [],
  }),
  // The engine's order: the fix that clears both findings (the warning's) first.
  quick_fixes: ({ text, line }) => ({
    diagnostics:
      text.includes('DemoX') && line === 2
        ? [diagnostic('SK205', 'warning', rename('demo', 'Set `name` to `demo`')), diagnostic('SK204', 'error', rename('demox', 'Rename to `demox`'))]
        : [],
  }),
  apply_fixes: ({ text, fixes }) => {
    const [edit] = (fixes as Fix[])[0].edits;
    return { text: text.slice(0, edit.span.start) + edit.replacement + text.slice(edit.span.end) };
  },
});

const view = () => EditorView.findFromDOM($('.cm-editor')!)!;
const ctrlDot = () =>
  view().contentDOM.dispatchEvent(new KeyboardEvent('keydown', { key: '.', code: 'Period', ctrlKey: true, bubbles: true, cancelable: true }));

beforeEach(async () => {
  calls = [];
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(1);
  await studio.editing.open('/lib/s0/demo/SKILL.md');
  await until(() => $('.cm-content') !== null);
  await until(() => calls.some((c) => c.cmd === 'lint_text'));
  // happy-dom fires `selectionchange` synchronously, which CodeMirror cannot take while it
  // draws a focused editor (browsers fire it later): the menu's return of focus is not modelled.
  view().focus = () => {};
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Quick fixes (Ctrl+.)', () => {
  it('lists the fixes the engine offers at the cursor in its order, the preferred one focused, and applies the chosen one', async () => {
    const v = view();
    v.dispatch({ selection: { anchor: 12 } });
    await until(() => ctrlDot() === false && $$('[data-testid=quick-fix]').length > 0);
    // The engine was asked where the cursor is: line 2, column 9 (UTF-16).
    const asked = calls.find((c) => c.cmd === 'quick_fixes')?.args as { line: number; column_utf16: number; text: string };
    expect([asked.line, asked.column_utf16, asked.text]).toEqual([2, 9, TEXT]);
    const items = $$('[data-testid=quick-fix]');
    // The engine's order, not errors first; Markdown's backticks shown as code.
    expect(items.map((b) => b.textContent)).toEqual(['Set name to demo', 'Rename to demox']);
    expect(items.map((b) => [...b.querySelectorAll('code')].map((c) => c.textContent))).toEqual([['name', 'demo'], ['demox']]);
    expect(document.activeElement).toBe(items[0]);

    // Arrow down, Enter: the second fix goes through the engine and into the editor.
    items[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    expect(document.activeElement).toBe(items[1]);
    (document.activeElement as HTMLButtonElement).click();
    await until(() => v.state.doc.toString() === TEXT.replace('DemoX', 'demox'));
    const applied = calls.find((c) => c.cmd === 'apply_fixes')?.args as { fixes: Fix[] };
    expect(applied.fixes[0].message).toBe('Rename to `demox`');
    expect($$('[data-testid=quick-fix]')).toHaveLength(0);
    // A fix is an edit like any other: unsaved until Ctrl+S.
    expect(studio.editing.dirty).toBe(true);
  });

  it('a fix offered for an older text is refused, not applied at the wrong place', async () => {
    const v = view();
    const actions: Action[] = [];
    await until(() => {
      actions.length = 0;
      forEachDiagnostic(v.state, (d) => actions.push(...(d.actions ?? [])));
      return actions.length === 2;
    });
    // The text changes before the fix is chosen (as from the hover, while the next lint runs).
    v.dispatch({ changes: { from: 0, insert: 'xx' } });
    actions[0].apply(v, 0, 0);
    await until(() => studio.notices.status.startsWith('the text changed'));
    expect(calls.some((c) => c.cmd === 'apply_fixes')).toBe(false);
    expect(v.state.doc.toString()).toBe(`xx${TEXT}`);
  });

  it('Escape closes the menu without a change; no fix at the cursor is said in the status', async () => {
    const v = view();
    v.dispatch({ selection: { anchor: 12 } });
    await until(() => ctrlDot() === false && $$('[data-testid=quick-fix]').length > 0);
    $$('[data-testid=quick-fix]')[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect($$('[data-testid=quick-fix]')).toHaveLength(0);
    expect(v.state.doc.toString()).toBe(TEXT);

    // Line 5 (`# Body`) has no diagnostic.
    v.dispatch({ selection: { anchor: TEXT.indexOf('# Body') } });
    ctrlDot();
    await until(() => studio.notices.status === 'No quick fix at the cursor');
    expect($$('[data-testid=quick-fix]')).toHaveLength(0);
  });

  it('opens at the cursor, not at the squiggle\'s start, and closes the hover there', async () => {
    const v = view();
    // The cursor inside `DemoX` (which starts at 10), with the diagnostics' hover open.
    v.dispatch({ selection: { anchor: 13 } });
    await until(() => {
      let n = 0;
      forEachDiagnostic(v.state, () => n++);
      return n === 3;
    });
    activateHover(v, 13, 1);
    await until(() => $('.cm-tooltip-hover') !== null);
    expect(hasHoverTooltips(v.state)).toBe(true);

    ctrlDot();
    await until(() => $$('[data-testid=quick-fix]').length === 2);
    expect(quickFixMenuAt(v.state)).toBe(13);
    expect(hasHoverTooltips(v.state)).toBe(false);
    expect($('.cm-tooltip-hover')).toBeNull();
    // A tooltip of its own, in the document's body (no pane's edge clips it).
    const menu = $('[data-testid=quick-fixes]')!;
    expect(menu.closest('.cm-tooltip')).not.toBeNull();
    expect(menu.closest('.cm-editor')).toBeNull();
    expect(menu.getAttribute('role')).toBe('menu');
    expect(document.activeElement).toBe($$('[data-testid=quick-fix]')[0]);

    // A hover asked for while the menu is open does not stay over it.
    activateHover(v, 13, 1);
    await settle();
    expect(hasHoverTooltips(v.state)).toBe(false);
    expect($$('[data-testid=quick-fix]')).toHaveLength(2);

    $$('[data-testid=quick-fix]')[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(quickFixMenuAt(v.state)).toBeNull();
  });
});
