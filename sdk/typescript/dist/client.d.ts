import type { Conversation, CrawlStatus, CrawlTarget, CreatedEmbedToken, EmbedToken, EmbedTokenSettings, ImportCounts, IntelligenceOp, IntelligenceRequest, IntelligenceResult, KBDocumentList, KBDocumentsQuery, KBProduct, KeyInfo, MarketingRequest, MarketingResult, QA, Rating, SendResult, Suggestions, Tone, UploadFile, UploadOptions, UploadResult, UpsertResult, UsageSummary } from "./types.js";
/** The version of this library. */
export declare const VERSION = "0.1.0";
export interface ClientOptions {
    /** The service's base URL, such as `https://svc.example.com`. */
    baseUrl: string;
    /** The secret key, `svc_pk_…`. Server side only: never put it in a browser. */
    apiKey: string;
    /** Bound of each attempt of a call, in ms (default 60000; 0 for none). */
    timeoutMs?: number;
    /** How many times a 429 (or a 503 to a read) is retried (default 2; 0 never). */
    maxRetries?: number;
    /** The longest `Retry-After` waited for, in ms (default 30000); a longer one is thrown at once. */
    maxRetryWaitMs?: number;
    /** The fetch to use (default the global one). */
    fetch?: typeof fetch;
    /** Waits between retries (default a timer); tests replace it. */
    sleep?: (ms: number) => Promise<void>;
}
/** The client of one svc service with one secret key. */
export declare class SvcClient {
    #private;
    constructor(options: ClientOptions);
    /** Opens or resumes the account's conversation and returns its history. */
    start(): Promise<Conversation>;
    /** Asks a question (at most 2,000 characters); `reply` is the assistant's answer. */
    send(message: string): Promise<SendResult>;
    /** Help articles and starter questions. */
    suggestions(): Promise<Suggestions>;
    /** The messages whose id is greater than `sinceId`. */
    sync(sinceId?: number): Promise<Conversation>;
    /** Rates an assistant message; `not_helpful` flags it for review. */
    feedback(messageId: number, rating: Rating, comment?: string): Promise<{
        saved: boolean;
    }>;
    /** The key's metadata (never the key), the balance and the pricing. */
    apiKey(): Promise<KeyInfo>;
    /** The last 30 days' usage and the all-time totals. */
    usageSummary(): Promise<UsageSummary>;
    /** The assistant's tone (changed in the dashboard only). */
    getTone(): Promise<Tone>;
    /** The account's embed tokens with today's usage. */
    embedTokens(): Promise<EmbedToken[]>;
    /** Creates a token (at most 5 active); the full token is in the answer, this once. */
    embedTokenCreate(settings: EmbedTokenSettings & {
        domains: string[] | string;
    }): Promise<CreatedEmbedToken>;
    /** Changes the settings given. */
    embedTokenUpdate(id: number, settings: EmbedTokenSettings): Promise<{
        updated: boolean;
    }>;
    /** Revokes a token for good. */
    embedTokenRevoke(id: number): Promise<{
        revoked: boolean;
    }>;
    /** Marketing copy grounded on the knowledge base and products. */
    marketingGenerate(request: MarketingRequest): Promise<MarketingResult>;
    /** Runs an op of the Intelligence API. */
    intelligence(op: IntelligenceOp, request?: IntelligenceRequest): Promise<IntelligenceResult>;
    /** Lists the knowledge base's documents. */
    kbDocuments(query?: KBDocumentsQuery): Promise<KBDocumentList>;
    /** Uploads a PDF, DOCX, ODT, XLSX, ODS, CSV, Markdown, text or HTML file. */
    kbDocumentUpload(file: UploadFile, options?: UploadOptions): Promise<UploadResult>;
    /** Deletes a document; the next question no longer finds it. */
    kbDocumentDelete(id: number): Promise<{
        deleted: boolean;
    }>;
    /** Adds a curated Q&A entry (question and answer required). */
    kbQaCreate(qa: QA & {
        question: string;
        answer: string;
    }): Promise<{
        id: number;
    }>;
    /** Changes the fields given of a Q&A entry. */
    kbQaUpdate(id: number, qa: QA): Promise<{
        updated: boolean;
    }>;
    /** Deletes a Q&A entry. */
    kbQaDelete(id: number): Promise<{
        deleted: boolean;
    }>;
    /**
     * Creates or updates products, matched by `sku`, else by `url`: a list, or a CSV or XLSX
     * file whose header row names the fields.
     */
    kbProductsUpsert(products: KBProduct[] | UploadFile): Promise<UpsertResult>;
    /** Imports JSON Lines (text or a file), as `svc kb import`: all of it, or nothing. */
    kbImport(jsonl: string | UploadFile): Promise<ImportCounts>;
    /** Starts a crawl of a URL or of one of the account's sites. */
    kbCrawlStart(target: CrawlTarget): Promise<{
        crawl_id: number;
    }>;
    /** A crawl's state and counts. */
    kbCrawlStatus(crawlId: number): Promise<CrawlStatus>;
}
