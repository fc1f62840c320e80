// Package openapi holds the OpenAPI 3.1 description of svc's public HTTP surface and a
// validator that holds real responses up against it.
//
// The document is kept by hand rather than generated, because the API is action-style
// (one path per action, three body encodings, a legacy query-string form) and generators
// describe that shape poorly. Hand-kept documents drift, so the HTTP tests of other
// packages run every response they see through Validator: a field renamed in a handler
// but not here, or here but not in the handler, fails a test.
package openapi

import _ "embed"

// document is kept as a string, not a []byte, so that no caller can change the bytes
// every other caller is served.
//
//go:embed openapi.json
var document string

// Document returns the OpenAPI document, served verbatim at GET /api/v1/openapi.json.
// Each call returns a fresh copy, which the caller may keep or modify.
func Document() []byte { return []byte(document) }
