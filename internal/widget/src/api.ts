// The embed surface of the service: internal to the widget, unversioned.

export interface Product {
  name: string;
  url?: string;
  price?: string;
  category?: string;
  image?: string;
}

/** A KB document a reply quotes; url is "" for one without a page (a Q&A entry). */
export interface Source {
  title: string;
  url: string;
}

export interface Message {
  id: number;
  role: 'user' | 'assistant';
  body: string;
  source: string;
  created_at?: string;
  products?: Product[];
  sources?: Source[];
}

export interface StartData {
  conversationId: number;
  lang: string;
  name: string;
  mode: string;
  maxMessageChars: number;
  showSources?: boolean;
  messages: Message[];
}

export interface SendData {
  conversationId: number;
  messages: Message[];
  lowConfidence: boolean;
  mode: string;
  /** The reply's language; the hint under a low-confidence reply is written in it. */
  lang?: string;
}

export interface SyncData {
  conversationId: number;
  messages: Message[];
  mode: string;
}

export interface SuggestionsData {
  seeds: string[];
}

/** A failed call: status 0 is a network failure or timeout; retryAfter is in seconds. */
export class ApiError extends Error {
  status: number;
  retryAfter: number;
  constructor(status: number, retryAfter: number) {
    super('svc widget: HTTP ' + status);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

export type Call = <T>(action: string, query?: Record<string, string | number> | null, body?: object) => Promise<T>;

/** A caller of `<base>/api/v1/embed/<action>`: GET without a body, else POST JSON. */
export function client(base: string, token: string, visitor: string): Call {
  return async <T>(action: string, query?: Record<string, string | number> | null, body?: object): Promise<T> => {
    let url = base + '/api/v1/embed/' + action;
    if (query) {
      const q = new URLSearchParams();
      for (const k in query) q.set(k, String(query[k]));
      url += '?' + q;
    }
    const headers: Record<string, string> = { 'X-SVC-Embed-Token': token, 'X-SVC-Visitor': visitor };
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), body ? 90e3 : 20e3);
    const init: RequestInit = {
      method: body ? 'POST' : 'GET',
      mode: 'cors',
      credentials: 'omit',
      cache: 'no-store',
      headers,
      signal: ctl.signal,
    };
    if (body) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let res: Response;
    let env: { success?: boolean; data?: T } | null = null;
    try {
      res = await fetch(url, init);
      try {
        env = await res.json();
      } catch {
        // not JSON: handled below by status
      }
    } catch {
      throw new ApiError(0, 0);
    } finally {
      clearTimeout(timer);
    }
    if (res.ok && env && env.success && env.data) return env.data;
    throw new ApiError(res.status, retryAfter(res.headers.get('Retry-After')));
  };
}

/** Retry-After as seconds: a number of seconds or an HTTP date; 0 when absent or bad. */
export function retryAfter(v: string | null): number {
  if (!v) return 0;
  const n = Number(v);
  if (n >= 0) return Math.ceil(n);
  const t = Date.parse(v);
  return t ? Math.max(0, Math.ceil((t - Date.now()) / 1000)) : 0;
}
