// Package demo holds the sample knowledge base that `svc demo` seeds into the demo account:
// a fictional outdoor-gear shop, Yolcu Outdoor, in Turkish, English and German, so that the
// service can be tried in all three languages without importing anything first.
package demo

import (
	_ "embed"
	"io"
	"strings"
)

// kbJSONL is a string rather than a []byte so that the embedded data cannot be modified by
// a caller: every accessor hands out its own copy or a read-only reader.
//
//go:embed data/kb.jsonl
var kbJSONL string

// KB returns a copy of the sample KB in the `svc kb import` JSON Lines format.
func KB() []byte { return []byte(kbJSONL) }

// Reader returns the sample KB as a reader, for kb.Import.
func Reader() io.Reader { return strings.NewReader(kbJSONL) }
