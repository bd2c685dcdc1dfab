// The CodeMirror editor: Markdown with YAML frontmatter, the engine's diagnostics as squiggles on
// their exact spans (positions come as line + UTF-16 column), quick fixes as actions, Mod-s saves,
// and each file's own line ending kept. The parts by job: `theme` (colours), `diagnostics` (the
// engine's diagnostics as CodeMirror's, and their hover), `lint` (the engine's lint as the
// editor's), `quickfix` (the Ctrl+. menu), `assist` (the engine's hover and completion, Ctrl+Space);
// this file puts them together and keeps the text.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, tooltips } from '@codemirror/view';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { markdown } from '@codemirror/lang-markdown';
import { yamlFrontmatter } from '@codemirror/lang-yaml';
import { linter, lintGutter, nextDiagnostic } from '@codemirror/lint';
import { assist, type AssistHooks } from './assist';
import { offsetOf } from './diagnostics';
import { engineLint, lintFirst, lintHooks, relintNow, type LintHooks } from './lint';
import { openQuickFixes, quickFixMenu, type QuickFixHooks } from './quickfix';
import { highlighting, theme } from './theme';

export interface EditorHooks extends LintHooks, QuickFixHooks, AssistHooks {
  save(): void;
  /** The text after each change, at once (saves must not wait for the lint's delay). */
  change(text: string): void;
  /** Ctrl+. found no fix at the cursor. */
  noFix?(): void;
  /** Ctrl+Shift+M: show the window's one problem list (CodeMirror's own lint panel is not used). */
  showProblems?(): void;
}

/** The file's line ending, by its first line break: `\r\n` for a CRLF file, `null` for LF. */
export function lineSeparatorOf(text: string): '\r\n' | null {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : null;
}

// The editor splits and joins lines with the file's own line ending, so a CRLF file is linted,
// edited and saved with CRLF (CodeMirror would otherwise join lines with LF).
const eol = new Compartment();
const eolExtension = (sep: string | null): Extension => (sep ? EditorState.lineSeparator.of(sep) : []);

/** Typed characters go into the text directly, not through the browser's editing of the page.
 *  CodeMirror's usual path lets WebKit insert the character into the editable DOM, then reads
 *  that change back and redraws the line. Taking the `beforeinput` event instead:
 *  - the key reaches the text (and the engine's lint starts) 2–5 ms sooner;
 *  - the next change's selection update is cheaper, because WebKit has no typing state left
 *    to settle.
 *  Only a plain insertion is taken, with no composition (IME, dead keys) running and no line
 *  break in it. Everything else (composition, autocorrect, paste, drops, line breaks) keeps
 *  CodeMirror's own handling. The input handlers other extensions register see the text first,
 *  as they do on CodeMirror's path. */
export const typedText = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || event.isComposing || view.composing || !event.cancelable) return false;
    const text = event.data;
    if (typeof text !== 'string' || text === '' || /[\r\n]/.test(text)) return false;
    if (view.state.readOnly || !view.state.facet(EditorView.editable)) return false;
    event.preventDefault();
    const { from, to } = view.state.selection.main;
    const insert = () => view.state.update(view.state.replaceSelection(text), { userEvent: 'input.type', scrollIntoView: true });
    if (!view.state.facet(EditorView.inputHandler).some((h) => h(view, from, to, text, insert))) view.dispatch(insert());
    return true;
  },
});

export function createEditor(parent: HTMLElement, doc: string, hooks: EditorHooks): EditorView {
  const extensions: Extension[] = [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    bracketMatching(),
    highlighting,
    yamlFrontmatter({ content: markdown() }),
    EditorView.lineWrapping,
    typedText,
    lintGutter(),
    // The lint's state, hovers and keys; the diagnostics come from the engine (`engineLint`).
    linter(null),
    lintHooks.of(hooks),
    engineLint,
    quickFixMenu,
    assist(hooks),
    // Tooltips (hovers, the quick-fix menu) live in the document's body, placed within the
    // window: no pane's edge clips them.
    tooltips({ parent: document.body }),
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
      { key: 'Mod-.', preventDefault: true, run: (view) => openQuickFixes(view, hooks.noFix, hooks) },
      // F8 goes to the next problem; Ctrl+Shift+M shows the Problems pane, not a second list.
      { key: 'F8', run: nextDiagnostic },
      {
        key: 'Mod-Shift-m',
        preventDefault: true,
        run: () => {
          hooks.showProblems?.();
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
  return new EditorView({ parent, state: EditorState.create({ doc, extensions }), dispatchTransactions: lintFirst });
}

/** Replaces the whole text (a file opened, a fix applied) and lints it at once (also when it is
 *  the same text: the profile it is linted under may have changed). */
export function replaceText(view: EditorView, text: string) {
  const sep = lineSeparatorOf(text);
  if ((sep ?? undefined) !== view.state.facet(EditorState.lineSeparator)) {
    // Another line ending: switch the editor's, then put the whole text in.
    view.dispatch({ effects: eol.reconfigure(eolExtension(sep)) });
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    return;
  }
  // Positions count a line break as one, whatever the file's line ending.
  const old = view.state.doc.toString();
  const next = sep ? text.replaceAll(sep, '\n') : text;
  if (old === next) {
    relintNow(view);
    return;
  }
  const change = minimalChange(old, next);
  if (sep) change.insert = change.insert.replaceAll('\n', sep);
  // The change is linted as every change is.
  view.dispatch({ changes: change });
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
