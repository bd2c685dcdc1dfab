import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { Studio } from './lib/studio.svelte';
import type { NewSkill, NewSkillCheck } from './lib/bindings';
import { $, $$, type Call, dispatcher, emptyPrompt, commonHandlers, type Handler, libraryOf, skill, until, versionOf, mountApp, unmountApp } from './testing/fixtures';

let calls: Call[] = [];
let created = false;
let studio: Studio;

// A stand-in for the engine's checks: lowercase names only, a description is required.
function check({ source, name, description }: NewSkill): NewSkillCheck {
  const problems: NewSkillCheck['problems'] = [];
  if (!/^[a-z0-9-]+$/.test(name))
    problems.push({ code: 'SK201', severity: 'error', message: 'bad name', field: 'name', agents: ['spec', 'claude-code'] });
  if (!description)
    problems.push({ code: 'SK301', severity: 'error', message: 'no description', field: 'description', agents: ['spec'] });
  return { problems, path: `${source}/${name}/SKILL.md`, exists: name === 'taken' };
}

const handlers: Handler = {
  ...commonHandlers,
  startup: () => ({ sources: ['/lib/s0', '/lib/s1'], agent: 'spec' }),
  agents: () => [{ id: 'spec', title: 'spec', label: 'spec', source: '', has_prompt: false, has_skill_tool: false }],
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

    type('[data-testid=new-name]', 'Fresh_Skill');
    await until(() => $$('[data-testid=new-problem][data-field=name]').length === 1);
    expect($('[data-testid=new-problem][data-field=name]')?.textContent).toContain('spec, claude-code');
    expect(createButton().disabled).toBe(true);

    type('[data-testid=new-name]', 'taken');
    type('[data-testid=new-description]', 'Does things. Use when asked.');
    await until(() => $('[data-testid=new-exists]') !== null);
    expect(createButton().disabled).toBe(true);

    type('[data-testid=new-name]', 'fresh');
    ($('[data-testid=new-folder-scripts]') as HTMLInputElement).click();
    await until(() => !createButton().disabled);
    createButton().click();
    await until(() => $('[data-testid=new-skill]') === null && studio.file !== null);
    expect(calls.find((c) => c.cmd === 'create_skill')?.args).toEqual({
      source: '/lib/s1',
      name: 'fresh',
      description: 'Does things. Use when asked.',
      folders: ['scripts', 'references'],
    });
    expect(studio.file?.path).toBe('/lib/s1/fresh/SKILL.md');
    await until(() => $('.cm-content')?.textContent?.includes('name: fresh') ?? false);
  });

  it('closes with Escape without creating anything', async () => {
    $('[data-testid=new-skill-open]')!.click();
    await until(() => $('[data-testid=new-name]') !== null);
    $('[data-testid=new-name]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => $('[data-testid=new-name]') === null);
    expect(calls.some((c) => c.cmd === 'create_skill')).toBe(false);
  });
});
