package kb

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseAndBuild holds the import to its promise for any input: a *LineError or records
// that all build, never a panic. The seeds run as part of `go test`; `go test -fuzz
// FuzzParseAndBuild ./internal/kb` explores further.
func FuzzParseAndBuild(f *testing.F) {
	for _, seed := range []string{
		`{"type":"page","url":"https://x.test/a","title":"A","body":"<h1>A</h1><p>text</p>","lang":"en"}`,
		`{"type":"qa","question":"Nasıl?","answer":"Böyle."}`,
		`{"type":"product","name":"Boot","price":119.9}`,
		`{"type":"article","slug":"s","title":"T","body":"<script>x</script>b"}`,
		"\ufeff{\"type\":\"page\",\"title\":\"x\",\"body\":\"<<<>>>\"}\n\n",
		`{"type":"page","title":"x","body":"y"} trailing`,
		`{"type":`,
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := ParseJSONL(strings.NewReader(in))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		for _, r := range recs {
			if _, err := Build(r); err != nil {
				var le *LineError
				if !errors.As(err, &le) {
					t.Fatalf("build error without a line: %v", err)
				}
			}
		}
	})
}
