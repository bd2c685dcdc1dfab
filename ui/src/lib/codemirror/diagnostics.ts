// The engine's diagnostics in CodeMirror: their positions (line + UTF-16 column) as document
// offsets, each as CodeMirror's diagnostic with its fix as an action, and the hover's text built
// from DOM nodes (inline code as <code>, nothing read as HTML).
import type { Diagnostic as CmDiagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { Diagnostic, Position } from '../bindings';

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
export function appendInline(parent: HTMLElement, text: string) {
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
