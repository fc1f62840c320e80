import catalog from 'svc:catalog';

export type Lang = 'tr' | 'en' | 'de';

export interface Strings {
  title: string;
  placeholder: string;
  send: string;
  open: string;
  close: string;
  typing: string;
  hint: string;
  helpful: string;
  notHelpful: string;
  thanks: string;
  /** Rate-limited: n units of time; unit 0 seconds, 1 minutes, 2 hours. */
  rate(n: number, unit: number): string;
  forbidden: string;
  conn: string;
  err: string;
  retry: string;
  banner: string;
  count(n: number, max: number): string;
  starters: string;
  log: string;
  sources: string;
}

// The words come from svc's i18n catalog (the embed.* keys of internal/i18n/catalog), which
// the bundler inlines as the virtual module below: one catalog for every user-facing text.
type Catalog = Record<string, string>;

/** Fills the %d places of a message in order. */
function fill(m: string, ...n: number[]): string {
  let i = 0;
  return m.replace(/%d/g, () => String(n[i++]));
}

function build(c: Catalog): Strings {
  const units = ['seconds', 'minutes', 'hours'];
  return {
    title: c['embed.title'],
    placeholder: c['embed.placeholder'],
    send: c['embed.send'],
    open: c['embed.open'],
    close: c['embed.close'],
    typing: c['embed.typing'],
    hint: c['embed.hint'],
    helpful: c['embed.helpful'],
    notHelpful: c['embed.not_helpful'],
    thanks: c['embed.thanks'],
    rate: (n, u) => fill(c['embed.rate.' + units[u] + (n === 1 ? '.one' : '.other')], n),
    forbidden: c['embed.forbidden'],
    conn: c['embed.conn'],
    err: c['embed.err'],
    retry: c['embed.retry'],
    banner: c['embed.banner'],
    count: (n, m) => fill(c['embed.count'], n, m),
    starters: c['embed.starters'],
    log: c['embed.log'],
    sources: c['embed.sources'],
  };
}

export const strings: Record<Lang, Strings> = { tr: build(catalog.tr), en: build(catalog.en), de: build(catalog.de) };

/** l as one of the widget's languages, or undefined. */
export function asLang(l: string | undefined): Lang | undefined {
  return l === 'tr' || l === 'en' || l === 'de' ? l : undefined;
}

/** The first of the attribute and the browser's languages that is tr, en or de; else en. */
export function pickLang(attr: string | undefined): Lang {
  for (const l of [attr, ...(navigator.languages || []), navigator.language]) {
    const c = asLang((l || '').trim().toLowerCase().split('-')[0]);
    if (c) return c;
  }
  return 'en';
}

/** Seconds as a rate-limit sentence: seconds up to 90, then minutes, then hours. */
export function waitText(t: Strings, s: number): string {
  s = Math.max(1, Math.ceil(s));
  if (s <= 90) return t.rate(s, 0);
  if (s <= 5400) return t.rate(Math.ceil(s / 60), 1);
  return t.rate(Math.ceil(s / 3600), 2);
}
