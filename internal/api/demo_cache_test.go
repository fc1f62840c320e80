package api_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"svc/internal/account"
	"svc/internal/kb"
	"svc/internal/store"
)

// addQA imports a curated Q&A entry into the account's KB.
func (h *harness) addQA(accountID int64, question, answer, lang string) {
	h.t.Helper()
	doc, err := kb.CuratedAnswer(question, answer, lang)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.st.ImportDocuments(context.Background(), accountID, []store.Document{doc}); err != nil {
		h.t.Fatal(err)
	}
}

// TestCuratedRewordingsServedFree: a question worded differently from a curated Q&A entry
// ("zahlen" for "bezahlen", "make a payment" for "pay", the first person plural for the
// singular) is served the entry as written, free, while a different question on the same
// subject (a refund to PayPal) is not, in every language.
func TestCuratedRewordingsServedFree(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, tc := range []struct {
		lang, question, answer string
		reworded, different    []string
	}{
		{"de", "Kann ich mit PayPal bezahlen?", "Ja, an der Kasse können Sie PayPal wählen.",
			[]string{"Kann ich mit PayPal zahlen?", "kann ich mit paypal bezahlen"},
			[]string{"Bekomme ich die Erstattung auf mein PayPal-Konto?", "Kann ich mit Kreditkarte bezahlen?"}},
		{"en", "Can I pay with PayPal?", "Yes, PayPal is offered at checkout.",
			[]string{"Can I make a payment with PayPal?", "can i pay with paypal"},
			[]string{"Do you refund to PayPal?", "Can I pay with a credit card?"}},
		{"tr", "PayPal ile ödeme yapabilir miyim?", "Evet, ödeme adımında PayPal seçebilirsiniz.",
			[]string{"PayPal ile ödeme yapabilir miyiz?", "paypal ile odeme yapabilir miyim"},
			[]string{"İade PayPal hesabıma yapılır mı?", "Kredi kartı ile ödeme yapabilir miyim?"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			id, key := h.tenant(account.Settings{Name: ptr("Curated " + tc.lang), BalanceMicro: ptr(int64(10_000_000)),
				SendRatePerMin: ptr(1000)})
			h.addQA(id, tc.question, tc.answer, tc.lang)
			for _, q := range tc.reworded {
				before := h.balance(id)
				d, _ := h.send(key, q)
				if rep := d.Messages[1]; rep.Source != "cache_tenant" || rep.Body != tc.answer {
					t.Errorf("%q: %s %q, want the curated answer from the cache", q, rep.Source, rep.Body)
				}
				if after := h.balance(id); after != before {
					t.Errorf("%q was billed %d micro-USD", q, before-after)
				}
			}
			for _, q := range tc.different {
				d, _ := h.send(key, q)
				if rep := d.Messages[1]; rep.Body == tc.answer {
					t.Errorf("%q was served the curated answer of %q", q, tc.question)
				}
			}
		})
	}
}

// TestReviewedAnswerLeavesCache: an answer served from the cache and then flagged, and
// corrected with review answer, is never served again: not to the question, not to a similar
// one; the question and its rewordings get the correction.
func TestReviewedAnswerLeavesCache(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, tc := range []struct {
		lang, question, similar, correction string
	}{
		{"en", "How much does the Uludağ 2 tent weigh?", "What does the Uludağ 2 tent weigh?",
			"The Uludağ 2 tent weighs 2.1 kg packed."},
		{"de", "Wie viel wiegt das Zelt Uludağ 2?", "Was wiegt das Uludağ 2 Zelt?",
			"Das Zelt Uludağ 2 wiegt verpackt 2,1 kg."},
		{"tr", "Uludağ 2 çadırın ağırlığı ne kadar?", "Uludağ 2 çadırının ağırlığı nedir?",
			"Uludağ 2 çadırı paketli olarak 2,1 kg gelir."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			id, key := h.tenant(account.Settings{Name: ptr("Review " + tc.lang), BalanceMicro: ptr(int64(10_000_000)),
				SendRatePerMin: ptr(1000)})
			first, _ := h.send(key, tc.question)
			old := first.Messages[1].Body
			if first.Messages[1].Source != "ai" {
				t.Skipf("%q is not answered by the engine: %s", tc.question, first.Messages[1].Source)
			}
			// Asked again: served from the cache; that reply is the one the visitor flags.
			again, _ := h.send(key, tc.question)
			if rep := again.Messages[1]; rep.Source != "cache_tenant" || rep.Body != old {
				t.Fatalf("second ask: %s %q", rep.Source, rep.Body)
			}
			r := h.postForm("/api/v1/chat/feedback", key, url.Values{"messageId": {fmt.Sprint(again.Messages[1].ID)},
				"rating": {"not_helpful"}})
			if r.Status != 200 {
				t.Fatalf("feedback: %d %s", r.Status, r.raw)
			}
			for _, q := range []string{tc.question, tc.similar} {
				if d, _ := h.send(key, q); d.Messages[1].Source == "cache_tenant" && d.Messages[1].Body == old {
					t.Errorf("%q after the flag: the flagged answer from the cache", q)
				}
			}
			items, err := h.st.ReviewList(context.Background(), id)
			if err != nil || len(items) != 1 {
				t.Fatalf("review list: %v %+v", err, items)
			}
			doc, err := kb.CuratedAnswer(items[0].Question, tc.correction, items[0].Lang)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.st.ResolveReview(context.Background(), id, items[0].FeedbackID, &doc); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{tc.question, tc.similar, tc.similar} {
				d, _ := h.send(key, q)
				rep := d.Messages[1]
				if rep.Body == old {
					t.Errorf("%q after the review: the flagged answer (%s)", q, rep.Source)
				}
				if rep.Source != "cache_tenant" || rep.Body != tc.correction {
					t.Errorf("%q after the review: %s %q, want the correction", q, rep.Source, rep.Body)
				}
			}
		})
	}
}
