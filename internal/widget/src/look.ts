// The widget's appearance per embed token (issue 28): fetched once per page load from the
// embed surface's settings action (which the browser may cache for five minutes and then
// revalidates by its ETag), applied to the host element as attributes and CSS variables, and
// applied again whenever the dashboard's live preview calls window.svcWidget.apply.

/** The token's settings as the settings action returns them. */
export interface Settings {
  title: string;
  welcome: string;
  position: string;
  offsetX: number;
  offsetY: number;
  theme: string;
  /** The avatar's path on svc ("" none), served from svc's own origin. */
  avatar: string;
  launcherLabel: string;
  panelWidth: number;
  panelHeight: number;
  starters: string[];
  inline: string;
  showSources: boolean;
  /** The brand colour: the dashboard's preview only (a page sets data-svc-color). */
  color?: string;
}

/** The settings, or the HTTP status of a refusal (0: network failure, timeout, bad body). */
export async function loadSettings(base: string, token: string, visitor: string, lang: string): Promise<Settings | number> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), 5e3);
  try {
    // The default cache mode: the browser keeps the answer for its max-age and revalidates it.
    const res = await fetch(base + '/api/v1/embed/settings?lang=' + lang, {
      mode: 'cors',
      credentials: 'omit',
      headers: { 'X-SVC-Embed-Token': token, 'X-SVC-Visitor': visitor },
      signal: ctl.signal,
    });
    if (!res.ok) return res.status;
    const env = await res.json();
    return env && env.success && env.data ? (env.data as Settings) : 0;
  } catch {
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

const px = (n: unknown, lo: number, hi: number, def: number) =>
  (typeof n === 'number' && n >= lo && n <= hi ? Math.round(n) : def) + 'px';

/** Sets the host's attributes and variables from s: theme, side, offsets and panel size. The
 *  stylesheet (widget.css) does the rest. */
export function place(host: HTMLElement, s: Partial<Settings>): void {
  host.dataset.theme = s.theme === 'dark' || s.theme === 'auto' ? s.theme : 'light';
  host.dataset.pos = s.position === 'left' ? 'left' : 'right';
  const st = host.style;
  st.setProperty('--x', px(s.offsetX, 0, 240, 20));
  st.setProperty('--y', px(s.offsetY, 0, 240, 20));
  st.setProperty('--pw', px(s.panelWidth, 300, 600, 380));
  st.setProperty('--ph', px(s.panelHeight, 400, 800, 620));
}

/** The element the widget renders into instead of floating, or null: the script tag's
 *  data-svc-inline first, else the token's selector; a selector the page cannot parse or that
 *  matches nothing floats. */
export function inlineTarget(attr: string | undefined, token: string | undefined): Element | null {
  for (const sel of [attr, token]) {
    if (!sel || !sel.trim()) continue;
    try {
      const el = document.querySelector(sel.trim());
      if (el) return el;
    } catch {
      // not a selector
    }
  }
  return null;
}
