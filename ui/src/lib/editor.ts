// The CodeMirror editor: Markdown with YAML frontmatter, the engine's diagnostics as squiggles on
// their exact spans (positions come as line + UTF-16 column), quick fixes as actions, Mod-s saves.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, showTooltip, type Tooltip } from '@codemirror/view';
import { Compartment, EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching } from '@codemirror/language';
import { markdown } from '@codemirror/lang-markdown';
import { yamlFrontmatter } from '@codemirror/lang-yaml';
import {
  linter,
  lintGutter,
  lintKeymap,
  forceLinting,
  forEachDiagnostic,
  setDiagnosticsEffect,
  type Action,
  type Diagnostic as CmDiagnostic,
} from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { Diagnostic, Position } from './bindings';

export interface EditorHooks {
  /** Lint this text with the engine. */
  lint(text: string): Promise<Diagnostic[]>;
  /** Apply `d`'s fix; `linted` is the text the engine computed it for. */
  applyFix(d: Diagnostic, linted: string): void;
  save(): void;
  /** The text after each change, at once (saves must not wait for the lint's delay). */
  change(text: string): void;
  /** Ctrl+. found no fix at the cursor. */
  noFix?(): void;
}

/** A document offset for an engine position (1-based line, 1-based UTF-16 column). */
export function offsetOf(doc: Text, p: Position): number {
  if (p.line > doc.lines) return doc.length;
  const line = doc.line(Math.max(1, p.line));
  return Math.min(line.from + p.column_utf16 - 1, line.to);
}

export function toCm(doc: Text, d: Diagnostic, applyFix: (d: Diagnostic) => void): CmDiagnostic {
  const from = offsetOf(doc, d.start);
  const to = Math.max(from, offsetOf(doc, d.end));
  const help = d.help ? `\n${d.help}` : '';
  return {
    from,
    to,
    severity: d.severity,
    source: `${d.code} ${d.rule}`,
    message: d.message + help,
    actions: d.fix && d.fix.applicability !== 'display-only' ? [{ name: d.fix.message, apply: () => applyFix(d) }] : [],
  };
}

const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--fg)', backgroundColor: 'var(--bg)' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-alt)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '.cm-tooltip': { backgroundColor: 'var(--bg-alt)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-quickfix': { display: 'flex', flexDirection: 'column', padding: '2px' },
  '.cm-quickfix button': {
    textAlign: 'left',
    whiteSpace: 'nowrap',
    border: 'none',
    background: 'transparent',
    color: 'var(--fg)',
    padding: '2px 8px',
    font: 'inherit',
  },
  '.cm-quickfix button:focus': { backgroundColor: 'var(--selection)', outline: 'none' },
});

/** The file's line ending, by its first line break: `\r\n` for a CRLF file, `null` for LF. */
export function lineSeparatorOf(text: string): '\r\n' | null {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : null;
}

// The editor splits and joins lines with the file's own line ending, so a CRLF file is linted,
// edited and saved with CRLF (CodeMirror would otherwise join lines with LF).
const eol = new Compartment();
const eolExtension = (sep: string | null): Extension => (sep ? EditorState.lineSeparator.of(sep) : []);

/** A fix offered at the cursor: its action, and the diagnostic it answers. */
export interface QuickFix {
  name: string;
  source: string;
  apply: Action['apply'];
  from: number;
  to: number;
}

/** The fixes of the diagnostics under the cursor (touching it), else of those on its line;
 *  errors first, then warnings, then notes, each in document order. */
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
        b.textContent = fix.name;
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

/** Ctrl+.: opens the quick-fix menu at the cursor; `none` is told when there is no fix there. */
export function openQuickFixes(view: EditorView, none: () => void = () => {}): boolean {
  const fixes = fixesAt(view.state);
  if (fixes.length === 0) {
    none();
    return true;
  }
  // Under the start of the first fix's squiggle on the cursor's line (where the eye is), not at
  // a far line end nor on a line scrolled out of view.
  const line = view.state.doc.lineAt(view.state.selection.main.head);
  const pos = Math.min(Math.max(fixes[0].from, line.from), line.to);
  view.dispatch({ effects: setFixMenu.of({ pos, fixes }) });
  return true;
}

export function createEditor(parent: HTMLElement, doc: string, hooks: EditorHooks): EditorView {
  // Each change is linted at once (no delay: the engine takes a few milliseconds), but one lint
  // at a time: a text changed again while a lint runs is linted once that one ends, and the texts
  // in between are skipped (CodeMirror drops results for a text that is no longer the editor's).
  let running: Promise<unknown> = Promise.resolve();
  const lint = linter(
    async (view) => {
      const state = view.state;
      await running;
      if (view.state.doc !== state.doc) return [];
      const linting = hooks.lint(state.sliceDoc());
      running = linting.catch(() => undefined);
      const ds = await linting;
      const linted = state.sliceDoc();
      return ds.map((d) => toCm(state.doc, d, (d) => hooks.applyFix(d, linted)));
    },
    { delay: 0 },
  );
  const extensions: Extension[] = [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    bracketMatching(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    yamlFrontmatter({ content: markdown() }),
    EditorView.lineWrapping,
    lintGutter(),
    lint,
    fixMenu,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) hooks.change(u.state.sliceDoc());
    }),
    keymap.of([
      {
        key: 'Mod-s',
        preventDefault: true,
        run: () => {
          hooks.save();
          return true;
        },
      },
      { key: 'Mod-.', preventDefault: true, run: (view) => openQuickFixes(view, hooks.noFix) },
      ...lintKeymap,
      ...defaultKeymap,
      ...historyKeymap,
      indentWithTab,
    ]),
    theme,
    eol.of(eolExtension(lineSeparatorOf(doc))),
  ];
  return new EditorView({ parent, state: EditorState.create({ doc, extensions }) });
}

/** Replaces the whole text (a file opened, a fix applied) and lints it at once. */
export function replaceText(view: EditorView, text: string) {
  const sep = lineSeparatorOf(text);
  if ((sep ?? undefined) !== view.state.facet(EditorState.lineSeparator)) {
    // Another line ending: switch the editor's, then put the whole text in.
    view.dispatch({ effects: eol.reconfigure(eolExtension(sep)) });
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  } else {
    // Positions count a line break as one, whatever the file's line ending.
    const old = view.state.doc.toString();
    const next = sep ? text.replaceAll(sep, '\n') : text;
    if (old !== next) {
      const change = minimalChange(old, next);
      if (sep) change.insert = change.insert.replaceAll('\n', sep);
      view.dispatch({ changes: change });
    }
  }
  forceLinting(view);
}

/** The one change turning `a` into `b` that keeps their common start and end (so the cursor,
 *  the scroll position and undo history stay sensible when one field of the text is rewritten). */
export function minimalChange(a: string, b: string): { from: number; to: number; insert: string } {
  let start = 0;
  const max = Math.min(a.length, b.length);
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
  return { from: start, to: a.length - end, insert: b.slice(start, b.length - end) };
}

export function jumpTo(view: EditorView, p: { line: number; columnUtf16: number; end?: { line: number; columnUtf16: number } }) {
  const at = offsetOf(view.state.doc, { line: p.line, column: 0, column_utf16: p.columnUtf16 });
  const head = p.end ? Math.max(at, offsetOf(view.state.doc, { line: p.end.line, column: 0, column_utf16: p.end.columnUtf16 })) : at;
  view.dispatch({ selection: { anchor: at, head }, scrollIntoView: true });
  view.focus();
}
