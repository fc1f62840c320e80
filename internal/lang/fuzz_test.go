package lang

import (
	"math"
	"strings"
	"testing"
)

// FuzzDetect holds language detection, which reads every visitor message, to its contract for
// any text: one of tr, en, de with a confidence in [0, 1] ("en" and 0 without evidence);
// DetectOr answers Detect's language exactly when the confidence reaches minConfidence and
// the fallback otherwise; and upper-case ASCII letters ("SIPARISIM NEREDE") change nothing.
// Seeds run with `go test`; `go test -run='^$' -fuzz='^FuzzDetect$' ./internal/lang` explores
// further.
func FuzzDetect(f *testing.F) {
	for _, l := range languages {
		for _, m := range customerMessages[l] {
			f.Add(m)
		}
	}
	for _, s := range []string{"", "ok", "iPhone 15 Pro", "İ ı ğ ş ä ß", "\xff\xfe", "SCHÖN thx 👍", strings.Repeat("ş", 3000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lang, conf := Detect(text)
		if lang != EN && lang != DE && lang != TR {
			t.Fatalf("Detect(%q) = %q", text, lang)
		}
		if math.IsNaN(conf) || conf < 0 || conf > 1 {
			t.Fatalf("Detect(%q) confidence %v", text, conf)
		}
		if conf == 0 && lang != EN && score(text) == (scores{}) {
			t.Fatalf("Detect(%q) = %q without evidence", text, lang)
		}
		want := "fallback"
		if conf >= minConfidence {
			want = lang
		}
		if got := DetectOr(text, "fallback"); got != want {
			t.Fatalf("DetectOr(%q) = %q, want %q (Detect: %q, %v)", text, got, want, lang, conf)
		}
		upper := strings.Map(func(r rune) rune {
			if 'a' <= r && r <= 'z' {
				return r - 'a' + 'A'
			}
			return r
		}, text)
		if l, c := Detect(upper); l != lang || c != conf {
			t.Fatalf("Detect(%q) = %q, %v but Detect(%q) = %q, %v", text, lang, conf, upper, l, c)
		}
	})
}
