package engine

import (
	"context"
	"strings"
	"testing"

	"svc/internal/store"
)

// TestRetrieveFindsThePage asks the shop KB questions typed the way visitors type them
// (no diacritics, inflected words, apostrophe suffixes) and checks the page that answers
// comes first.
func TestRetrieveFindsThePage(t *testing.T) {
	e, acct := shopKB(t)
	tests := []struct {
		lang, question string
		wantTitle      string
		wantText       string // a text the first passage must contain
	}{
		{"tr", "ayakkabı iadesi nasıl yapılır", "İade ve değişim", "Ayakkabıların iadesi"},
		{"tr", "nasil siparis veririm", "Nasıl sipariş veririm?", "sepete ekleyin"},
		{"tr", "İstanbul'da mağazanız var mı", "İstanbul mağazası", "Beşiktaş"},
		{"tr", "kargo ücreti ne kadar", "Kargo ve teslimat", "79,90 TL"},
		{"de", "Wie lange dauern Lieferungen?", "Lieferung", "2–4 Werktagen"},
		{"de", "Kann ich Schuhe zurückgeben?", "Rücksendung", "30 Tage"},
		{"de", "wie bestelle ich", "Wie bestelle ich?", "Warenkorb"},
		{"en", "Can I return shoes for free?", "Returns", "free of charge"},
		{"en", "how long does shipping take", "Shipping", "2–4 business days"},
		{"en", "When is the Istanbul store open?", "Our stores", "10:00 to 20:00"},
		{"en", "How much is the Storm Jacket?", "Storm Jacket", "3,450.00 TL"},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			ps, err := e.Retrieve(context.Background(), acct, tt.question, tt.lang, 3)
			if err != nil {
				t.Fatalf("Retrieve: %v", err)
			}
			if len(ps) == 0 {
				t.Fatal("no passages")
			}
			if ps[0].Title != tt.wantTitle || !strings.Contains(ps[0].Text, tt.wantText) {
				t.Errorf("first passage %q (%q), want %q containing %q", ps[0].Title, ps[0].Text, tt.wantTitle, tt.wantText)
			}
			seen := map[int64]bool{}
			for i, p := range ps {
				if seen[p.DocID] {
					t.Errorf("document %d listed twice", p.DocID)
				}
				seen[p.DocID] = true
				if i > 0 && p.Score > ps[i-1].Score {
					t.Errorf("passage %d scores %.3f above passage %d (%.3f)", i, p.Score, i-1, ps[i-1].Score)
				}
			}
		})
	}
}

func TestRetrieveProduct(t *testing.T) {
	e, acct := shopKB(t)
	ps, err := e.Retrieve(context.Background(), acct, "Fırtına mont fiyatı", "tr", 1)
	if err != nil {
		t.Fatalf("Retrieve: %v", err)
	}
	if len(ps) != 1 || ps[0].Product == nil {
		t.Fatalf("got %+v, want one product passage", ps)
	}
	if ps[0].Product.Price != "3.450,00 TL" || ps[0].DocType != "product" {
		t.Errorf("product = %+v, type %q", ps[0].Product, ps[0].DocType)
	}
}

func TestRetrieveNothing(t *testing.T) {
	e, acct := shopKB(t)
	tests := []struct{ lang, question string }{
		{"en", ""},
		{"en", "what is it?"},               // stop words only
		{"tr", "kuantum dolanıklığı nedir"}, // no term in the KB
	}
	for _, tt := range tests {
		ps, err := e.Retrieve(context.Background(), acct, tt.question, tt.lang, 5)
		if err != nil {
			t.Fatalf("Retrieve(%q): %v", tt.question, err)
		}
		if len(ps) != 0 {
			t.Errorf("Retrieve(%q) = %d passages, want none", tt.question, len(ps))
		}
	}
}

// TestRetrieveAccountsAreSeparate checks that one account's question never sees another
// account's pages.
func TestRetrieveAccountsAreSeparate(t *testing.T) {
	e, acct := shopKB(t)
	ps, err := e.Retrieve(context.Background(), acct+1000, "Can I return shoes for free?", "en", 3)
	if err != nil {
		t.Fatalf("Retrieve: %v", err)
	}
	if len(ps) != 0 {
		t.Errorf("unknown account got %d passages", len(ps))
	}
}

// poolTerms keeps the rarest terms until they match the pool's size, in the question's order,
// and every term when their lists are short (a small KB) or pooling is off; a term whose list
// would take a full pool past poolCeiling times its size is left out.
func TestPoolTerms(t *testing.T) {
	st := store.TermStats{Chunks: 50000, DocFreq: map[string]int{"super": 6000, "bowl": 5000, "denver": 900,
		"broncos": 400, "year": 9000, "zzz": 0}}
	terms := func(ts ...string) []store.SearchTerm {
		out := make([]store.SearchTerm, len(ts))
		for i, s := range ts {
			out[i] = store.SearchTerm{Text: s}
		}
		return out
	}
	names := func(ts []store.SearchTerm) string {
		var out []string
		for _, s := range ts {
			out = append(out, s.Text)
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		in         []store.SearchTerm
		poolChunks int
		want       string
	}{
		// 400 + 900 < 2000, so the next rarest (bowl, 5000) is kept too; super and year not.
		{terms("year", "denver", "super", "bowl", "broncos"), 2500, "denver bowl broncos"},
		// ... unless bowl's list would take the full pool (1,300 chunks) past 3 × 2000.
		{terms("year", "denver", "super", "bowl", "broncos"), 2000, "denver broncos"},
		{terms("year", "denver", "super", "bowl", "broncos"), -1, "year denver super bowl broncos"},
		{terms("year", "denver"), 500, "denver"},
		{terms("year"), 10, "year"},
		// A term the KB lacks matches nothing and keeps the next; so does a pool short of
		// candidates, however long the next list is.
		{terms("zzz", "year", "super"), 2000, "zzz super"},
		{terms("zzz", "year", "super"), 1000, "zzz super"},
		// Short lists: every term.
		{terms("denver", "broncos"), 2000, "denver broncos"},
	}
	for _, tc := range tests {
		if got := names(poolTerms(tc.in, st, tc.poolChunks, 50)); got != tc.want {
			t.Errorf("poolTerms(%s, %d) = %q, want %q", names(tc.in), tc.poolChunks, got, tc.want)
		}
	}
}

// A page that reprints another's text (a press kit quoting the FAQ) is one passage, not two:
// the copy takes no place among the passages and the best passage stands above the next
// different one.
func TestRetrieveDropsRepeats(t *testing.T) {
	t.Parallel()
	entry := "## How fast is a Lumen payment?\n\nA Lumen payment is confirmed within about ten seconds, whatever its size."
	e, acct := docsKB(t, Options{MinAnswerability: -1},
		[3]string{"FAQ", "# FAQ\n\n" + entry + "\n\n## Is Lumen free?\n\nYes.", "en"},
		[3]string{"Press kit", "# Press kit\n\nFacts for journalists.\n\n" + entry, "en"},
		[3]string{"Payments", "# Payments\n\nA Lumen payment needs a wallet and the address of the payee.", "en"})
	ps, err := e.Retrieve(context.Background(), acct, "How fast is a Lumen payment?", "en", 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Text] {
			t.Errorf("passage %q twice: %+v", p.Text, ps)
		}
		seen[p.Text] = true
	}
	if len(ps) < 2 || !strings.Contains(ps[0].Text, "ten seconds") {
		t.Errorf("passages %+v", ps)
	}
	if a := ask(t, e, acct, "en", "How fast is a Lumen payment?"); a.Features[featMargin] == 0 {
		t.Errorf("the best passage stands no higher than its copy: features %v", a.Features.Map())
	}
}
