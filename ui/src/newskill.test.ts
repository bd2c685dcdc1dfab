import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from './lib/studio.svelte';
import type { NewSkill, NewSkillCheck } from './lib/bindings';
import { mostUseful } from './panes/NewSkill.svelte';
import { $, $$, type Call, dispatcher, emptyPrompt, commonHandlers, type Handler, libraryOf, settle, skill, until, versionOf, mountApp, unmountApp } from './testing/fixtures';

let calls: Call[] = [];
let created = false;
let studio: Studio;

// A stand-in for the engine's checks: lowercase names only, a description is required. Like the
// engine, a name with spaces and capitals gets one general message and skills-ref's two.
function check({ source, name, description }: NewSkill): NewSkillCheck {
  const problems: NewSkillCheck['problems'] = [];
  if (/[A-Z]/.test(name) && / /.test(name))
    problems.push(
      { code: 'SK204', severity: 'error', message: `Skill name '${name}' must be lowercase`, field: 'name', agents: ['skills-ref'] },
      { code: 'SK204', severity: 'error', message: `Skill name '${name}' contains invalid characters.`, field: 'name', agents: ['skills-ref'] },
      { code: 'SK204', severity: 'error', message: `\`name\` \`${name}\` must be lowercase and may only contain letters, digits and \`-\``, field: 'name', agents: ['spec', 'claude-code'] },
    );
  else if (name === 'many')
    problems.push({ code: 'SK208', severity: 'warning', message: 'too generic', field: 'name', agents: ['claude-code', 'codex', 'cline'] });
  else if (!/^[a-z0-9-]+$/.test(name))
    problems.push({ code: 'SK201', severity: 'error', message: 'bad name', field: 'name', agents: ['spec', 'claude-code'] });
  if (!description)
    problems.push({ code: 'SK301', severity: 'error', message: 'no description', field: 'description', agents: ['spec'] });
  // The engine's suggestion, for the names these tests type.
  const suggestion = problems.some((p) => p.field === 'name') ? ({ 'My Skill': 'my-skill' }[name] ?? null) : null;
  return { problems, path: `${source}/${name}/SKILL.md`, exists: name === 'taken', suggestion };
}

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0', '/lib/s1'], agent: 'spec' }),
  agents: () => [{ id: 'spec', kind: 'format', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false }],
  open_library: () =>
    libraryOf(['/lib/s0', '/lib/s1'], created ? [skill('demo', 0), skill('fresh', 1)] : [skill('demo', 0)]),
  render_prompt: () => emptyPrompt,
  lint_text: () => ({ diagnostics: [] }),
  check_new_skill: check,
  create_skill: ({ source, name, description }) => {
    created = true;
    const text = `---\nname: ${name}\ndescription: ${description}\n---\n`;
    return { path: `${source}/${name}/SKILL.md`, text, version: versionOf(text) };
  },
};

function type(sel: string, value: string) {
  const el = $(sel) as HTMLInputElement;
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

const createButton = () => $('[data-testid=new-create]') as HTMLButtonElement;

beforeEach(async () => {
  document.body.innerHTML = '';
  calls = [];
  created = false;
  mockIPC(dispatcher(handlers, calls), { shouldMockEvents: true });
  studio = await mountApp(1);
});

afterEach(() => {
  unmountApp();
  clearMocks();
});

describe('New skill dialog', () => {
  it('opens with Ctrl+N, checks the name live and creates only a clean skill, then opens it', async () => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'n', ctrlKey: true }));
    await until(() => $('[data-testid=new-skill]') !== null);
    expect(document.activeElement).toBe($('[data-testid=new-name]'));
    expect(($('[data-testid=new-source]') as HTMLSelectElement).value).toBe('/lib/s1');

    // The empty name and description are reported by the engine, but nothing was touched yet.
    await until(() => calls.some((c) => c.cmd === 'check_new_skill'));
    await settle();
    expect($$('[data-testid=new-problem]')).toHaveLength(0);

    type('[data-testid=new-name]', 'Fresh_Skill');
    await until(() => $$('[data-testid=new-problem][data-field=name]').length === 1);
    expect($('[data-testid=new-problem][data-field=name] [data-testid=new-reporters]')?.textContent).toBe('(spec and claude-code)');
    expect($('[data-testid=new-problem][data-field=name] .chip')?.textContent).toBe('SK201');
    expect($('[data-testid=new-name]')?.getAttribute('aria-invalid')).toBe('true');
    // The description, untouched, is not judged yet.
    expect($$('[data-testid=new-problem][data-field=description]')).toHaveLength(0);

    // Create with problems: nothing is created, and every field says what is wrong.
    createButton().click();
    await until(() => $$('[data-testid=new-problem][data-field=description]').length === 1);
    expect(calls.some((c) => c.cmd === 'create_skill')).toBe(false);
    expect($('[data-testid=new-skill]')).not.toBeNull();

    type('[data-testid=new-name]', 'taken');
    type('[data-testid=new-description]', 'Does things. Use when asked.');
    await until(() => $('[data-testid=new-exists]') !== null);
    expect($$('[data-testid=new-problem]')).toHaveLength(0);
    createButton().click();
    await settle();
    expect(calls.some((c) => c.cmd === 'create_skill')).toBe(false);

    type('[data-testid=new-name]', 'fresh');
    ($('[data-testid=new-folder-scripts]') as HTMLInputElement).click();
    await until(() => $('[data-testid=new-exists]') === null && !createButton().disabled);
    createButton().click();
    await until(() => $('[data-testid=new-skill]') === null && studio.editing.file !== null);
    expect(calls.find((c) => c.cmd === 'create_skill')?.args).toEqual({
      source: '/lib/s1',
      name: 'fresh',
      description: 'Does things. Use when asked.',
      folders: ['scripts', 'references'],
    });
    expect(studio.editing.file?.path).toBe('/lib/s1/fresh/SKILL.md');
    await until(() => $('.cm-content')?.textContent?.includes('name: fresh') ?? false);
  });

  it('keeps each message short: how many agents report it, their names on hover', async () => {
    $('[data-testid=new-skill-open]')!.click();
    await until(() => $('[data-testid=new-name]') !== null);
    type('[data-testid=new-name]', 'many');
    await until(() => $$('[data-testid=new-problem][data-field=name]').length === 1);
    const who = $('[data-testid=new-problem][data-field=name] [data-testid=new-reporters]')!;
    expect(who.textContent).toBe('(3 agents)');
    expect(who.getAttribute('title')).toBe('claude-code, codex, and cline');
    expect($('[data-testid=new-problem]')?.textContent).not.toContain('codex');
  });

  it('closes with Escape without creating anything', async () => {
    $('[data-testid=new-skill-open]')!.click();
    await until(() => $('[data-testid=new-name]') !== null);
    $('[data-testid=new-name]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => $('[data-testid=new-name]') === null);
    expect(calls.some((c) => c.cmd === 'create_skill')).toBe(false);
  });

  it('shows one message per field, the general one, with the fixed name one click away', async () => {
    $('[data-testid=new-skill-open]')!.click();
    await until(() => $('[data-testid=new-name]') !== null);
    type('[data-testid=new-name]', 'My Skill');
    await until(() => $$('[data-testid=new-problem][data-field=name]').length === 1);
    await settle();
    const [message] = $$('[data-testid=new-problem]');
    expect($$('[data-testid=new-problem]')).toHaveLength(1);
    expect(message.textContent).toContain('name My Skill must be lowercase and may only contain letters, digits and -');
    expect([...message.querySelectorAll('code')].map((c) => c.textContent)).toContain('My Skill');
    const use = $('[data-testid=new-suggest]') as HTMLButtonElement;
    expect(use.textContent).toBe('Use my-skill');

    use.click();
    await until(() => $$('[data-testid=new-problem]').length === 0);
    expect(($('[data-testid=new-name]') as HTMLInputElement).value).toBe('my-skill');
    expect(document.activeElement).toBe($('[data-testid=new-name]'));
    expect($('[data-testid=new-suggest]')).toBeNull();
    await until(() => calls.some((c) => c.cmd === 'check_new_skill' && (c.args as NewSkill).name === 'my-skill'));
  });

  it('judges a field once it is left, in a line kept for its message', async () => {
    $('[data-testid=new-skill-open]')!.click();
    await until(() => $('[data-testid=new-name]') !== null);
    await until(() => calls.some((c) => c.cmd === 'check_new_skill'));
    await settle();
    // The lines are there before any message, so a message does not push the dialog about.
    const line = $('#new-description-message')!;
    expect(line).not.toBeNull();
    expect($('[data-testid=new-description]')?.getAttribute('aria-describedby')).toBe('new-description-message');
    expect(line.textContent?.trim()).toBe('');

    $('[data-testid=new-description]')!.dispatchEvent(new FocusEvent('blur'));
    await settle();
    expect(line.querySelector('[data-testid=new-problem]')?.textContent).toContain('no description');
    expect($$('[data-testid=new-problem][data-field=name]')).toHaveLength(0);
    const ids = $$('[id]').map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the message shown for a field', () => {
  it('picks errors first, then the wording most agents share', () => {
    const p = (message: string, severity: 'error' | 'warning', agents: string[]) => ({ code: 'X', severity, message, field: 'name', agents });
    expect(mostUseful([p('w', 'warning', ['a', 'b', 'c']), p('one', 'error', ['a']), p('two', 'error', ['a', 'b'])])?.message).toBe('two');
    expect(mostUseful([])).toBeNull();
  });
});
