package demo

import (
	"bytes"
	"strings"
	"testing"

	"svc/internal/kb"
	"svc/internal/store"
)

func TestKBParsesAndBuilds(t *testing.T) {
	recs, err := kb.ParseJSONL(Reader())
	if err != nil {
		t.Fatalf("ParseJSONL: %v", err)
	}
	docs, err := kb.BuildAll(recs)
	if err != nil {
		t.Fatalf("BuildAll: %v", err)
	}

	// Minimum counts per language and type.
	min := map[string]int{store.DocPage: 6, store.DocQA: 5, store.DocProduct: 6, store.DocArticle: 2}
	count := map[string]map[string]int{}
	for i, d := range docs {
		if recs[i].Lang == "" {
			t.Errorf("line %d has no explicit lang", recs[i].Line)
		}
		if d.Lang != recs[i].Lang {
			t.Errorf("line %d: lang %q became %q", recs[i].Line, recs[i].Lang, d.Lang)
		}
		if count[d.Lang] == nil {
			count[d.Lang] = map[string]int{}
		}
		count[d.Lang][d.Type]++
		if len(d.Chunks) == 0 {
			t.Errorf("line %d (%s) has no chunks", recs[i].Line, d.Title)
		}
		for _, c := range d.Chunks {
			if c.Terms == "" {
				t.Errorf("line %d (%s) has a chunk without terms", recs[i].Line, d.Title)
			}
		}
	}
	for _, lg := range []string{"tr", "en", "de"} {
		for typ, n := range min {
			if got := count[lg][typ]; got < n {
				t.Errorf("%s %s: %d records, want at least %d", lg, typ, got, n)
			}
		}
	}
	if len(count) != 3 {
		t.Errorf("languages %v, want exactly tr, en, de", count)
	}
}

// TestKBDocumentsAreDistinct guards the store's upsert keys: two records with the same key
// would silently collapse into one on import.
func TestKBDocumentsAreDistinct(t *testing.T) {
	recs, err := kb.ParseJSONL(Reader())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range recs {
		var key string
		switch r.Type {
		case kb.TypePage, kb.TypeProduct:
			key = r.Type + " " + r.URL
		case kb.TypeQA:
			key = r.Type + " " + r.Lang + " " + r.Question
		case kb.TypeArticle:
			key = r.Type + " " + r.Slug
		}
		if prev, ok := seen[key]; ok {
			t.Errorf("line %d repeats line %d: %s", r.Line, prev, key)
		}
		seen[key] = r.Line
		for _, u := range []string{r.URL, r.Image} {
			if u != "" && !strings.HasPrefix(u, "https://yolcu-outdoor.example/") {
				t.Errorf("line %d: URL %q is not on the fictional shop's domain", r.Line, u)
			}
		}
	}
}

// TestKBFacts checks the facts the demo questions rely on, after HTML cleaning.
func TestKBFacts(t *testing.T) {
	recs, err := kb.ParseJSONL(Reader())
	if err != nil {
		t.Fatal(err)
	}
	docs, err := kb.BuildAll(recs)
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]string{} // lang -> every body and chunk text
	for _, d := range docs {
		var b strings.Builder
		b.WriteString(d.Title + "\n" + d.Body + "\n")
		for _, c := range d.Chunks {
			b.WriteString(c.Text + "\n")
		}
		bodies[d.Lang] += b.String()
	}
	tests := []struct {
		lang, want string
	}{
		{"tr", "Ayakkabıların iadesi 30 gün içinde ücretsizdir"},
		{"tr", "İstanbul'daki mağazamız Kadıköy'de"},
		{"tr", "Fiyat: 4.290,00 TL"},
		{"tr", "9 taksit"},
		{"en", "Germany: 5–7 business days, 9,90 €"},
		{"en", "Price: $199.00"},
		{"en", "Sunday 12:00–19:00"},
		{"de", "Die Lieferung nach Deutschland dauert 5–7 Werktage"},
		{"de", "Preis: 119,90 €"},
		{"de", "Kauf auf Rechnung"},
	}
	for _, tt := range tests {
		if !strings.Contains(bodies[tt.lang], tt.want) {
			t.Errorf("%s KB lacks %q", tt.lang, tt.want)
		}
	}
	// Page chrome of the HTML bodies is cleaned away.
	for _, noise := range []string{"Bültenimize", "newsletter", "Newsletter", "©", "dataLayer", "Warenkorb"} {
		for lg, text := range bodies {
			if strings.Contains(text, noise) {
				t.Errorf("%s KB keeps page chrome %q", lg, noise)
			}
		}
	}
}

func TestKBCopies(t *testing.T) {
	a := KB()
	a[0] = 'X'
	if b := KB(); b[0] == 'X' || !bytes.Equal(b, []byte(kbJSONL)) {
		t.Error("KB shares its bytes with callers")
	}
}
