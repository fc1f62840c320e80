// Command build writes dist/widget.js from src/ (run by `go generate ./internal/widget`,
// from the widget directory). It needs no Node: esbuild's Go API strips the TypeScript.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"svc/internal/widget/bundle"
)

func main() {
	out, err := bundle.Build(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.MkdirAll(filepath.Dir(bundle.Output), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(bundle.Output, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d bytes\n", bundle.Output, len(out))
}
