// Package widget serves the embeddable chat widget: one minified script, built from src/ by
// `go generate ./internal/widget` (esbuild's Go API; no Node needed) and embedded from dist/.
package widget

//go:generate go run ./build

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"sync"
)

//go:embed dist/widget.js
var script []byte

// Script returns the minified bundle (text/javascript). It is shared: callers must not
// modify it.
func Script() []byte { return script }

// Gzip returns the bundle gzip-compressed at best compression, computed once. It is shared:
// callers must not modify it.
func Gzip() []byte { return gzipped() }

// ETag returns the bundle's strong entity tag: the quoted hex of the first 16 bytes of its
// SHA-256.
func ETag() string { return etag() }

var gzipped = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		panic(err) // only for a bad level
	}
	// No name and no modification time: the output depends on the bundle alone.
	if _, err := w.Write(script); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
})

var etag = sync.OnceValue(func() string {
	sum := sha256.Sum256(script)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
})
