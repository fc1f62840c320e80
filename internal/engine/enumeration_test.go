package engine

import (
	"context"
	"strings"
	"testing"
)

// TestListAnswersWhatItOmits: a yes/no question about one thing the KB never names is
// answered by a sentence that lists, beside the question's other word, what there is
// instead; not when the question asks what something is, nor when the sentence's commas set
// off a clause rather than a list.
func TestListAnswersWhatItOmits(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{},
		[3]string{"Payment", "We accept credit cards, bank transfer, cash on delivery and gift vouchers. Card payments are protected by 3D Secure.", "en"},
		[3]string{"Delivery", "Parcels are delivered by our own vans, and a driver calls before he arrives, usually within an hour. Delivery is free from 50 €.", "en"})
	tests := []struct {
		question string
		answered bool
	}{
		{"Do you accept Klarna?", true},
		{"What is Klarna?", false},
		{"Do you deliver by drone?", false},
	}
	for _, tt := range tests {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tt.question, Lang: "en"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Confident != tt.answered || tt.answered && !strings.Contains(a.Text, "bank transfer") {
			t.Errorf("%q: answered %v, want %v: %q", tt.question, a.Confident, tt.answered, a.Text)
		}
	}
	for _, s := range []struct {
		text  string
		items int
	}{
		{"We accept credit cards, bank transfer, cash on delivery and gift vouchers.", 4},
		{"We accept credit and debit cards, bank transfer, cash on delivery in Turkey, and invoice for customers in Germany.", 4},
		{"Some modern scholars, such as Fielding H. Garrison, hold that geology began in Persia.", 0},
		{"Shipping costs 9,90 € and 14,90 € abroad.", 0},
	} {
		if got := listItems(listRuns(s.text), "en"); got != s.items {
			t.Errorf("listItems(%q) = %d, want %d", s.text, got, s.items)
		}
	}
}
