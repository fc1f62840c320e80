package chat

import (
	"context"
	"strings"
	"testing"

	"svc/internal/engine"
	"svc/internal/store"
)

// The answer cache is as honest as the engine: these tests run the demo shop (salesChat)
// through the whole send pipeline on a real SQLite store.

// ask sends message in lang on the account's conversation and returns the reply.
func ask(t *testing.T, svc *Service, acct store.Account, lang, message string) store.Message {
	t.Helper()
	acct.Lang = lang
	res, err := svc.Send(context.Background(), acct, 1, message)
	if err != nil {
		t.Fatalf("send %q: %v", message, err)
	}
	return res.Reply
}

func fromCache(m store.Message) bool { return m.Source == store.SourceCacheTenant }

// plant writes a cache entry for question as an earlier engine (or an earlier KB) would have
// left it, with the evidence and documents given.
func plant(t *testing.T, svc *Service, acct store.Account, lang, question, answer, evidence string, docIDs []int64) store.CacheEntry {
	t.Helper()
	ctx := context.Background()
	conv, err := svc.st.OpenConversation(ctx, acct.ID, lang)
	if err != nil {
		t.Fatal(err)
	}
	q := newQuestionKey(question, lang)
	tr := &store.Turn{AccountID: acct.ID, ConversationID: conv.ID, Lang: lang,
		User:   store.Message{Role: store.RoleUser, Body: question, Lang: lang},
		Reply:  store.Message{Role: store.RoleAssistant, Body: answer, Source: store.SourceAI, Lang: lang, DocIDs: docIDs},
		Charge: store.Charge{EventType: store.EventCacheShared},
		Cache: &store.CacheEntry{Lang: lang, Key: q.key, Question: question, Answer: answer, DocIDs: docIDs,
			Terms: q.terms, Evidence: evidence}}
	if err := svc.st.SaveTurn(ctx, tr); err != nil {
		t.Fatalf("plant %q: %v", question, err)
	}
	return *tr.Cache
}

// TestCacheKeepsToTheNamesAsked: an answer that does not name the country or product its
// question names (the engine quoted Germany's shipping price to a question about Austria,
// a boot-care page to a question about the Kaçkar Pro's price) is not served again from the
// cache, to the question or to its rewording; whatever the cache serves names them.
func TestCacheKeepsToTheNamesAsked(t *testing.T) {
	t.Parallel()
	svc, acct, _ := salesChat(t)
	for _, tc := range []struct {
		lang, first, again, name string
	}{
		{"de", "Wie viel kostet der Versand nach Österreich?", "Was kostet der Versand nach Österreich?", "Österreich"},
		{"en", "How much does the Kaçkar Pro hiking boot cost?", "What does the Kaçkar Pro hiking boot cost?", "Kaçkar Pro"},
	} {
		first := ask(t, svc, acct, tc.lang, tc.first)
		if !strings.Contains(first.Body, tc.name) {
			if e, err := svc.st.CachedAnswer(context.Background(), acct.ID, tc.lang, newQuestionKey(tc.first, tc.lang).key); err == nil {
				t.Errorf("%q: the answer %q was cached", tc.first, e.Answer)
			}
		}
		for _, q := range []string{tc.again, tc.first, strings.ToLower(tc.first)} {
			if r := ask(t, svc, acct, tc.lang, q); fromCache(r) && !strings.Contains(r.Body, tc.name) {
				t.Errorf("%q was served from the cache an answer that does not name %s: %q", q, tc.name, r.Body)
			}
		}
	}
}

// TestCachedEntryNamingAnotherCountryNotServed: an entry left by an earlier engine, whose
// answer gives Germany's shipping price to the question about Austria, is not served though
// the engine's evidence for the question is the entry's own: its answer does not name
// Österreich. The engine answers instead, and its answer takes the entry's place.
func TestCachedEntryNamingAnotherCountryNotServed(t *testing.T) {
	t.Parallel()
	svc, acct, _ := salesChat(t)
	ctx := context.Background()
	q := "Was kostet der Versand nach Österreich?"
	ev, err := svc.engine.Evidence(ctx, acct.ID, q, "de")
	if err != nil || ev == "" {
		t.Fatalf("evidence %q, %v", ev, err)
	}
	wrong := "Der Versand nach Deutschland kostet 9,90 €."
	plant(t, svc, acct, "de", q, wrong, ev, nil)
	for round := range 2 {
		if r := ask(t, svc, acct, "de", q); r.Body == wrong {
			t.Fatalf("round %d: the planted answer was served (%s)", round, r.Source)
		}
	}
}

// TestQuestionsNamingOtherThingsDoNotMatch: a curated entry written for Germany is no answer
// to the question without the country, nor one cached for the Ankara store to a question
// about the store, though their words are otherwise the same.
func TestQuestionsNamingOtherThingsDoNotMatch(t *testing.T) {
	t.Parallel()
	svc, acct, _ := salesChat(t)
	if r := ask(t, svc, acct, "de", "Wie lange dauert die Lieferung?"); r.Via == store.ViaCurated {
		t.Errorf("served the curated answer for Deutschland: %q", r.Body)
	}
	if r := ask(t, svc, acct, "de", "Wie lange dauert die Lieferung nach Deutschland?"); r.Via != store.ViaCurated {
		t.Errorf("the curated question itself: %s %q", r.Source, r.Body)
	}
	cached := ask(t, svc, acct, "en", "Is the Ankara store open on Sundays?")
	if r := ask(t, svc, acct, "en", "Is the store open on Sundays?"); fromCache(r) && r.Body == cached.Body {
		t.Errorf("the Ankara store's answer served to a question naming no store: %q", r.Body)
	}
}

func TestNamesAgree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, a, b string
		want       bool
	}{
		{"de", "Was kostet der Versand nach Österreich?", "was kostet der versand nach österreich", true},
		{"de", "Wie lange dauert die Lieferung?", "Wie lange dauert die Lieferung nach Deutschland?", false},
		{"en", "How much is the Kaçkar Pro Trekking Boot?", "What does the Kaçkar Pro Trekking Boot cost?", true},
		{"en", "How much is the Nova 12 Pro?", "How much is the Nova 12 Lite?", false},
		{"en", "Is the Ankara store open on Sundays?", "Is the store open on Sundays?", false},
		{"tr", "Almanya'ya kargo ücreti ne kadar?", "almanyaya kargo ucreti ne kadar", true},
	}
	for _, tc := range tests {
		a, b := newQuestionKey(tc.a, tc.lang), newQuestionKey(tc.b, tc.lang)
		if got := namesAgree(tc.a, a.terms, a.names, tc.b, b.terms, b.names); got != tc.want {
			t.Errorf("%q ~ %q (names %q, %q): %v, want %v", tc.a, tc.b, a.names, b.names, got, tc.want)
		}
	}
}

func TestAnswerNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, question, answer string
		want                   bool
	}{
		{"de", "Was kostet der Versand nach Österreich?", "Der Versand nach Deutschland kostet 9,90 €.", false},
		{"de", "Was kostet der Versand nach Österreich?", "Österreich und andere EU-Länder: 7–10 Werktage, 14,90 €. Quelle: Versand", true},
		{"en", "How much does the Kaçkar Pro hiking boot cost?", "Clean your boots after every hike.\nSource: Caring for your hiking boots", false},
		{"en", "How much is the Nova 12 Lite?", "The Nova 12 Pro costs $699.", false},
		{"en", "Which jacket size for a 100 cm chest?", "Size Chest\nM 96–104 cm\nL 104–112 cm", true},
		{"en", "Can I return shoes within 30 days?", "You may return them within 14 days.", true},
	}
	for _, tc := range tests {
		q := newQuestionKey(tc.question, tc.lang)
		if got := answerNames(q.names, tc.answer, tc.lang); got != tc.want {
			t.Errorf("%q -> %q (names %q): %v, want %v", tc.question, tc.answer, q.names, got, tc.want)
		}
	}
}

// TestFlaggedAnswerNotServedAgain: an answer the visitor rated not helpful leaves the cache:
// neither its question nor a rewording is served it again.
func TestFlaggedAnswerNotServedAgain(t *testing.T) {
	t.Parallel()
	svc, acct, _ := salesChat(t)
	q := "How much does the Uludağ 2 tent weigh?"
	first := ask(t, svc, acct, "en", q)
	hit := ask(t, svc, acct, "en", q)
	if first.Source != store.SourceAI || !fromCache(hit) || hit.Body != first.Body {
		t.Fatalf("not cached: %s %q, then %s %q", first.Source, first.Body, hit.Source, hit.Body)
	}
	if err := svc.Feedback(context.Background(), acct, hit.ID, RatingNotHelpful, "wrong tent"); err != nil {
		t.Fatal(err)
	}
	for _, again := range []string{q, "What does the Uludağ 2 tent weigh?"} {
		if r := ask(t, svc, acct, "en", again); fromCache(r) {
			t.Errorf("%q served from the cache after the flag: %q", again, r.Body)
		}
	}
}

// TestAnswerOfDeletedDocumentNotServed: once the document an answer quoted is deleted, the
// question is not served that answer from the cache.
func TestAnswerOfDeletedDocumentNotServed(t *testing.T) {
	t.Parallel()
	svc, acct, _ := salesChat(t)
	ctx := context.Background()
	q := "Is the Ankara store open on Sundays?"
	first := ask(t, svc, acct, "en", q)
	if hit := ask(t, svc, acct, "en", q); first.Source != store.SourceAI || !fromCache(hit) || len(first.DocIDs) == 0 {
		t.Fatalf("not cached: %s %q %v, then %s", first.Source, first.Body, first.DocIDs, hit.Source)
	}
	for _, id := range first.DocIDs {
		if err := svc.st.DeleteDocument(ctx, acct.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	if r := ask(t, svc, acct, "en", q); fromCache(r) || r.Body == first.Body {
		t.Errorf("served after its document was deleted: %s %q", r.Source, r.Body)
	}
}

// TestEntryTheEngineNoLongerGivesNotServed: an entry that no change of its own documents
// withdraws is still not served once the engine would not give it: one of a question the
// engine now declines, and one whose evidence lay in a document deleted since it was
// served (the engine is asked again when the KB's version moves).
func TestEntryTheEngineNoLongerGivesNotServed(t *testing.T) {
	t.Parallel()
	svc, acct, _ := salesChat(t)
	ctx := context.Background()

	// Cached by a looser engine: a question the KB does not answer.
	kayak := "Do you rent out kayaks?"
	if ev, err := svc.engine.Evidence(ctx, acct.ID, kayak, "en"); err != nil || ev != "" {
		t.Fatalf("the engine answers %q: %q %v", kayak, ev, err)
	}
	plant(t, svc, acct, "en", kayak, "Yes, kayaks are for rent.", "1:00112233aabbccdd", nil)
	if r := ask(t, svc, acct, "en", kayak); fromCache(r) {
		t.Errorf("%q served a stale entry: %q", kayak, r.Body)
	}

	// An entry the engine stands behind, listed under another document than its evidence's.
	q := "Is the Ankara store open on Sundays?"
	ev, err := svc.engine.Evidence(ctx, acct.ID, q, "en")
	evDoc, ok := engine.EvidenceDoc(ev)
	if err != nil || !ok {
		t.Fatalf("evidence %q %v", ev, err)
	}
	other := evDoc + 1
	if _, err := svc.st.GetDocument(ctx, acct.ID, other); err != nil {
		other = evDoc - 1
	}
	answer := "Our Ankara store opens on Sundays, as the store page says."
	plant(t, svc, acct, "en", q, answer, ev, []int64{other})
	if r := ask(t, svc, acct, "en", q); !fromCache(r) || r.Body != answer {
		t.Fatalf("an entry the engine stands behind was not served: %s %q", r.Source, r.Body)
	}
	if err := svc.st.DeleteDocument(ctx, acct.ID, evDoc); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.st.CachedAnswer(ctx, acct.ID, "en", newQuestionKey(q, "en").key); err != nil {
		t.Fatalf("the store withdrew the entry itself (%v): the test no longer tests the engine's check", err)
	}
	if r := ask(t, svc, acct, "en", q); fromCache(r) && r.Body == answer {
		t.Errorf("served after the document of its evidence was deleted: %q", r.Body)
	}
}
