// The engine's hover and completion in the editor: the answers `skillkit lsp` gives an editor,
// asked of the app's workspace (the `hover` and `complete` commands) at the cursor or the mouse.
// A frontmatter key's hover says what it is and which agents read it; the description's says how
// each agent lists the skill. Completion offers keys, a key's values and the skill folder's files:
// as you type a key or a value in the frontmatter or a link's destination, or on Ctrl+Space
// anywhere. The Markdown of both is built from DOM nodes (bold, inline code, lists), never read
// as HTML.
import { hoverTooltip, type EditorView, type Tooltip } from '@codemirror/view';
import type { Extension, Text } from '@codemirror/state';
import { autocompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import type { CompletionItem, HoverView } from '../bindings';
import { appendInline, offsetOf } from './diagnostics';

/** What the hover and the completion ask of the app. Places are 1-based lines and 1-based UTF-16
 *  columns of `text` (the editor's text with its own line endings). */
export interface AssistHooks {
  hover?(text: string, line: number, columnUtf16: number): Promise<HoverView | null>;
  complete?(text: string, line: number, columnUtf16: number): Promise<CompletionItem[]>;
}

/** Markdown as blocks: paragraphs (blank-line separated, lines joined with a space) and bullet
 *  lists (`- ` lines). */
export type Block = { kind: 'p'; text: string } | { kind: 'ul'; items: string[] };

export function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  let para: string[] = [];
  const endPara = () => {
    if (para.length) out.push({ kind: 'p', text: para.join(' ') });
    para = [];
  };
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      endPara();
    } else if (line.startsWith('- ')) {
      endPara();
      const last = out.at(-1);
      if (last?.kind === 'ul') last.items.push(line.slice(2));
      else out.push({ kind: 'ul', items: [line.slice(2)] });
    } else {
      para.push(line);
    }
  }
  endPara();
  return out;
}

/** Text with `**bold**` runs, as runs of plain and bold text (an unpaired `**` stays text). */
export function strongParts(text: string): { strong: boolean; text: string }[] {
  const parts: { strong: boolean; text: string }[] = [];
  const re = /\*\*(.+?)\*\*/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) parts.push({ strong: false, text: text.slice(at, m.index) });
    parts.push({ strong: true, text: m[1] });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ strong: false, text: text.slice(at) });
  return parts;
}

function appendRich(parent: HTMLElement, text: string) {
  for (const part of strongParts(text)) {
    if (part.strong) {
      const b = document.createElement('strong');
      appendInline(b, part.text);
      parent.appendChild(b);
    } else appendInline(parent, part.text);
  }
}

/** The engine's Markdown as DOM nodes (nothing is read as HTML). */
export function renderMarkdown(markdown: string, className = 'cm-assist'): HTMLElement {
  const dom = document.createElement('div');
  dom.className = className;
  for (const b of blocks(markdown)) {
    if (b.kind === 'p') {
      const p = document.createElement('p');
      appendRich(p, b.text);
      dom.appendChild(p);
    } else {
      const ul = document.createElement('ul');
      for (const item of b.items) {
        const li = document.createElement('li');
        appendRich(li, item);
        ul.appendChild(li);
      }
      dom.appendChild(ul);
    }
  }
  return dom;
}

/** Whether `pos` lies in the frontmatter: the text opens with a `---` line and no closing `---`
 *  (or `...`) line comes before `pos`'s line. */
export function inFrontmatter(doc: Text, pos: number): boolean {
  if (doc.lines < 2 || doc.line(1).text.trimEnd() !== '---') return false;
  const at = doc.lineAt(pos).number;
  if (at === 1) return false;
  for (let n = 2; n < at; n++) {
    const t = doc.line(n).text.trimEnd();
    if (t === '---' || t === '...') return false;
  }
  return true;
}

/** Whether to ask the engine for completions as the user types (Ctrl+Space always asks): a key
 *  begun at a frontmatter line's start, a value after a key's colon, a link's destination. */
export function worthAsking(before: string, frontmatter: boolean): boolean {
  if (frontmatter) return /^[A-Za-z][\w-]*$/.test(before) || /^[\w-]+:\s*[\w-]*$/.test(before);
  return /\]\([^)\s]*$/.test(before) || /^\s*\[[^\]]+\]:\s*\S*$/.test(before);
}

const completionType: Record<CompletionItem['kind'], string> = {
  key: 'property',
  value: 'enum',
  file: 'text',
  folder: 'namespace',
};

/** The engine's completions as CodeMirror's, replacing from the first item's start to `pos`. */
export function toResult(doc: Text, pos: number, items: CompletionItem[]): CompletionResult | null {
  if (!items.length) return null;
  const from = Math.min(offsetOf(doc, items[0].start), pos);
  const options: Completion[] = items.map((c) => ({
    label: c.label,
    apply: c.insert,
    detail: c.detail,
    type: completionType[c.kind],
    info: c.documentation ? () => renderMarkdown(c.documentation) : undefined,
  }));
  return { from, to: pos, options, validFor: /^[\w./-]*$/ };
}

/** A place as the hooks take it. */
function place(doc: Text, pos: number): [number, number] {
  const line = doc.lineAt(pos);
  return [line.number, pos - line.from + 1];
}

/** The hover and the completion, fed by `hooks`. */
export function assist(hooks: AssistHooks): Extension[] {
  const out: Extension[] = [];
  const { hover, complete } = hooks;
  if (hover) {
    out.push(
      hoverTooltip(async (view: EditorView, pos: number): Promise<Tooltip | null> => {
        const doc = view.state.doc;
        const [line, column] = place(doc, pos);
        let found: HoverView | null;
        try {
          found = await hover(view.state.sliceDoc(), line, column);
        } catch {
          return null;
        }
        // An answer for a text the editor no longer has is dropped.
        if (!found || view.state.doc !== doc) return null;
        const from = offsetOf(doc, found.start);
        const to = Math.max(from, offsetOf(doc, found.end));
        const markdown = found.markdown;
        return { pos: from, end: to, above: true, create: () => ({ dom: renderMarkdown(markdown) }) };
      }),
    );
  }
  if (complete) {
    const source = async (ctx: CompletionContext): Promise<CompletionResult | null> => {
      const line = ctx.state.doc.lineAt(ctx.pos);
      const before = ctx.state.sliceDoc(line.from, ctx.pos);
      if (!ctx.explicit && !worthAsking(before, inFrontmatter(ctx.state.doc, ctx.pos))) return null;
      const [n, column] = place(ctx.state.doc, ctx.pos);
      let items: CompletionItem[];
      try {
        items = await complete(ctx.state.sliceDoc(), n, column);
      } catch {
        return null;
      }
      if (ctx.aborted) return null;
      return toResult(ctx.state.doc, ctx.pos, items);
    };
    // Ctrl+Space opens the list, arrows move, Enter takes, Escape closes (the keymap of
    // `autocompletion`).
    out.push(autocompletion({ override: [source], icons: false }));
  }
  return out;
}
