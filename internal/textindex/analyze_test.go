package textindex

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

// matches is the smallest stand-in for the stores: every query term must
// equal an index term, or be a prefix of one when Prefix is set.
func matches(query []Term, index []string) bool {
	if len(query) == 0 {
		return false
	}
	for _, q := range query {
		found := false
		for _, term := range index {
			if term == q.Text || q.Prefix && strings.HasPrefix(term, q.Text) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func TestQueryMatchesDocument(t *testing.T) {
	tests := []struct {
		name, query, doc, lang string
		want                   bool
	}{
		{"turkish inflected return", "ayakkabı iadesi", "Ayakkabıların iadesi 30 gün içinde yapılır", "tr", true},
		{"turkish short word as prefix", "iade", "Ayakkabıların iadesi 30 gün içinde yapılır", "tr", true},
		{"turkish without diacritics", "nasil siparis veririm", "Nasıl sipariş veririm", "tr", true},
		{"turkish apostrophe and stop words", "İstanbul'da mağaza var mı", "istanbul mağazamız", "tr", true},
		{"turkish capital I", "ISTANBUL", "İstanbul", "tr", true},
		{"english capital I", "ISTANBUL", "İstanbul", "en", true},
		{"german plural", "Lieferungen", "Lieferung", "de", true},
		{"german umlaut typed as digraph", "Rueckgabe Groesse", "Rückgabe in jeder Größe", "de", true},
		{"german compound part", "Rechnung", "Bitte prüfen Sie die Rechnungsadresse", "de", true},
		{"german compound whole", "Bevölkerungsgröße", "die Größe der Bevölkerung", "de", true},
		{"english plural", "returns", "return", "en", true},
		{"english inflection", "shipping costs", "We ship at cost", "en", true},
		{"price with and without cents", "49,00", "kostet 49 Euro", "de", true},
		{"turkish unrelated", "ayakkabı iadesi", "Kargo ücreti 50 TL", "tr", false},
		{"number is never a prefix", "14", "140 mağaza", "tr", false},
		{"english unrelated", "returns", "shipping", "en", false},
		{"only stop words match nothing", "what is it", "what is it", "en", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, idx := QueryTerms(tt.query, tt.lang), IndexTerms(tt.doc, tt.lang)
			if got := matches(q, idx); got != tt.want {
				t.Errorf("query %q %v vs doc %q %q: match = %v, want %v", tt.query, q, tt.doc, idx, got, tt.want)
			}
		})
	}
}

func TestNasilFoldsLikeNasıl(t *testing.T) {
	if a, b := Words("nasil", "tr"), Words("Nasıl", "tr"); !reflect.DeepEqual(a, b) {
		t.Errorf("Words: nasil=%q Nasıl=%q", a, b)
	}
	if !IsStopWord(Words("Nasıl", "tr")[0], "tr") {
		t.Error("nasıl should be a Turkish stop word")
	}
}

func TestIndexTerms(t *testing.T) {
	tests := []struct {
		text, lang string
		want       []string
	}{
		{"The returns, the returns!", "en", []string{"return", "return"}},
		{"Ayakkabıların iadesi", "tr", []string{"ayakk", "iades"}},
		{"Wo ist meine Bestellung?", "de", []string{"bestell"}},
		{"Bevölkerungsgröße", "de", []string{"bevolkerungsgross", "bevolker", "gross"}},
		{"returns", "fr", []string{"return"}},
		{"What is it?", "en", nil},
	}
	for _, tt := range tests {
		if got := IndexTerms(tt.text, tt.lang); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("IndexTerms(%q, %q) = %q, want %q", tt.text, tt.lang, got, tt.want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		text, lang string
		want       []Term
	}{
		{"iade ayakkabılar", "tr", []Term{{"iade", true}, {"ayakk", false}}},
		{"a blok 2029", "tr", []Term{{"a", false}, {"blok", true}, {"2029", false}}},
		{"order orders ORDER", "en", []Term{{"order", false}}},
		{"kargo kargom kargoyu", "tr", []Term{{"kargo", false}}},
		{"Wie viele Pakete?", "de", []Term{{"paket", false}}},
		{"Bevölkerungsgröße", "de", []Term{{"bevolker", false}, {"gross", false}}},
		{"ne zaman", "tr", []Term{{"zaman", false}}},
		{"?", "en", nil},
	}
	for _, tt := range tests {
		if got := QueryTerms(tt.text, tt.lang); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("QueryTerms(%q, %q) = %+v, want %+v", tt.text, tt.lang, got, tt.want)
		}
	}
}

func TestNormalizeQuestion(t *testing.T) {
	tests := []struct {
		a, b, lang string
		key        string
	}{
		{"Where is my order?", "where is my ORDER", "en", "order"},
		{"How much are shipping costs?", "shipping cost how much", "en", "cost ship"},
		{"Siparişim nerede?", "siparisim nerede", "tr", "sipar"},
		{"Wie lange dauert die Lieferung?", "lieferung dauert wie lange", "de", "dauert lang liefer"},
		{"What is it?", "it is what", "en", ""},
	}
	for _, tt := range tests {
		ka, kb := NormalizeQuestion(tt.a, tt.lang), NormalizeQuestion(tt.b, tt.lang)
		if ka != tt.key || kb != tt.key {
			t.Errorf("NormalizeQuestion: %q -> %q, %q -> %q, want both %q", tt.a, ka, tt.b, kb, tt.key)
		}
	}
}

func TestNormLang(t *testing.T) {
	tests := map[string]string{"tr": "tr", "TR": "tr", "de-AT": "de", "en_GB": "en", "": "en", "fr": "en"}
	for in, want := range tests {
		if got := normLang(in); got != want {
			t.Errorf("normLang(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConcurrentAnalysis runs the analyzer from many goroutines; with
// -race it proves the package keeps no shared mutable state.
func TestConcurrentAnalysis(t *testing.T) {
	want := IndexTerms("Lieferungen nach Österreich", "de")
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := IndexTerms("Lieferungen nach Österreich", "de"); !reflect.DeepEqual(got, want) {
				errs <- strings.Join(got, " ")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent IndexTerms differs: %q vs %q", e, want)
	}
}
