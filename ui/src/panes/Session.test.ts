import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from '../lib/studio.svelte';
import { type ComposerAction, type SessionState, composerStep, slashStep, toolStep } from '../lib/session.svelte';
import type { RunSession, SessionView, Step, Turn } from '../lib/bindings';
import source from './Session.svelte?raw';
import { $, $$, calls, change, pickerEntries, commonHandlers, route, settle, skill, until, versionOf, type Handler, mountApp, unmountApp } from '../testing/fixtures';

// A small simulator stand-in that only echoes the steps: what the pane shows must come from it.
function simulate(args: RunSession): SessionView {
  const loaded: string[] = [];
  const turns: Turn[] = args.steps.map((step: Step, i) => {
    let call = '';
    let result = '';
    let is_error = false;
    if (step.action === 'load') {
      loaded.push(step.skill);
      call = `load_skill("${step.skill}")`;
      result = `body of ${step.skill}`;
    } else if (step.action === 'unload') {
      loaded.splice(loaded.indexOf(step.skill), 1);
      call = `unload_skill("${step.skill}")`;
      result = 'unloaded';
    } else if (step.action === 'tool') {
      call = `${step.name}(${JSON.stringify(step.args)})`;
      is_error = args.settings.policy === 'restrict';
      result = is_error ? 'blocked by allowed-tools' : 'allowed';
    } else if (step.action === 'slash') {
      call = `/${step.name} ${step.args}`;
      result = 'expanded';
    } else {
      call = step.action;
    }
    const used = 100 * (i + 2);
    return {
      index: i + 1,
      step,
      call,
      result,
      is_error,
      blocks: [],
      note: null,
      cost: { chars: 40, tokens: 10 },
      loaded: [...loaded],
      used: { chars: used * 4, tokens: used },
      context_window: 1000,
      percent: used / 10,
      prompt_changes: step.action === 'load' ? [`+ ${step.skill} [Loaded]`] : [],
    };
  });
  return { agent: args.agent, initial_prompt: 'P', turns, prompt: `prompt; loaded: ${loaded.join(',')}`, loaded };
}

let saved: { path: string; steps: Step[] } | null = null;
/** The window's agent at start. */
let startAgent = 'deepagents-v2';
const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0'], agent: startAgent }),
  agents: () => [
    { id: 'spec', kind: 'format', title: 'Agent Skills spec', label: 'Agent Skills spec', source: '', has_prompt: false, has_skill_tool: false },
    { id: 'deepagents-v2', kind: 'test-profile', title: 'DeepAgents', label: 'DeepAgents 0.2', source: '', has_prompt: true, has_skill_tool: true },
    { id: 'claude-code', kind: 'agent', title: 'Claude Code', label: 'Claude Code 2.1', source: '', has_prompt: true, has_skill_tool: true },
    { id: 'agentskills', kind: 'format', title: 'skills-ref', label: 'skills-ref 0.1', source: '', has_prompt: true, has_skill_tool: false },
  ],
  open_library: ({ agent }) => ({
    agent,
    sources: [{ path: '/lib/s0', root: '/lib/s0', exists: true }],
    skills: [skill('alpha', 0), skill('beta', 0)],
    issues: [],
  }),
  render_prompt: () => {
    throw { code: 'no-prompt', message: 'x', details: [] };
  },
  run_session: simulate,
  eval_settings: () => ({ api: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'mock-model', temperature: null, runs: 3, concurrency: 4, timeout_secs: 120 }),
  api_keys: () => [],
  // The model answers a user turn by loading alpha, then with text.
  run_session_live: ({ session: s, provider }) => {
    if (provider.model !== 'mock-model') throw { code: 'invalid-settings', message: 'no model', details: [] };
    const last = s.steps.at(-1)!;
    const steps: Step[] =
      last.action === 'model'
        ? [...s.steps, { action: 'model', text: `got: ${last.calls[0].result}`, calls: [] }]
        : last.action === 'user' && last.text.includes('files')
          ? [...s.steps, { action: 'model', text: '', calls: [{ tool: 'Bash', args: { command: 'ls' } }] }]
          : [
              ...s.steps,
              { action: 'model', text: '', calls: [{ tool: 'load_skill', args: { skill_name: 'alpha' } }] },
              { action: 'model', text: 'Done.', calls: [] },
            ];
    const replay: Step[] = steps.flatMap((st) =>
      st.action === 'model'
        ? [
            st,
            ...st.calls.map((c): Step =>
              c.tool === 'load_skill' ? { action: 'load', skill: 'alpha' } : { action: 'tool', name: c.tool, args: c.args },
            ),
          ]
        : [st],
    );
    const view = simulate({ ...s, steps: replay });
    return { view, steps, error: null };
  },
  save_session_script: (a) => {
    if (!a.path.startsWith('/lib/s0/')) throw { code: 'outside-library', message: `${a.path} is outside the opened library`, details: [] };
    saved = { path: a.path, steps: a.steps };
    return { path: a.path, bytes: 99, version: versionOf('script') };
  },
  open_session_script: ({ path }) => {
    if (!saved || saved.path !== path) throw { code: 'invalid-script', message: 'bad script', details: [{ line: 3, column: 5, message: 'unknown step `lod`' }] };
    const args: RunSession = { sources: ['/lib/s0'], agent: 'claude-code', settings: { context_window: null, max_loaded_skills: 10, policy: 'restrict', char_budget: null, allow: [] }, steps: saved.steps };
    return {
      path,
      text: '',
      agent: 'claude-code',
      sources: ['/lib/s0'],
      settings: { context_window: null, max_loaded_skills: 10, policy: 'restrict', char_budget: null, allow: [] },
      steps: saved.steps,
      view: simulate(args),
    };
  },
};

let studio: Studio;
let session: SessionState;

async function start(agent = 'deepagents-v2') {
  saved = null;
  startAgent = agent;
  mockIPC(route(handlers), { shouldMockEvents: true });
  studio = await mountApp(2);
  session = studio.session;
  await until(() => studio.library.view !== null && (session.view !== null || !session.agent));
  await settle();
}

/** The composer's choices for `action`: the skills it offers. */
async function offered(action: ComposerAction) {
  change($('[data-testid=composer-action]'), action);
  await settle();
  const skill = $('[data-testid=composer-skill]') as HTMLSelectElement | null;
  return skill && !skill.disabled ? [...skill.options].map((o) => o.value) : [];
}

/** Does `action` (with `skill`, typing `text`) in the composer and sends it. */
async function act(action: ComposerAction, skill?: string, text?: string) {
  change($('[data-testid=composer-action]'), action);
  await settle();
  if (skill !== undefined) change($('[data-testid=composer-skill]'), skill);
  if (text !== undefined) change($('[data-testid=composer-text]'), text);
  await settle();
  ($('[data-testid=composer]') as HTMLFormElement).requestSubmit();
}

const loadedTags = () => $$('[data-testid=session-loaded] .tag').map((t) => t.dataset.name);
const turns = () => $$('[data-testid=turn]');
const runs = () => calls.filter((c) => c.cmd === 'run_session').map((c) => c.args as RunSession);

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('Session pane', () => {
  it('load and unload add turns, replayed by the engine, and change the next prompt', async () => {
    await start();
    expect(turns()).toHaveLength(0);
    // One composer, no button per skill: Load offers the skills not loaded, Unload the loaded.
    expect($$('[data-testid=composer-send]')).toHaveLength(1);
    expect(await offered('load')).toEqual(['alpha', 'beta']);
    expect(await offered('unload')).toEqual([]);
    expect(await offered('invoke')).toEqual(['alpha', 'beta']);
    await act('load', 'alpha');
    await until(() => turns().length === 1);
    expect(turns()[0].textContent).toContain('load_skill("alpha")');
    expect(turns()[0].querySelector('[data-testid=turn-loaded]')?.textContent).toBe('loaded: alpha');
    expect($('[data-testid=prompt-changes]')?.textContent).toContain('+ alpha [Loaded]');
    expect($('[data-testid=session-prompt]')?.textContent).toBe('prompt; loaded: alpha');
    expect(loadedTags()).toEqual(['alpha']);
    expect(await offered('load')).toEqual(['beta']);
    expect(await offered('unload')).toEqual(['alpha']);
    await act('unload', 'alpha');
    await until(() => turns().length === 2);
    expect($('[data-testid=session-prompt]')?.textContent).toBe('prompt; loaded: ');
    expect(turns()[1].querySelector('[data-testid=turn-loaded]')?.textContent).toBe('nothing loaded');
    const last = calls.filter((c) => c.cmd === 'run_session').at(-1)?.args as RunSession;
    expect(last).toMatchObject({ sources: ['/lib/s0'], agent: 'deepagents-v2', steps: [{ action: 'load', skill: 'alpha' }, { action: 'unload', skill: 'alpha' }] });
    expect(await offered('unload')).toEqual([]);
    expect(($('[data-testid=composer-send]') as HTMLButtonElement).disabled).toBe(true);
    expect($$('[data-testid=meter-bar]')).toHaveLength(2);
    expect($('[data-testid=context-meter]')?.textContent).toContain('Context after turn 2: 300 of 1,000 tokens (30%)');
    // Pointing at a bar shows its turn in the caption, not in a tooltip.
    $$('[data-testid=meter-bar]')[0].dispatchEvent(new Event('pointerenter'));
    await until(() => $('[data-testid=context-meter] figcaption')?.textContent?.includes('after turn 1: 200 of') ?? false);
    expect($$('[data-testid=meter-bar]').some((b) => b.hasAttribute('title'))).toBe(false);
    $('[data-testid=session-undo]')!.click();
    await until(() => turns().length === 1);
    await act('invoke', 'beta', 'report.pdf');
    await until(() => turns().length === 2);
    expect(session.steps.at(-1)).toEqual({ action: 'invoke', skill: 'beta', args: 'report.pdf' });
  });

  it('asks the model for a live turn with the Evals settings and keeps its turns as steps', async () => {
    await start();
    await act('say', undefined, '');
    await until(() => $('[data-testid=session-input-error]') !== null);
    expect($('[data-testid=session-input-error]')?.textContent).toContain('Type what the user says');
    expect($('[data-testid=composer-model]')?.textContent).toContain('Answered by mock-model at http://127.0.0.1:9/v1');
    await act('say', undefined, 'Load what you need');
    await until(() => turns().length === 4);
    expect(turns().map((t) => t.dataset.action)).toEqual(['user', 'model', 'load', 'model']);
    // The user's turn on one side, the model's on the other.
    expect(turns().map((t) => t.classList.contains('user'))).toEqual([true, false, false, false]);
    expect(loadedTags()).toEqual(['alpha']);
    const sent = calls.find((c) => c.cmd === 'run_session_live')?.args as { session: RunSession; provider: { model: string } };
    expect(sent.session.steps).toEqual([{ action: 'user', text: 'Load what you need' }]);
    expect(sent.provider.model).toBe('mock-model');
    expect(session.steps.map((s) => s.action)).toEqual(['user', 'model', 'model']);
    expect($('[data-testid=composer-text]') as HTMLInputElement).toHaveProperty('value', '');
  });

  it("answers the model's tool call with a typed result and lets the model go on", async () => {
    await start();
    await act('say', undefined, 'Which files are there?');
    await until(() => turns().length === 3);
    expect(turns().map((t) => t.dataset.action)).toEqual(['user', 'model', 'tool']);
    expect($$('[data-testid=tool-result-input]')).toHaveLength(1);
    change($('[data-testid=tool-result-input]'), 'a.txt');
    ($('[data-testid=tool-result-input]')!.closest('form') as HTMLFormElement).requestSubmit();
    await until(() => turns().length === 4);
    const sent = calls.filter((c) => c.cmd === 'run_session_live').at(-1)?.args as { session: RunSession };
    expect(sent.session.steps.at(-1)).toEqual({ action: 'model', text: '', calls: [{ tool: 'Bash', args: { command: 'ls' }, result: 'a.txt' }] });
    expect(session.steps.at(-1)).toEqual({ action: 'model', text: 'got: a.txt', calls: [] });
  });

  it('sends slash commands and judges tool calls under the chosen policy', async () => {
    await start();
    await act('slash', undefined, '/beta make it so');
    await until(() => turns().length === 1);
    expect(turns()[0].textContent).toContain('/beta make it so');
    // A message that starts with a slash is a slash command.
    await act('say', undefined, '/alpha now');
    await until(() => turns().length === 2);
    expect(session.steps.at(-1)).toEqual({ action: 'slash', name: 'alpha', args: 'now' });
    $('[data-testid=session-undo]')!.click();
    await until(() => turns().length === 1);
    change($('[data-testid=session-policy]'), 'restrict');
    await settle();
    await act('tool', undefined, 'Bash {"command": "rm -rf /"}');
    await until(() => turns().length === 2);
    expect(turns()[1].classList.contains('err')).toBe(true);
    expect(turns()[1].textContent).toContain('Bash({"command":"rm -rf /"})');
    expect((calls.filter((c) => c.cmd === 'run_session').at(-1)?.args as RunSession).settings.policy).toBe('restrict');
    await act('tool', undefined, 'Bash {not json');
    await until(() => $('[data-testid=session-input-error]') !== null);
    expect($('[data-testid=session-input-error]')?.textContent).toContain('not JSON');
    expect(turns()).toHaveLength(2);
  });

  it('saves and opens session scripts inside the library, with located errors', async () => {
    await start();
    await act('load', 'beta');
    await until(() => turns().length === 1);
    $('[data-testid=script-save]')!.click();
    await until(() => saved !== null);
    expect(saved).toEqual({ path: '/lib/s0/session.yaml', steps: [{ action: 'load', skill: 'beta' }] });
    $('[data-testid=session-reset]')!.click();
    await until(() => turns().length === 0);
    $('[data-testid=script-open]')!.click();
    await until(() => turns().length === 1);
    // The script's agent is simulated, and the pane says so.
    expect(session.agent).toBe('claude-code');
    expect(($('[data-testid=session-agent]') as HTMLSelectElement).value).toBe('claude-code');
    expect($('[data-testid=session-status]')?.textContent).toContain(
      "The script simulates Claude Code 2.1, so the session does too, not the window's DeepAgents 0.2.",
    );
    expect($('[data-testid=session-override]')?.textContent).toContain('Simulating Claude Code 2.1, picked here');
    expect(($('[data-testid=session-policy]') as HTMLSelectElement).value).toBe('restrict');
    const before = runs().length;
    $('[data-testid=session-follow]')!.click();
    await until(() => runs().length > before);
    expect(runs().at(-1)?.agent).toBe('deepagents-v2');
    expect($('[data-testid=session-override]')).toBeNull();

    change($('[data-testid=script-path]'), '/elsewhere/s.yaml');
    $('[data-testid=script-save]')!.click();
    await until(() => $('[data-testid=session-error]') !== null);
    expect($('[data-testid=session-error]')?.textContent).toContain('outside-library');
    change($('[data-testid=script-path]'), '/lib/s0/other.yaml');
    $('[data-testid=script-open]')!.click();
    await until(() => $('[data-testid=session-error]')?.textContent?.includes('invalid-script') ?? false);
    expect($('[data-testid=session-error]')?.textContent).toContain('line 3, column 5: unknown step `lod`');
    expect($('[data-testid=session-error] .chip')?.textContent).toBe('invalid-script');
  });

  it('draws the context on an absolute scale: a share of the context window, with the axis labelled', async () => {
    await start();
    await act('load', 'alpha');
    await until(() => turns().length === 1);
    await act('load', 'beta');
    await until(() => turns().length === 2);
    // 200 then 300 tokens of a 1,000-token window: 20% and 30% high, not scaled to the peak.
    expect($$('[data-testid=meter-bar]').map((b) => b.style.height)).toEqual(['20%', '30%']);
    const meter = $('[data-testid=context-meter]')!;
    expect(meter.textContent).toContain('1,000');
    expect(meter.querySelector('.yaxis')?.textContent?.replace(/\s+/g, ' ').trim()).toBe('1,000 500 0');
    expect(meter.querySelector('[role=img]')?.getAttribute('aria-label')).toContain('share of the 1,000-token context window');
  });

  it('colours the prompt changes as diffs do: added and removed lines marked apart', async () => {
    await start();
    await act('load', 'alpha');
    await until(() => $('[data-testid=prompt-changes]') !== null);
    const line = $('[data-testid=prompt-changes] span')!;
    expect(line.classList.contains('add')).toBe(true);
    expect(line.classList.contains('del')).toBe(false);
    // Green for added, red for removed (the theme's diff colours), never blue.
    const rule = (sel: string) => /\{([^}]*)\}/.exec(source.slice(source.indexOf(sel)))?.[1] ?? '';
    expect(rule('pre.diff .add')).toContain('var(--diff-added)');
    expect(rule('pre.diff .add')).toContain('var(--ok)');
    expect(rule('pre.diff .del')).toContain('var(--diff-removed)');
    expect(rule('pre.diff .del')).toContain('var(--error)');
    expect(rule('pre.diff .add') + rule('pre.diff .del')).not.toMatch(/--info|--accent/);
  });

  it('colours only with the theme tokens, so both themes keep their contrast', () => {
    const allowed = ['bg', 'bg-alt', 'bg-raised', 'fg', 'muted', 'border', 'control-border', 'accent', 'accent-fg', 'accent-soft', 'error', 'warning', 'info', 'ok', 'diff-added', 'diff-removed', 'mono'];
    const css = source.slice(source.indexOf('<style>'));
    expect(css).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
    const used = [...css.matchAll(/var\(--([a-z-]+)\)/g)].map((m) => m[1]);
    expect(used.filter((v) => !allowed.includes(v))).toEqual([]);
  });

  it('explains itself and loads an example on the first skill', async () => {
    await start();
    expect($('[data-testid=session-intro]')?.textContent).toContain('No model is involved');
    expect($('[data-testid=session-intro]')?.textContent).toContain('slash commands, tool calls');
    const empty = $('[data-testid=session-empty]')!.textContent!;
    expect(empty).toContain('No steps yet');
    expect(empty).not.toContain('The steps:');
    expect($('[data-testid=session-title]')?.textContent).toContain('Simulating DeepAgents 0.2');
    $('[data-testid=session-example]')!.click();
    await until(() => turns().length === 2);
    expect(session.steps).toEqual([
      { action: 'invoke', skill: 'alpha', args: null },
      { action: 'tool', name: 'Bash', args: { command: 'git status' } },
    ]);
    expect($('[data-testid=session-empty]')).toBeNull();
  });

  it("follows the window's agent; an agent picked here gives way when the window's can be simulated", async () => {
    await start();
    expect(runs().at(-1)?.agent).toBe('deepagents-v2');
    await studio.setAgent('claude-code');
    await until(() => runs().at(-1)?.agent === 'claude-code');
    expect($('[data-testid=session-title]')?.textContent).toContain('Simulating Claude Code 2.1');
    change($('[data-testid=session-agent]'), 'deepagents-v2');
    await until(() => runs().at(-1)?.agent === 'deepagents-v2');
    // The spec has no skill tool: the agent picked here stays.
    await studio.setAgent('spec');
    await settle();
    expect(runs().at(-1)?.agent).toBe('deepagents-v2');
    expect(session.agent).toBe('deepagents-v2');
    // Claude Code has one: the session follows the window again.
    await studio.setAgent('claude-code');
    await until(() => runs().at(-1)?.agent === 'claude-code');
    expect(($('[data-testid=session-agent]') as HTMLSelectElement).value).toBe('');
    expect($('[data-testid=session-status]')?.textContent).toContain("Now simulating Claude Code 2.1, the window's agent.");
  });

  it('under the spec, says there is no agent to simulate and lets one be picked', async () => {
    await start('spec');
    expect(runs()).toHaveLength(0);
    expect($('[data-testid=session-no-agent]')?.textContent).toContain('the Agent Skills spec is a format, not an agent');
    expect(($('[data-testid=composer-send]') as HTMLButtonElement).disabled).toBe(true);
    expect(($('[data-testid=composer-action]') as HTMLSelectElement).disabled).toBe(true);
    // Only agents with a skill tool can be simulated; '' follows the window.
    // Grouped as the engine says: agents, then test profiles.
    expect(await pickerEntries('session-agent')).toEqual([
      ['', 'pick an agent…'],
      ['claude-code', 'Claude Code 2.1'],
      ['deepagents-v2', 'DeepAgents 0.2'],
    ]);
    // The end-to-end flow: pick Claude Code, invoke, a slash command, a tool call under restrict.
    change($('[data-testid=session-agent]'), 'claude-code');
    change($('[data-testid=session-policy]'), 'restrict');
    await until(() => session.view !== null);
    expect($('[data-testid=session-no-agent]')).toBeNull();
    await act('invoke', 'alpha');
    await until(() => turns().length === 1);
    await act('slash', undefined, '/beta since v1.2.0');
    await until(() => turns().length === 2);
    await act('tool', undefined, 'Bash {"command": "rm -rf build"}');
    await until(() => turns().length === 3);
    expect(runs().at(-1)).toMatchObject({ agent: 'claude-code', settings: { policy: 'restrict' } });
  });
});

describe('session steps from input', () => {
  it('parses slash lines and tool arguments', () => {
    expect(slashStep('/pdf a b')).toEqual({ action: 'slash', name: 'pdf', args: 'a b' });
    expect(slashStep('pdf')).toEqual({ action: 'slash', name: 'pdf', args: '' });
    expect(slashStep('  ')).toBeNull();
    expect(toolStep('Read', '{"file_path": "a"}')).toEqual({ action: 'tool', name: 'Read', args: { file_path: 'a' } });
    expect(toolStep('', '{}')).toContain('name the tool');
    expect(toolStep('Bash', '{')).toContain('not JSON');
  });

  it('reads the composer: a skill action, a slash command, a tool call or a message', () => {
    expect(composerStep('invoke', 'pdf', '')).toEqual({ action: 'invoke', skill: 'pdf', args: null });
    expect(composerStep('invoke', 'pdf', 'a.pdf')).toEqual({ action: 'invoke', skill: 'pdf', args: 'a.pdf' });
    expect(composerStep('load', 'pdf', 'ignored')).toEqual({ action: 'load', skill: 'pdf' });
    expect(composerStep('unload', '', '')).toBe('no skill is loaded to unload');
    expect(composerStep('tool', '', 'Read {"file_path": "a"}')).toEqual({ action: 'tool', name: 'Read', args: { file_path: 'a' } });
    expect(composerStep('tool', '', 'Bash')).toEqual({ action: 'tool', name: 'Bash', args: {} });
    expect(composerStep('say', '', 'hello')).toEqual({ ask: 'hello' });
    expect(composerStep('say', '', '/pdf x')).toEqual({ action: 'slash', name: 'pdf', args: 'x' });
    expect(composerStep('say', '', ' ')).toBe('type what the user says');
  });
});
