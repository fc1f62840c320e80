package demo

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

// demoQuestions are questions the demo KB answers; each names a text that one of the best
// few chunks must contain. They double as the list to try the demo with.
var demoQuestions = []struct {
	lang, question, want string
}{
	{"tr", "ayakkabı iadesi nasıl yapılır", "Ayakkabıların iadesi 30 gün içinde ücretsizdir"},
	{"tr", "İstanbul'da mağazanız var mı", "İstanbul'daki mağazamız Kadıköy'de"},
	{"tr", "Kargo ücreti ne kadar?", "89,90 TL"},
	{"tr", "Almanya'ya gönderim yapıyor musunuz?", "9,90 €"},
	{"tr", "Kaç taksit yapabiliyorsunuz?", "9 taksit"},
	{"tr", "Kadıköy mağazası pazar günü açık mı?", "Pazar 12:00–19:00"},
	{"tr", "42 numara ayakkabı için ayak uzunluğu kaç cm?", "26,7 cm 42"},
	{"tr", "Garanti süresi ne kadar?", "2 yıl garantilidir"},
	{"tr", "Siparişimi nasıl takip ederim?", "takip numarası"},
	{"tr", "Kaçkar botunun fiyatı ne kadar?", "4.290,00 TL"},
	{"en", "How long does delivery take?", "5–7 business days"},
	{"en", "How much does shipping to Germany cost?", "9,90 €"},
	{"en", "Do you ship to the United States?", "$24.00"},
	{"en", "Can I return shoes for free?", "Returning shoes and boots is free"},
	{"en", "Can I pay in instalments?", "9 instalments"},
	{"en", "Do you have a store in Istanbul?", "Moda Caddesi No: 48"},
	{"en", "What are the opening hours of the Kadıköy store?", "Sunday 12:00–19:00"},
	{"en", "Which jacket size for a 100 cm chest?", "M 96–104 cm"},
	{"en", "How much does the Uludağ 2 tent cost?", "$199.00"},
	{"en", "How do I track my order?", "tracking number"},
	{"de", "Wie lange dauern Lieferungen nach Deutschland?", "5–7 Werktage"},
	{"de", "Was kostet der Versand?", "9,90 €"},
	{"de", "Muss ich Zoll bezahlen?", "Einfuhrumsatzsteuer"},
	{"de", "Kann ich auf Rechnung bezahlen?", "1.000 €"},
	{"de", "Wie gebe ich Schuhe zurück?", "Schuhen und Stiefeln"},
	{"de", "Haben Sie ein Geschäft in Deutschland?", "keine Filiale"},
	{"de", "Wie lange habe ich Garantie?", "2 Jahre Garantie"},
	{"de", "Was kostet der Trekkingstiefel Kaçkar?", "119,90 €"},
	{"de", "Welche Schuhgröße brauche ich?", "Fußlänge"},
	{"de", "Wie kann ich meine Bestellung verfolgen?", "Sendungsnummer"},
}

// TestDemoQuestionsFindTheirAnswers imports the demo KB into the embedded store and checks
// that plain full-text retrieval already brings each demo question's answer near the top.
func TestDemoQuestionsFindTheirAnswers(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer st.Close()
	acct, _ := storetest.NewAccount(t, st, "Demo", 0)
	res, err := kb.Import(ctx, st, acct.ID, 0, Reader())
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	if res.Pages < 18 || res.QA < 15 || res.Products < 18 || res.Articles < 6 {
		t.Errorf("import result %+v is short", res)
	}
	const top = 3
	for _, q := range demoQuestions {
		var terms []store.SearchTerm
		for _, qt := range textindex.QueryTerms(q.question, q.lang) {
			terms = append(terms, store.SearchTerm{Text: qt.Text, Prefix: qt.Prefix})
		}
		hits, err := st.SearchChunks(ctx, acct.ID, store.SearchQuery{Terms: terms, Limit: 20})
		if err != nil {
			t.Fatalf("%s: %v", q.question, err)
		}
		found := -1
		var sameLang []store.ChunkHit
		for _, h := range hits {
			if h.Lang == q.lang {
				sameLang = append(sameLang, h)
			}
		}
		for i, h := range sameLang {
			if i < top && strings.Contains(h.Text, q.want) {
				found = i
				break
			}
		}
		if found < 0 {
			var got []string
			for i, h := range sameLang {
				if i == top {
					break
				}
				got = append(got, h.Title+" / "+h.Heading)
			}
			t.Errorf("%s %q: no chunk with %q in the top %d %s hits; got %q", q.lang, q.question, q.want, top, q.lang, got)
		}
	}
}
