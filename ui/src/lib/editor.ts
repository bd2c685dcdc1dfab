// The CodeMirror editor: Markdown with YAML frontmatter, the engine's diagnostics as squiggles on
// their exact spans (positions come as line + UTF-16 column), quick fixes as actions, Mod-s saves.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching } from '@codemirror/language';
import { markdown } from '@codemirror/lang-markdown';
import { yamlFrontmatter } from '@codemirror/lang-yaml';
import { linter, lintGutter, forceLinting, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { Diagnostic, Position } from './bindings';

export interface EditorHooks {
  /** Lint this text with the engine. */
  lint(text: string): Promise<Diagnostic[]>;
  applyFix(d: Diagnostic): void;
  save(): void;
  /** The text after each change, at once (saves must not wait for the lint's delay). */
  change(text: string): void;
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

export function createEditor(parent: HTMLElement, doc: string, hooks: EditorHooks): EditorView {
  const lint = linter(
    async (view) => {
      const state = view.state;
      const ds = await hooks.lint(state.sliceDoc());
      return ds.map((d) => toCm(state.doc, d, hooks.applyFix));
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
