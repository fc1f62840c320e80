/**
 * A refusal of the service: the envelope's `error` code and `message`, with the HTTP status,
 * the request id (`X-Request-Id`) and, on a 429 or 503, the `Retry-After` in seconds.
 */
export class SvcError extends Error {
    /** The envelope's error code: `bad_request`, `unauthorized`, `not_found`, `rate_limited`, ... */
    error;
    status;
    requestId;
    retryAfterSeconds;
    constructor(status, error, message, requestId, retryAfterSeconds) {
        super(message);
        this.name = "SvcError";
        this.status = status;
        this.error = error;
        this.requestId = requestId;
        this.retryAfterSeconds = retryAfterSeconds;
    }
}
