// The Prompt pane's state: the skill listing the window's agent (the library's `agent`, chosen
// in the title bar) gets in its system prompt from the opened library, rendered by the engine
// (`render_prompt`) with the settings chosen in the pane.
import { api, asAppError } from './api';
import type { AgentInfo, AppError, Decision, PromptSkill, PromptView } from './bindings';
import { bytesToUtf16 } from './text';

/** What the prompt store reads (the `Studio` root wires it). */
export interface PromptDeps {
  /** The window's agent, and what it is. */
  agent: () => string;
  agentInfo: () => AgentInfo | null;
  /** The library's sources (lowest priority first). */
  sources: () => string[];
}

export class PromptState {
  contextWindow = $state<number | null>(null);
  /** The listing budget in characters (the Session pane runs with it too). */
  charBudget = $state<number | null>(null);
  /** Each agent's own listing settings set in the pane, by agent id: key → value as typed
   *  (`skillOverrides.NAME` for one skill's override). Sent as `KEY=VALUE`, above the project's
   *  own settings files of the agent (`.claude/settings.json`). */
  agentSettings = $state<Record<string, Record<string, string>>>({});
  view = $state<PromptView | null>(null);
  /** The last prompt rendered for the window's agent, kept through an error, so that the
   *  settings that caused it can be changed back. */
  last = $state<PromptView | null>(null);
  error = $state<AppError | null>(null);
  /** Counts the renders asked for, so that what renders beside this prompt (the pane's second
   *  agent) follows it even when there is nothing to show for the window's agent. */
  renders = $state(0);

  constructor(private deps: PromptDeps) {}

  /** The agent whose prompt is shown: the window's. */
  get agent() {
    return this.deps.agent();
  }

  /** The window's agent renders no prompt (the `spec` profile: a format, not an agent). */
  get noPrompt() {
    return this.deps.agentInfo()?.has_prompt === false;
  }

  /** The agent's settings set here, as the engine takes them (`KEY=VALUE`); empty values are unset. */
  settingsFor(agent: string): string[] {
    return Object.entries(this.agentSettings[agent] ?? {})
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => `${k}=${v.trim()}`);
  }

  /** Sets (or, with '', unsets) one of `agent`'s settings and renders again. */
  setSetting(agent: string, key: string, value: string) {
    this.agentSettings = { ...this.agentSettings, [agent]: { ...(this.agentSettings[agent] ?? {}), [key]: value } };
    void this.render();
  }

  /** Renders the prompt of the library's sources for the window's agent with these settings. */
  async render() {
    this.renders++;
    const agent = this.agent;
    if (this.noPrompt) {
      this.view = null;
      this.error = null;
      return;
    }
    try {
      const view = await api.render_prompt({
        sources: this.deps.sources(),
        agent,
        context_window: this.contextWindow,
        char_budget: this.charBudget,
        loaded: [],
        agent_settings: this.settingsFor(agent),
      });
      // A render for an agent the window has left since is not shown.
      if (agent !== this.agent) return;
      this.view = view;
      this.last = view;
      this.error = null;
    } catch (e) {
      if (agent !== this.agent) return;
      this.view = null;
      this.error = asAppError(e);
    }
  }
}

/** The decisions a listing budget makes: a skill shortened, listed by name only, or dropped. */
export const CUT: readonly Decision[] = ['truncated', 'name-only', 'dropped'];

/** The skills the budget cuts, in the listing's order: the first is cut first. */
export function cutSkills(p: PromptView): PromptSkill[] {
  return p.skills.filter((s) => CUT.includes(s.decision));
}

/** The prompt's text cut at the `marked` skill's entry (its byte range turned into UTF-16). */
export function markedSegments(p: PromptView, marked: string | null): { text: string; mark: boolean }[] {
  const skill = p.skills.find((s) => s.name === marked && s.range);
  if (!skill?.range) return [{ text: p.text, mark: false }];
  const [a, z] = bytesToUtf16(p.text, [skill.range.start, skill.range.end]);
  return [
    { text: p.text.slice(0, a), mark: false },
    { text: p.text.slice(a, z), mark: true },
    { text: p.text.slice(z), mark: false },
  ];
}

/** Each decision as a short tag. */
export const DECISION_LABELS: Record<Decision, string> = {
  full: 'in full',
  truncated: 'truncated',
  'name-only': 'name only',
  dropped: 'dropped',
  hidden: 'hidden',
  invalid: 'invalid',
  shadowed: 'shadowed',
};
