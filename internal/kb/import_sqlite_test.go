package kb_test

import (
	"context"
	"strings"
	"testing"

	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
	"svc/internal/textindex"
)

// TestImportSQLite runs Import against the embedded store: counts by type, an unchanged
// re-import, and a bad file that leaves the stored KB as it was.
func TestImportSQLite(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer st.Close()
	acct, _ := storetest.NewAccount(t, st, "Importer", 0)

	file := `{"type":"page","url":"https://shop.test/shipping","title":"Shipping","body":"<nav>Menu</nav><h2>Germany</h2><p>Delivery to Germany takes 5–7 business days.</p>","lang":"en"}
{"type":"qa","question":"Kargo ücreti ne kadar?","answer":"89,90 TL; 1.500 TL üzeri ücretsiz.","lang":"tr"}
{"type":"product","name":"Uludağ 2 Zelt","url":"https://shop.test/zelt","price":"189,00 €","category":"Zelte","description":"Zwei Personen, 2,3 kg.","lang":"de"}
{"type":"article","slug":"returns","title":"How to return","body":"Returns are free for 30 days.","category_slug":"help","category_name":"Help","lang":"en"}
`
	tests := []struct {
		name    string
		file    string
		want    store.ImportResult
		wantErr string
	}{
		{"first import", file, store.ImportResult{Pages: 1, QA: 1, Products: 1, Articles: 1}, ""},
		{"same file again", file, store.ImportResult{Unchanged: 4}, ""},
		{"bad last line", strings.Replace(file, "5–7", "3–4", 1) + `{"type":"qa","question":"q"}` + "\n", store.ImportResult{}, "line 5: qa needs question and answer"},
	}
	for _, tt := range tests {
		got, err := kb.Import(ctx, st, acct.ID, 0, strings.NewReader(tt.file))
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s: error = %v, want %q", tt.name, err, tt.wantErr)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got != tt.want {
			t.Errorf("%s: result = %+v, want %+v", tt.name, got, tt.want)
		}
	}

	counts, err := st.CountDocuments(ctx, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{store.DocPage, store.DocQA, store.DocProduct, store.DocArticle} {
		if counts[typ] != 1 {
			t.Errorf("%s documents = %d, want 1 (counts %v)", typ, counts[typ], counts)
		}
	}
	var terms []store.SearchTerm
	for _, qt := range textindex.QueryTerms("Germany", "en") {
		terms = append(terms, store.SearchTerm{Text: qt.Text, Prefix: qt.Prefix})
	}
	hits, err := st.SearchChunks(ctx, acct.ID, store.SearchQuery{Terms: terms})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Heading != "Germany" || !strings.Contains(hits[0].Text, "5–7") {
		t.Errorf("hits = %+v, want the Germany chunk still saying 5–7", hits)
	}
	arts, err := st.Articles(ctx, acct.ID, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) != 1 || arts[0].Slug != "returns" || arts[0].Excerpt != "Returns are free for 30 days." || arts[0].CategoryName != "Help" {
		t.Errorf("articles = %+v", arts)
	}
}
