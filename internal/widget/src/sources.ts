// A reply's sources (the KB documents it quotes) as links under it. Kept apart from main.ts:
// the token's show_sources setting (start's showSources) decides whether they are listed.

import type { Source } from './api';
import { h, link, safeUrl } from './dom';
import { type Lang, strings } from './i18n';

/** The sources worth showing: objects with a non-empty title, at most 4. */
export function validSources(v: unknown): Source[] {
  if (!Array.isArray(v)) return [];
  return v.filter((s): s is Source => !!s && typeof s.title === 'string' && !!s.title.trim()).slice(0, 4);
}

/** The body without its closing "Source: …" line when that line names the first source
 * exactly as the service writes it ("<label>: <title>" or "<label>: <title> (<url>)"): the
 * list below the reply names it instead (or, with sources hidden, the owner chose not to
 * show it). A body whose last line is anything else, a product list say, is kept whole. */
export function withoutSourceLine(body: string, sources: Source[]): string {
  const text = String(body ?? '');
  const i = text.lastIndexOf('\n');
  if (!sources.length || i < 0) return text;
  const line = text.slice(i + 1);
  const colon = line.indexOf(': ');
  const named = line.slice(colon + 2);
  const { title, url } = sources[0];
  if (colon < 1 || colon > 24 || (named !== title && named !== title + ' (' + url + ')')) return text;
  return text.slice(0, i).replace(/\s+$/, '');
}

/** The list of sources in the widget's language: a link for an http(s) URL (new tab,
 * rel="noopener noreferrer nofollow"), plain text otherwise; null when there are none. */
export function sourceList(sources: Source[], lang: Lang): HTMLElement | null {
  if (!sources.length) return null;
  const wrap = h('div', 'svc-sources');
  wrap.append(h('span', 'svc-sources-title', strings[lang].sources));
  const ul = h('ul');
  for (const s of sources) {
    const li = h('li');
    const href = safeUrl(s.url);
    li.append(href ? link(href, s.title) : h('span', '', s.title));
    ul.append(li);
  }
  wrap.append(ul);
  return wrap;
}
