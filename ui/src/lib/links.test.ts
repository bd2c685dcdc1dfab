import { describe, expect, it } from 'vitest';
import { linkPath, linkStatus } from './links';

describe('preview links', () => {
  it('resolve relative hrefs from the skill root, as the engine does', () => {
    expect(linkPath('references/guide%20one.md#usage')).toEqual({ path: 'references/guide one.md', outside: false });
    expect(linkPath('./references/../assets/a.png')).toEqual({ path: 'assets/a.png', outside: false });
    expect(linkPath('references/')).toEqual({ path: 'references', outside: false });
    expect(linkPath('./')).toEqual({ path: '', outside: false });
    expect(linkPath('../secret.png')).toEqual({ path: '../secret.png', outside: true });
    expect(linkPath('/etc/passwd')).toEqual({ path: '/etc/passwd', outside: true });
    // Climbing out and back in by a folder's name is still outside.
    expect(linkPath('../skill/a.md')).toEqual({ path: '../skill/a.md', outside: true });
    expect(linkPath('a/../../b.md')).toEqual({ path: 'a/../../b.md', outside: true });
    expect(linkPath('a%2.md')).toEqual({ path: 'a%2.md', outside: false });
    for (const href of ['#top', 'https://example.com/a.md', 'mailto:a@b.c', '//host/x', '']) expect(linkPath(href)).toBeNull();
  });

  it('take the status the engine found, and outside for paths that leave the folder', () => {
    const links = [
      { path: 'references/guide one.md', status: 'file' as const },
      { path: 'references/none.md', status: 'missing' as const },
    ];
    expect(linkStatus('references/guide%20one.md', links)).toEqual({ path: 'references/guide one.md', status: 'file' });
    expect(linkStatus('./references/none.md', links)?.status).toBe('missing');
    expect(linkStatus('../x.md', links)?.status).toBe('outside');
    expect(linkStatus('other.md', links)).toBeNull();
    expect(linkStatus('#top', links)).toBeNull();
  });
});
