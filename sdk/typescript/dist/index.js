// svc-client: the client of svc's HTTP API (ESM, no runtime dependencies).
export { SvcClient, VERSION } from "./client.js";
export { SvcError } from "./errors.js";
export { OPERATIONS } from "./operations.js";
