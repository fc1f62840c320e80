package storetest

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"svc/internal/store"
)

func listDocuments(t *testing.T, s store.Store, accountID int64, q store.DocQuery) ([]store.DocumentRow, int) {
	t.Helper()
	rows, total, err := s.ListDocuments(ctx(), accountID, q)
	if err != nil {
		t.Fatalf("list documents %+v: %v", q, err)
	}
	return rows, total
}

func documentIDs(rows []store.DocumentRow) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

func testDashboardListDocuments(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Librarian", 0)
	b, _ := NewAccount(t, s, "Reader", 0)
	site := newSite(t, s, a.ID, "https://shop.test/")
	docs := importDocs(t, s, a.ID, kbDocs()...) // returns, qa, boot, boot-care, iade: one time, so by id
	returns, qa, boot, care, iade := docs[0].ID, docs[1].ID, docs[2].ID, docs[3].ID, docs[4].ID
	clock.Advance(time.Minute)
	long := strings.Repeat("Lorem ipsum dolor sit amet. ", 20)
	special := importDocs(t, s, a.ID,
		store.Document{Type: store.DocPage, SiteID: site.ID, URL: "https://shop.test/deals", Title: "Deals",
			Body: "Save 100% of the shipping on a_b orders. " + long, Lang: "en", Hash: "d1",
			Chunks: []store.Chunk{{Text: "Save", Terms: "save"}, {Text: "orders", Terms: "order"}}},
		store.Document{Type: store.DocPage, URL: "https://shop.test/other", Title: "Other", Body: "Save 1000 on axb.",
			Lang: "en", Hash: "o1", Chunks: []store.Chunk{{Text: "Save", Terms: "save"}}},
	)
	deals, other := special[0].ID, special[1].ID
	importDocs(t, s, b.ID, kbDocs()...)

	all, total := listDocuments(t, s, a.ID, store.DocQuery{Limit: 100})
	if want := []int64{other, deals, iade, care, boot, qa, returns}; total != 7 || !slices.Equal(documentIDs(all), want) {
		t.Fatalf("documents: %d %v, want 7 %v (newest first, then by id)", total, documentIDs(all), want)
	}
	rows := map[int64]store.DocumentRow{}
	for _, r := range all {
		rows[r.ID] = r
	}
	if r := rows[deals]; r.SiteID != site.ID || r.Type != store.DocPage || r.Title != "Deals" || r.Chunks != 2 ||
		r.URL != "https://shop.test/deals" || utf8.RuneCountInString(r.Excerpt) > 200 ||
		!strings.HasPrefix(r.Excerpt, "Save 100% of the shipping") || !strings.HasSuffix(r.Excerpt, "…") ||
		r.Product != nil || r.Article != nil || r.UpdatedAt.Location() != time.UTC {
		t.Fatalf("deals row: %+v", r)
	}
	if r := rows[boot]; r.Product == nil || r.Product.Price != "119,90 €" || r.Product.Name != "Trail Boot" ||
		r.Excerpt != "Waterproof boot." || r.Chunks != 1 {
		t.Fatalf("product row: %+v", r)
	}
	if r := rows[care]; r.Article == nil || r.Article.Slug != "boot-care" || r.Article.CategoryName != "Care" ||
		r.Product != nil {
		t.Fatalf("article row: %+v", r)
	}
	if !rows[other].UpdatedAt.After(rows[qa].UpdatedAt) {
		t.Fatalf("update times: %v, %v", rows[other].UpdatedAt, rows[qa].UpdatedAt)
	}

	for _, tc := range []struct {
		name string
		q    store.DocQuery
		want []int64
	}{
		{"products", store.DocQuery{Type: store.DocProduct}, []int64{boot}},
		{"Q&A", store.DocQuery{Type: store.DocQA}, []int64{qa}},
		{"site", store.DocQuery{SiteID: site.ID}, []int64{deals}},
		{"language", store.DocQuery{Lang: "tr"}, []int64{iade}},
		{"title, ASCII case ignored", store.DocQuery{Query: "RETURNS"}, []int64{returns}},
		{"URL", store.DocQuery{Query: "shop.test/p/"}, []int64{boot}},
		{"text", store.DocQuery{Query: "waterproof"}, []int64{boot}},
		{"a literal %", store.DocQuery{Query: "100%"}, []int64{deals}},
		{"a literal _", store.DocQuery{Query: "a_b"}, []int64{deals}},
		{"type and text", store.DocQuery{Type: store.DocPage, Query: "save"}, []int64{other, deals}},
		{"nothing", store.DocQuery{Query: "zeppelin"}, []int64{}},
	} {
		got, total := listDocuments(t, s, a.ID, tc.q)
		if !slices.Equal(documentIDs(got), tc.want) || total != len(tc.want) {
			t.Fatalf("%s: %d %v, want %v", tc.name, total, documentIDs(got), tc.want)
		}
	}

	var paged []int64
	for offset := 0; offset < 10; offset += 3 {
		page, total := listDocuments(t, s, a.ID, store.DocQuery{Offset: offset, Limit: 3})
		if total != 7 {
			t.Fatalf("total on page at %d: %d", offset, total)
		}
		paged = append(paged, documentIDs(page)...)
	}
	if !slices.Equal(paged, documentIDs(all)) {
		t.Fatalf("paged: %v, want %v", paged, documentIDs(all))
	}
	if got, total := listDocuments(t, s, b.ID, store.DocQuery{Limit: 100}); total != 5 || slices.Contains(documentIDs(got), deals) {
		t.Fatalf("the other account's documents: %d %v", total, documentIDs(got))
	}
	if got, total := listDocuments(t, s, b.ID, store.DocQuery{SiteID: site.ID}); total != 0 || len(got) != 0 {
		t.Fatalf("the other account by this account's site: %d %v", total, documentIDs(got))
	}
}

func testDashboardDeleteDocument(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Deleter", 0)
	b, _ := NewAccount(t, s, "Keeper", 0)
	docs := importDocs(t, s, a.ID, kbDocs()...)
	returns, boot, care := docs[0].ID, docs[2].ID, docs[3].ID
	saveCached(t, s, a, "en", "boot price", []string{"boot"}, []int64{boot})
	saveCached(t, s, a, "en", "returns", []string{"return"}, []int64{returns})

	wantNotFound(t, "another account deletes", s.DeleteDocument(ctx(), b.ID, boot))
	if _, err := s.GetDocument(ctx(), a.ID, boot); err != nil {
		t.Fatalf("another account's delete removed the document: %v", err)
	}
	if err := s.DeleteDocument(ctx(), a.ID, boot); err != nil {
		t.Fatal(err)
	}
	_, err := s.GetDocument(ctx(), a.ID, boot)
	wantNotFound(t, "deleted document", err)
	if hits, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "waterproof"}}}); len(hits) != 0 {
		t.Fatalf("the deleted document is still indexed: %+v", hits)
	}
	if ps, _ := s.Products(ctx(), a.ID, store.ProductQuery{Lang: "en"}); len(ps) != 0 {
		t.Fatalf("the deleted product is still listed: %+v", ps)
	}
	if st, _ := s.TermStats(ctx(), a.ID, nil); st.Chunks != 4 {
		t.Fatalf("chunks left: %d", st.Chunks)
	}
	assertCached(t, s, a.ID, map[string]bool{"boot price": false, "returns": true})
	wantNotFound(t, "delete twice", s.DeleteDocument(ctx(), a.ID, boot))

	if err := s.DeleteDocument(ctx(), a.ID, care); err != nil {
		t.Fatal(err)
	}
	if arts, _ := s.Articles(ctx(), a.ID, "", 10); len(arts) != 0 {
		t.Fatalf("the deleted article is still listed: %+v", arts)
	}
	if _, total := listDocuments(t, s, a.ID, store.DocQuery{}); total != 3 {
		t.Fatalf("%d documents left, want 3", total)
	}
	if hits, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "return"}}}); len(hits) != 1 {
		t.Fatalf("an undeleted document lost its index: %+v", hits)
	}
}

func testDashboardReplaceDocument(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Editor", 0)
	b, _ := NewAccount(t, s, "Bystander", 0)
	docs := importDocs(t, s, a.ID, kbDocs()...)
	old := docs[1].ID // "How much is shipping?"
	saveCached(t, s, a, "en", "shipping cost", []string{"ship"}, []int64{old})
	saveCached(t, s, a, "en", "boots", []string{"boot"}, []int64{docs[2].ID})

	edited := qaEntry("What does shipping cost?", "Free over 50 EUR.", "e1")
	wantNotFound(t, "another account replaces", s.ReplaceDocument(ctx(), b.ID, old, edited))
	wantNotFound(t, "no such document", s.ReplaceDocument(ctx(), a.ID, old+100, edited))
	for _, id := range []int64{a.ID, b.ID} {
		if n, _ := s.CountDocuments(ctx(), id); n[store.DocQA] > 1 {
			t.Fatalf("a refused replacement stored a document: %v", n)
		}
	}
	if err := s.ReplaceDocument(ctx(), a.ID, old, edited); err != nil {
		t.Fatal(err)
	}
	if edited.ID == 0 || edited.ID == old {
		t.Fatalf("replacement id %d (old %d)", edited.ID, old)
	}
	_, err := s.GetDocument(ctx(), a.ID, old)
	wantNotFound(t, "the replaced document", err)
	if qs, _ := s.QAQuestions(ctx(), a.ID, "en", 10); !slices.Equal(qs, []string{"What does shipping cost?"}) {
		t.Fatalf("questions after the replacement: %v", qs)
	}
	if hits, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "e1"}}}); len(hits) != 1 ||
		hits[0].DocID != edited.ID {
		t.Fatalf("the replacement is not searchable: %+v", hits)
	}
	if hits, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "much"}}}); len(hits) != 0 {
		t.Fatalf("the replaced text is still indexed: %+v", hits)
	}
	assertCached(t, s, a.ID, map[string]bool{"shipping cost": false, "boots": true})
	wantNotFound(t, "replace the replaced", s.ReplaceDocument(ctx(), a.ID, old, qaEntry("Again?", "x", "e2")))
}

// Of concurrent deletes of one document exactly one succeeds.
func testDashboardConcurrentDeletes(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Racer", 0)
	docs := importDocs(t, s, a.ID, kbDocs()...)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, missing := 0, 0
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.DeleteDocument(ctx(), a.ID, docs[2].ID)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrNotFound):
				missing++
			default:
				t.Errorf("delete %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || missing != 19 {
		t.Fatalf("%d deletes succeeded and %d found nothing, want 1 and 19", ok, missing)
	}
	if n, _ := s.CountDocuments(ctx(), a.ID); n[store.DocProduct] != 0 || n[store.DocPage] != 2 {
		t.Fatalf("documents: %v", n)
	}
}
