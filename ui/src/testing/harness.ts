// Shared helpers for the component tests: a mocked host's command dispatcher (given to `mockIPC`
// by each test file, which alone imports the Tauri mocks), waiting for conditions, query
// shortcuts and small builders of engine data. `fixtures.ts` re-exports all of it.
import { flushSync, tick } from 'svelte';
import type { Commands, Diagnostic, Severity, SkillEntry, Version } from '../lib/bindings';

export type Handler = {
  [C in keyof Commands]?: (args: Commands[C]['args']) => Commands[C]['reply'] | Promise<Commands[C]['reply']>;
};

export type Call = { cmd: string; args: unknown };

/** A `mockIPC` callback answering from `handlers` and recording each call in `calls`. */
export function dispatcher(handlers: Handler, calls: Call[]) {
  return (cmd: string, payload: unknown) => {
    const args = (payload as { args: unknown } | undefined)?.args;
    calls.push({ cmd, args });
    const h = (handlers as Record<string, (a: unknown) => unknown>)[cmd];
    if (!h) throw { code: 'internal', message: `no mock for ${cmd}`, details: [] };
    return h(args);
  };
}

/** The calls the host `route` mocks received. */
export const calls: Call[] = [];

/** The `mockIPC` callback: records each call in `calls` (emptied first) and answers from the
 *  handlers (a typed error otherwise). */
export function route(handlers: Handler) {
  calls.length = 0;
  return dispatcher(handlers, calls);
}

export async function settle() {
  for (let i = 0; i < 10; i++) {
    await tick();
    await new Promise((r) => setTimeout(r, 0));
  }
  flushSync();
}

export async function until(check: () => boolean, ms = 2000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await settle();
  }
}

export const $ = (sel: string) => document.body.querySelector(sel) as HTMLElement | null;
export const $$ = (sel: string) => [...document.body.querySelectorAll(sel)] as HTMLElement[];

const pos = (line: number, column: number) => ({ line, column, column_utf16: column });

export function diagnostic(
  code: string,
  rule: string,
  severity: Severity,
  line: number,
  from: number,
  to: number,
): Diagnostic {
  return {
    code,
    rule,
    severity,
    message: `problem ${code}`,
    span: { start: 0, end: 1 },
    start: pos(line, from),
    end: pos(line, to),
    labels: [],
    help: null,
    docs: `docs/rules/${rule}.md`,
    fix: null,
  };
}

export function skill(name: string, source: number, extra: Partial<SkillEntry> = {}): SkillEntry {
  return {
    source,
    name,
    dir: `/lib/s${source}/${name}`,
    path: `/lib/s${source}/${name}/SKILL.md`,
    errors: 0,
    warnings: 0,
    infos: 0,
    hidden_by: null,
    resources: [],
    diagnostics: [],
    ...extra,
  };
}

export function change(el: HTMLElement | null, value: string | boolean) {
  if (!el) throw new Error('no element');
  const input = el as HTMLInputElement;
  if (typeof value === 'boolean') input.checked = value;
  else if (el instanceof HTMLSelectElement) {
    for (const o of el.options) o.selected = o.value === value;
  } else input.value = value;
  if (typeof value !== 'boolean') input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** A file version as the host reports it (modified time, size, a hash of the text). */
export function versionOf(text: string, modifiedNs = 0): Version {
  let h = 0;
  for (const c of text) h = (Math.imul(h, 31) + c.codePointAt(0)!) >>> 0;
  return { modified_ns: String(modifiedNs), size: new TextEncoder().encode(text).length, hash: h.toString(16).padStart(16, '0') };
}

/** The entries of the agent picker `testid` as [id, label], read by opening it (Escape closes it). */
export async function pickerEntries(testid: string): Promise<string[][]> {
  $(`[data-testid=${testid}]`)!.click();
  await until(() => $$(`[data-testid=${testid}-pick-item]`).length > 0);
  const out = $$(`[data-testid=${testid}-pick-item]`).map((o) => [o.dataset.id!, o.querySelector('.label')!.textContent!]);
  $(`[data-testid=${testid}-pick-input]`)!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  await until(() => $(`[data-testid=${testid}-pick]`) === null);
  return out;
}
