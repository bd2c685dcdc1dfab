// What the window tells the user apart from the panes: the error banner and the status bar's
// message. Every store that reports to the whole window takes this one store (the `Studio` root
// makes it) and writes here; nothing in it reads back.
import type { AppError } from './bindings';

export class Notices {
  /** The error shown in the banner until dismissed (or cleared by the next success). */
  error = $state<AppError | null>(null);
  /** The status bar's message. */
  status = $state('');
}
