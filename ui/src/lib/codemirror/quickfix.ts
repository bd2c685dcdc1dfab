// The quick-fix menu (Ctrl+.): the fixes at the cursor, in the engine's order when it gives one,
// as a menu anchored at the cursor that no hover covers.
import { EditorView, ViewPlugin, showTooltip, closeHoverTooltips, hasHoverTooltips, type Tooltip, type ViewUpdate } from '@codemirror/view';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { forEachDiagnostic, setDiagnosticsEffect, type Action } from '@codemirror/lint';
import type { Diagnostic } from '../bindings';
import { appendInline, offsetOf } from './diagnostics';

/** What the menu asks of the app. */
export interface QuickFixHooks {
  /** Apply `d`'s fix; `linted` is the text the engine computed it for. */
  applyFix(d: Diagnostic, linted: string): void;
  /** The diagnostics whose fix the engine offers at the cursor (1-based line, 1-based UTF-16
   *  column) in `text`, the preferred fix first. Without it, the fixes are ordered here. */
  quickFixes?(text: string, line: number, columnUtf16: number): Promise<Diagnostic[]>;
}

/** A fix offered at the cursor: its action, and the diagnostic it answers. */
export interface QuickFix {
  name: string;
  source: string;
  apply: Action['apply'];
  from: number;
  to: number;
}

/** The fixes of the diagnostics under the cursor (touching it), else of those on its line;
 *  errors first, then warnings, then notes, each in document order. (The engine's order, which
 *  puts the fix that clears the most first, is used when the editor has it: `openQuickFixes`.) */
export function fixesAt(state: EditorState): QuickFix[] {
  const head = state.selection.main.head;
  const line = state.doc.lineAt(head);
  const at: (QuickFix & { rank: number })[] = [];
  const near: (QuickFix & { rank: number })[] = [];
  const rank = { error: 0, warning: 1, info: 2, hint: 3 };
  forEachDiagnostic(state, (d, from, to) => {
    for (const a of d.actions ?? []) {
      const fix = { name: a.name, source: d.source ?? '', apply: a.apply, from, to, rank: rank[d.severity] };
      if (from <= head && head <= to) at.push(fix);
      else if (from <= line.to && to >= line.from) near.push(fix);
    }
  });
  const list = at.length ? at : near;
  return list.sort((a, b) => a.rank - b.rank || a.from - b.from).map(({ rank: _, ...f }) => f);
}

const setFixMenu = StateEffect.define<{ pos: number; fixes: QuickFix[] } | null>();

/** The quick-fix menu (Ctrl+.): a list of the fixes at the cursor; arrows move, Enter applies,
 *  Escape closes. It closes when the text or the cursor moves. */
const fixMenu = StateField.define<Tooltip | null>({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) {
      if (e.is(setFixMenu)) return e.value ? menuTooltip(e.value.pos, e.value.fixes) : null;
      // New diagnostics bring new fixes: the menu's are gone.
      if (e.is(setDiagnosticsEffect)) return null;
    }
    return tr.docChanged || tr.selection ? null : value;
  },
  provide: (f) => showTooltip.from(f),
});

function menuTooltip(pos: number, fixes: QuickFix[]): Tooltip {
  return {
    pos,
    above: false,
    create(view) {
      const dom = document.createElement('div');
      dom.className = 'cm-quickfix';
      dom.setAttribute('role', 'menu');
      dom.setAttribute('aria-label', 'Quick fixes');
      dom.dataset.testid = 'quick-fixes';
      const close = () => {
        view.dispatch({ effects: setFixMenu.of(null) });
        view.focus();
      };
      const buttons = fixes.map((fix) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.setAttribute('role', 'menuitem');
        b.dataset.testid = 'quick-fix';
        appendInline(b, fix.name);
        b.title = fix.source;
        b.addEventListener('click', () => {
          close();
          fix.apply(view, fix.from, fix.to);
        });
        dom.appendChild(b);
        return b;
      });
      // Focus leaving the menu (a click elsewhere, Tab) closes it; after the event, as the
      // editor may be in an update when focus moves.
      dom.addEventListener('focusout', (e) => {
        if (dom.contains(e.relatedTarget as Node | null)) return;
        setTimeout(() => {
          if (view.state.field(fixMenu, false)) view.dispatch({ effects: setFixMenu.of(null) });
        });
      });
      dom.addEventListener('keydown', (e) => {
        const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
        if (e.key === 'Escape') close();
        else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          const next = (i + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length;
          buttons[next]?.focus();
        } else return;
        e.preventDefault();
        e.stopPropagation();
      });
      return { dom, mount: () => buttons[0]?.focus() };
    },
  };
}

/** Ctrl+.: opens the quick-fix menu at the cursor, closing any hover there; `none` is told when
 *  there is no fix there. With `hooks.quickFixes`, the engine says which fixes and in which order
 *  (the preferred first, focused); the menu opens once it answers, if the text and the cursor
 *  have not moved meanwhile. */
export function openQuickFixes(view: EditorView, none: () => void = () => {}, hooks: QuickFixHooks | null = null): boolean {
  if (!hooks?.quickFixes) {
    showFixes(view, fixesAt(view.state), none);
    return true;
  }
  const { doc, selection } = view.state;
  const head = selection.main.head;
  const line = doc.lineAt(head);
  const linted = doc.sliceString(0, doc.length, view.state.lineBreak);
  hooks.quickFixes(linted, line.number, head - line.from + 1).then(
    (ds) => {
      if (view.state.doc !== doc || view.state.selection.main.head !== head) return;
      const fixes = ds
        .filter((d) => d.fix && d.fix.applicability !== 'display-only')
        .map((d) => {
          const from = offsetOf(doc, d.start);
          return {
            name: d.fix!.message,
            source: `${d.code} ${d.rule}`,
            apply: () => hooks.applyFix(d, linted),
            from,
            to: Math.max(from, offsetOf(doc, d.end)),
          };
        });
      showFixes(view, fixes, none);
    },
    () => showFixes(view, fixesAt(view.state), none),
  );
  return true;
}

function showFixes(view: EditorView, fixes: QuickFix[], none: () => void) {
  if (fixes.length === 0) {
    none();
    return;
  }
  // At the cursor (where the eye and the caret are): below its line, or above it when there is
  // no room below (CodeMirror flips and keeps the tooltip within the window).
  view.dispatch({ effects: [closeHoverTooltips, setFixMenu.of({ pos: view.state.selection.main.head, fixes })] });
}

/** Where the quick-fix menu is anchored (a document offset), `null` when it is closed. */
export function quickFixMenuAt(state: EditorState): number | null {
  return state.field(fixMenu, false)?.pos ?? null;
}

/** While the quick-fix menu is open, no hover shows over it (the mouse may still be there). */
const noHoverUnderMenu = ViewPlugin.fromClass(
  class {
    update(u: ViewUpdate) {
      if (u.state.field(fixMenu, false) && hasHoverTooltips(u.state))
        queueMicrotask(() => {
          if (hasHoverTooltips(u.view.state)) u.view.dispatch({ effects: closeHoverTooltips });
        });
    }
  },
);

/** The menu and what keeps hovers off it. */
export const quickFixMenu = [fixMenu, noHoverUnderMenu];
