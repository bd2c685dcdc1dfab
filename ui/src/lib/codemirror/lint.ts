// The engine's lint as the editor's: each change linted at once, one lint at a time, the answer
// shown through CodeMirror's lint state (squiggles, gutter, hovers) when it is still for the
// editor's text.
import { EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { Facet, StateEffect, type Text, type Transaction } from '@codemirror/state';
import { diagnosticCount, setDiagnostics } from '@codemirror/lint';
import type { Diagnostic } from '../bindings';
import { toCm } from './diagnostics';

/** What the lint asks of the app. */
export interface LintHooks {
  /** Lint this text with the engine. */
  lint(text: string): Promise<Diagnostic[]>;
  /** Apply `d`'s fix; `linted` is the text the engine computed it for. */
  applyFix(d: Diagnostic, linted: string): void;
}

/** The hooks the editor was created with. */
export const lintHooks = Facet.define<LintHooks, LintHooks | null>({ combine: (v) => v[0] ?? null });

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
    const hooks = this.view.state.facet(lintHooks);
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

export const engineLint = ViewPlugin.fromClass(EngineLint);

/** Lints the editor's text again now, when it has not changed (its profile changed). */
export function relintNow(view: EditorView) {
  view.plugin(engineLint)?.request();
}

/** Updates the view, having started the lint of a changed text first (a configuration change,
 *  such as another line ending, is linted from the update as before). */
export function lintFirst(trs: readonly Transaction[], view: EditorView) {
  const reconfigures = trs.some((t) => t.effects.some((e) => e.is(StateEffect.reconfigure) || e.is(StateEffect.appendConfig)));
  if (!reconfigures && trs.some((t) => t.docChanged)) view.plugin(engineLint)?.willChange(trs[trs.length - 1].newDoc);
  view.update(trs);
}
