// The Package pane's state: the packages the opened library ships in (the upload `.zip` of each
// skill, a Claude Code plugin, a Codex plugin, an Agent Plugins package), what refuses each, their
// sizes against the targets' limits, and the build into a folder the user chose, with its
// progress and the paths written. It outlives the pane: a build goes on while another tab shows.
// What fails, the sizes and the packages all come from the engine through `api`.
import { api, asAppError, dialogs } from './api';
import type { AppError, BuildReport, PackageProgress, PackageTarget, PackageView, Position } from './bindings';

export interface PackageDeps {
  /** The opened library's sources. */
  sources: () => string[];
  /** Opens a file at a place (a failure's link). */
  goToPlace: (path: string, start: Position | null) => void;
}

export const TARGETS: { target: PackageTarget; title: string }[] = [
  { target: 'claude-ai', title: 'Claude.ai upload' },
  { target: 'claude-plugin', title: 'Claude Code plugin' },
  { target: 'codex-plugin', title: 'Codex plugin' },
  { target: 'agent-plugin', title: 'Agent Plugins' },
];

export class PackageState {
  view = $state.raw<PackageView | null>(null);
  error = $state.raw<AppError | null>(null);
  /** The folder the packages are written into: chosen with the system's dialog or typed. */
  out = $state('');
  overwrite = $state(false);
  /** The targets the Build button writes. */
  chosen = $state<PackageTarget[]>(TARGETS.map((t) => t.target));
  building = $state(false);
  progress = $state.raw<PackageProgress | null>(null);
  report = $state.raw<BuildReport | null>(null);
  buildError = $state.raw<AppError | null>(null);
  /** Counts the checks asked for: an answer older than the last one asked is dropped. */
  private asked = 0;
  private readonly deps: PackageDeps;

  constructor(deps: PackageDeps) {
    this.deps = deps;
  }

  /** Asks the engine again what each package holds and what refuses it. */
  async refresh() {
    const n = ++this.asked;
    const sources = this.deps.sources();
    if (sources.length === 0) {
      this.view = null;
      return;
    }
    try {
      const v = await api.package_targets({ sources });
      if (n !== this.asked) return;
      this.view = v;
      this.error = null;
    } catch (e) {
      if (n !== this.asked) return;
      this.error = asAppError(e);
    }
  }

  async chooseFolder() {
    const dir = await dialogs.pickFolder('Build the packages into');
    if (dir) this.out = dir;
  }

  toggle(target: PackageTarget, on: boolean) {
    this.chosen = on ? [...new Set([...this.chosen, target])] : this.chosen.filter((t) => t !== target);
  }

  /** Writes the chosen targets' packages into the folder. */
  async build() {
    if (this.building) return;
    this.building = true;
    this.progress = null;
    this.report = null;
    this.buildError = null;
    try {
      const targets = TARGETS.map((t) => t.target).filter((t) => this.chosen.includes(t));
      this.report = await api.build_packages({ sources: this.deps.sources(), targets, out: this.out.trim(), overwrite: this.overwrite });
    } catch (e) {
      this.buildError = asAppError(e);
    } finally {
      this.building = false;
    }
  }

  onProgress(p: PackageProgress) {
    this.progress = p;
  }

  goTo(path: string, start: Position | null) {
    this.deps.goToPlace(path, start);
  }
}
