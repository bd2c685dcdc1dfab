// The CodeMirror editor: Markdown with YAML frontmatter, the engine's diagnostics as squiggles on
// their exact spans (positions come as line + UTF-16 column), quick fixes as actions, Mod-s saves.
import {
  EditorView,
  Decoration,
  ViewPlugin,
  keymap,
  lineNumbers,
  highlightActiveLine,
  drawSelection,
  showTooltip,
  tooltips,
  closeHoverTooltips,
  hasHoverTooltips,
  type DecorationSet,
  type Tooltip,
  type ViewUpdate,
} from '@codemirror/view';
import { Compartment, EditorState, Facet, StateEffect, StateField, type Extension, type Range, type Transaction } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, syntaxTree, bracketMatching, HighlightStyle } from '@codemirror/language';
import { markdown, commonmarkLanguage } from '@codemirror/lang-markdown';
import { yamlFrontmatter, yamlLanguage } from '@codemirror/lang-yaml';
import { tags as t } from '@lezer/highlight';
import {
  linter,
  lintGutter,
  nextDiagnostic,
  diagnosticCount,
  forEachDiagnostic,
  setDiagnostics,
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
  /** The diagnostics whose fix the engine offers at the cursor (1-based line, 1-based UTF-16
   *  column) in `text`, the preferred fix first. Without it, the fixes are ordered here. */
  quickFixes?(text: string, line: number, columnUtf16: number): Promise<Diagnostic[]>;
  /** Ctrl+Shift+M: show the window's one problem list (CodeMirror's own lint panel is not used). */
  showProblems?(): void;
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
    renderMessage: () => renderDiagnostic(d),
    // The hover's buttons are plain text: the label without its Markdown backticks.
    actions: d.fix && d.fix.applicability !== 'display-only' ? [{ name: plainLabel(d.fix.message), apply: () => applyFix(d) }] : [],
  };
}

/** Text with `inline code` in backticks, as runs of plain text and code (an unpaired backtick
 *  stays plain text). */
export function inlineParts(text: string): { code: boolean; text: string }[] {
  const parts: { code: boolean; text: string }[] = [];
  const re = /`([^`\n]+)`/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) parts.push({ code: false, text: text.slice(at, m.index) });
    parts.push({ code: true, text: m[1] });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ code: false, text: text.slice(at) });
  return parts;
}

/** A label with its inline code shown as plain text (no backticks). */
export function plainLabel(text: string): string {
  return inlineParts(text)
    .map((p) => p.text)
    .join('');
}

/** Appends `text` to `parent` as text nodes and <code> elements (never as HTML). */
function appendInline(parent: HTMLElement, text: string) {
  for (const part of inlineParts(text)) {
    if (part.code) {
      const code = document.createElement('code');
      code.textContent = part.text;
      parent.appendChild(code);
    } else parent.appendChild(document.createTextNode(part.text));
  }
}

const severityWord = { error: 'error', warning: 'warning', info: 'note' } as const;

/** A diagnostic as the hover shows it: the message first, after its severity and rule code; the
 *  help below in its own paragraph; the rule's docs last. Built from DOM nodes, so nothing in the
 *  engine's text is read as HTML. */
export function renderDiagnostic(d: Diagnostic): HTMLElement {
  const dom = document.createElement('div');
  dom.className = 'cm-diag';
  const message = document.createElement('p');
  message.className = 'cm-diag-message';
  const head = document.createElement('span');
  head.className = `cm-diag-head cm-diag-${d.severity}`;
  head.textContent = severityWord[d.severity] ?? d.severity;
  const code = document.createElement('span');
  code.className = 'cm-diag-code';
  code.textContent = d.code;
  code.title = d.rule;
  message.append(head, ' ', code, ' ');
  appendInline(message, d.message);
  dom.appendChild(message);
  if (d.help) {
    const help = document.createElement('p');
    help.className = 'cm-diag-help';
    appendInline(help, d.help);
    dom.appendChild(help);
  }
  if (d.docs) {
    const docs = document.createElement('p');
    docs.className = 'cm-diag-docs';
    docs.append(`${d.rule} · `);
    const path = document.createElement('code');
    path.textContent = d.docs;
    docs.appendChild(path);
    dom.appendChild(docs);
  }
  return dom;
}

// Syntax colours: only the theme's --syn-* tokens (and --fg), so both themes keep their contrast.
// Every tag the YAML frontmatter and the Markdown body emit has a rule here.
const syn = (name: string) => `var(--syn-${name})`;

/** The colours of both languages' shared tags. */
export const highlightStyle = HighlightStyle.define([
  // YAML keys.
  { tag: [t.definition(t.propertyName), t.propertyName], color: syn('key') },
  // Strings: quoted YAML scalars, Markdown link titles, YAML `|` / `>` headers, directives.
  { tag: [t.string, t.special(t.string), t.attributeValue], color: syn('string') },
  { tag: [t.number, t.bool, t.null, t.atom], color: syn('number') },
  // Markers: the `---` fences, `#`, list bullets, emphasis and code marks, YAML punctuation.
  {
    tag: [t.meta, t.processingInstruction, t.contentSeparator, t.separator, t.punctuation, t.squareBracket, t.brace, t.keyword, t.typeName],
    color: syn('meta'),
  },
  { tag: [t.comment, t.lineComment, t.blockComment], color: syn('comment') },
  { tag: t.quote, color: syn('comment'), fontStyle: 'italic' },
  { tag: [t.heading, t.heading1, t.heading2, t.heading3, t.heading4, t.heading5, t.heading6], color: syn('heading'), fontWeight: 'bold' },
  { tag: t.emphasis, color: 'var(--fg)', fontStyle: 'italic' },
  { tag: t.strong, color: 'var(--fg)', fontWeight: 'bold' },
  { tag: t.strikethrough, color: 'var(--fg)', textDecoration: 'line-through' },
  { tag: t.link, color: syn('link') },
  { tag: t.url, color: syn('link'), textDecoration: 'underline' },
  { tag: t.labelName, color: syn('link') },
  { tag: [t.monospace, t.escape, t.character], color: syn('code') },
  { tag: [t.list, t.special(t.content)], color: 'var(--fg)' },
]);

/** Plain YAML scalars (values) are strings. */
export const yamlHighlightStyle = HighlightStyle.define([{ tag: t.content, color: syn('string') }], { scope: yamlLanguage });

/** Markdown's running text. */
export const markdownHighlightStyle = HighlightStyle.define([{ tag: t.content, color: 'var(--fg)' }], {
  scope: commonmarkLanguage,
});

/** A plain YAML value that is a number, a boolean or null (the YAML 1.2 core schema). */
export const YAML_SCALAR =
  /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL|~|[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

const scalarMark = Decoration.mark({ class: 'cm-yamlScalar' });

function yamlScalars(view: EditorView): DecorationSet {
  const marks: Range<Decoration>[] = [];
  const tree = syntaxTree(view.state);
  for (const { from, to } of view.visibleRanges) {
    tree.iterate({
      from,
      to,
      enter: (n) => {
        if (n.name === 'Body') return false;
        if (n.name === 'Literal' && n.node.parent?.name !== 'Key' && YAML_SCALAR.test(view.state.sliceDoc(n.from, n.to).trim()))
          marks.push(scalarMark.range(n.from, n.to));
      },
    });
  }
  return Decoration.set(marks, true);
}

/** Numbers, booleans and null in the frontmatter: the YAML grammar tags them as plain text. */
const yamlScalarHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = yamlScalars(view);
    }
    update(u: ViewUpdate) {
      if (u.docChanged || u.viewportChanged || syntaxTree(u.startState) !== syntaxTree(u.state)) this.decorations = yamlScalars(u.view);
    }
  },
  { decorations: (p) => p.decorations },
);

/** The syntax colours, with no fallback to CodeMirror's default style. */
export const highlighting: Extension = [
  syntaxHighlighting(highlightStyle),
  syntaxHighlighting(yamlHighlightStyle),
  syntaxHighlighting(markdownHighlightStyle),
  yamlScalarHighlight,
];

/** A squiggle in `colour` (a CSS colour, custom properties allowed) along the bottom of a mark:
 *  a zigzag one period of which is two 45° strokes in a 6×3 px tile, drawn as background
 *  gradients. The WebKitGTK the app runs in drops the CSS 3 shorthand `text-decoration:
 *  underline wavy <colour>` as invalid (it computes to `none`: only the longhands and
 *  `-webkit-text-decoration` take a style and a colour), so the marks had no underline at all;
 *  an SVG image cannot take the theme's colour, so the strokes are gradients: the `/` stroke is the line
 *  x + y = 3 px of the tile (a third of the way along a 135° gradient), the `\` stroke the line
 *  x − y = 3 px (two thirds along a 45° one). */
export const squiggle = (colour: string) => {
  const stroke = (angle: number, at: string) =>
    `linear-gradient(${angle}deg, transparent calc(${at} - 0.6px), ${colour} calc(${at} - 0.6px), ${colour} calc(${at} + 0.6px), transparent calc(${at} + 0.6px))`;
  return {
    backgroundImage: `${stroke(135, '33.33%')}, ${stroke(45, '66.67%')}`,
    backgroundSize: '6px 3px',
    backgroundRepeat: 'repeat-x',
    backgroundPosition: 'left bottom',
    paddingBottom: '1px',
    textDecoration: 'none',
  };
};

const marker = (colour: string, shape: string) => ({ content: 'none', backgroundColor: colour, clipPath: shape, width: '0.8em', height: '0.8em', margin: '0.1em' });

const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--fg)', backgroundColor: 'var(--bg)' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-alt)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--accent-soft)', color: 'var(--fg)' },
  '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: 'transparent', color: 'var(--error)' },
  '.cm-yamlScalar, .cm-yamlScalar span': { color: syn('number') },
  // Squiggles and gutter marks in the theme's severity colours.
  '.cm-lintRange-error': squiggle('var(--error)'),
  '.cm-lintRange-warning': squiggle('var(--warning)'),
  '.cm-lintRange-info, .cm-lintRange-hint': squiggle('var(--info)'),
  '.cm-lintRange-active': { backgroundColor: 'var(--selection)' },
  '.cm-lintPoint-error:after': { borderBottomColor: 'var(--error)' },
  '.cm-lintPoint-warning:after': { borderBottomColor: 'var(--warning)' },
  '.cm-lintPoint-info:after, .cm-lintPoint-hint:after': { borderBottomColor: 'var(--info)' },
  '.cm-lint-marker-error': { ...marker('var(--error)', 'circle(50%)'), borderRadius: '50%' },
  '.cm-lint-marker-warning': marker('var(--warning)', 'polygon(50% 0, 100% 100%, 0 100%)'),
  '.cm-lint-marker-info': marker('var(--info)', 'inset(10%)'),
  // Tooltips: raised above the text, with the control border and the theme's shadow.
  '.cm-tooltip': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg)',
    border: '1px solid var(--control-border)',
    borderRadius: '4px',
    boxShadow: 'var(--shadow)',
    fontFamily: 'var(--sans)',
    fontSize: '13px',
  },
  '.cm-tooltip.cm-tooltip-hover': { width: 'max-content', maxWidth: 'min(420px, calc(100vw - 16px))' },
  '.cm-tooltip-lint': { maxWidth: '420px' },
  '.cm-diagnostic': { whiteSpace: 'normal', padding: '6px 10px 6px 8px', borderLeft: '4px solid var(--border)', overflowWrap: 'anywhere' },
  '.cm-diagnostic + .cm-diagnostic': { borderTop: '1px solid var(--border)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--error)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warning)' },
  '.cm-diagnostic-info, .cm-diagnostic-hint': { borderLeftColor: 'var(--info)' },
  // The rule is named in the message's head: CodeMirror's source line would repeat it.
  '.cm-diagnosticSource': { display: 'none' },
  '.cm-diagnosticAction': {
    backgroundColor: 'var(--bg-alt)',
    color: 'var(--fg)',
    border: '1px solid var(--control-border)',
    borderRadius: '4px',
    margin: '4px 0 0 0',
    padding: '1px 8px',
  },
  '.cm-diagnosticAction:focus-visible': { outline: '2px solid var(--accent)' },
  '.cm-diag p': { margin: '0 0 4px', lineHeight: '1.45' },
  '.cm-diag p:last-child': { marginBottom: '0' },
  '.cm-diag code': { fontFamily: 'var(--mono)', fontSize: '0.92em', backgroundColor: 'var(--bg-alt)', borderRadius: '3px', padding: '0 3px' },
  '.cm-diag-head': { fontWeight: '600', marginRight: '2px' },
  '.cm-diag-error': { color: 'var(--error)' },
  '.cm-diag-warning': { color: 'var(--warning)' },
  '.cm-diag-info, .cm-diag-hint': { color: 'var(--info)' },
  '.cm-diag-code': { fontFamily: 'var(--mono)', fontSize: '0.92em', color: 'var(--muted)' },
  '.cm-diag-help': { whiteSpace: 'pre-line' },
  '.cm-diag-docs': { color: 'var(--muted)', fontSize: '12px' },
  '.cm-diag-docs code': { color: 'var(--muted)' },
  // The quick-fix menu.
  '.cm-quickfix': { display: 'flex', flexDirection: 'column', padding: '3px', maxWidth: 'min(480px, calc(100vw - 16px))' },
  '.cm-quickfix button': {
    textAlign: 'left',
    border: 'none',
    borderRadius: '3px',
    background: 'transparent',
    color: 'var(--fg)',
    padding: '3px 10px',
    font: 'inherit',
    overflowWrap: 'anywhere',
  },
  '.cm-quickfix code': { fontFamily: 'var(--mono)', fontSize: '0.92em', backgroundColor: 'var(--bg-alt)', borderRadius: '3px', padding: '0 3px' },
  '.cm-quickfix button:hover': { backgroundColor: 'var(--active-line)' },
  '.cm-quickfix button:focus': { backgroundColor: 'var(--selection)', outline: '2px solid var(--accent)', outlineOffset: '-2px' },
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
export function openQuickFixes(view: EditorView, none: () => void = () => {}, hooks: EditorHooks | null = null): boolean {
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

/** The hooks the editor was created with. */
const editorHooks = Facet.define<EditorHooks, EditorHooks | null>({ combine: (v) => v[0] ?? null });

/** Lints the editor's text with the engine as it changes, and shows the diagnostics through the
 *  lint's state effect. Each change is linted at once (no delay, no timer: the engine takes a few
 *  milliseconds), but one lint at a time: a text changed again while a lint runs is linted once
 *  that one ends, and the texts in between are skipped; an answer for a text that is no longer
 *  the editor's is dropped. */
class EngineLint {
  private running = false;
  private again = false;
  private gone = false;
  /** The text the last lint was started on. */
  private asked: Text | null = null;

  constructor(private view: EditorView) {
    this.request();
  }

  /** The text is about to become `doc`: called before the update, so the engine works on it
   *  while CodeMirror parses and draws the change. */
  willChange(doc: Text) {
    this.request(doc);
  }

  update(u: ViewUpdate) {
    if (u.docChanged && u.state.doc !== this.asked) this.request();
  }

  /** Lints the text now, or once the lint running now ends. */
  request(doc = this.view.state.doc) {
    if (this.running) this.again = true;
    else void this.run(doc);
  }

  private async run(doc: Text) {
    const hooks = this.view.state.facet(editorHooks);
    if (!hooks) return;
    this.running = true;
    this.again = false;
    this.asked = doc;
    // The text as the file has it: lines joined with its line ending.
    const linted = doc.sliceString(0, doc.length, this.view.state.lineBreak);
    let ds: Diagnostic[];
    try {
      ds = await hooks.lint(linted);
    } catch {
      ds = [];
    }
    this.running = false;
    if (this.gone) return;
    const view = this.view;
    if (view.state.doc === doc) {
      // None shown and none found: nothing to update.
      if (ds.length > 0 || diagnosticCount(view.state) > 0)
        view.dispatch(setDiagnostics(view.state, ds.map((d) => toCm(doc, d, (d) => hooks.applyFix(d, linted)))));
    } else this.again = true;
    if (this.again) this.request();
  }

  destroy() {
    this.gone = true;
  }
}

const engineLint = ViewPlugin.fromClass(EngineLint);

/** Lints the editor's text again now, when it has not changed (its profile changed). */
export function relintNow(view: EditorView) {
  view.plugin(engineLint)?.request();
}

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
    editorHooks.of(hooks),
    engineLint,
    fixMenu,
    noHoverUnderMenu,
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

/** Updates the view, having started the lint of a changed text first (a configuration change,
 *  such as another line ending, is linted from the update as before). */
function lintFirst(trs: readonly Transaction[], view: EditorView) {
  const reconfigures = trs.some((t) => t.effects.some((e) => e.is(StateEffect.reconfigure) || e.is(StateEffect.appendConfig)));
  if (!reconfigures && trs.some((t) => t.docChanged)) view.plugin(engineLint)?.willChange(trs[trs.length - 1].newDoc);
  view.update(trs);
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
