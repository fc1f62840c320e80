package postgres_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
	"svc/internal/textindex"
)

// rankCorpus is a small help centre in the three languages, some pages of a site.
var rankCorpus = []struct{ lang, text string }{
	{"tr", "İade süresi 14 gündür. İadesi yapılan ayakkabılar kargo ile gönderilir."},
	{"tr", "Ayakkabı numaraları 36 ile 46 arasındadır. Ayakkabı bakımı için sprey önerilir."},
	{"tr", "Kargo ücretsizdir. Kargo iki gün içinde teslim edilir; İstanbul'da aynı gün."},
	{"tr", "Nasıl iade ederim? İade formunu doldurun, kargo kodu e-posta ile gelir."},
	{"en", "Returns are free within 30 days. Return shipping labels come by e-mail."},
	{"en", "Shipping takes two days. Express shipping costs 5 USD, free shipping over 50 USD."},
	{"en", "Boots come in sizes 36 to 46. Our boots are waterproof leather boots."},
	{"en", "Gift cards never expire. A gift card can pay for shipping too."},
	{"de", "Die Rücksendung ist 30 Tage kostenlos. Rücksendungen bitte mit dem Etikett."},
	{"de", "Der Versand dauert zwei Tage. Versandkosten entfallen ab 50 Euro."},
	{"de", "Stiefel gibt es in den Größen 36 bis 46. Die Stiefel sind wasserdicht."},
	{"de", "Geschenkgutscheine verfallen nie und gelten auch für den Versand."},
}

// The same KB and the same questions give the same candidates, in the same order and with
// the same scores, on both stores: the BM25 in Go is FTS5's bm25(). (One account, so FTS5's
// table-wide totals are the account's.)
func TestSearchRanksLikeSQLite(t *testing.T) {
	t.Parallel()
	url := testURL(t)
	ctx := context.Background()
	pg := openFresh(t, url, time.Now)
	defer pg.Close()
	lite, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	var site int64
	for _, s := range []store.Store{pg, lite} {
		a, _ := storetest.NewAccount(t, s, "Ranked", 0)
		st := store.Site{AccountID: a.ID, URL: "https://shop.test", Host: "shop.test"}
		if err := s.CreateSite(ctx, &st); err != nil {
			t.Fatal(err)
		}
		site = st.ID
		var docs []store.Document
		for i, c := range rankCorpus {
			// Every third page belongs to the site: its rows have one scope token more.
			d := store.Document{Type: store.DocPage, URL: fmt.Sprintf("https://shop.test/%d", i), Title: fmt.Sprint(i),
				Body: c.text, Lang: c.lang, Hash: fmt.Sprint(i)}
			if i%3 == 0 {
				d.SiteID = st.ID
			}
			for _, sentence := range strings.SplitAfter(c.text, ". ") {
				d.Chunks = append(d.Chunks, store.Chunk{Text: sentence,
					Terms: strings.Join(textindex.IndexTerms(sentence, c.lang), " ")})
			}
			docs = append(docs, d)
		}
		if _, err := s.ImportDocuments(ctx, a.ID, docs); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []struct {
		text, lang string
		site       int64
	}{
		{"ayakkabı iadesi", "tr", 0},
		{"kargo ne zaman gelir", "tr", 0},
		{"nasil iade ederim", "tr", site},
		{"free shipping boots", "en", 0},
		{"gift card shipping", "en", 0},
		{"waterproof boots", "en", site},
		{"Versandkosten Stiefel", "de", 0},
		{"Rücksendung 30 Tage", "de", 0},
	} {
		var terms []store.SearchTerm
		for _, t := range textindex.QueryTerms(q.text, q.lang) {
			terms = append(terms, store.SearchTerm{Text: t.Text, Prefix: t.Prefix})
		}
		sq := store.SearchQuery{Terms: terms, Limit: 5, SiteID: q.site}
		want, err := lite.SearchChunks(ctx, 1, sq)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pg.SearchChunks(ctx, 1, sq)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("%q: %d hits on PostgreSQL, %d on SQLite", q.text, len(got), len(want))
		}
		for i := range want {
			if got[i].Text != want[i].Text || math.Abs(got[i].Rank-want[i].Rank) > 1e-9 {
				t.Errorf("%q hit %d: PostgreSQL %.9f %q, SQLite %.9f %q", q.text, i, got[i].Rank, got[i].Text,
					want[i].Rank, want[i].Text)
			}
		}
	}
}

// A term longer than PostgreSQL's lexeme limit (a run of letters thousands long on a crawled
// page) is left out of the index instead of failing the import, and query terms holding
// tsquery syntax are only text.
func TestOddTerms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openFresh(t, testURL(t), time.Now)
	defer s.Close()
	a, _ := storetest.NewAccount(t, s, "Odd", 0)
	terms := strings.Repeat("x", 3000) + " boot it's back\\slash a|b"
	doc := store.Document{Type: store.DocPage, URL: "https://odd.test", Title: "Odd", Body: "odd", Lang: "en", Hash: "1",
		Chunks: []store.Chunk{{Text: "odd", Terms: terms}}}
	if _, err := s.ImportDocuments(ctx, a.ID, []store.Document{doc}); err != nil {
		t.Fatalf("import with an overlong term: %v", err)
	}
	for _, q := range []store.SearchTerm{{Text: "boot"}, {Text: "it's"}, {Text: `back\slash`}, {Text: "a|b"},
		{Text: "it", Prefix: true}} {
		hits, err := s.SearchChunks(ctx, a.ID, store.SearchQuery{Terms: []store.SearchTerm{q}})
		if err != nil || len(hits) != 1 {
			t.Errorf("%+v: %v %d hits, want 1", q, err, len(hits))
		}
	}
	for _, q := range []string{"&", "!", ":*", "'", `\`, "(", strings.Repeat("y", 3000)} {
		hits, err := s.SearchChunks(ctx, a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: q}}})
		if err != nil || len(hits) != 0 {
			t.Errorf("%.20q: %v %d hits, want none", q, err, len(hits))
		}
	}
}
