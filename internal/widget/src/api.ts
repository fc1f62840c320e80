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

/** Receives a streamed reply's text so far, each time it grows or is replaced. */
export type OnText = (text: string) => void;

export type Call = <T>(action: string, query?: Record<string, string | number> | null, body?: object, onText?: OnText) => Promise<T>;

/** A caller of `<base>/api/v1/embed/<action>`: GET without a body, else POST JSON. With onText
 *  it asks for an event stream (send) and hands it the reply as it grows; an answer that is
 *  not a stream (a refusal, or a proxy that strips streaming) is read as JSON all the same. */
export function client(base: string, token: string, visitor: string): Call {
  return async <T>(action: string, query?: Record<string, string | number> | null, body?: object, onText?: OnText): Promise<T> => {
    let url = base + '/api/v1/embed/' + action;
    if (query) {
      const q = new URLSearchParams();
      for (const k in query) q.set(k, String(query[k]));
      url += '?' + q;
    }
    const headers: Record<string, string> = { 'X-SVC-Embed-Token': token, 'X-SVC-Visitor': visitor };
    if (onText) headers.Accept = 'text/event-stream';
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
      if (onText && res.ok && res.body && /^text\/event-stream/.test(res.headers.get('Content-Type') || '')) {
        return await events<T>(res.body, onText);
      }
      try {
        env = await res.json();
      } catch {
        // not JSON: handled below by status
      }
    } catch (e) {
      throw e instanceof ApiError ? e : new ApiError(0, 0);
    } finally {
      clearTimeout(timer);
    }
    if (res.ok && env && env.success && env.data) return env.data;
    throw new ApiError(res.status, retryAfter(res.headers.get('Retry-After')));
  };
}

/** Reads a streamed send: `delta` and `replace` grow or replace the reply's text, `done` is the
 *  send's data, `error` a failure after the stream began. */
async function events<T>(stream: ReadableStream<Uint8Array>, onText: OnText): Promise<T> {
  const reader = stream.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new ApiError(0, 0); // cut off before done
    buf += dec.decode(value, { stream: true });
    let end: number;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      let name = '';
      let data = '';
      for (const line of buf.slice(0, end).split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).replace(/^ /, '');
      }
      buf = buf.slice(end + 2);
      const d = data ? JSON.parse(data) : {};
      if (name === 'delta' || name === 'replace') onText((text = (name === 'delta' ? text : '') + d.text));
      else if (name === 'done') {
        reader.cancel().catch(() => {});
        return d as T;
      } else if (name === 'error') throw new ApiError(/limit|rate/.test(d.error) ? 429 : 500, 0);
    }
  }
}

/** Retry-After as seconds: a number of seconds or an HTTP date; 0 when absent or bad. */
export function retryAfter(v: string | null): number {
  if (!v) return 0;
  const n = Number(v);
  if (n >= 0) return Math.ceil(n);
  const t = Date.parse(v);
  return t ? Math.max(0, Math.ceil((t - Date.now()) / 1000)) : 0;
}
