package textindex

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzAnalyze holds the analyzer, which sees every visitor's question and every indexed
// page, to the promises retrieval and the answer cache rest on, for any text in any of the
// three languages (and an unknown one): terms are non-empty words without white space, valid
// UTF-8 and already folded; a text always finds itself (its query terms match its own index
// terms); query terms come once; the cache key of a question depends neither on the order of
// its words nor on upper-case ASCII letters; and the output stays proportional to the input.
// Seeds run with `go test`; `go test -run='^$' -fuzz='^FuzzAnalyze$' ./internal/textindex`
// explores further.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []struct{ text, lang string }{
		{"Ayakkabıların iadesi 30 gün içinde yapılır", "tr"},
		{"İstanbul'da mağaza var mı? NFL'de 11'le", "tr"},
		{"nasil siparis veririm, ISTANBUL", "tr"},
		{"Bitte prüfen Sie die Rechnungsadresse: Bevölkerungsgröße, Rueckgabe Groesse", "de"},
		{"Straße ſ æ œ ø đ ð þ ł ħ ŀ ı İ i̇", "de"},
		{"Where is my ORDER? shipping costs 2.029,00 and 2,029 or 49,00 / 14 140 1.5", "en"},
		{"soft\u00adhyphen zero\u200bwidth \ufeffbom e\u0301 \u0301lone", "en"},
		{"Ελληνικά ς Σ русский 中文 العربية", "xx"},
		{"'’‘ʼ´` '' a'b", "tr"},
		{"\xff\xfe invalid \x80", "de"},
		{"", "tr"},
	} {
		f.Add(s.text, s.lang)
	}
	f.Fuzz(func(t *testing.T, text, lang string) {
		if len(text) > 4096 {
			return // questions are at most 2,000 characters; long pages add nothing new
		}
		index := IndexTerms(text, lang)
		size := 0
		for _, term := range index {
			checkTerm(t, text, term)
			size += len(term)
		}
		if size > 4*len(text)+16 {
			t.Fatalf("%d bytes of text gave %d bytes of terms", len(text), size)
		}
		query := QueryTerms(text, lang)
		for i, q := range query {
			checkTerm(t, text, q.Text)
			if slices.Contains(query[:i], q) {
				t.Fatalf("QueryTerms(%q) lists %+v twice", text, q)
			}
		}
		if len(query) > 0 && !matches(query, index) {
			t.Fatalf("%q (%s) does not find itself:\nquery %+v\nindex %q", text, lang, query, index)
		}
		for _, w := range Words(text, lang) {
			if w == "" || fold(w) != w || strings.IndexFunc(w, unicode.IsSpace) >= 0 {
				t.Fatalf("Words(%q) gave %q", text, w)
			}
		}

		key := NormalizeQuestion(text, lang)
		fields := strings.Fields(text)
		slices.Reverse(fields)
		if other := NormalizeQuestion(strings.Join(fields, " "), lang); other != key {
			t.Fatalf("the key depends on word order: %q → %q, reversed → %q", text, key, other)
		}
		upper := strings.Map(func(r rune) rune {
			if 'a' <= r && r <= 'z' {
				return r - 'a' + 'A'
			}
			return r
		}, text)
		if other := NormalizeQuestion(upper, lang); other != key {
			t.Fatalf("the key depends on case: %q → %q, %q → %q", text, key, upper, other)
		}
	})
}

func checkTerm(t *testing.T, text, term string) {
	t.Helper()
	if term == "" || !utf8.ValidString(term) || fold(term) != term ||
		strings.IndexFunc(term, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		t.Fatalf("analyzing %q gave the term %q", text, term)
	}
}

// FuzzExtends checks the near-match rule between stems is symmetric and never holds for a
// term and itself, nor below its minimum length.
func FuzzExtends(f *testing.F) {
	f.Add("dau", "dauert", 3)
	f.Add("finanzi", "finanziert", 8)
	f.Add("a", "a", 0)
	f.Fuzz(func(t *testing.T, a, b string, minLen int) {
		got := Extends(a, b, minLen)
		if got != Extends(b, a, minLen) {
			t.Fatalf("Extends(%q, %q, %d) is not symmetric", a, b, minLen)
		}
		if got && (a == b || min(len(a), len(b)) < minLen) {
			t.Fatalf("Extends(%q, %q, %d) = true", a, b, minLen)
		}
	})
}
