// The editor's look: the syntax colours of the YAML frontmatter and the Markdown body (numbers,
// booleans and null in the frontmatter marked apart), the severity squiggles and gutter marks,
// the hovers, the quick-fix menu and the completion list, all in the app theme's tokens.
import { EditorView, Decoration, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import type { Extension, Range } from '@codemirror/state';
import { syntaxHighlighting, syntaxTree, HighlightStyle } from '@codemirror/language';
import { commonmarkLanguage } from '@codemirror/lang-markdown';
import { yamlLanguage } from '@codemirror/lang-yaml';
import { tags as t } from '@lezer/highlight';

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

/** The editor's look: the theme's tokens for text, gutters, squiggles, hovers and the quick-fix menu. */
export const theme = EditorView.theme({
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
  // The engine's hover (a key's documentation) and the completion list with its documentation.
  '.cm-assist': { padding: '6px 10px', lineHeight: '1.45', overflowWrap: 'anywhere' },
  '.cm-assist p': { margin: '0 0 4px' },
  '.cm-assist ul': { margin: '0 0 4px', paddingLeft: '18px' },
  '.cm-assist > :last-child': { marginBottom: '0' },
  '.cm-assist code': { fontFamily: 'var(--mono)', fontSize: '0.92em', backgroundColor: 'var(--bg-alt)', borderRadius: '3px', padding: '0 3px' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--mono)', maxHeight: '14em' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li': { padding: '2px 8px', color: 'var(--fg)' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--selection)', color: 'var(--fg)' },
  '.cm-completionDetail': { color: 'var(--muted)', fontFamily: 'var(--sans)', fontStyle: 'normal', marginLeft: '12px' },
  '.cm-completionMatchedText': { textDecoration: 'none', color: 'var(--accent)', fontWeight: '600' },
  '.cm-tooltip.cm-completionInfo': { maxWidth: 'min(420px, calc(100vw - 16px))', padding: '0' },
});
