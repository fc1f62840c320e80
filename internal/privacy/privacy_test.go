package privacy_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/errs"
	"svc/internal/privacy"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

func openStore(t *testing.T, now func() time.Time) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// widget creates an embed token of the account and opens visitor's conversation on it.
func widget(t *testing.T, st store.Store, accountID int64, label, visitor string) store.Conversation {
	t.Helper()
	ctx := context.Background()
	tok := store.EmbedToken{AccountID: accountID, Prefix: "svc_emb_" + label[:1] + "0000000", Hash: []byte(label + visitor),
		Label: label, Domains: []string{"shop.test"}, DailyBudgetMicro: 1_000_000}
	if err := st.CreateEmbedToken(ctx, &tok, 5); err != nil {
		t.Fatal(err)
	}
	c, err := st.OpenVisitorConversation(ctx, accountID, tok.ID, visitor, "en")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// talk saves a charged question and answer in c.
func talk(t *testing.T, st store.Store, c store.Conversation, question string) *store.Turn {
	t.Helper()
	tr := &store.Turn{AccountID: c.AccountID, ConversationID: c.ID, Lang: "en", EmbedTokenID: c.EmbedTokenID,
		User: store.Message{Role: store.RoleUser, Body: question, Source: store.SourceAI, Lang: "en"},
		Reply: store.Message{Role: store.RoleAssistant, Body: "re: " + question, Source: store.SourceAI, Lang: "en",
			Products: []store.Product{{Name: "Trail Boot", Price: "119 €"}}, DocIDs: []int64{7}},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 2_000}}
	if err := st.SaveTurn(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

const visitor = "6f1c2a3e-1111-4a4a-8b8b-000000000001"

func TestParseVisitor(t *testing.T) {
	t.Parallel()
	if v, err := privacy.ParseVisitor("6F1C2A3E-1111-4A4A-8B8B-000000000001"); err != nil || v != visitor {
		t.Fatalf("upper case: %q %v", v, err)
	}
	for _, bad := range []string{"", "abc", "{" + visitor + "}", " " + visitor} {
		_, err := privacy.ParseVisitor(bad)
		if e, ok := errs.As(err); !ok || e.Kind != errs.BadRequest || strings.Contains(e.Safe, "\n") {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

func TestExportVisitor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t, nil)
	a, _ := storetest.NewAccount(t, st, "Shop", 1_000_000)
	other, _ := storetest.NewAccount(t, st, "Other", 0)
	c := widget(t, st, a.ID, "Main shop", visitor)
	tr := talk(t, st, c, "Do the boots fit wide feet?")
	if err := st.SaveFeedback(ctx, &store.Feedback{AccountID: a.ID, MessageID: tr.Reply.ID, Rating: "not_helpful",
		Comment: "too vague"}); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	exp, err := privacy.ExportVisitor(ctx, st, a.ID, visitor, now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(exp)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		AccountID     int64  `json:"account_id"`
		Visitor       string `json:"visitor"`
		ExportedAt    string `json:"exported_at"`
		Conversations []struct {
			ConversationID int64   `json:"conversation_id"`
			TokenLabel     string  `json:"token_label"`
			LastMessageAt  *string `json:"last_message_at"`
			Messages       []struct {
				Role        string          `json:"role"`
				Body        string          `json:"body"`
				Source      string          `json:"source"`
				CreatedAt   string          `json:"created_at"`
				Products    []store.Product `json:"products"`
				DocumentIDs []int64         `json:"document_ids"`
				Feedback    *struct {
					Rating, Comment string
				} `json:"feedback"`
			} `json:"messages"`
		} `json:"conversations"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.AccountID != a.ID || got.Visitor != visitor || got.ExportedAt != "2026-03-01T12:00:00Z" || len(got.Conversations) != 1 {
		t.Fatalf("export: %s", b)
	}
	conv := got.Conversations[0]
	if conv.ConversationID != c.ID || conv.TokenLabel != "Main shop" || conv.LastMessageAt == nil || len(conv.Messages) != 2 {
		t.Fatalf("conversation: %s", b)
	}
	q, r := conv.Messages[0], conv.Messages[1]
	if q.Role != "user" || q.Body != "Do the boots fit wide feet?" || q.Feedback != nil ||
		r.Role != "assistant" || r.Source != "ai" || len(r.Products) != 1 || len(r.DocumentIDs) != 1 ||
		r.Feedback == nil || r.Feedback.Rating != "not_helpful" || r.Feedback.Comment != "too vague" {
		t.Fatalf("messages: %s", b)
	}
	if _, err := time.Parse(time.RFC3339, q.CreatedAt); err != nil || !strings.HasSuffix(q.CreatedAt, "Z") {
		t.Fatalf("message time %q: %v", q.CreatedAt, err)
	}

	// Another account's visitor is not found, exactly like one that never was.
	for _, id := range []int64{other.ID, a.ID + 100} {
		_, err := privacy.ExportVisitor(ctx, st, id, visitor, now)
		if e, ok := errs.As(err); !ok || e.Kind != errs.NotFound {
			t.Fatalf("account %d: %v", id, err)
		}
	}
	if _, err := privacy.DeleteVisitor(ctx, st, other.ID, visitor); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("delete from another account: %v", err)
	}
	d, err := privacy.DeleteVisitor(ctx, st, a.ID, visitor)
	if err != nil || d.Conversations != 1 || d.Messages != 2 || d.Feedback != 1 {
		t.Fatalf("delete: %+v %v", d, err)
	}
	if _, err := privacy.ExportVisitor(ctx, st, a.ID, visitor, now); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("export after delete: %v", err)
	}
}

func TestDeleteAccountNeedsItsName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t, nil)
	a, _ := storetest.NewAccount(t, st, "Acme Shoes", 3_000_000)
	talk(t, st, widget(t, st, a.ID, "Shop", visitor), "hello?")

	for _, confirm := range []string{"", "acme shoes", "1", "Acme"} {
		_, err := privacy.DeleteAccount(ctx, st, a.ID, confirm)
		if e, ok := errs.As(err); !ok || e.Kind != errs.BadRequest || !strings.Contains(e.Safe, `"Acme Shoes"`) {
			t.Fatalf("confirm %q: %v", confirm, err)
		}
	}
	if _, err := st.GetAccount(ctx, a.ID); err != nil {
		t.Fatalf("a refused delete deleted the account: %v", err)
	}
	// While a crawl of one of its sites runs, the account is not deleted, and that is not the
	// operator's mistake (not a bad argument).
	site := store.Site{AccountID: a.ID, URL: "https://acme.test/", Host: "acme.test"}
	if err := st.CreateSite(ctx, &site); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.ClaimSite(ctx, a.ID, site.ID, time.Now().Add(time.Minute)); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	_, err := privacy.DeleteAccount(ctx, st, a.ID, "Acme Shoes")
	if err == nil || errs.KindOf(err) != errs.Internal || !strings.Contains(err.Error(), "crawl in progress; nothing was deleted") {
		t.Fatalf("delete during a crawl: %v", err)
	}
	if err := st.ReleaseSite(ctx, a.ID, site.ID, time.Now(), ""); err != nil {
		t.Fatal(err)
	}
	d, err := privacy.DeleteAccount(ctx, st, a.ID, "Acme Shoes")
	if err != nil || d.FinalBalanceMicro != 2_998_000 || d.LedgerKept != 2 || d.Messages != 2 {
		t.Fatalf("delete: %+v %v", d, err)
	}
	if _, err := privacy.DeleteAccount(ctx, st, a.ID, "Acme Shoes"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("second delete: %v", err)
	}
}

// The sweep deletes conversations idle longer than the retention, from every account, and
// keeps the ones used within it and the API conversation.
func TestRetentionSweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := storetest.ClockAt(time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC))
	st := openStore(t, clk.Now)
	a, _ := storetest.NewAccount(t, st, "A", 1_000_000)
	b, _ := storetest.NewAccount(t, st, "B", 1_000_000)
	talk(t, st, widget(t, st, a.ID, "Old", visitor), "old question")
	talk(t, st, widget(t, st, b.ID, "Other", visitor), "old question elsewhere")
	api, err := st.OpenConversation(ctx, a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	talk(t, st, api, "API question")

	clk.Advance(29*24*time.Hour + 23*time.Hour) // a day short of 30 by an hour
	const recent = "6f1c2a3e-2222-4a4a-8b8b-000000000002"
	talk(t, st, widget(t, st, a.ID, "New", recent), "new question")
	r := privacy.NewRetention(st, 30, clk.Now, nil)
	if want := clk.Now().Add(-30 * 24 * time.Hour); !r.Cutoff(clk.Now()).Equal(want) {
		t.Fatalf("cutoff %v, want %v", r.Cutoff(clk.Now()), want)
	}
	if d, err := r.Sweep(ctx); err != nil || d.Conversations != 0 {
		t.Fatalf("swept before 30 days: %+v %v", d, err)
	}

	clk.Advance(2 * time.Hour)
	d, err := r.Sweep(ctx)
	if err != nil || d.Conversations != 2 || d.Messages != 4 {
		t.Fatalf("sweep after 30 days: %+v %v", d, err)
	}
	for _, id := range []int64{a.ID, b.ID} {
		if _, err := st.VisitorData(ctx, id, visitor); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("old visitor of account %d: %v", id, err)
		}
	}
	if _, err := st.VisitorData(ctx, a.ID, recent); err != nil {
		t.Fatalf("recent visitor: %v", err)
	}
	if msgs, err := st.Messages(ctx, a.ID, api.ID, 0, 10); err != nil || len(msgs) != 2 {
		t.Fatalf("API conversation: %d messages, %v", len(msgs), err)
	}
	// The money of the deleted turns is still in the balance and the ledger.
	if acct, _ := st.GetAccount(ctx, a.ID); acct.BalanceMicro != 1_000_000-3*2_000 {
		t.Fatalf("balance %d", acct.BalanceMicro)
	}
	if l, _ := st.Ledger(ctx, a.ID); len(l) != 4 {
		t.Fatalf("ledger rows: %d", len(l))
	}
}

// fakeSweeper reports full batches until it has deleted total conversations.
type fakeSweeper struct {
	mu      sync.Mutex
	left    int
	calls   int
	limits  []int
	fail    error
	befores []time.Time
}

func (f *fakeSweeper) DeleteStaleVisitorConversations(_ context.Context, before time.Time, limit int) (store.VisitorDeletion, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.limits = append(f.limits, limit)
	f.befores = append(f.befores, before)
	if f.fail != nil {
		return store.VisitorDeletion{}, f.fail
	}
	n := min(limit, f.left)
	f.left -= n
	return store.VisitorDeletion{Conversations: n, Messages: 2 * n}, nil
}

// A large backlog goes in batches, each its own transaction, all against one cutoff.
func TestSweepDeletesInBatches(t *testing.T) {
	t.Parallel()
	f := &fakeSweeper{left: 450}
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	r := privacy.NewRetention(f, 7, func() time.Time { return now }, nil)
	d, err := r.Sweep(context.Background())
	if err != nil || d.Conversations != 450 || d.Messages != 900 {
		t.Fatalf("sweep: %+v %v", d, err)
	}
	if f.calls != 3 || f.limits[0] != f.limits[2] || f.limits[0] >= 450 {
		t.Fatalf("batches: %d calls with limits %v", f.calls, f.limits)
	}
	for _, b := range f.befores {
		if !b.Equal(now.Add(-7 * 24 * time.Hour)) {
			t.Fatalf("cutoffs %v", f.befores)
		}
	}
	boom := &fakeSweeper{fail: errors.New("disk full")}
	if _, err := privacy.NewRetention(boom, 7, nil, nil).Sweep(context.Background()); err == nil || boom.calls != 1 {
		t.Fatalf("failing store: %v after %d calls", err, boom.calls)
	}
}

// Run sweeps at start-up, without waiting for the first tick, and returns when ctx ends.
func TestRunSweepsAtStartUp(t *testing.T) {
	t.Parallel()
	f := &fakeSweeper{left: 3}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	go func() { defer close(done); privacy.NewRetention(f, 1, nil, log).Run(ctx, time.Hour) }()
	for deadline := time.Now().Add(5 * time.Second); ; {
		f.mu.Lock()
		left := f.left
		f.mu.Unlock()
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no sweep at start-up")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return when its context ended")
	}
}
