// The app's icon set: Lucide (`@lucide/svelte`, ISC-licensed), one import per icon so that only
// the icons used are bundled. Icons are decoration beside a control's words: the control keeps
// its own accessible name (its text or `aria-label`), and an icon without one is `aria-hidden`.
export { default as Play } from '@lucide/svelte/icons/play';
export { default as Square } from '@lucide/svelte/icons/square';
export { default as Plus } from '@lucide/svelte/icons/plus';
export { default as Save } from '@lucide/svelte/icons/save';
export { default as FolderOpen } from '@lucide/svelte/icons/folder-open';
export { default as Send } from '@lucide/svelte/icons/send';
export { default as Undo } from '@lucide/svelte/icons/undo-2';
export { default as RotateCcw } from '@lucide/svelte/icons/rotate-ccw';
export { default as X } from '@lucide/svelte/icons/x';
export { default as KeyRound } from '@lucide/svelte/icons/key-round';
export { default as Trash } from '@lucide/svelte/icons/trash-2';
export { default as Copy } from '@lucide/svelte/icons/copy';
export { default as FilePlus } from '@lucide/svelte/icons/file-plus';
export { default as Info } from '@lucide/svelte/icons/info';
export { default as CircleAlert } from '@lucide/svelte/icons/circle-alert';
export { default as Sparkles } from '@lucide/svelte/icons/sparkles';
export { default as Import } from '@lucide/svelte/icons/import';

/** The size of an icon beside a control's words, in pixels. */
export const ICON = 14;

export { default as PanelLeft } from '@lucide/svelte/icons/panel-left';
export { default as PanelBottom } from '@lucide/svelte/icons/panel-bottom';
export { default as PanelRight } from '@lucide/svelte/icons/panel-right';

import PanelLeftIcon from '@lucide/svelte/icons/panel-left';
import PanelBottomIcon from '@lucide/svelte/icons/panel-bottom';
import PanelRightIcon from '@lucide/svelte/icons/panel-right';

/** The title bar's panel toggles: the Library on the left, Problems at the bottom, the side
 *  panel on the right. */
export const PANEL_ICONS = { library: PanelLeftIcon, bottom: PanelBottomIcon, side: PanelRightIcon } as const;
