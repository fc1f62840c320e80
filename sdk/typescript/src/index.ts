// svc-client: the client of svc's HTTP API (ESM, no runtime dependencies).
export { SvcClient, VERSION, type ClientOptions } from "./client.js";
export { SvcError } from "./errors.js";
export { OPERATIONS, type OperationName } from "./operations.js";
export type * from "./types.js";
