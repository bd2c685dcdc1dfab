// The window's layout: the panels' sizes and which are collapsed, the theme, the side panel's
// tab, and the file left open. The host keeps it (`ui_state`, `remember_ui_state`) so it
// survives a restart; every value read back is checked and bounded here, so a stale or edited
// file can only fall back to the defaults.
import { api } from './api';
import type { UiState } from './bindings';
import { debounce } from './debounce';

export type Panel = 'library' | 'side' | 'bottom';
export type Theme = 'system' | 'light' | 'dark';
export type SideTab = 'prompt' | 'session' | 'evals' | 'matrix' | 'package';

export const PANELS: Panel[] = ['library', 'side', 'bottom'];
export const THEMES: Theme[] = ['system', 'light', 'dark'];
export const SIDE_TABS: SideTab[] = ['prompt', 'session', 'evals', 'matrix', 'package'];

/** Each panel's bounds in CSS pixels. */
export const LIMITS: Record<Panel, { min: number; max: number }> = {
  library: { min: 160, max: 480 },
  side: { min: 280, max: 760 },
  bottom: { min: 72, max: 640 },
};

/** The sizes of a first start (at 1280 wide the editor gets about 640 px). */
export const DEFAULT_SIZES: Record<Panel, number> = { library: 232, side: 380, bottom: 170 };

/** The share of the window a side panel may take at most, so that the editor stays the widest. */
const SHARE: Record<Panel, number> = { library: 0.22, side: 0.34, bottom: 0.5 };

/** The least width of the editor's text column, whatever else is shown. */
export const EDITOR_MIN = 480;
/** The frontmatter form's column and the preview's least width beside the text. */
export const FORM_WIDTH = 210;
export const PREVIEW_MIN = 280;
/** The side panel given way: a strip of its tabs at the window's edge. */
export const RAIL = 40;

/** How the window is laid out at its width: the panels' widths, whether the side panel is a strip
 *  (opening as a drawer over the editor) and how the form and preview sit beside the text
 *  (`columns`: each its own; `tabs`: one column, a tab each). */
export type Arrangement = { library: number; side: number; rail: boolean; beside: 'none' | 'one' | 'columns' | 'tabs' };

/** Width (or height, for `bottom`) below which the form and preview start hidden. */
export const NARROW = 1400;

export function clamp(panel: Panel, px: number): number {
  const { min, max } = LIMITS[panel];
  return Math.round(Math.min(max, Math.max(min, Number.isFinite(px) ? px : DEFAULT_SIZES[panel])));
}

export class LayoutState {
  sizes = $state<Record<Panel, number>>({ ...DEFAULT_SIZES });
  collapsed = $state<Record<Panel, boolean>>({ library: false, side: false, bottom: false });
  theme = $state<Theme>('system');
  sideTab = $state<SideTab>('prompt');
  /** The file open when the window was left (reopened once the library is open). */
  lastFile = $state<string | null>(null);
  /** The form and the preview beside the text, as last left (null: by the window's width). */
  showForm = $state<boolean | null>(null);
  showPreview = $state<boolean | null>(null);
  /** The window's size, followed by the App. */
  width = $state(typeof innerWidth === 'number' ? innerWidth : 1280);
  height = $state(typeof innerHeight === 'number' ? innerHeight : 800);
  /** Read from the host (until then nothing is written back). */
  loaded = $state(false);
  private saveSoon = debounce(() => void this.save(), 250);

  /** What a panel shows at the window's size: its size, capped to a share of the window. */
  shown(panel: Panel): number {
    const whole = panel === 'bottom' ? this.height : this.width;
    return Math.max(LIMITS[panel].min, Math.min(this.sizes[panel], Math.floor(whole * SHARE[panel])));
  }

  /** The largest size a panel may be given at the window's size. */
  maxShown(panel: Panel): number {
    const whole = panel === 'bottom' ? this.height : this.width;
    return Math.max(LIMITS[panel].min, Math.min(LIMITS[panel].max, Math.floor(whole * SHARE[panel])));
  }

  /** The layout at the window's width with the form and the preview on or off: the panels give
   *  way, in this order, until the text keeps its 480 px (EDITOR_MIN): the side panel and then the
   *  Library shrink toward their minimums, the form and the preview share one column as tabs,
   *  the side panel becomes a strip of its tabs. */
  arrange(form: boolean, preview: boolean): Arrangement {
    const lib = this.collapsed.library ? 0 : this.shown('library');
    const side = this.collapsed.side ? 0 : this.shown('side');
    const libMin = this.collapsed.library ? 0 : LIMITS.library.min;
    const sideMin = this.collapsed.side ? 0 : LIMITS.side.min;
    const splits = (this.collapsed.library ? 0 : 1) + (this.collapsed.side ? 0 : 1);
    const need = { none: 0, one: form ? FORM_WIDTH : PREVIEW_MIN, columns: FORM_WIDTH + PREVIEW_MIN, tabs: PREVIEW_MIN };
    const first: Arrangement['beside'] = form && preview ? 'columns' : form || preview ? 'one' : 'none';
    const tries: { beside: Arrangement['beside']; rail: boolean }[] = [{ beside: first, rail: false }];
    if (first === 'columns') tries.push({ beside: 'tabs', rail: false });
    if (side) tries.push({ beside: first === 'columns' ? 'tabs' : first, rail: true });
    for (const t of tries) {
      const sideNow = t.rail ? RAIL : side;
      const sideLeast = t.rail ? RAIL : sideMin;
      let deficit = EDITOR_MIN + need[t.beside] + splits - (this.width - lib - sideNow);
      if (deficit <= 0) return { library: lib, side: sideNow, ...t };
      // The side panel gives first, then the Library.
      const fromSide = Math.min(deficit, sideNow - sideLeast);
      deficit -= fromSide;
      const fromLib = Math.min(deficit, lib - libMin);
      deficit -= fromLib;
      if (deficit <= 0) return { library: lib - fromLib, side: sideNow - fromSide, ...t };
    }
    const last = tries[tries.length - 1];
    return { library: libMin, side: last.rail ? RAIL : sideMin, ...last };
  }

  resize(panel: Panel, px: number) {
    this.sizes[panel] = Math.min(clamp(panel, px), this.maxShown(panel));
    this.changed();
  }

  toggle(panel: Panel, open?: boolean) {
    this.collapsed[panel] = open === undefined ? !this.collapsed[panel] : !open;
    this.changed();
  }

  setTheme(theme: Theme) {
    this.theme = theme;
    this.changed();
  }

  setSideTab(tab: SideTab) {
    if (this.sideTab === tab) return;
    this.sideTab = tab;
    this.changed();
  }

  setLastFile(path: string | null) {
    if (this.lastFile === path) return;
    this.lastFile = path;
    this.changed();
  }

  /** Something to remember changed: written once the changes pause. */
  changed() {
    if (this.loaded) this.saveSoon();
  }

  /** Reads the remembered state (the defaults when there is none or the host has none). */
  async load() {
    try {
      this.apply(await api.ui_state(null));
    } catch (e) {
      console.warn('the window state is not remembered', e);
    }
    this.loaded = true;
  }

  apply(s: UiState) {
    for (const p of PANELS) {
      const v = s.sizes?.[p];
      if (typeof v === 'number') this.sizes[p] = clamp(p, v);
      this.collapsed[p] = Array.isArray(s.collapsed) && s.collapsed.includes(p);
    }
    if (THEMES.includes(s.theme as Theme)) this.theme = s.theme as Theme;
    if (SIDE_TABS.includes(s.side_tab as SideTab)) this.sideTab = s.side_tab as SideTab;
    this.lastFile = typeof s.last_file === 'string' ? s.last_file : null;
    this.showForm = typeof s.show_form === 'boolean' ? s.show_form : null;
    this.showPreview = typeof s.show_preview === 'boolean' ? s.show_preview : null;
  }

  snapshot(): UiState {
    return {
      sizes: { ...this.sizes },
      collapsed: PANELS.filter((p) => this.collapsed[p]),
      theme: this.theme,
      side_tab: this.sideTab,
      last_file: this.lastFile,
      show_form: this.showForm,
      show_preview: this.showPreview,
    };
  }

  async save() {
    try {
      await api.remember_ui_state(this.snapshot());
    } catch (e) {
      console.warn('the window state was not kept', e);
    }
  }

  /** Writes now what waits to be written (the window is closing). */
  flush() {
    this.saveSoon.cancel?.();
    if (this.loaded) void this.save();
  }
}
