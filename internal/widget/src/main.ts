// svc chat widget: one <script data-svc-token=…> tag gives a page a launcher and a chat panel
// inside an open Shadow DOM. No dependencies, no globals but window.svcWidget.

import css from './widget.css';
import { ApiError, client, type Message, type SendData, type StartData, type SuggestionsData, type SyncData } from './api';
import { CHAT, CROSS, THUMB, button, cards, h, icon, renderText } from './dom';
import { asLang, pickLang, strings, waitText } from './i18n';
import { sourceList, validSources, withoutSourceLine } from './sources';
import { rememberOpen, visitorId, wasOpen } from './store';

const POLL_MIN = 8e3;
const POLL_MAX = 60e3;
const FEEDBACK = ['ai', 'cache_tenant', 'fallback'];

/** Black or white, whichever contrasts more with the #rrggbb colour (WCAG luminance). */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? '#000' : '#fff';
}

function findScript(): HTMLScriptElement | null {
  const cur = document.currentScript as HTMLScriptElement | null;
  return cur && cur.dataset && cur.dataset.svcToken ? cur : document.querySelector<HTMLScriptElement>('script[data-svc-token]');
}

function apiBase(script: HTMLScriptElement): string {
  try {
    const attr = (script.dataset.svcApi || '').trim();
    if (attr) {
      const u = new URL(attr, location.href);
      if (u.protocol === 'https:' || u.protocol === 'http:') return (u.origin + u.pathname).replace(/\/+$/, '');
    }
    return new URL(script.src || location.href).origin;
  } catch {
    return location.origin;
  }
}

function init(script: HTMLScriptElement): void {
  const data = script.dataset;
  const token = (data.svcToken || '').trim();
  if (!token || document.getElementById('svc-widget')) return;

  const lang = pickLang(data.svcLang);
  const t = strings[lang];
  let color = (data.svcColor || '').trim();
  if (!/^#([0-9a-f]{3}){1,2}$/i.test(color)) color = '#0a66c2';
  if (color.length === 4) color = color.replace(/\w/g, '$&$&');
  const call = client(apiBase(script), token, visitorId());

  // Host and shadow root; the stylesheet lives only inside the shadow root.
  const host = h('div');
  host.id = 'svc-widget';
  // Page rules that match the host element itself (div{…}, *{…}) must not size, hide or
  // transform it: an inline !important reset wins over them. The shadow root's :host rules
  // still reset what is inherited.
  host.style.cssText = 'all:initial!important';
  host.dataset.state = 'closed';
  const root = host.attachShadow({ mode: 'open' });
  const sheet = `:host{all:initial;--c:${color};--t:${textOn(color)}}${css}`;
  try {
    const s = new CSSStyleSheet();
    s.replaceSync(sheet);
    root.adoptedStyleSheets = [s];
  } catch {
    root.append(h('style', '', sheet));
  }

  const launcher = button('svc-launcher');
  launcher.lang = lang;
  launcher.setAttribute('aria-controls', 'svc-panel');

  const panel = h('div', 'svc-panel');
  panel.id = 'svc-panel';
  panel.lang = lang;
  panel.hidden = true;
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-labelledby', 'svc-title');

  const head = h('div', 'svc-head');
  const title = h('h2', 'svc-title', t.title);
  title.id = 'svc-title';
  const closer = button('svc-close');
  closer.title = t.close;
  closer.setAttribute('aria-label', t.close);
  closer.append(icon(CROSS, 'svc-x'));
  head.append(title, closer);

  const banner = h('div', 'svc-banner', t.banner);
  banner.hidden = true;
  banner.setAttribute('role', 'status');

  const list = h('div', 'svc-messages');
  list.tabIndex = 0;
  list.setAttribute('role', 'log');
  list.setAttribute('aria-live', 'polite');
  list.setAttribute('aria-label', t.log);

  const typing = h('div', 'svc-typing');
  typing.append(h('span', 'svc-sr', t.typing), h('i'), h('i'), h('i'));

  const chips = h('div', 'svc-chips');
  chips.hidden = true;
  chips.setAttribute('role', 'group');
  chips.setAttribute('aria-labelledby', 'svc-starters');

  const error = h('div', 'svc-error');
  error.hidden = true;
  error.setAttribute('role', 'alert');

  const form = h('form', 'svc-form');
  const input = h('textarea', 'svc-input');
  input.rows = 1;
  input.placeholder = t.placeholder;
  input.setAttribute('aria-label', t.placeholder);
  input.setAttribute('aria-describedby', 'svc-count');
  const send = h('button', 'svc-send', t.send);
  send.type = 'submit';
  const counter = h('div', 'svc-count');
  counter.id = 'svc-count';
  form.append(input, send, counter);

  panel.append(head, banner, list, chips, error, form);
  root.append(panel, launcher);

  // State.
  let max = 1000;
  let showSources = true;
  let isOpen = false;
  let started = false;
  let starting = false;
  let sending = false;
  let polling = false;
  let stopped = false;
  let lastId = 0;
  let delay = POLL_MIN;
  let timer = 0;
  let blockedUntil = 0;
  const seen = new Set<number>();

  const scrollDown = () => {
    list.scrollTop = list.scrollHeight;
  };

  const updateCount = () => {
    const n = input.value.length;
    counter.textContent = t.count(n, max);
    counter.classList.toggle('svc-near', n > max * 0.9);
  };

  const resize = () => {
    input.style.height = 'auto';
    input.style.height = Math.min(input.scrollHeight + 2, 120) + 'px';
  };

  const setInput = (v: string) => {
    input.value = v;
    updateCount();
    resize();
  };

  const setMode = (mode: unknown) => {
    if (typeof mode === 'string') banner.hidden = mode !== 'cache_only';
  };

  const clearError = () => {
    error.hidden = true;
    error.replaceChildren();
  };

  const showError = (text: string, retry?: () => void) => {
    error.replaceChildren(text);
    if (retry) {
      const b = button('svc-retry', t.retry);
      b.onclick = () => {
        clearError();
        input.focus();
        retry();
      };
      error.append(b);
    }
    error.hidden = false;
  };

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    if (root.activeElement === input) closer.focus();
    input.disabled = send.disabled = true;
    chips.hidden = true;
    showError(t.forbidden);
  };

  /** Reports a failed call; 401/403 end the session, 429 blocks sending for Retry-After. */
  const fail = (e: unknown, retry?: () => void) => {
    const status = e instanceof ApiError ? e.status : 0;
    if (status === 401 || status === 403) return stop();
    if (status === 429) {
      const wait = (e as ApiError).retryAfter || 30;
      blockedUntil = Date.now() + wait * 1e3;
      return showError(waitText(t, wait));
    }
    showError(status === 0 || status >= 500 ? t.conn : t.err, retry);
  };

  const feedback = (id: number) => {
    const row = h('div', 'svc-feedback');
    const btns = (
      [
        ['helpful', t.helpful],
        ['not_helpful', t.notHelpful],
      ] as const
    ).map(([rating, label]) => {
      const b = button('');
      b.dataset.rating = rating;
      b.title = label;
      b.setAttribute('aria-label', label);
      b.append(icon(THUMB));
      b.onclick = async () => {
        for (const x of btns) x.disabled = true;
        b.setAttribute('aria-pressed', 'true');
        try {
          await call('feedback', null, { messageId: id, rating });
          row.append(h('span', 'svc-thanks', t.thanks));
        } catch (e) {
          for (const x of btns) x.disabled = false;
          b.removeAttribute('aria-pressed');
          fail(e);
        }
      };
      return b;
    });
    row.append(...btns);
    return row;
  };

  const msgEl = (m: Pick<Message, 'role' | 'body'> & Partial<Message>) => {
    const e = h('div', 'svc-msg');
    const assistant = m.role === 'assistant';
    e.dataset.role = assistant ? 'assistant' : 'user';
    if (m.id) e.dataset.id = String(m.id);
    if (m.source) e.dataset.source = m.source;
    const body = h('div', 'svc-body');
    const sources = assistant ? validSources(m.sources) : [];
    renderText(body, withoutSourceLine(m.body, sources), assistant);
    e.append(body);
    if (assistant) {
      if (Array.isArray(m.products) && m.products.length) e.append(cards(m.products));
      const list = showSources && sourceList(sources, lang);
      if (list) e.append(list);
      if (m.id && FEEDBACK.includes(m.source || '')) e.append(feedback(m.id));
    }
    return e;
  };

  /** Renders m unless its id was seen; returns its element when rendered. */
  const add = (m: Message): HTMLElement | null => {
    if (!m || typeof m.id !== 'number' || seen.has(m.id)) return null;
    seen.add(m.id);
    lastId = Math.max(lastId, m.id);
    const e = msgEl(m);
    list.insertBefore(e, typing.parentNode ? typing : null);
    return e;
  };

  /** The rephrase hint in the reply's language (the visitor may write in another language than
   *  the page's), else in the widget's. */
  const hint = (replyLang: string | undefined) => {
    const l = asLang(replyLang) || lang;
    const p = h('p', 'svc-hint', strings[l].hint);
    p.lang = l;
    return p;
  };

  const sendText = async (raw: string) => {
    const text = raw.trim();
    if (!text || sending || stopped || text.length > max) return;
    const wait = (blockedUntil - Date.now()) / 1e3;
    if (wait > 0) return showError(waitText(t, wait));
    sending = true;
    send.disabled = true;
    clearError();
    chips.hidden = true;
    if (raw === input.value) setInput('');
    const bubble = msgEl({ role: 'user', body: text });
    list.append(bubble, typing);
    scrollDown();
    // The reply streams into a bubble the live region ignores (aria-hidden); the stored
    // message replaces it at the end, so a screen reader reads the reply once, whole.
    let live: HTMLElement | null = null;
    const grow = (reply: string) => {
      if (!live) {
        live = msgEl({ role: 'assistant', body: '' });
        live.setAttribute('aria-hidden', 'true');
        live.dataset.role = 'stream'; // not yet a message: tests and styles see assistant ones
        typing.replaceWith(live);
      }
      const b = live.firstChild as HTMLElement;
      b.replaceChildren();
      renderText(b, reply, true);
      scrollDown();
    };
    try {
      if (starting) await startRun;
      const d = await call<SendData>('send', null, { message: text }, grow);
      (live as HTMLElement | null)?.remove();
      typing.remove();
      const ms = Array.isArray(d.messages) ? d.messages : [];
      const user = ms.find((m) => m && m.role === 'user');
      if (user && typeof user.id === 'number') {
        if (seen.has(user.id)) bubble.remove();
        else {
          seen.add(user.id);
          lastId = Math.max(lastId, user.id);
          bubble.dataset.id = String(user.id);
          if (user.source) bubble.dataset.source = user.source;
        }
      }
      for (const m of ms) {
        if (m === user) continue;
        const e = add(m);
        if (e && d.lowConfidence && m.role === 'assistant') e.insertBefore(hint(d.lang), e.querySelector('.svc-feedback'));
      }
      setMode(d.mode);
      scrollDown();
      delay = POLL_MIN;
      schedule();
    } catch (e) {
      (live as HTMLElement | null)?.remove();
      typing.remove();
      bubble.remove();
      // Keep what was typed: put the text back (before anything typed since).
      setInput((text + (input.value ? '\n' + input.value : '')).slice(0, max));
      fail(e, () => sendText(input.value));
    } finally {
      sending = false;
      send.disabled = stopped;
    }
  };

  const showStarters = (seeds: unknown) => {
    if (!Array.isArray(seeds) || seen.size || sending || stopped) return;
    const qs = seeds.filter((s): s is string => typeof s === 'string' && !!s.trim() && s.length <= max).slice(0, 5);
    if (!qs.length) return;
    const heading = h('p', 'svc-chips-title', t.starters);
    heading.id = 'svc-starters';
    chips.replaceChildren(
      heading,
      ...qs.map((q) => {
        const b = button('svc-chip', q);
        b.onclick = () => sendText(q);
        return b;
      }),
    );
    chips.hidden = false;
  };

  // The start in progress: a send waits for it, so that its reply is rendered with the
  // token's settings (showSources) and not the defaults.
  let startRun: Promise<void> = Promise.resolve();
  const start = (): Promise<void> => {
    if (started || starting || stopped) return startRun;
    startRun = startNow();
    return startRun;
  };
  const startNow = async () => {
    starting = true;
    clearError();
    try {
      const d = await call<StartData>('start', { lang });
      started = true;
      if (d.name) title.textContent = d.name;
      if (d.maxMessageChars > 0) max = d.maxMessageChars;
      showSources = d.showSources !== false;
      input.maxLength = max;
      updateCount();
      setMode(d.mode);
      if (Array.isArray(d.messages)) d.messages.forEach(add);
      scrollDown();
      schedule();
      if (!seen.size) showStarters((await call<SuggestionsData>('suggestions').catch(() => null))?.seeds);
    } catch (e) {
      fail(e, start);
    } finally {
      starting = false;
    }
  };

  // Polling: every 8 s after activity, ×1.5 up to 60 s while nothing new arrives; only
  // while open, visible and not stopped.
  function schedule(wait = delay) {
    clearTimeout(timer);
    if (isOpen && started && !stopped && document.visibilityState !== 'hidden') timer = setTimeout(poll, wait);
  }

  async function poll() {
    if (sending || polling) return schedule();
    polling = true;
    let wait = 0;
    try {
      const d = await call<SyncData>('sync', { sinceId: lastId });
      // A send in flight renders its own messages; its user message must not arrive twice.
      if (!sending) {
        let fresh = false;
        for (const m of Array.isArray(d.messages) ? d.messages : []) if (add(m)) fresh = true;
        setMode(d.mode);
        if (fresh) scrollDown();
        delay = fresh ? POLL_MIN : Math.min(delay * 1.5, POLL_MAX);
      }
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 0;
      if (status === 401 || status === 403) return fail(e);
      delay = Math.min(delay * 1.5, POLL_MAX);
      if (status === 429) {
        wait = Math.max(((e as ApiError).retryAfter || 30) * 1e3, delay);
        blockedUntil = Date.now() + wait;
      }
    } finally {
      polling = false;
    }
    schedule(wait || delay);
  }

  // Open and close.
  const setLauncher = () => {
    const label = isOpen ? t.close : t.open;
    launcher.setAttribute('aria-expanded', String(isOpen));
    launcher.setAttribute('aria-label', label);
    launcher.title = label;
    launcher.replaceChildren(isOpen ? icon(CROSS, 'svc-x') : icon(CHAT));
  };

  const open = (restore?: boolean) => {
    if (isOpen) return;
    isOpen = true;
    panel.hidden = false;
    host.dataset.state = 'open';
    setLauncher();
    rememberOpen(true);
    if (!restore) input.focus();
    scrollDown();
    if (started) {
      delay = POLL_MIN;
      schedule();
    } else start();
  };

  const close = () => {
    if (!isOpen) return;
    isOpen = false;
    panel.hidden = true;
    host.dataset.state = 'closed';
    setLauncher();
    rememberOpen(false);
    clearTimeout(timer);
  };

  const closeToLauncher = () => {
    close();
    launcher.focus();
  };

  launcher.onclick = () => (isOpen ? close() : open());
  closer.onclick = closeToLauncher;
  form.onsubmit = (e) => {
    e.preventDefault();
    sendText(input.value);
  };
  input.oninput = () => {
    updateCount();
    resize();
  };
  input.onkeydown = (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      sendText(input.value);
    }
  };
  root.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Escape' && isOpen) closeToLauncher();
  });
  // Keys typed in the widget are not the page's shortcuts.
  for (const type of ['keydown', 'keyup', 'keypress']) host.addEventListener(type, (e) => e.stopPropagation());
  document.addEventListener('visibilitychange', () => schedule());

  input.maxLength = max;
  updateCount();
  setLauncher();
  document.body.append(host);
  host.dataset.ready = '1';
  try {
    performance.mark('svc-widget-ready');
  } catch {
    // no User Timing
  }
  window.svcWidget = { open: () => open(), close };
  if (wasOpen()) open(true);
}

const script = findScript();
if (script) {
  if (document.body) init(script);
  else document.addEventListener('DOMContentLoaded', () => init(script), { once: true });
}
