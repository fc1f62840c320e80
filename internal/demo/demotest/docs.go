// Package demotest gives tests the demo KB already built, so that a test that makes many
// tenants imports it without parsing and analyzing every record again for each.
package demotest

import (
	"slices"
	"sync"
	"testing"

	"svc/internal/demo"
	"svc/internal/kb"
	"svc/internal/store"
)

// built is the demo KB, built once per test binary: its documents are never changed, only
// copied (Docs).
var built = sync.OnceValues(func() ([]store.Document, error) {
	recs, err := kb.ParseJSONL(demo.Reader())
	if err != nil {
		return nil, err
	}
	return kb.BuildAll(recs)
})

// Docs returns a copy of the built demo KB, chunks included, since an import sets the ids of
// what it is given; pass it to ImportDocuments.
func Docs(t testing.TB) []store.Document {
	t.Helper()
	docs, err := built()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]store.Document, len(docs))
	for i, d := range docs {
		d.Chunks = slices.Clone(d.Chunks)
		out[i] = d
	}
	return out
}
