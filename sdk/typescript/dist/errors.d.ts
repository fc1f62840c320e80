/**
 * A refusal of the service: the envelope's `error` code and `message`, with the HTTP status,
 * the request id (`X-Request-Id`) and, on a 429 or 503, the `Retry-After` in seconds.
 */
export declare class SvcError extends Error {
    /** The envelope's error code: `bad_request`, `unauthorized`, `not_found`, `rate_limited`, ... */
    readonly error: string;
    readonly status: number;
    readonly requestId: string | undefined;
    readonly retryAfterSeconds: number | undefined;
    constructor(status: number, error: string, message: string, requestId?: string, retryAfterSeconds?: number);
}
