package engine

import (
	"testing"

	"svc/internal/store"
	"svc/internal/textindex"
)

func TestEntryMatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		question, heading, lang string
		atLeast, below          float64
	}{
		// The question phrase and the filler count: the heading repeats them.
		{"How big is the blockchain now?", "How big is the Monero blockchain?", "en", 0.5, 1.01},
		// Turkish words meet on their prefix: alabilirim, alabilir.
		{"Monero'yu nereden satın alabilirim?", "SSS › Nasıl Monero alabilirim?", "tr", 0.5, 1.01},
		// A question phrase worded otherwise costs nothing ("woran liegt das" and "Warum"),
		// and a near match counts half (synchronisiert, Synchronisierung).
		{"Mein Wallet synchronisiert ewig, woran liegt das?", "Warum dauert die Synchronisierung meiner Wallet so lang?", "de", 0.5, 1.01},
		// A heading that is no question is no FAQ entry.
		{"How big is the blockchain now?", "How big the blockchain is", "en", 0, 0.01},
		// Another entry that shares two words is not the question's own.
		{"How do I make a view-only wallet if I can still open my normal wallet?",
			"What is the difference between a lightweight and normal wallet?", "en", 0, 0.5},
	}
	for _, c := range cases {
		qa := analyzeQuestion(c.question, c.lang)
		qa.keepSeen(nil) // the KB has no joined compound of the question's words
		m := entryMatch(textindex.QueryTerms(c.question, c.lang), len(qa.terms), c.heading, c.lang, 0.5)
		if m < c.atLeast || m >= c.below {
			t.Errorf("entryMatch(%q, %q) = %.2f, want in [%.2f, %.2f)", c.question, c.heading, m, c.atLeast, c.below)
		}
	}
}

func TestContentsLike(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text string
		want bool
	}{
		{"Table of contents:\nWhat is the restore height?\nWhy do wallets have one?\nHow to change it\nMy balance is wrong after changing it", true},
		{"İçindekiler\nCüzdan nasıl kurulur?\nYedek nasıl alınır?\nGeri yükleme", true},
		// A list of things is an answer: "which payment methods do you accept?"
		{"We accept:\nCredit card\nPayPal\nInvoice", false},
		{"Inhalt\nInstallation\nSicherung\nWiederherstellung", false},
		// Sentences, and lines with numbers (opening hours, prices), are answers.
		{"Open on Sunday\nMon–Fri 9–18\nSat 10–16\nSun closed", false},
		{"The fee does not depend on the amount.\nIt depends on the size.\nSee below.", false},
		{"Only two lines\nof a list", false},
	}
	for _, c := range cases {
		if got := contentsLike(&store.ChunkHit{Text: c.text, DocType: store.DocPage}); got != c.want {
			t.Errorf("contentsLike(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestTitleDefines(t *testing.T) {
	t.Parallel()
	q := query{lang: "de", terms: textindex.QueryTerms("View Key Wallet", "de"), idf: []float64{1, 1, 2}, total: 4}
	if got := q.titleDefines("View-key", "de"); got != 0.5 {
		t.Errorf("glossary title: %.2f, want 0.5", got)
	}
	// A title with a word the question lacks is about something else.
	if got := q.titleDefines("Wallets nur zum Ansehen", "de"); got != 0 {
		t.Errorf("guide title: %.2f, want 0", got)
	}
}
