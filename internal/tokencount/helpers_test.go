package tokencount

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// library is the codec whose counts Counter must reproduce, in its default error mode, as
// internal/engine used it.
func library(t testing.TB) tokenizer.Codec {
	t.Helper()
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func counter(t testing.TB) *Counter {
	t.Helper()
	c, err := O200kBase()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sameCount fails t when the two counts of s differ, or one errs and the other does not.
func sameCount(t testing.TB, c *Counter, lib tokenizer.Codec, s string) {
	t.Helper()
	got, err := c.Count(s)
	want, wantErr := lib.Count(s)
	if (err != nil) != (wantErr != nil) || got != want {
		t.Errorf("Count(%s) = %d, %v; library %d, %v", short(s), got, err, want, wantErr)
	}
}

// short quotes s, cut to a length a failure message can carry.
func short(s string) string {
	const limit = 120
	if len(s) > limit {
		return strconv.Quote(s[:limit]) + "..."
	}
	return strconv.Quote(s)
}

// xquadTexts returns every paragraph and question of the XQuAD dev files, or skips t when
// the shared eval folder is not beside the repository.
func xquadTexts(t testing.TB) map[string][]string {
	t.Helper()
	dir := ""
	for _, c := range []string{filepath.Join("..", "..", "..", "shared", "eval", "xquad-dev"), "/work/shared/eval/xquad-dev"} {
		if _, err := os.Stat(filepath.Join(c, "xquad.en.dev.json")); err == nil {
			dir = c
			break
		}
	}
	if dir == "" {
		t.Skip("XQuAD dev files not found beside the repository")
	}
	out := map[string][]string{}
	for _, lang := range []string{"en", "de", "tr"} {
		raw, err := os.ReadFile(filepath.Join(dir, "xquad."+lang+".dev.json"))
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Data []struct {
				Paragraphs []struct {
					Context string `json:"context"`
					QAs     []struct {
						Question string `json:"question"`
					} `json:"qas"`
				} `json:"paragraphs"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		for _, art := range f.Data {
			for _, p := range art.Paragraphs {
				out[lang] = append(out[lang], p.Context)
				for _, qa := range p.QAs {
					out[lang] = append(out[lang], qa.Question)
				}
			}
		}
	}
	return out
}
