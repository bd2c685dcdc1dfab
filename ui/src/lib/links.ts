// The preview's links: which path in the skill folder an `href` names, and what the engine found
// there (`PreviewView.links`).
import type { LinkStatus, PreviewLink } from './bindings';

/** The path relative to the skill root that a relative `href` names, decoded and normalised as
 *  the engine does (`./a/../b.md` is `b.md`; a folder has no trailing slash; the root is `""`);
 *  `outside` when it climbs past the root or is absolute. `null` for URLs and `#anchors`. */
export function linkPath(href: string): { path: string; outside: boolean } | null {
  if (href === '' || href.startsWith('#') || href.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
  const raw = href.split('#')[0].split('?')[0];
  if (raw.startsWith('/')) return { path: raw, outside: true };
  const parts: string[] = [];
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return { path: raw, outside: true };
      parts.pop();
      continue;
    }
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // A stray `%` stays as written.
    }
    parts.push(decoded);
  }
  return { path: parts.join('/'), outside: false };
}

/** What the engine found at a link's path; `null` for URLs, anchors and paths it did not list. */
export function linkStatus(href: string, links: PreviewLink[]): { path: string; status: LinkStatus } | null {
  const p = linkPath(href);
  if (!p) return null;
  if (p.outside) return { path: p.path, status: 'outside' };
  const found = links.find((l) => l.path === p.path);
  return found ? { path: found.path, status: found.status } : null;
}

/** What hovering a link says. */
export function linkTitle(path: string, status: LinkStatus): string {
  switch (status) {
    case 'file':
      return `${path}: open it in the preview`;
    case 'folder':
      return `${path || 'the skill folder'}: a folder of the skill`;
    case 'missing':
      return `${path}: no such file in the skill folder`;
    case 'outside':
      return `${path}: outside the skill folder (agents resolve links from the skill root)`;
  }
}
