/**
 * Every action this library calls: its name under `/api/v1/` and its HTTP method. Each method
 * of {@link SvcClient} finds its method and path here, so this table is exactly what the
 * library can call; the repository's drift test holds it against the OpenAPI document.
 */
export const OPERATIONS = {
  "chat/start": "GET",
  "chat/send": "POST",
  "chat/suggestions": "GET",
  "chat/sync": "GET",
  "chat/feedback": "POST",
  "chat/apiKey": "GET",
  "chat/usageSummary": "GET",
  "chat/getTone": "GET",
  "chat/embedTokens": "GET",
  "chat/embedTokenCreate": "POST",
  "chat/embedTokenUpdate": "POST",
  "chat/embedTokenRevoke": "POST",
  "chat/marketingGenerate": "POST",
  "intelligence/answer": "POST",
  "intelligence/summarize": "POST",
  "intelligence/compare": "POST",
  "intelligence/extract": "POST",
  "intelligence/data": "POST",
  "kb/documents": "GET",
  "kb/documentUpload": "POST",
  "kb/documentDelete": "POST",
  "kb/qaCreate": "POST",
  "kb/qaUpdate": "POST",
  "kb/qaDelete": "POST",
  "kb/productsUpsert": "POST",
  "kb/import": "POST",
  "kb/crawlStart": "POST",
  "kb/crawlStatus": "GET",
} as const;

/** The name of an operation, such as `"chat/send"`. */
export type OperationName = keyof typeof OPERATIONS;
