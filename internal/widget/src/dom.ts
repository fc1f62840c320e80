// Safe rendering: every piece of server text becomes a text node; elements are built with
// createElement. Nothing here parses HTML.

import type { Product } from './api';

/** An element with an optional class and text. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** A button of type "button". */
export function button(cls: string, text?: string): HTMLButtonElement {
  const b = h('button', cls, text);
  b.type = 'button';
  return b;
}

const NS = 'http://www.w3.org/2000/svg';

/** A decorative 24×24 icon from one path. */
export function icon(d: string, cls?: string): SVGSVGElement {
  const s = document.createElementNS(NS, 'svg');
  const p = document.createElementNS(NS, 'path');
  s.setAttribute('viewBox', '0 0 24 24');
  s.setAttribute('aria-hidden', 'true');
  s.setAttribute('focusable', 'false');
  if (cls) s.setAttribute('class', cls);
  p.setAttribute('d', d);
  s.append(p);
  return s;
}

export const CHAT = 'M5 3h14a3 3 0 0 1 3 3v9a3 3 0 0 1-3 3h-8l-5 4v-4H5a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3z';
export const CROSS = 'M6 6l12 12M18 6 6 18';
export const THUMB = 'M2 10h4v11H2zM8 21h9.2a2 2 0 0 0 2-1.6l1.7-7.6A2 2 0 0 0 19 9.4h-5.3l.8-3.9A2.2 2.2 0 0 0 12.4 3L8 9.6z';

/** The absolute http(s) URL in s, normalised; '' for anything else (other schemes, relative). */
export function safeUrl(s: unknown): string {
  if (typeof s !== 'string' || !s) return '';
  try {
    const u = new URL(s.trim());
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : '';
  } catch {
    return '';
  }
}

/** A link that opens in a new tab without giving the page a handle or a referrer. */
export function link(href: string, text: string): HTMLAnchorElement {
  const a = h('a', '', text);
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer nofollow';
  return a;
}

const URLS = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAIL = /[.,;:!?'")\]}>*]$/;

const count = (s: string, c: string) => s.split(c).length - 1;

/** Appends text to el: newlines become <br>, and, when links is set, bare http(s) URLs
 * become links (trailing punctuation, and a closing parenthesis without its opening one,
 * stay text). */
export function renderText(el: HTMLElement, text: string, links: boolean): void {
  String(text ?? '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .forEach((line, i) => {
      if (i) el.append(h('br'));
      let last = 0;
      if (links) {
        for (const m of line.matchAll(URLS)) {
          let u = m[0];
          while (TRAIL.test(u) && !(u.endsWith(')') && count(u, '(') >= count(u, ')'))) u = u.slice(0, -1);
          const href = safeUrl(u);
          const at = m.index ?? 0;
          if (!href) continue;
          el.append(line.slice(last, at), link(href, u));
          last = at + u.length;
        }
      }
      el.append(line.slice(last));
    });
}

/** Product cards: name (a link only when its URL is http(s)), price, category, and an
 * image only when its URL is http(s). */
export function cards(ps: Product[]): HTMLElement {
  const wrap = h('div', 'svc-cards');
  for (const p of ps.slice(0, 8)) {
    if (!p || typeof p.name !== 'string' || !p.name.trim()) continue;
    const c = h('div', 'svc-card');
    const src = safeUrl(p.image);
    if (src) {
      const img = h('img');
      img.alt = p.name;
      img.loading = 'lazy';
      img.decoding = 'async';
      img.referrerPolicy = 'no-referrer';
      img.width = img.height = 56;
      img.onerror = () => img.remove();
      img.src = src;
      c.append(img);
    }
    const info = h('div', 'svc-card-info');
    const href = safeUrl(p.url);
    const name = href ? link(href, p.name) : h('span', '', p.name);
    name.className = 'svc-card-name';
    info.append(name);
    if (p.price) info.append(h('span', 'svc-card-price', String(p.price)));
    if (p.category) info.append(h('span', 'svc-card-cat', String(p.category)));
    c.append(info);
    wrap.append(c);
  }
  return wrap;
}
