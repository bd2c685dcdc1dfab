// The editor's own look: syntax colours from the theme's tokens only, and diagnostics hovers built
// as separate, formatted parts.
import { afterEach, describe, expect, it } from 'vitest';
import { EditorSelection, EditorState, type Extension } from '@codemirror/state';
import { activateHover, EditorView, hasHoverTooltips } from '@codemirror/view';
import { history, undo } from '@codemirror/commands';
import { ensureSyntaxTree } from '@codemirror/language';
import { markdown } from '@codemirror/lang-markdown';
import { yamlFrontmatter } from '@codemirror/lang-yaml';
import { diagnosticCount } from '@codemirror/lint';
import { highlightTree, tags as t, type Highlighter } from '@lezer/highlight';
import { createEditor, typedText } from './lib/codemirror';
import { inlineParts, plainLabel, renderDiagnostic } from './lib/codemirror/diagnostics';
import { highlightStyle, markdownHighlightStyle, squiggle, yamlHighlightStyle, YAML_SCALAR } from './lib/codemirror/theme';
import type { Diagnostic } from './lib/bindings';
import { $, $$, settle, until } from './testing/harness';
import { readFileSync } from 'node:fs';

// Every construct of the frontmatter's YAML and of CommonMark the editor parses.
const SAMPLE = `---
name: demo # a comment
description: "quoted" and 'single'
version: 2
enabled: true
nothing: null
list:
  - one
  - [a, b]
map: {a: 1}
anchor: &x value
alias: *x
tagged: !!str text
block: |
  literal
? explicit
---
# Heading

Setext
======

Some *emphasis*, **strong**, \`code\`, \\* escape, &amp; entity.
A [link](https://example.com "title"), <https://example.com>, ![image](a.png).
Hard break\\
after.

> a quote

- item
1. first

---

\`\`\`sh
echo hi
\`\`\`

<!-- comment -->

[label]: https://example.com
`;

const ours = [highlightStyle, yamlHighlightStyle, markdownHighlightStyle];

function tree() {
  const state = EditorState.create({ doc: SAMPLE, extensions: [yamlFrontmatter({ content: markdown() })] });
  return ensureSyntaxTree(state, state.doc.length, 5000)!;
}

/** The offsets of the characters the highlighters give a class. */
function styled(highlighters: readonly Highlighter[]): Set<number> {
  const at = new Set<number>();
  highlightTree(tree(), highlighters, (from, to) => {
    for (let i = from; i < to; i++) at.add(i);
  });
  return at;
}

const rules = () => ours.map((h) => h.module?.getRules() ?? '').join('\n');

describe('syntax colours', () => {
  it('come from the theme tokens only, never a fixed colour', () => {
    const css = rules();
    expect(css).not.toMatch(/#[0-9a-f]{3,8}\b|rgb|hsl/i);
    const colours = [...css.matchAll(/color:\s*([^;}]+)/g)].map((m) => m[1].trim());
    expect(colours.length).toBeGreaterThan(5);
    for (const c of colours) expect(c).toMatch(/^var\(--(syn-[a-z]+|fg)\)$/);
    for (const token of ['key', 'string', 'number', 'meta', 'comment', 'heading', 'link', 'code'])
      expect(css).toContain(`var(--syn-${token})`);
  });

  it('map each kind of token to its token colour', () => {
    const colourOf = (tag: Parameters<typeof highlightStyle.style>[0]) => {
      const cls = highlightStyle.style(tag);
      expect(cls, String(tag)).toBeTruthy();
      const rule = rules()
        .split('\n')
        .find((r) => r.includes(`.${cls!.split(' ')[0]}`));
      return /color:\s*([^;}]+)/.exec(rule ?? '')?.[1].trim();
    };
    expect(colourOf([t.definition(t.propertyName)])).toBe('var(--syn-key)');
    expect(colourOf([t.string])).toBe('var(--syn-string)');
    expect(colourOf([t.meta])).toBe('var(--syn-meta)');
    expect(colourOf([t.processingInstruction])).toBe('var(--syn-meta)');
    expect(colourOf([t.lineComment])).toBe('var(--syn-comment)');
    expect(colourOf([t.heading1])).toBe('var(--syn-heading)');
    expect(colourOf([t.url])).toBe('var(--syn-link)');
    expect(colourOf([t.monospace])).toBe('var(--syn-code)');
    expect(rules()).toMatch(/font-weight:\s*bold/);
  });

  it('cover every token the YAML frontmatter and the Markdown body emit', () => {
    // A highlighter giving a class to any tagged token: ours must give one to the same text.
    const any: Highlighter = { style: (tags) => (tags.length ? 'any' : null) };
    const tagged = styled([any]);
    const covered = styled(ours);
    const missed = [...tagged].filter((i) => !covered.has(i)).map((i) => SAMPLE[i]);
    expect(tagged.size).toBeGreaterThan(200);
    expect(missed.join('')).toBe('');
  });

  it('marks numbers, booleans and null in the frontmatter, not other values', async () => {
    expect(['2', '-1.5e3', 'true', 'False', 'null', '~', '0x1F'].every((v) => YAML_SCALAR.test(v))).toBe(true);
    expect(['demo', '2a', 'yes', '1.2.3'].some((v) => YAML_SCALAR.test(v))).toBe(false);
    const view = mountEditor(SAMPLE, []);
    // The parse may finish after the first update (in CodeMirror's background worker), and on a
    // loaded machine in more than one slice: wait for the last scalar, not the first.
    await until(() => $$('.cm-yamlScalar').length >= 4);
    expect($$('.cm-yamlScalar').map((e) => e.textContent)).toEqual(['2', 'true', 'null', '1']);
    // The key's span has the key colour's class.
    const key = $$('.cm-line span').find((s) => s.textContent === 'name');
    expect(key?.className).toContain(highlightStyle.style([t.definition(t.propertyName)])!);
    view.destroy();
  });
});

function diagnostic(extra: Partial<Diagnostic> = {}): Diagnostic {
  return {
    code: 'SK204',
    rule: 'name-format',
    severity: 'error',
    message: '`name` `My Skill` must be lowercase',
    span: { start: 10, end: 18 },
    start: { line: 2, column: 7, column_utf16: 7 },
    end: { line: 2, column: 15, column_utf16: 15 },
    labels: [],
    help: 'rename the skill (and its folder) to `my-skill`',
    docs: 'docs/rules/name-format.md',
    fix: null,
    ...extra,
  };
}

let views: EditorView[] = [];
function mountEditor(doc: string, ds: Diagnostic[]): EditorView {
  const parent = document.createElement('div');
  document.body.appendChild(parent);
  const view = createEditor(parent, doc, { lint: async () => ds, applyFix: () => {}, save: () => {}, change: () => {} });
  views.push(view);
  return view;
}

afterEach(() => {
  for (const v of views) v.destroy();
  views = [];
  document.body.innerHTML = '';
});

describe('diagnostic hovers', () => {
  it('split text into plain runs and inline code', () => {
    expect(inlineParts('a `b` c `d`')).toEqual([
      { code: false, text: 'a ' },
      { code: true, text: 'b' },
      { code: false, text: ' c ' },
      { code: true, text: 'd' },
    ]);
    expect(inlineParts('odd ` tick')).toEqual([{ code: false, text: 'odd ` tick' }]);
  });

  it('show the message first with its severity and code, the help as its own paragraph, backticks as <code>', () => {
    const dom = renderDiagnostic(diagnostic());
    const [message, help, docs] = [...dom.querySelectorAll('p')];
    expect(message.className).toBe('cm-diag-message');
    expect(message.textContent).toBe('error SK204 name My Skill must be lowercase');
    expect([...message.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['name', 'My Skill']);
    expect(message.textContent).not.toContain('`');
    expect(help.className).toBe('cm-diag-help');
    expect(help.textContent).toBe('rename the skill (and its folder) to my-skill');
    expect(help.querySelector('code')?.textContent).toBe('my-skill');
    expect(docs.textContent).toContain('docs/rules/name-format.md');
    // No help: no help paragraph.
    expect(renderDiagnostic(diagnostic({ help: null })).querySelector('.cm-diag-help')).toBeNull();
  });

  it('never read the engine’s text as HTML', () => {
    const dom = renderDiagnostic(diagnostic({ message: '<img src=x onerror="alert(1)"> `<b>x</b>`', help: '<script>x</script>' }));
    expect(dom.querySelector('img, b, script')).toBeNull();
    expect(dom.querySelector('code')?.textContent).toBe('<b>x</b>');
    expect(dom.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('show in the editor over the squiggle, in the raised tooltip', async () => {
    const doc = '---\nname: My Skill\ndescription: d\n---\n';
    const view = mountEditor(doc, [diagnostic()]);
    await until(() => diagnosticCount(view.state) === 1);
    activateHover(view, 12, 1);
    await until(() => $('.cm-tooltip-hover .cm-diag') !== null);
    expect(hasHoverTooltips(view.state)).toBe(true);
    const hover = $('.cm-tooltip-hover')!;
    // In the document's body, not inside the editor's (clipped) pane.
    expect(hover.closest('.cm-editor')).toBeNull();
    expect(hover.querySelector('.cm-diag-message')?.textContent).toContain('must be lowercase');
    expect(hover.querySelector('.cm-diag-help code')?.textContent).toBe('my-skill');
  });
});

describe('typed characters', () => {
  function plainView(doc: string, extensions: Extension[] = []): EditorView {
    const parent = document.createElement('div');
    document.body.appendChild(parent);
    const view = new EditorView({ parent, state: EditorState.create({ doc, extensions: [typedText, history(), ...extensions] }) });
    views.push(view);
    return view;
  }
  function type(view: EditorView, data: string, init: Partial<InputEventInit> = {}): InputEvent {
    const event = new InputEvent('beforeinput', { inputType: 'insertText', data, cancelable: true, bubbles: true, ...init });
    view.contentDOM.dispatchEvent(event);
    return event;
  }

  it('go into the text at the cursor, over a selection, as typing that undo takes back', () => {
    const view = plainView('name: skil');
    view.dispatch({ selection: { anchor: 10 } });
    const event = type(view, 'l');
    expect(event.defaultPrevented).toBe(true);
    expect(view.state.doc.toString()).toBe('name: skill');
    expect(view.state.selection.main.head).toBe(11);
    view.dispatch({ selection: { anchor: 6, head: 11 } });
    type(view, 'é');
    expect(view.state.doc.toString()).toBe('name: é');
    // Typing is one undo step, as CodeMirror groups typed text.
    undo(view);
    expect(view.state.doc.toString()).toBe('name: skill');
  });

  it('reach every cursor', () => {
    const view = plainView('a\nb', [EditorState.allowMultipleSelections.of(true)]);
    view.dispatch({ selection: EditorSelection.create([EditorSelection.cursor(1), EditorSelection.cursor(3)]) });
    type(view, '!');
    expect(view.state.doc.toString()).toBe('a!\nb!');
  });

  it('leave compositions, line breaks, other inputs and read-only text to CodeMirror and the browser', () => {
    const view = plainView('abc');
    for (const event of [
      type(view, 'x', { isComposing: true }),
      type(view, 'x\ny'),
      type(view, 'x', { inputType: 'insertReplacementText' }),
      type(view, 'x', { cancelable: false }),
    ])
      expect(event.defaultPrevented).toBe(false);
    const readOnly = plainView('abc', [EditorState.readOnly.of(true)]);
    expect(type(readOnly, 'x').defaultPrevented).toBe(false);
    expect(view.state.doc.toString()).toBe('abc');
    expect(readOnly.state.doc.toString()).toBe('abc');
  });

  it('pass through the input handlers first, as on CodeMirror’s own path', () => {
    const seen: [number, number, string][] = [];
    const view = plainView('ab', [
      EditorView.inputHandler.of((v, from, to, text) => {
        seen.push([from, to, text]);
        if (text !== '(') return false;
        v.dispatch({ changes: { from, to, insert: '()' }, selection: { anchor: from + 1 } });
        return true;
      }),
    ]);
    view.dispatch({ selection: { anchor: 1 } });
    type(view, '(');
    type(view, 'x');
    expect(seen).toEqual([
      [1, 1, '('],
      [2, 2, 'x'],
    ]);
    expect(view.state.doc.toString()).toBe('a(x)b');
  });

  it('are linted as the editor’s other changes are', async () => {
    const linted: string[] = [];
    const parent = document.createElement('div');
    document.body.appendChild(parent);
    const view = createEditor(parent, 'name: a\n', {
      lint: async (text) => (linted.push(text), []),
      applyFix: () => {},
      save: () => {},
      change: () => {},
    });
    views.push(view);
    view.dispatch({ selection: { anchor: 7 } });
    expect(type(view, 'b').defaultPrevented).toBe(true);
    await until(() => linted.includes('name: ab\n'));
  });
});

describe('squiggles', () => {
  it('are drawn as a background under the span in the severity colour, not as a text decoration', () => {
    const s = squiggle('var(--error)');
    // Two strokes of a zigzag, each in the colour; WebKitGTK paints no wavy text decoration.
    expect(s.backgroundImage.match(/linear-gradient\(/g)).toHaveLength(2);
    expect(s.backgroundImage.match(/var\(--error\)/g)!.length).toBeGreaterThanOrEqual(4);
    expect(s.backgroundRepeat).toBe('repeat-x');
    expect(s.backgroundPosition).toBe('left bottom');
    expect(s.textDecoration).toBe('none');
  });

  it('mark the diagnostic\'s exact span with its severity', async () => {
    const doc = '---\nname: My Skill\ndescription: d\n---\n';
    const view = mountEditor(doc, [diagnostic()]);
    await until(() => diagnosticCount(view.state) === 1);
    await until(() => $('.cm-lintRange-error') !== null);
    expect($('.cm-lintRange-error')!.textContent).toBe('My Skill');
  });

  it('Ctrl+Shift+M shows the Problems pane, never CodeMirror\'s own list', async () => {
    const parent = document.createElement('div');
    document.body.appendChild(parent);
    let shown = 0;
    const view = createEditor(parent, '---\nname: My Skill\n---\n', {
      lint: async () => [diagnostic()],
      applyFix: () => {},
      save: () => {},
      change: () => {},
      showProblems: () => shown++,
    });
    views.push(view);
    await until(() => diagnosticCount(view.state) === 1);
    view.contentDOM.dispatchEvent(new KeyboardEvent('keydown', { key: 'M', code: 'KeyM', keyCode: 77, ctrlKey: true, shiftKey: true, bubbles: true, cancelable: true }));
    await settle();
    expect(shown).toBe(1);
    expect($('.cm-panel-lint')).toBeNull();
  });

  it('fix labels lose their backticks where they cannot show code', () => {
    expect(plainLabel('Set `name` to `claude-api`')).toBe('Set name to claude-api');
  });
});

describe('string colour', () => {
  const hue = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
    if (d === 0) return 0;
    const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return (h * 60 + 360) % 360;
  };
  const apart = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));
  it('is a hue no severity uses, in both themes (not red, salmon or amber)', () => {
    const appCss = readFileSync(`${__dirname}/app.css`, 'utf8');
    const palettes = appCss.split(":root[data-theme='dark']");
    expect(palettes).toHaveLength(2);
    for (const p of palettes) {
      const token = (name: string) => new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`).exec(p)![1];
      const string = hue(token('syn-string'));
      for (const sev of ['error', 'warning', 'info']) expect(apart(string, hue(token(sev))), sev).toBeGreaterThan(30);
      // Red through amber: 0°–50° and the reds past 330°.
      expect(string > 50 && string < 330).toBe(true);
    }
  });
});
