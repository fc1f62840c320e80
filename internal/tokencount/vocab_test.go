package tokencount

import (
	"testing"
)

func TestVocabMatchesLibrary(t *testing.T) {
	t.Parallel()
	v := counter(t).vocab
	lib := library(t)
	if v.size() != 199998 {
		t.Errorf("%d tokens, want 199998", v.size())
	}
	for r := range uint32(v.size()) {
		want, err := lib.Decode([]uint{uint(r)})
		if err != nil {
			t.Fatalf("library has no token %d: %v", r, err)
		}
		if got := v.token(r); got != want {
			t.Fatalf("token %d = %q, library %q", r, got, want)
		}
		if got, ok := v.rank(want); !ok || got != r {
			t.Fatalf("rank(%q) = %d, %v; want %d", want, got, ok, r)
		}
	}
	if _, err := lib.Decode([]uint{uint(v.size())}); err == nil {
		t.Errorf("the library has a token %d past the embedded ones", v.size())
	}
	for _, s := range []string{"", "<|endoftext|>", "not a token at all, surely"} {
		if r, ok := v.rank(s); ok {
			t.Errorf("rank(%q) = %d, want none", s, r)
		}
	}
}

func TestVocabIsCompact(t *testing.T) {
	t.Parallel()
	v := counter(t).vocab
	bytes := len(v.text) + 4*len(v.ends) + 4*len(v.slots)
	t.Logf("vocabulary: %d tokens in %.2f MB (text %.2f, ends %.2f, slots %.2f)", v.size(), mb(bytes),
		mb(len(v.text)), mb(4*len(v.ends)), mb(4*len(v.slots)))
	if bytes > 5<<20 {
		t.Errorf("vocabulary takes %.2f MB", mb(bytes))
	}
	if load := float64(v.size()) / float64(len(v.slots)); load > 0.4 {
		t.Errorf("hash table %.0f%% full", 100*load)
	}
}

func TestLoadVocabRejectsDamage(t *testing.T) {
	t.Parallel()
	good := o200kBaseTokens
	tests := map[string][]byte{
		"empty":     nil,
		"not gzip":  []byte("plain text"),
		"truncated": good[:len(good)/2],
		"bad crc":   append(append([]byte(nil), good[:len(good)-8]...), 0, 0, 0, 0, 0, 0, 0, 0),
	}
	for name, data := range tests {
		if _, err := loadVocab(data); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func mb(n int) float64 { return float64(n) / (1 << 20) }
