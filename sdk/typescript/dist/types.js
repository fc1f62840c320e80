// The shapes of the API's requests and results (timestamps are RFC 3339 strings in UTC,
// amounts are USD).
export {};
