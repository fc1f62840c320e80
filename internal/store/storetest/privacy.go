package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"svc/internal/store"
)

// privacyTests cover store.Privacy: a visitor's data request, deleting a visitor and
// deleting an account.
var privacyTests = []suiteTest{
	{"VisitorData", testVisitorData},
	{"DeleteVisitor", testDeleteVisitor},
	{"DeleteAccount", testDeleteAccount},
}

// privacyClockedTests cover the retention sweep, which needs old conversations.
var privacyClockedTests = []clockedTest{
	{"DeleteStaleVisitorConversations", testDeleteStaleVisitorConversations},
}

const (
	visitorV = "6f1c2a3e-1111-4a4a-8b8b-000000000001"
	visitorW = "6f1c2a3e-2222-4a4a-8b8b-000000000002"
)

// visitorFixture is an account with two embed tokens, a visitor V who talked through both,
// another visitor W, and the account's API conversation.
type visitorFixture struct {
	a           store.Account
	t1, t2      store.EmbedToken
	v1, v2, w   store.Conversation
	api         store.Conversation
	vTurns      []*store.Turn // V's turns, in order
	wTurn       *store.Turn
	vRating     store.Feedback
	apiTurn     *store.Turn
	wantUsage   []store.DayUsage
	wantBalance int64
}

func newVisitorFixture(t *testing.T, s store.Store, name string) visitorFixture {
	t.Helper()
	f := visitorFixture{}
	f.a, _ = NewAccount(t, s, name, 10_000_000)
	f.t1 = newEmbedToken(t, s, f.a.ID, name+" shop", 1_000_000, "shop.test")
	f.t2 = newEmbedToken(t, s, f.a.ID, name+" blog", 1_000_000, "blog.test")
	f.v1 = openVisitor(t, s, f.a.ID, f.t1.ID, visitorV)
	f.v2 = openVisitor(t, s, f.a.ID, f.t2.ID, visitorV)
	f.w = openVisitor(t, s, f.a.ID, f.t1.ID, visitorW)
	var err error
	if f.api, err = s.OpenConversation(ctx(), f.a.ID, "en"); err != nil {
		t.Fatal(err)
	}
	cached := aiReply.costing(3_000)
	first := &store.Turn{AccountID: f.a.ID, ConversationID: f.v1.ID, Lang: "en", EmbedTokenID: f.t1.ID,
		User:   store.Message{Role: store.RoleUser, Body: "Where is my order 4711?", Source: store.SourceAI, Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "re: order", Source: store.SourceAI, Lang: "en"},
		Charge: cached.charge,
		Cache: &store.CacheEntry{Lang: "en", Key: "order 4711", Question: "Where is my order 4711?", Answer: "re: order",
			Terms: []string{"order", "4711"}}}
	saveTurn(t, s, first)
	f.vTurns = append(f.vTurns, first,
		ask(t, s, f.v1, "en", "Do you ship to Mars?", fallbackReply),
		ask(t, s, f.v2, "en", "Any blog posts on boots?", aiReply.costing(2_000).summarized(500)))
	f.vRating = rate(t, s, f.a.ID, f.vTurns[0].Reply.ID, store.RatingHelpful, "thanks, V")
	f.wTurn = ask(t, s, f.w, "en", "Opening hours?", aiReply.costing(1_000))
	w := &store.Turn{AccountID: f.a.ID, ConversationID: f.w.ID, Lang: "en", EmbedTokenID: f.t1.ID,
		User:   store.Message{Role: store.RoleUser, Body: "Returns?", Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "re: returns", Source: store.SourceAI, Lang: "en"},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 1_500},
		Cache:  &store.CacheEntry{Lang: "en", Key: "returns", Question: "Returns?", Answer: "re: returns", Terms: []string{"return"}}}
	saveTurn(t, s, w)
	rate(t, s, f.a.ID, f.wTurn.Reply.ID, store.RatingNotHelpful, "W disagrees")
	f.apiTurn = ask(t, s, f.api, "en", "API question", aiReply.costing(4_000))
	if f.wantUsage, err = s.DailyUsage(ctx(), f.a.ID, time.Now().Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	f.wantBalance = account(t, s, f.a.ID).BalanceMicro
	return f
}

// messageBodies lists the bodies of msgs in order.
func messageBodies(msgs []store.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Body
	}
	return out
}

func testVisitorData(t *testing.T, s store.Store) {
	f := newVisitorFixture(t, s, "Exporter")
	other, _ := NewAccount(t, s, "Other", 0)

	d, err := s.VisitorData(ctx(), f.a.ID, visitorV)
	if err != nil {
		t.Fatal(err)
	}
	if d.AccountID != f.a.ID || d.Visitor != visitorV || len(d.Conversations) != 2 {
		t.Fatalf("visitor data: %+v", d)
	}
	c1, c2 := d.Conversations[0], d.Conversations[1]
	if c1.ID != f.v1.ID || c2.ID != f.v2.ID || c1.EmbedTokenID != f.t1.ID || c2.EmbedTokenID != f.t2.ID ||
		c1.TokenLabel != f.t1.Label || c2.TokenLabel != f.t2.Label || c1.Visitor != visitorV {
		t.Fatalf("conversations, oldest first with their tokens: %+v", d.Conversations)
	}
	want1 := []string{"Where is my order 4711?", "re: order", "Do you ship to Mars?", "re: Do you ship to Mars?"}
	if got := messageBodies(c1.Messages); !slices.Equal(got, want1) {
		t.Fatalf("first conversation's messages %q, want %q", got, want1)
	}
	if got := messageBodies(c2.Messages); !slices.Equal(got, []string{"Any blog posts on boots?", "re: Any blog posts on boots?"}) {
		t.Fatalf("second conversation's messages %q", got)
	}
	for _, m := range append(slices.Clone(c1.Messages), c2.Messages...) {
		if m.CreatedAt.IsZero() || m.CreatedAt.Location() != time.UTC || m.AccountID != f.a.ID {
			t.Fatalf("message without its time or account: %+v", m)
		}
	}
	if c1.Messages[3].Source != store.SourceFallback || c1.Messages[1].Source != store.SourceAI {
		t.Fatalf("sources lost: %+v", c1.Messages)
	}
	if len(c1.Feedback) != 1 || c1.Feedback[0].MessageID != f.vTurns[0].Reply.ID ||
		c1.Feedback[0].Rating != store.RatingHelpful || c1.Feedback[0].Comment != "thanks, V" || c1.Feedback[0].CreatedAt.IsZero() {
		t.Fatalf("feedback: %+v", c1.Feedback)
	}
	if len(c2.Feedback) != 0 {
		t.Fatalf("feedback of the second conversation: %+v", c2.Feedback)
	}
	if c1.LastMessageAt.IsZero() || c1.LastSeenAt.IsZero() || c1.CreatedAt.IsZero() {
		t.Fatalf("times: %+v", c1)
	}

	// Only this account's visitor: another account, an unknown visitor and the API
	// conversation's empty visitor are not found.
	for _, c := range []struct {
		name      string
		accountID int64
		visitor   string
	}{{"other account", other.ID, visitorV}, {"unknown visitor", f.a.ID, "6f1c2a3e-9999-4a4a-8b8b-000000000009"},
		{"no visitor", f.a.ID, ""}} {
		if _, err := s.VisitorData(ctx(), c.accountID, c.visitor); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("%s: %v, want ErrNotFound", c.name, err)
		}
	}
}

func testDeleteVisitor(t *testing.T, s store.Store) {
	f := newVisitorFixture(t, s, "Forgetful")
	other, _ := NewAccount(t, s, "Other", 0)

	if _, err := s.DeleteVisitor(ctx(), other.ID, visitorV); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another account's visitor: %v", err)
	}
	if _, err := s.VisitorData(ctx(), f.a.ID, visitorV); err != nil {
		t.Fatalf("a refused delete deleted something: %v", err)
	}
	got, err := s.DeleteVisitor(ctx(), f.a.ID, visitorV)
	if err != nil {
		t.Fatal(err)
	}
	want := store.VisitorDeletion{Conversations: 2, Messages: 6, Feedback: 1, ReviewItems: 1, CacheEntries: 1}
	if got != want {
		t.Fatalf("deleted %+v, want %+v", got, want)
	}
	if _, err := s.VisitorData(ctx(), f.a.ID, visitorV); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("visitor data after delete: %v", err)
	}
	if _, err := s.DeleteVisitor(ctx(), f.a.ID, visitorV); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	for _, id := range []int64{f.v1.ID, f.v2.ID} {
		if _, err := s.GetConversation(ctx(), f.a.ID, id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("conversation %d after delete: %v", id, err)
		}
	}

	// W and the API conversation are untouched, with their feedback and cache entry.
	wd, err := s.VisitorData(ctx(), f.a.ID, visitorW)
	if err != nil || len(wd.Conversations) != 1 || len(wd.Conversations[0].Messages) != 4 || len(wd.Conversations[0].Feedback) != 1 {
		t.Fatalf("the other visitor: %v %+v", err, wd)
	}
	if msgs, err := s.Messages(ctx(), f.a.ID, f.api.ID, 0, 10); err != nil || len(msgs) != 2 {
		t.Fatalf("API conversation: %v %d messages", err, len(msgs))
	}
	if _, err := s.CachedAnswer(ctx(), f.a.ID, "en", "order 4711"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("V's cached question outlived V: %v", err)
	}
	if _, err := s.CachedAnswer(ctx(), f.a.ID, "en", "returns"); err != nil {
		t.Fatalf("W's cached answer went with V: %v", err)
	}
	// V's fallback left the review queue; W's rating is still in it.
	items, _ := reviewQueue(t, s, f.a.ID, "", 0, 50)
	if keys := reviewKeys(items); slices.Contains(keys, fallbackKey(f.vTurns[1])) || len(keys) != 1 {
		t.Fatalf("review queue after delete: %v", keys)
	}

	// Money is untouched: the balance, the ledger and the daily totals are as before.
	if bal := account(t, s, f.a.ID).BalanceMicro; bal != f.wantBalance {
		t.Fatalf("balance %d, was %d", bal, f.wantBalance)
	}
	assertLedgerSums(t, s, f.a.ID)
	usage, err := s.DailyUsage(ctx(), f.a.ID, time.Now().Add(-48*time.Hour))
	if err != nil || !slices.EqualFunc(usage, f.wantUsage, sameDayUsage) {
		t.Fatalf("daily usage changed: %v %+v, was %+v", err, usage, f.wantUsage)
	}
}

func testDeleteStaleVisitorConversations(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Retained", 10_000_000)
	b, _ := NewAccount(t, s, "Elsewhere", 10_000_000)
	ta := newEmbedToken(t, s, a.ID, "a", 1_000_000, "a.test")
	tb := newEmbedToken(t, s, b.ID, "b", 1_000_000, "b.test")
	const (
		oldV      = "00000000-0000-4000-8000-000000000001"
		emptyV    = "00000000-0000-4000-8000-000000000002"
		returning = "00000000-0000-4000-8000-000000000003"
		freshV    = "00000000-0000-4000-8000-000000000004"
	)
	old := openVisitor(t, s, a.ID, ta.ID, oldV)
	ask(t, s, old, "en", "old question", aiReply.costing(2_000))
	ask(t, s, old, "en", "old fallback", fallbackReply)
	openVisitor(t, s, a.ID, ta.ID, emptyV) // opened the widget, never wrote
	back := openVisitor(t, s, a.ID, ta.ID, returning)
	ask(t, s, back, "en", "asked long ago", aiReply)
	otherOld := openVisitor(t, s, b.ID, tb.ID, oldV)
	ask(t, s, otherOld, "en", "old elsewhere", aiReply.costing(1_000))
	api, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	ask(t, s, api, "en", "old API question", aiReply.costing(3_000))
	since := clock.Now().Add(-time.Hour)
	wantUsage, err := s.DailyUsage(ctx(), a.ID, since)
	if err != nil {
		t.Fatal(err)
	}

	clock.Advance(10 * 24 * time.Hour)
	fresh := openVisitor(t, s, a.ID, ta.ID, freshV)
	ask(t, s, fresh, "en", "new question", aiReply)
	openVisitor(t, s, a.ID, ta.ID, returning) // came back and read, without writing
	cutoff := clock.Now().Add(-5 * 24 * time.Hour)

	if _, err := s.DeleteStaleVisitorConversations(ctx(), cutoff, 0); err == nil {
		t.Fatal("a limit of 0 was accepted")
	}
	var total store.VisitorDeletion
	for range 10 {
		d, err := s.DeleteStaleVisitorConversations(ctx(), cutoff, 2)
		if err != nil {
			t.Fatal(err)
		}
		if d.Conversations > 2 {
			t.Fatalf("deleted %d conversations with a limit of 2", d.Conversations)
		}
		total.Add(d)
		if d.Conversations == 0 {
			break
		}
	}
	// The old visitor in both accounts and the empty conversation; the returning and the
	// fresh visitor and the API conversation stay.
	want := store.VisitorDeletion{Conversations: 3, Messages: 6, ReviewItems: 1}
	if total != want {
		t.Fatalf("deleted %+v, want %+v", total, want)
	}
	for _, c := range []struct {
		accountID int64
		visitor   string
		kept      bool
	}{{a.ID, oldV, false}, {b.ID, oldV, false}, {a.ID, emptyV, false}, {a.ID, returning, true}, {a.ID, freshV, true}} {
		_, err := s.VisitorData(ctx(), c.accountID, c.visitor)
		if kept := err == nil; kept != c.kept || (err != nil && !errors.Is(err, store.ErrNotFound)) {
			t.Fatalf("visitor %s of account %d: %v, want kept %v", c.visitor, c.accountID, err, c.kept)
		}
	}
	if msgs, err := s.Messages(ctx(), a.ID, api.ID, 0, 10); err != nil || len(msgs) != 2 {
		t.Fatalf("API conversation: %v %d messages", err, len(msgs))
	}
	// Past money figures do not change.
	usage, err := s.DailyUsage(ctx(), a.ID, since)
	if err != nil {
		t.Fatal(err)
	}
	if len(usage) < len(wantUsage) || !slices.EqualFunc(usage[:len(wantUsage)], wantUsage, sameDayUsage) {
		t.Fatalf("daily usage of the old day changed: %+v, was %+v", usage, wantUsage)
	}
	assertLedgerSums(t, s, a.ID)
	assertLedgerSums(t, s, b.ID)
}

func testDeleteAccount(t *testing.T, s store.Store) {
	f := newVisitorFixture(t, s, "Leaving")
	keep := newVisitorFixture(t, s, "Staying")
	a := f.a
	if _, err := s.AddBalance(ctx(), a.ID, 2_000_000, "top-up"); err != nil {
		t.Fatal(err)
	}
	// Everything else an account can own: KB documents, a crawled site, a user with a
	// session and a link, a notice, a live reservation and a rotated key.
	importDocs(t, s, a.ID, kbDocs()...)
	importDocs(t, s, keep.a.ID, kbDocs()...)
	site := newSite(t, s, a.ID, "https://shop.test/")
	if _, err := s.SavePage(ctx(), a.ID, site.ID, store.PageState{URL: "https://shop.test/p/boot", Hash: "h"},
		crawledDocs("9 €")); err != nil {
		t.Fatal(err)
	}
	u := userFixture(t, s, a.ID, "owner@leaving.test", store.UserOwner, true)
	sess := newSession(t, s, u, "leaving-session", time.Now())
	link := store.AuthToken{Hash: hashOf("leaving-link"), UserID: u.ID, AccountID: a.ID, Kind: store.AuthReset,
		ExpiresAt: time.Now().Add(time.Hour)}
	if err := s.CreateAuthToken(ctx(), &link); err != nil {
		t.Fatal(err)
	}
	enqueue(t, s, budgetNotice(a.ID, f.t1.ID, time.Now(), 1_000_000, 1_000_000))
	reserve(t, s, a.ID, 1_000)
	newKey := testKey("leaving-1")
	if err := s.RotateKey(ctx(), a.ID, &newKey); err != nil {
		t.Fatal(err)
	}
	ledger, err := s.Ledger(ctx(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	balance := account(t, s, a.ID).BalanceMicro
	keepLedger, _ := s.Ledger(ctx(), keep.a.ID)
	keepSearch, err := s.SearchChunks(ctx(), keep.a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "boot"}}, Limit: 10})
	if err != nil || len(keepSearch) == 0 {
		t.Fatalf("the other account's search: %v %d hits", err, len(keepSearch))
	}

	// A crawl in progress holds the deletion off, so it cannot go on writing the account's
	// documents after it is gone.
	if ok, err := s.ClaimSite(ctx(), a.ID, site.ID, time.Now().Add(time.Hour)); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if _, err := s.DeleteAccount(ctx(), a.ID); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("delete during a crawl: %v", err)
	}
	if _, err := s.GetAccount(ctx(), a.ID); err != nil {
		t.Fatalf("a refused delete deleted the account: %v", err)
	}
	if err := s.ReleaseSite(ctx(), a.ID, site.ID, time.Now(), ""); err != nil {
		t.Fatal(err)
	}

	d, err := s.DeleteAccount(ctx(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.AccountID != a.ID || d.Name != "Leaving" || d.FinalBalanceMicro != balance || d.LedgerKept != len(ledger) ||
		d.Conversations != 4 || d.Messages != 12 || d.EmbedTokens != 2 || d.Users != 1 || d.Keys != 2 || d.Sites != 1 ||
		d.Notices != 1 || d.Documents != len(kbDocs())+2 || d.DeletedAt.IsZero() {
		t.Fatalf("deletion: %+v (ledger %d rows, balance %d)", d, len(ledger), balance)
	}

	// Nothing of the account answers any more.
	if _, err := s.GetAccount(ctx(), a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("account after delete: %v", err)
	}
	if _, err := s.DeleteAccount(ctx(), a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if keys, _ := s.ActiveKeysByPrefix(ctx(), newKey.Prefix); len(keys) != 0 {
		t.Fatalf("key of a deleted account: %+v", keys)
	}
	if toks, _ := s.ActiveEmbedTokensByPrefix(ctx(), f.t1.Prefix); len(toks) != 0 {
		t.Fatalf("embed token of a deleted account: %+v", toks)
	}
	if _, err := s.SessionByHash(ctx(), sess.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("session of a deleted account: %v", err)
	}
	if _, err := s.AuthTokenByHash(ctx(), link.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("link of a deleted account: %v", err)
	}
	if us, err := s.UsersByEmail(ctx(), u.Email); err != nil || len(us) != 0 {
		t.Fatalf("user of a deleted account: %v %+v", err, us)
	}
	if hits, err := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "boot"}}, Limit: 10}); err != nil || len(hits) != 0 {
		t.Fatalf("search of a deleted account: %v %d hits", err, len(hits))
	}
	if _, err := s.VisitorData(ctx(), a.ID, visitorV); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("visitor of a deleted account: %v", err)
	}
	if ns, _ := s.Notices(ctx(), a.ID); len(ns) != 0 {
		t.Fatalf("notices of a deleted account: %+v", ns)
	}
	if l, _ := s.Ledger(ctx(), a.ID); len(l) != 0 {
		t.Fatalf("live ledger rows of a deleted account: %+v", l)
	}
	// The e-mail address is free again.
	userFixture(t, s, keep.a.ID, u.Email, store.UserAgent, true)

	// What accounting needs is kept: the record and every ledger row as it was.
	rec, err := s.DeletedAccount(ctx(), a.ID)
	if err != nil || rec.Name != "Leaving" || rec.Plan != store.PlanStarter || rec.FinalBalanceMicro != balance ||
		rec.CreatedAt.IsZero() || !rec.DeletedAt.Equal(micro(d.DeletedAt)) {
		t.Fatalf("deleted account record: %v %+v", err, rec)
	}
	archived, err := s.ArchivedLedger(ctx(), a.ID)
	if err != nil || !slices.Equal(archived, ledger) {
		t.Fatalf("archived ledger: %v\n got %+v\nwant %+v", err, archived, ledger)
	}
	var sum int64
	for _, e := range archived {
		sum += e.AmountMicro
	}
	if sum != balance {
		t.Fatalf("archived ledger sums to %d, final balance %d", sum, balance)
	}
	if _, err := s.DeletedAccount(ctx(), keep.a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a live account has a deletion record: %v", err)
	}

	// The other account is untouched.
	if l, _ := s.Ledger(ctx(), keep.a.ID); !slices.Equal(l, keepLedger) {
		t.Fatalf("the other account's ledger changed")
	}
	assertLedgerSums(t, s, keep.a.ID)
	if hits, err := s.SearchChunks(ctx(), keep.a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "boot"}}, Limit: 10}); err != nil || len(hits) != len(keepSearch) {
		t.Fatalf("the other account's search: %v %d hits, was %d", err, len(hits), len(keepSearch))
	}
	if vd, err := s.VisitorData(ctx(), keep.a.ID, visitorV); err != nil || len(vd.Conversations) != 2 {
		t.Fatalf("the other account's visitor: %v %+v", err, vd)
	}
	if _, err := s.DeleteAccount(ctx(), keep.a.ID+1000); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown account: %v", err)
	}
}
