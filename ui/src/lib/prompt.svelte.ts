// The Prompt pane's state: the skill listing an agent's system prompt gets from the opened
// library, rendered by the engine (`render_prompt`) with the settings chosen in the pane.
import { api, asAppError } from './api';
import type { AppError, PromptView } from './bindings';
import type { Studio } from './studio.svelte';

export class PromptState {
  /** The agent whose prompt is shown. */
  agent = $state('claude-code');
  contextWindow = $state<number | null>(null);
  /** The listing budget in characters (the Session pane runs with it too). */
  charBudget = $state<number | null>(null);
  view = $state<PromptView | null>(null);
  error = $state<AppError | null>(null);

  constructor(private studio: Studio) {}

  /** Renders the prompt of the library's sources for `agent` with these settings. */
  async render() {
    try {
      this.view = await api.render_prompt({
        sources: this.studio.library.sources,
        agent: this.agent,
        context_window: this.contextWindow,
        char_budget: this.charBudget,
        loaded: [],
      });
      this.error = null;
    } catch (e) {
      this.view = null;
      this.error = asAppError(e);
    }
  }
}
