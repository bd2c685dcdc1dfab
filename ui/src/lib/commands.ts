// Every action of the window with its key, in one list: the command palette (Ctrl+Shift+P)
// shows it and the window's key handler runs from it, so a key shown is a key that works. The
// keys keep clear of VS Code's and Zed's defaults: Ctrl+Shift+P is the palette, Ctrl+P goes to a
// skill, and what the editors bind elsewhere is reached by VS Code's own chords (Ctrl+K V opens
// the preview, Ctrl+K Ctrl+T the theme) or Ctrl+Alt.
import type { Studio, Pane } from './studio.svelte';

export type Command = {
  id: string;
  title: string;
  /** Its key as shown ("Ctrl+Alt+B", a chord "Ctrl+K V"); none for some. */
  key?: string;
  group: string;
  run: () => void;
  /** The key runs it only when this holds (the palette lists it always). */
  when?: () => boolean;
};

/** The keys the window's other controls name in their titles. */
export const KEYS = {
  palette: 'Ctrl+Shift+P',
  goToSkill: 'Ctrl+P',
  preview: 'Ctrl+K V',
  form: 'Ctrl+Alt+F',
  theme: 'Ctrl+K Ctrl+T',
  library: 'Ctrl+B',
  problems: 'Ctrl+J',
  side: 'Ctrl+Alt+B',
  save: 'Ctrl+S',
  newSkill: 'Ctrl+N',
} as const;

const PANES: { pane: Pane; title: string }[] = [
  { pane: 'library', title: 'Library' },
  { pane: 'editor', title: 'Editor' },
  { pane: 'problems', title: 'Problems' },
  { pane: 'prompt', title: 'Prompt' },
  { pane: 'session', title: 'Session' },
  { pane: 'evals', title: 'Evals' },
  { pane: 'matrix', title: 'Matrix' },
  { pane: 'package', title: 'Package' },
];

/** The window's commands; `ui` holds what only the App can do. */
export function commandList(
  studio: Studio,
  ui: { palette: () => void; goToSkill: () => void; pickAgent: () => void; toggleTheme: () => void },
): Command[] {
  const layout = studio.layout;
  const shown = (on: boolean) => (on ? 'Hide' : 'Show');
  const out: Command[] = [
    { id: 'palette', title: 'Show all commands', key: KEYS.palette, group: 'Go', run: ui.palette },
    { id: 'go-to-skill', title: 'Go to skill…', key: KEYS.goToSkill, group: 'Go', run: ui.goToSkill },
    ...PANES.map((p, i) => ({
      id: `focus-${p.pane}`,
      title: `Go to ${p.title}`,
      key: `Alt+${i + 1}`,
      group: 'Go',
      run: () => studio.focusPane(p.pane),
    })),
    {
      id: 'conflict',
      title: 'Go to the changed-on-disk view',
      key: 'Alt+C',
      group: 'Go',
      run: () => studio.focusPane('conflict'),
      when: () => studio.editing.conflict !== null,
    },
    { id: 'save', title: 'Save the file', key: KEYS.save, group: 'File', run: () => void studio.editing.save() },
    { id: 'new-skill', title: 'New skill…', key: KEYS.newSkill, group: 'File', run: () => (studio.library.newSkillOpen = true) },
    { id: 'open-folder', title: 'Open a folder of skills…', group: 'File', run: () => void studio.library.openFolder() },
    { id: 'add-source', title: 'Add a source…', group: 'File', run: () => void studio.library.addSource() },
    { id: 'pick-agent', title: 'Choose the agent…', group: 'Agent', run: ui.pickAgent },
    {
      id: 'toggle-library',
      title: `${shown(!layout.collapsed.library)} the Library`,
      key: KEYS.library,
      group: 'View',
      run: () => layout.toggle('library'),
    },
    {
      id: 'toggle-problems',
      title: `${shown(!layout.collapsed.bottom)} Problems`,
      key: KEYS.problems,
      group: 'View',
      run: () => layout.toggle('bottom'),
    },
    {
      id: 'toggle-side',
      title: `${shown(!layout.collapsed.side)} the side panel`,
      key: KEYS.side,
      group: 'View',
      run: () => layout.toggle('side'),
    },
    {
      id: 'toggle-form',
      title: `${shown(studio.preview.showForm)} the frontmatter form`,
      key: KEYS.form,
      group: 'View',
      run: () => studio.preview.toggleForm(),
    },
    {
      id: 'toggle-preview',
      title: `${shown(studio.preview.show)} the Markdown preview`,
      key: KEYS.preview,
      group: 'View',
      run: () => studio.preview.toggle(),
    },
    { id: 'toggle-theme', title: 'Switch light and dark theme', key: KEYS.theme, group: 'View', run: ui.toggleTheme },
    { id: 'theme-system', title: 'Theme: follow the system', group: 'View', run: () => layout.setTheme('system') },
  ];
  for (const a of studio.library.agents) {
    if (a.id === studio.library.agent) continue;
    out.push({ id: `agent-${a.id}`, title: `Agent: work under ${a.label}`, group: 'Agent', run: () => void studio.setAgent(a.id) });
  }
  return out;
}
