package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

func reviewQueue(t *testing.T, s store.Store, accountID int64, kind string, offset, limit int) ([]store.ReviewQueueItem, int) {
	t.Helper()
	items, total, err := s.ReviewQueue(ctx(), accountID, kind, offset, limit)
	if err != nil {
		t.Fatalf("review queue %q: %v", kind, err)
	}
	return items, total
}

// reviewKeys names items as kind:id.
func reviewKeys(items []store.ReviewQueueItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprintf("%s:%d", it.Kind, it.ID)
	}
	return out
}

func fallbackKey(tr *store.Turn) string {
	return fmt.Sprintf("%s:%d", store.ReviewFallback, tr.User.ID)
}
func ratingKey(f store.Feedback) string { return fmt.Sprintf("%s:%d", store.ReviewNotHelpful, f.ID) }

// itemCase names a review item that is not the account's open item of that kind.
type itemCase struct {
	name      string
	accountID int64
	kind      string
	id        int64
}

func testDashboardReviewQueue(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Queue", 10_000_000)
	b, _ := NewAccount(t, s, "NoQueue", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	next := func() { clock.Advance(time.Minute) }
	mars := ask(t, s, c, "en", "Do you ship to Mars?", fallbackReply)
	next()
	shipping := ask(t, s, c, "en", "How long is shipping?", aiReply)
	bad := rate(t, s, a.ID, shipping.Reply.ID, store.RatingNotHelpful, "It took five days.")
	next()
	marsAgain := ask(t, s, c, "en", "do you ship to MARS?  ", fallbackReply)
	next()
	gift := ask(t, s, c, "de", "Gibt es Gutscheine?", fallbackReply)
	next()
	good := ask(t, s, c, "en", "Where are you?", aiReply)
	helpful := rate(t, s, a.ID, good.Reply.ID, store.RatingHelpful, "")

	items, total := reviewQueue(t, s, a.ID, "", 0, 10)
	want := []string{fallbackKey(gift), fallbackKey(marsAgain), ratingKey(bad), fallbackKey(mars)}
	if total != 4 || !slices.Equal(reviewKeys(items), want) {
		t.Fatalf("queue: %d %v, want 4 %v", total, reviewKeys(items), want)
	}
	if it := items[0]; it.ConversationID != c.ID || it.Question != "Gibt es Gutscheine?" || it.Answer != gift.Reply.Body ||
		it.Lang != "de" || it.Comment != "" || !it.CreatedAt.Equal(micro(gift.User.CreatedAt)) {
		t.Fatalf("fallback item: %+v", it)
	}
	if it := items[2]; it.ConversationID != c.ID || it.Question != "How long is shipping?" || it.Answer != shipping.Reply.Body ||
		it.Comment != "It took five days." || it.Lang != "en" || !it.CreatedAt.Equal(micro(bad.CreatedAt)) {
		t.Fatalf("not-helpful item: %+v", it)
	}
	if items, total := reviewQueue(t, s, a.ID, store.ReviewFallback, 0, 10); total != 3 ||
		!slices.Equal(reviewKeys(items), []string{fallbackKey(gift), fallbackKey(marsAgain), fallbackKey(mars)}) {
		t.Fatalf("fallback queue: %d %v", total, reviewKeys(items))
	}
	if items, total := reviewQueue(t, s, a.ID, store.ReviewNotHelpful, 0, 10); total != 1 ||
		!slices.Equal(reviewKeys(items), []string{ratingKey(bad)}) {
		t.Fatalf("not-helpful queue: %d %v", total, reviewKeys(items))
	}
	if items, total := reviewQueue(t, s, a.ID, "", 1, 2); total != 4 || !slices.Equal(reviewKeys(items), want[1:3]) {
		t.Fatalf("offset 1 limit 2: %d %v", total, reviewKeys(items))
	}
	if items, total := reviewQueue(t, s, b.ID, "", 0, 10); total != 0 || len(items) != 0 {
		t.Fatalf("the other account's queue: %d %+v", total, items)
	}
	// One open item reads as it does in the queue.
	for _, want := range []store.ReviewQueueItem{items[0], items[2]} {
		got, err := s.ReviewItem(ctx(), a.ID, want.Kind, want.ID)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("review item %s %d: %v\n got %+v\nwant %+v", want.Kind, want.ID, err, got, want)
		}
	}
	for _, tc := range []itemCase{
		{"another account's item", b.ID, store.ReviewFallback, gift.User.ID},
		{"another account's rating", b.ID, store.ReviewNotHelpful, bad.ID},
		{"the other kind", a.ID, store.ReviewNotHelpful, gift.User.ID},
		{"an answered question", a.ID, store.ReviewFallback, shipping.User.ID},
		{"a helpful rating", a.ID, store.ReviewNotHelpful, helpful.ID},
		{"no kind", a.ID, "", gift.User.ID},
	} {
		_, err := s.ReviewItem(ctx(), tc.accountID, tc.kind, tc.id)
		wantNotFound(t, "review item: "+tc.name, err)
	}

	// Dismissing closes exactly the item named, once.
	for _, tc := range []itemCase{
		{"another account's item", b.ID, store.ReviewFallback, gift.User.ID},
		{"another account's rating", b.ID, store.ReviewNotHelpful, bad.ID},
		{"an answered question", a.ID, store.ReviewFallback, shipping.User.ID},
		{"a reply's id", a.ID, store.ReviewFallback, gift.Reply.ID},
		{"a helpful rating", a.ID, store.ReviewNotHelpful, helpful.ID},
		{"an unknown kind", a.ID, "spam", gift.User.ID},
	} {
		wantNotFound(t, "dismiss "+tc.name, s.DismissReview(ctx(), tc.accountID, tc.kind, tc.id))
	}
	if err := s.DismissReview(ctx(), a.ID, store.ReviewFallback, gift.User.ID); err != nil {
		t.Fatal(err)
	}
	wantNotFound(t, "dismiss twice", s.DismissReview(ctx(), a.ID, store.ReviewFallback, gift.User.ID))
	if err := s.DismissReview(ctx(), a.ID, store.ReviewNotHelpful, bad.ID); err != nil {
		t.Fatal(err)
	}
	wantNotFound(t, "dismiss a rating twice", s.DismissReview(ctx(), a.ID, store.ReviewNotHelpful, bad.ID))
	if items, total := reviewQueue(t, s, a.ID, "", 0, 10); total != 2 ||
		!slices.Equal(reviewKeys(items), []string{fallbackKey(marsAgain), fallbackKey(mars)}) {
		t.Fatalf("queue after dismissals: %d %v", total, reviewKeys(items))
	}
	// ReviewList still lists the dismissed rating, as closed.
	if list, err := s.ReviewList(ctx(), a.ID); err != nil || len(list) != 1 || list[0].FeedbackID != bad.ID || !list[0].Resolved {
		t.Fatalf("review list after a dismissal: %v %+v", err, list)
	}
	// A new not_helpful rating of the reply opens it again.
	again := rate(t, s, a.ID, shipping.Reply.ID, store.RatingNotHelpful, "Still wrong.")
	if items, total := reviewQueue(t, s, a.ID, store.ReviewNotHelpful, 0, 10); total != 1 || items[0].ID != again.ID ||
		items[0].Comment != "Still wrong." {
		t.Fatalf("a re-rated reply: %d %+v", total, items)
	}
	// The rating's own resolution still works on an item that was dismissed before.
	if err := s.ResolveReview(ctx(), a.ID, again.ID, qaEntry("How long is shipping?", "Five days.", "ship1")); err != nil {
		t.Fatal(err)
	}
	if _, total := reviewQueue(t, s, a.ID, store.ReviewNotHelpful, 0, 10); total != 0 {
		t.Fatalf("a resolved rating is still open: %d", total)
	}
}

func testDashboardResolveFallback(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Resolver", 10_000_000)
	b, _ := NewAccount(t, s, "Bystander", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	tok := newEmbedToken(t, s, a.ID, "widget", 1_000_000)
	v := openVisitor(t, s, a.ID, tok.ID, "visitor")
	bc, _ := s.OpenConversation(ctx(), b.ID, "en")
	mars := ask(t, s, c, "en", "Do you ship to Mars?", fallbackReply)
	clock.Advance(time.Minute)
	marsAgain := ask(t, s, v, "en", "  DO YOU SHIP TO MARS?", fallbackReply)
	dismissed := ask(t, s, v, "en", "do you ship to mars?", fallbackReply)
	if err := s.DismissReview(ctx(), a.ID, store.ReviewFallback, dismissed.User.ID); err != nil {
		t.Fatal(err)
	}
	venus := ask(t, s, c, "en", "Do you ship to Venus?", fallbackReply)
	answered := ask(t, s, c, "en", "Do you ship to Mars? (answered)", aiReply)
	bMars := ask(t, s, bc, "en", "Do you ship to Mars?", fallbackReply)

	doc := qaEntry("Do you ship to Mars?", "Not yet.", "mars1")
	for _, tc := range []struct {
		name      string
		accountID int64
		id        int64
	}{
		{"another account's item", b.ID, mars.User.ID},
		{"the other account's item by this account", a.ID, bMars.User.ID},
		{"an answered question", a.ID, answered.User.ID},
		{"a dismissed item", a.ID, dismissed.User.ID},
		{"a reply", a.ID, mars.Reply.ID},
	} {
		wantNotFound(t, "resolve "+tc.name, s.ResolveFallback(ctx(), tc.accountID, tc.id, doc))
	}
	for _, id := range []int64{a.ID, b.ID} {
		if n, _ := s.CountDocuments(ctx(), id); n[store.DocQA] != 0 {
			t.Fatalf("a refused resolution stored a document: %v", n)
		}
	}
	if err := s.ResolveFallback(ctx(), a.ID, mars.User.ID, &store.Document{Type: store.DocPage, Title: "x", Lang: "en"}); err == nil {
		t.Fatal("a page resolved a fallback")
	}

	if err := s.ResolveFallback(ctx(), a.ID, marsAgain.User.ID, doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID == 0 {
		t.Fatal("document id not filled")
	}
	hits, err := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "mars1"}}})
	if err != nil || len(hits) != 1 || hits[0].DocID != doc.ID || hits[0].DocType != store.DocQA {
		t.Fatalf("the resolution is not searchable: %v %+v", err, hits)
	}
	// Every open item asking the same (trimmed, case-folded) question closed with it, in
	// either conversation; the other question and the other account's item stay open.
	if items, total := reviewQueue(t, s, a.ID, "", 0, 10); total != 1 || !slices.Equal(reviewKeys(items), []string{fallbackKey(venus)}) {
		t.Fatalf("queue after the resolution: %d %v", total, reviewKeys(items))
	}
	if items, total := reviewQueue(t, s, b.ID, "", 0, 10); total != 1 || items[0].ID != bMars.User.ID {
		t.Fatalf("the other account's queue: %d %+v", total, items)
	}
	wantNotFound(t, "resolve a closed item", s.ResolveFallback(ctx(), a.ID, mars.User.ID, qaEntry("Do you ship to Mars?", "No.", "mars2")))
	wantNotFound(t, "dismiss a resolved item", s.DismissReview(ctx(), a.ID, store.ReviewFallback, mars.User.ID))
	// Unanswered still counts the questions: they were answered by a fallback when asked.
	if un, _ := s.Unanswered(ctx(), a.ID, time.Time{}, 10); len(un) != 2 || un[0].Count != 3 {
		t.Fatalf("unanswered after the resolution: %+v", un)
	}

	// Resolving with a changed text of the same entry updates it and withdraws what was
	// drawn from it.
	saveCached(t, s, a, "en", "mars", []string{"mars"}, []int64{doc.ID})
	clock.Advance(time.Minute)
	marsLater := ask(t, s, c, "en", "Do you ship to Mars?", fallbackReply)
	better := qaEntry("Do you ship to Mars?", "From 2030.", "mars3")
	if err := s.ResolveFallback(ctx(), a.ID, marsLater.User.ID, better); err != nil {
		t.Fatal(err)
	}
	if better.ID != doc.ID {
		t.Fatalf("a second resolution made document %d, want %d updated", better.ID, doc.ID)
	}
	assertCached(t, s, a.ID, map[string]bool{"mars": false})
	if n, _ := s.CountDocuments(ctx(), a.ID); n[store.DocQA] != 1 {
		t.Fatalf("documents: %v", n)
	}
}

// Of concurrent closes of one item exactly one succeeds; the rest find it closed.
func testDashboardConcurrentReviewCloses(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Racer", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	mixed := ask(t, s, c, "en", "Do you ship to Mars?", fallbackReply)
	resolved := ask(t, s, c, "en", "Do you ship to Venus?", fallbackReply)
	rated := ask(t, s, c, "en", "How long is shipping?", aiReply)
	bad := rate(t, s, a.ID, rated.Reply.ID, store.RatingNotHelpful, "")

	race := func(name string, op func(i int) error) {
		t.Helper()
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, missing := 0, 0
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := op(i)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, store.ErrNotFound):
					missing++
				default:
					t.Errorf("%s %d: %v", name, i, err)
				}
			}()
		}
		wg.Wait()
		if ok != 1 || missing != 19 {
			t.Fatalf("%s: %d succeeded and %d found nothing, want 1 and 19", name, ok, missing)
		}
	}
	race("resolve or dismiss", func(i int) error {
		if i%2 == 0 {
			return s.DismissReview(ctx(), a.ID, store.ReviewFallback, mixed.User.ID)
		}
		return s.ResolveFallback(ctx(), a.ID, mixed.User.ID, qaEntry("Do you ship to Mars?", fmt.Sprint("answer ", i), fmt.Sprint("m", i)))
	})
	race("resolve", func(i int) error {
		return s.ResolveFallback(ctx(), a.ID, resolved.User.ID, qaEntry("Do you ship to Venus?", fmt.Sprint("answer ", i), fmt.Sprint("v", i)))
	})
	race("dismiss a rating", func(int) error {
		return s.DismissReview(ctx(), a.ID, store.ReviewNotHelpful, bad.ID)
	})
	if _, total := reviewQueue(t, s, a.ID, "", 0, 10); total != 0 {
		t.Fatalf("%d items still open", total)
	}
	// At most the Mars entry (if a resolve won that race) and the Venus entry exist.
	if n, _ := s.CountDocuments(ctx(), a.ID); n[store.DocQA] < 1 || n[store.DocQA] > 2 {
		t.Fatalf("documents: %v", n)
	}
}
