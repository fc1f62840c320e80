package textindex

import (
	"slices"
	"testing"
)

// QueryWords gives each word the terms QueryTerms gives the whole text, word by word.
func TestQueryWordsKeepTheWrittenForm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, lang string
		want       []Word
	}{
		{"Siparişim nerede?", "tr", []Word{{Text: "siparişim", Capital: true, Terms: []Term{{Text: "sipar"}}}, {Text: "nerede"}}},
		{"Kartla ödeyebilir miyim", "tr", []Word{{Text: "kartla", Capital: true, Terms: []Term{{Text: "kartl"}}},
			{Text: "ödeyebilir", Terms: []Term{{Text: "ode", Prefix: true}}}, {Text: "miyim"}}},
		{"Wie hoch sind die Versandkosten", "de", []Word{{Text: "wie", Capital: true}, {Text: "hoch", Terms: []Term{{Text: "hoch"}}},
			{Text: "sind"}, {Text: "die"}, {Text: "versandkosten", Capital: true, Terms: []Term{{Text: "versandkost"}}}}},
		{"Shipping, shipping!", "en", []Word{{Text: "shipping", Capital: true, Terms: []Term{{Text: "ship"}}},
			{Text: "shipping", Terms: []Term{{Text: "ship"}}}}},
	} {
		got := QueryWords(c.text, c.lang)
		if !slices.EqualFunc(got, c.want, func(a, b Word) bool {
			return a.Text == b.Text && a.Capital == b.Capital && slices.Equal(a.Terms, b.Terms)
		}) {
			t.Errorf("QueryWords(%q, %s) = %+v, want %+v", c.text, c.lang, got, c.want)
		}
		var terms []Term
		for _, w := range got {
			for _, tm := range w.Terms {
				if !slices.Contains(terms, tm) {
					terms = append(terms, tm)
				}
			}
		}
		if q := QueryTerms(c.text, c.lang); !slices.Equal(terms, q) {
			t.Errorf("%q: the words' terms %v are not QueryTerms' %v", c.text, terms, q)
		}
	}
}
