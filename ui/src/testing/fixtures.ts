// Shared fixtures for component tests: a small library, its host's commands, and the whole app
// mounted on a fresh `Studio`. No `@tauri-apps` import here: each test file installs the
// dispatcher with `mockIPC`. Everything in `harness.ts` is re-exported.
import { mount, unmount } from 'svelte';
import App from '../App.svelte';
import { Studio } from '../lib/studio.svelte';
import type { FieldLimit, LibraryView, PromptView, SkillEntry, UiState } from '../lib/bindings';
import { $$, settle, until, versionOf, type Handler } from './harness';

export * from './harness';

export function libraryOf(sources: string[], skills: SkillEntry[]): LibraryView {
  return { agent: 'spec', sources: sources.map((p) => ({ path: p, root: p, exists: true })), skills, issues: [] };
}

export const emptyPrompt: PromptView = {
  agent: 'claude-code',
  source: 'Claude Code',
  placement: 'system-message',
  placement_detail: '',
  text: '',
  failure: null,
  skills: [],
  warnings: [],
  budget: null,
  encoding: 'o200k_base',
  estimate: true,
  bytes: 0,
  chars: 0,
  tokens: 0,
  context_window: 1000,
  percent_of_context: 0,
  settings: [],
};

/** Stand-ins for the form commands (good enough for `key: value` lines), no drafts and no
 *  remembered window state (what is remembered is kept in `uiState`). */
/** The spec profile's field limits, as the engine gives them for the form. */
export const FIELD_LIMITS: FieldLimit[] = [
  { key: 'compatibility', max_chars: 500, severity: 'error', code: 'SK221', by: 'the specification' },
  { key: 'description', max_chars: 1024, severity: 'error', code: 'SK213', by: 'the specification' },
  { key: 'description', max_chars: 1536, severity: 'warning', code: 'SK310', by: "Claude Code's listing" },
  { key: 'name', max_chars: 64, severity: 'error', code: 'SK203', by: 'the specification' },
];

export const uiState: { kept: UiState } = { kept: emptyUiState() };

export function emptyUiState(): UiState {
  return { sizes: {}, collapsed: [], theme: '', side_tab: '', last_file: null, show_form: null, show_preview: null };
}

export const commonHandlers: Handler = {
  ui_state: () => uiState.kept,
  remember_ui_state: (s) => {
    uiState.kept = s;
    return null;
  },
  drafts: () => [],
  save_draft: () => null,
  discard_draft: () => null,
  frontmatter_form: ({ text, agent }) => ({
    fields: [...text.matchAll(/^([a-z-]+):[ ]?(.*)$/gm)].map((m) => ({ key: m[1], value: m[2] })),
    limits: agent ? FIELD_LIMITS : [],
  }),
  set_frontmatter_field: ({ text, key, value }) => {
    const line = new RegExp(`^${key}:.*$`, 'm');
    return { text: line.test(text) ? text.replace(line, `${key}: ${value}`) : text.replace(/\n---\n/, `\n${key}: ${value}\n---\n`) };
  },
};

/** A host with one source, `/lib/s0`, holding `skills`, linted under `spec` with no findings;
 *  `read` gives each file's text. `extra` adds or replaces commands. */
export function oneSource(skills: SkillEntry[], read: (path: string) => string, extra: Handler = {}): Handler {
  return {
    ...commonHandlers,
    startup: () => ({ sources: ['/lib/s0'], agent: 'spec' }),
    agents: () => [{ id: 'spec', kind: 'format', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false }],
    open_library: () => libraryOf(['/lib/s0'], skills),
    render_prompt: () => emptyPrompt,
    read_file: ({ path }) => ({ path, text: read(path), version: versionOf(read(path)) }),
    lint_text: () => ({ diagnostics: [] }),
    ...extra,
  };
}

let mounted: ReturnType<typeof mount> | null = null;

/** Mounts the whole app on a fresh `Studio` (the host mocked already) and waits until the library
 *  shows `skills` skills. Unmounts the app an earlier call mounted. The remembered window state
 *  starts empty unless `restart` (a restart of the app, which reads what the last run kept). */
export async function mountApp(skills: number, restart = false): Promise<Studio> {
  unmountApp();
  // What the unmounted app still writes lands before the state is emptied.
  await settle();
  if (!restart) uiState.kept = emptyUiState();
  document.body.innerHTML = '';
  const studio = new Studio();
  mounted = mount(App, { target: document.body, props: { studio } });
  // The library's skills (the tree draws only those in view).
  await until(() => studio.library.view?.skills.length === skills && (skills === 0 || $$('[data-testid=skill]').length > 0));
  return studio;
}

/** Unmounts the app `mountApp` mounted, if any. */
export function unmountApp() {
  if (mounted) unmount(mounted);
  mounted = null;
}
