package bench_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"svc/internal/cli"
)

// `svc bench` follows the command line's rules: a bad argument is one line and exit 2, -h
// lists the flags and exits 0.
func TestBenchCommandArguments(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"bench", "--sizes", "ten"},
		{"bench", "--sizes", "0"},
		{"bench", "--only", "speed"},
		{"bench", "--conns", "0"},
		{"bench", "--runs", "0"},
		{"bench", "--hit-questions", "0"},
		{"bench", "--hit-questions", "65"},
		{"bench", "--shapes", "tiny"},
		{"bench", "--shapes", ","},
		{"bench", "--duration", "0s"},
		{"bench", "--duration", "1ms"},
		{"bench", "--bogus"},
		{"bench", "extra"},
		{"bench", "reference", "--bogus"},
		{"bench", "reference", "extra"},
	} {
		var out, errOut bytes.Buffer
		code := cli.Run(context.Background(), args, cli.Env{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }})
		lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
		if code != 2 || out.Len() != 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "svc: bench") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	code := cli.Run(context.Background(), []string{"bench", "-h"}, cli.Env{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }})
	if code != 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "usage: svc bench [flags]") || !strings.Contains(errOut.String(), "-markdown") ||
		!strings.Contains(errOut.String(), "-shapes") {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
