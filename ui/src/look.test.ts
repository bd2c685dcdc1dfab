// The styles of the panes this file checks, read from their source (the test DOM applies no
// component CSS): theme tokens only, wrapping where text must be read whole, ellipses only with a
// title, and a line kept for each New-skill message.
import { describe, expect, it } from 'vitest';
import theme from './lib/codemirror/theme.ts?raw';
import problems from './panes/Problems.svelte?raw';
import newSkill from './panes/NewSkill.svelte?raw';
import library from './panes/Library.svelte?raw';

/** The editor's CodeMirror files, each by name, as written. */
const codemirror: Record<string, string> = import.meta.glob('./lib/codemirror/*.ts', { query: '?raw', import: 'default', eager: true });

const style = (src: string) => (/<style>([\s\S]*)<\/style>/.exec(src)?.[1] ?? '').replace(/\/\*[\s\S]*?\*\//g, '');
/** The declarations of the first rule whose selector list includes `selector`. */
function rule(css: string, selector: string): string {
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g))
    if (m[1].split(',').some((s) => s.trim() === selector)) return m[2];
  throw new Error(`no rule for ${selector}`);
}

describe('pane styles', () => {
  it('use the theme tokens, no fixed colour', () => {
    for (const [file, css] of [
      ...Object.entries(codemirror),
      ['Problems', style(problems)],
      ['NewSkill', style(newSkill)],
      ['Library', style(library)],
    ]) {
      expect(css, file).not.toMatch(/#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(|(?<![-\w])(white|black|orange)(?![-\w])/);
    }
    expect(Object.keys(codemirror)).toContain('./lib/codemirror/theme.ts');
    for (const [file, src] of Object.entries(codemirror)) expect(src, file).not.toContain('defaultHighlightStyle');
    expect(theme).toMatch(/'\.cm-tooltip':\s*\{[^}]*var\(--bg-raised\)[^}]*var\(--control-border\)[^}]*var\(--shadow\)/);
  });

  it('wrap a problem\'s message, never cut it', () => {
    const msg = rule(style(problems), '.msg');
    expect(msg).not.toMatch(/ellipsis|nowrap/);
    expect(msg).toMatch(/white-space:\s*normal/);
    expect(msg).toMatch(/overflow-wrap:\s*break-word/);
  });

  it('keep a line for each New-skill message', () => {
    expect(rule(style(newSkill), '.message')).toMatch(/min-height:\s*\d+px/);
  });

  it('keep each row of the Library on one line and end long names with an ellipsis', () => {
    const css = style(library);
    expect(rule(css, '.row')).toMatch(/white-space:\s*nowrap/);
    for (const sel of ['.name', '.file-path', '.source-path']) expect(rule(css, sel)).toMatch(/text-overflow:\s*ellipsis/);
    // A cut text has its whole self in a title (a file's starts with its path).
    expect(library).toMatch(/class="name" title=\{row\.skill\.name\}/);
    expect(library).toMatch(/class="file-path" title=\{listedBy\(row\.file\)\}/);
  });
});
