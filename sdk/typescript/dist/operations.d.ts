/**
 * Every action this library calls: its name under `/api/v1/` and its HTTP method. Each method
 * of {@link SvcClient} finds its method and path here, so this table is exactly what the
 * library can call; the repository's drift test holds it against the OpenAPI document.
 */
export declare const OPERATIONS: {
    readonly "chat/start": "GET";
    readonly "chat/send": "POST";
    readonly "chat/suggestions": "GET";
    readonly "chat/sync": "GET";
    readonly "chat/feedback": "POST";
    readonly "chat/apiKey": "GET";
    readonly "chat/usageSummary": "GET";
    readonly "chat/getTone": "GET";
    readonly "chat/embedTokens": "GET";
    readonly "chat/embedTokenCreate": "POST";
    readonly "chat/embedTokenUpdate": "POST";
    readonly "chat/embedTokenRevoke": "POST";
    readonly "chat/marketingGenerate": "POST";
    readonly "intelligence/answer": "POST";
    readonly "intelligence/summarize": "POST";
    readonly "intelligence/compare": "POST";
    readonly "intelligence/extract": "POST";
    readonly "intelligence/data": "POST";
    readonly "kb/documents": "GET";
    readonly "kb/documentUpload": "POST";
    readonly "kb/documentDelete": "POST";
    readonly "kb/qaCreate": "POST";
    readonly "kb/qaUpdate": "POST";
    readonly "kb/qaDelete": "POST";
    readonly "kb/productsUpsert": "POST";
    readonly "kb/import": "POST";
    readonly "kb/crawlStart": "POST";
    readonly "kb/crawlStatus": "GET";
};
/** The name of an operation, such as `"chat/send"`. */
export type OperationName = keyof typeof OPERATIONS;
