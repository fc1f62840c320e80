import { SvcError } from "./errors.js";
import { OPERATIONS } from "./operations.js";
/** The version of this library. */
export const VERSION = "0.1.0";
/** The client of one svc service with one secret key. */
export class SvcClient {
    #base;
    #key;
    #timeoutMs;
    #maxRetries;
    #maxRetryWaitMs;
    #fetch;
    #sleep;
    constructor(options) {
        const base = (options.baseUrl ?? "").trim().replace(/\/+$/, "");
        if (!/^https?:\/\/[^/]+/.test(base))
            throw new TypeError(`svc: base URL ${JSON.stringify(options.baseUrl)}: want http(s)://host[:port]`);
        if (!options.apiKey?.trim())
            throw new TypeError("svc: the API key is empty");
        this.#base = base;
        this.#key = options.apiKey;
        this.#timeoutMs = options.timeoutMs ?? 60_000;
        this.#maxRetries = options.maxRetries ?? 2;
        this.#maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
        this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
        this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    }
    // --- Chat API -------------------------------------------------------------------------
    /** Opens or resumes the account's conversation and returns its history. */
    start() {
        return this.#call({ op: "chat/start" });
    }
    /** Asks a question (at most 2,000 characters); `reply` is the assistant's answer. */
    async send(message) {
        const data = await this.#call({ op: "chat/send", json: { message } });
        return { ...data, reply: data.messages[data.messages.length - 1] };
    }
    /** Help articles and starter questions. */
    suggestions() {
        return this.#call({ op: "chat/suggestions" });
    }
    /** The messages whose id is greater than `sinceId`. */
    sync(sinceId = 0) {
        return this.#call({ op: "chat/sync", query: { sinceId } });
    }
    /** Rates an assistant message; `not_helpful` flags it for review. */
    feedback(messageId, rating, comment) {
        return this.#call({ op: "chat/feedback", json: { messageId, rating, comment } });
    }
    /** The key's metadata (never the key), the balance and the pricing. */
    apiKey() {
        return this.#call({ op: "chat/apiKey" });
    }
    /** The last 30 days' usage and the all-time totals. */
    usageSummary() {
        return this.#call({ op: "chat/usageSummary" });
    }
    /** The assistant's tone (changed in the dashboard only). */
    getTone() {
        return this.#call({ op: "chat/getTone" });
    }
    // --- Embed tokens ---------------------------------------------------------------------
    /** The account's embed tokens with today's usage. */
    async embedTokens() {
        return (await this.#call({ op: "chat/embedTokens" })).tokens;
    }
    /** Creates a token (at most 5 active); the full token is in the answer, this once. */
    embedTokenCreate(settings) {
        return this.#call({ op: "chat/embedTokenCreate", json: tokenFields(settings) });
    }
    /** Changes the settings given. */
    embedTokenUpdate(id, settings) {
        return this.#call({ op: "chat/embedTokenUpdate", json: { id, ...tokenFields(settings) } });
    }
    /** Revokes a token for good. */
    embedTokenRevoke(id) {
        return this.#call({ op: "chat/embedTokenRevoke", json: { id } });
    }
    // --- Generators -----------------------------------------------------------------------
    /** Marketing copy grounded on the knowledge base and products. */
    marketingGenerate(request) {
        return this.#call({ op: "chat/marketingGenerate", json: request });
    }
    /** Runs an op of the Intelligence API. */
    intelligence(op, request = {}) {
        const name = `intelligence/${op}`;
        if (!(name in OPERATIONS))
            return Promise.reject(new TypeError(`svc: unknown intelligence op ${JSON.stringify(op)}`));
        return this.#call({ op: name, json: request });
    }
    // --- Knowledge-base API ---------------------------------------------------------------
    /** Lists the knowledge base's documents. */
    kbDocuments(query = {}) {
        return this.#call({ op: "kb/documents", query: { ...query } });
    }
    /** Uploads a PDF, DOCX, ODT, XLSX, ODS, CSV, Markdown, text or HTML file. */
    kbDocumentUpload(file, options = {}) {
        return this.#call({ op: "kb/documentUpload", form: formOf(file, { ...options }) });
    }
    /** Deletes a document; the next question no longer finds it. */
    kbDocumentDelete(id) {
        return this.#call({ op: "kb/documentDelete", json: { id } });
    }
    /** Adds a curated Q&A entry (question and answer required). */
    kbQaCreate(qa) {
        return this.#call({ op: "kb/qaCreate", json: qa });
    }
    /** Changes the fields given of a Q&A entry. */
    kbQaUpdate(id, qa) {
        return this.#call({ op: "kb/qaUpdate", json: { id, ...qa } });
    }
    /** Deletes a Q&A entry. */
    kbQaDelete(id) {
        return this.#call({ op: "kb/qaDelete", json: { id } });
    }
    /**
     * Creates or updates products, matched by `sku`, else by `url`: a list, or a CSV or XLSX
     * file whose header row names the fields.
     */
    kbProductsUpsert(products) {
        if (Array.isArray(products))
            return this.#call({ op: "kb/productsUpsert", json: { products } });
        return this.#call({ op: "kb/productsUpsert", form: formOf(products, {}) });
    }
    /** Imports JSON Lines (text or a file), as `svc kb import`: all of it, or nothing. */
    kbImport(jsonl) {
        const file = typeof jsonl === "string" ? { name: "import.jsonl", data: jsonl, type: "application/x-ndjson" } : jsonl;
        return this.#call({ op: "kb/import", form: formOf(file, {}) });
    }
    /** Starts a crawl of a URL or of one of the account's sites. */
    kbCrawlStart(target) {
        return this.#call({ op: "kb/crawlStart", json: target });
    }
    /** A crawl's state and counts. */
    kbCrawlStatus(crawlId) {
        return this.#call({ op: "kb/crawlStatus", query: { crawl_id: crawlId } });
    }
    // --- Transport ------------------------------------------------------------------------
    async #call(call) {
        const method = OPERATIONS[call.op];
        for (let attempt = 0;; attempt++) {
            try {
                return await this.#once(method, call);
            }
            catch (err) {
                if (!(err instanceof SvcError) || attempt >= this.#maxRetries || !this.#retryable(method, err))
                    throw err;
                await this.#sleep((err.retryAfterSeconds ?? 1) * 1000);
            }
        }
    }
    // A rate limit whose wait is within bounds, or an unavailable database under a read (a
    // write may have been applied), is worth sending again.
    #retryable(method, err) {
        if (err.status !== 429 && !(err.status === 503 && method === "GET"))
            return false;
        return (err.retryAfterSeconds ?? 0) * 1000 <= this.#maxRetryWaitMs;
    }
    async #once(method, call) {
        const url = new URL(`${this.#base}/api/v1/${call.op}`);
        for (const [k, v] of Object.entries(call.query ?? {})) {
            if (v !== undefined && v !== "")
                url.searchParams.set(k, String(v));
        }
        const headers = { Authorization: `Bearer ${this.#key}`, Accept: "application/json" };
        let body;
        if (call.form) {
            body = call.form; // fetch sets the multipart Content-Type with its boundary
        }
        else if (call.json !== undefined) {
            headers["Content-Type"] = "application/json";
            body = JSON.stringify(call.json);
        }
        const init = { method, headers };
        if (body !== undefined)
            init.body = body;
        if (this.#timeoutMs > 0)
            init.signal = AbortSignal.timeout(this.#timeoutMs);
        const resp = await this.#fetch(url, init);
        const text = await resp.text();
        let env;
        try {
            env = JSON.parse(text);
        }
        catch {
            env = undefined;
        }
        if (resp.ok && env?.success === true)
            return env.data;
        const requestId = resp.headers.get("X-Request-Id") ?? undefined;
        const retryAfter = parseRetryAfter(resp.headers.get("Retry-After"));
        if (!env || typeof env.error !== "string" || env.error === "") {
            throw new SvcError(resp.status, "invalid_response", `HTTP ${resp.status} with a body that is not the service's JSON envelope`, requestId, retryAfter);
        }
        throw new SvcError(resp.status, env.error, env.message ?? "", requestId, retryAfter);
    }
}
/** Reads a Retry-After header (delay seconds or an HTTP date) as seconds. */
function parseRetryAfter(v) {
    if (v === null || v.trim() === "")
        return undefined;
    if (/^\d+$/.test(v.trim()))
        return Number(v.trim());
    const at = Date.parse(v);
    return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
function tokenFields(s) {
    const { domains, ...rest } = s;
    return domains === undefined ? rest : { ...rest, domains: Array.isArray(domains) ? domains.join(",") : domains };
}
function formOf(file, fields) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields))
        if (v !== undefined)
            form.append(k, v);
    const blob = file.data instanceof Blob ? file.data : new Blob([file.data], { type: file.type ?? "application/octet-stream" });
    form.append("file", blob, file.name);
    return form;
}
