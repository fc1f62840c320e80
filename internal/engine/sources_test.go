package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"svc/internal/store"
)

func TestSourcesNameDocumentsInOrderOnceEach(t *testing.T) {
	t.Parallel()
	passages := []Passage{
		{DocID: 1, Title: "Returns", URL: "https://shop.test/returns"},
		{DocID: 1, Title: "Returns", URL: "https://shop.test/returns"}, // a second chunk of it
		{DocID: 2, Title: "How do I order?"},                           // a Q&A entry: no page
		{DocID: 3, Title: "  ", URL: "https://shop.test/untitled"},     // named by its URL
		{DocID: 4, Title: "Returns (copy)", URL: "https://shop.test/returns"},
		{DocID: 5},
	}
	cards := []Card{
		{DocID: 6, Product: store.Product{Name: "Storm Jacket", URL: "https://shop.test/p/storm"}},
		{DocID: 7, Product: store.Product{Name: "Trail Boot", URL: "https://shop.test/p/boot"}},
	}
	got := Sources([]int64{1, 2, 3, 4, 5, 99, 6, 7}, passages, cards)
	want := []store.Source{
		{Title: "Returns", URL: "https://shop.test/returns"},
		{Title: "How do I order?"},
		{Title: "https://shop.test/untitled", URL: "https://shop.test/untitled"},
		{Title: "Storm Jacket", URL: "https://shop.test/p/storm"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("sources\n got %+v\nwant %+v", got, want)
	}
	if len(got) != MaxSources {
		t.Fatalf("%d sources, the cap is %d", len(got), MaxSources)
	}
	if none := Sources(nil, passages, cards); none == nil || len(none) != 0 {
		t.Fatalf("no documents: %#v, want an empty list", none)
	}
	// Two Q&A entries are told apart by their titles, case aside.
	qa := Sources([]int64{1, 2}, []Passage{{DocID: 1, Title: "Do you ship?"}, {DocID: 2, Title: "do you SHIP?"}}, nil)
	if len(qa) != 1 {
		t.Fatalf("Q&A sources %+v", qa)
	}
}

// The first source is the document the reply's source line names, with or without a URL,
// and a fallback names none.
func TestAnswerSourcesMatchTheSourceLine(t *testing.T) {
	e, acct := shopKB(t)
	for _, tt := range []struct{ lang, question, title, url string }{
		{"en", "Can I return shoes for free?", "Returns", "https://kuzey-patika.example/en/returns"},
		{"de", "Wie lange dauern Lieferungen?", "Lieferung", "https://kuzey-patika.example/de/lieferung"},
		{"tr", "nasil siparis veririm", "Nasıl sipariş veririm?", ""},
	} {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tt.question, Lang: tt.lang})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Sources) == 0 || a.Sources[0] != (store.Source{Title: tt.title, URL: tt.url}) {
			t.Fatalf("%q: sources %+v, want %s %s first", tt.question, a.Sources, tt.title, tt.url)
		}
		lines := strings.Split(a.Text, "\n")
		if line := lines[len(lines)-1]; line != SourceLine(tt.lang, tt.title, tt.url) {
			t.Fatalf("%q: the source line %q does not name the first source", tt.question, line)
		}
	}
	a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: "Will it rain in Istanbul tomorrow?", Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Confident || a.Sources == nil || len(a.Sources) != 0 {
		t.Fatalf("fallback: confident %v, sources %#v", a.Confident, a.Sources)
	}
}

// With product cards, the sources name the cards' product pages after the page quoted.
func TestAnswerSourcesNameTheCardsPages(t *testing.T) {
	e, acct, _ := demoSalesKB(t)
	a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: "Which tent do you recommend?", Lang: "en", SalesMode: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cards) == 0 {
		t.Fatalf("no cards: %q", a.Text)
	}
	for _, c := range a.Cards[:min(len(a.Cards), MaxSources-1)] {
		if !slices.Contains(a.Sources, store.Source{Title: c.Product.Name, URL: c.Product.URL}) &&
			!slices.ContainsFunc(a.Sources, func(s store.Source) bool { return s.URL == c.Product.URL }) {
			t.Errorf("card %s (%s) is not among the sources %+v", c.Product.Name, c.Product.URL, a.Sources)
		}
	}
	if len(a.Sources) > MaxSources {
		t.Errorf("%d sources", len(a.Sources))
	}
}
