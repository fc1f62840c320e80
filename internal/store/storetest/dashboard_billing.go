package storetest

import (
	"slices"
	"testing"
	"time"

	"svc/internal/store"
)

func testDashboardLedgerAndKey(t *testing.T, s store.Store) {
	a, firstKey := NewAccount(t, s, "Ledger", 1_000_000)
	b, bKey := NewAccount(t, s, "Other ledger", 500)
	for i := range 5 {
		if _, err := s.AddBalance(ctx(), a.ID, int64(100*(i+1)), "top-up"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddBalance(ctx(), b.ID, 1, "top-up"); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	charged := ask(t, s, c, "en", "q", aiReply.costing(2_500))

	full, err := s.Ledger(ctx(), a.ID)
	if err != nil || len(full) != 7 {
		t.Fatalf("ledger: %v %d", err, len(full))
	}
	slices.Reverse(full)
	var paged []store.LedgerEntry
	before := int64(0)
	for range 10 {
		page, total, err := s.LedgerPage(ctx(), a.ID, before, 3)
		if err != nil {
			t.Fatal(err)
		}
		if total != 7 {
			t.Fatalf("total %d, want 7", total)
		}
		if len(page) == 0 {
			break
		}
		paged = append(paged, page...)
		before = page[len(page)-1].ID
	}
	if !slices.EqualFunc(paged, full, func(x, y store.LedgerEntry) bool {
		return x.ID == y.ID && x.AmountMicro == y.AmountMicro && x.BalanceAfter == y.BalanceAfter && x.Kind == y.Kind &&
			x.MessageID == y.MessageID && x.Note == y.Note && x.CreatedAt.Equal(y.CreatedAt)
	}) {
		t.Fatalf("paged ledger:\n got %+v\nwant %+v", paged, full)
	}
	if e := paged[0]; e.Kind != "charge" || e.AmountMicro != -2_500 || e.MessageID != charged.Reply.ID {
		t.Fatalf("newest entry: %+v", e)
	}
	page, total, err := s.LedgerPage(ctx(), b.ID, 0, 100)
	if err != nil || total != 6 || len(page) != 6 {
		t.Fatalf("the other account's ledger: %v %d %d", err, total, len(page))
	}
	for _, e := range page {
		if e.AccountID != b.ID {
			t.Fatalf("the other account's ledger holds %+v", e)
		}
	}

	if k, err := s.ActiveKey(ctx(), a.ID); err != nil || k.ID != firstKey.ID || k.Status != store.KeyActive {
		t.Fatalf("active key: %v %+v", err, k)
	}
	rotated := testKey("Ledger-1")
	if err := s.RotateKey(ctx(), a.ID, &rotated); err != nil {
		t.Fatal(err)
	}
	if k, err := s.ActiveKey(ctx(), a.ID); err != nil || k.ID != rotated.ID || k.Prefix != rotated.Prefix {
		t.Fatalf("active key after rotation: %v %+v", err, k)
	}
	if k, err := s.ActiveKey(ctx(), b.ID); err != nil || k.ID != bKey.ID {
		t.Fatalf("the other account's key: %v %+v", err, k)
	}
	_, err = s.ActiveKey(ctx(), a.ID+b.ID+100)
	wantNotFound(t, "no such account", err)
}

// Every dashboard read or edit of one account's item by another account finds nothing and
// changes nothing.
func testDashboardTenantIsolation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Owner", 10_000_000)
	b, _ := NewAccount(t, s, "Intruder", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	fell := ask(t, s, c, "en", "Do you ship to Mars?", fallbackReply)
	rated := ask(t, s, c, "en", "How long?", aiReply)
	bad := rate(t, s, a.ID, rated.Reply.ID, store.RatingNotHelpful, "")
	docs := importDocs(t, s, a.ID, kbDocs()...)

	_, err = s.GetConversation(ctx(), b.ID, c.ID)
	wantNotFound(t, "GetConversation", err)
	_, err = s.Transcript(ctx(), b.ID, c.ID, 0, 10)
	wantNotFound(t, "Transcript", err)
	wantNotFound(t, "DismissReview fallback", s.DismissReview(ctx(), b.ID, store.ReviewFallback, fell.User.ID))
	wantNotFound(t, "DismissReview not_helpful", s.DismissReview(ctx(), b.ID, store.ReviewNotHelpful, bad.ID))
	wantNotFound(t, "ResolveFallback", s.ResolveFallback(ctx(), b.ID, fell.User.ID, qaEntry("Do you ship to Mars?", "No.", "x1")))
	wantNotFound(t, "DeleteDocument", s.DeleteDocument(ctx(), b.ID, docs[0].ID))
	wantNotFound(t, "ReplaceDocument", s.ReplaceDocument(ctx(), b.ID, docs[1].ID, qaEntry("New?", "Yes.", "x2")))
	if rows := listConversations(t, s, b.ID, store.ConversationFilter{}); len(rows) != 0 {
		t.Fatalf("ListConversations: %+v", rows)
	}
	if items, total, err := s.ReviewQueue(ctx(), b.ID, "", 0, 10); err != nil || total != 0 || len(items) != 0 {
		t.Fatalf("ReviewQueue: %v %d %+v", err, total, items)
	}
	if entries, total, err := s.LedgerPage(ctx(), b.ID, 0, 10); err != nil || total != 1 || len(entries) != 1 ||
		entries[0].AccountID != b.ID {
		t.Fatalf("LedgerPage: %v %d %+v", err, total, entries)
	}
	if rows, total, err := s.ListDocuments(ctx(), b.ID, store.DocQuery{}); err != nil || total != 0 || len(rows) != 0 {
		t.Fatalf("ListDocuments: %v %d %+v", err, total, rows)
	}
	if un, err := s.Unanswered(ctx(), b.ID, time.Time{}, 10); err != nil || len(un) != 0 {
		t.Fatalf("Unanswered: %v %+v", err, un)
	}
	if st, err := s.ReplyStats(ctx(), b.ID, time.Time{}); err != nil || st != (store.ReplyStats{}) {
		t.Fatalf("ReplyStats: %v %+v", err, st)
	}
	if u, err := s.DailyUsage(ctx(), b.ID, time.Time{}); err != nil || len(u) != 0 {
		t.Fatalf("DailyUsage: %v %+v", err, u)
	}
	if d, err := s.DailySources(ctx(), b.ID, time.Time{}); err != nil || len(d) != 0 {
		t.Fatalf("DailySources: %v %+v", err, d)
	}

	// Nothing of the owner's changed.
	if items, total, _ := s.ReviewQueue(ctx(), a.ID, "", 0, 10); total != 2 || len(items) != 2 {
		t.Fatalf("the owner's queue: %d %+v", total, items)
	}
	if _, total, _ := s.ListDocuments(ctx(), a.ID, store.DocQuery{}); total != 5 {
		t.Fatalf("the owner's documents: %d", total)
	}
	if n, _ := s.CountDocuments(ctx(), b.ID); len(n) != 0 {
		t.Fatalf("the intruder's documents: %v", n)
	}
}
