// Browser storage that may be missing or throw (privacy modes, blocked cookies).

const VISITOR = 'svc_visitor';
const OPEN = 'svc_open';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A random UUID v4. */
export function uuid(): string {
  const c = crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 15) | 64;
  b[8] = (b[8] & 63) | 128;
  const x = Array.from(b, (v) => (v + 256).toString(16).slice(1)).join('');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The visitor's id from localStorage, created on first use; kept in memory only when
 * localStorage is unavailable. */
export function visitorId(): string {
  let id: string | null = null;
  try {
    id = localStorage.getItem(VISITOR);
  } catch {
    // unavailable
  }
  if (id && UUID.test(id)) return id.toLowerCase();
  id = uuid();
  try {
    localStorage.setItem(VISITOR, id);
  } catch {
    // memory only
  }
  return id;
}

/** Whether the panel was open in this tab (so a reload keeps it open). */
export function wasOpen(): boolean {
  try {
    return sessionStorage.getItem(OPEN) === '1';
  } catch {
    return false;
  }
}

export function rememberOpen(open: boolean): void {
  try {
    if (open) sessionStorage.setItem(OPEN, '1');
    else sessionStorage.removeItem(OPEN);
  } catch {
    // not remembered
  }
}
