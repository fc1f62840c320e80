package storetest

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

// embedTests cover EmbedTokens, visitor conversations and token budgets.
var embedTests = []suiteTest{
	{"EmbedTokenLifecycle", testEmbedTokenLifecycle},
	{"EmbedTokenLimit", testEmbedTokenLimit},
	{"EmbedTokenLookup", testEmbedTokenLookup},
	{"EmbedTokenAppearance", testEmbedTokenAppearance},
	{"EmbedAvatar", testEmbedAvatar},
	{"VisitorConversations", testVisitorConversations},
	{"VisitorFeedback", testVisitorFeedback},
	{"EmbedBudgetNotice", testEmbedBudgetNotice},
	{"ConcurrentBudgetReservations", testConcurrentBudgetReservations},
	{"ReserveWithoutBudget", testReserveWithoutBudget},
}

var embedClockedTests = []clockedTest{
	{"VisitorSeen", testVisitorSeen},
	{"CountUserMessages", testCountUserMessages},
	{"EmbedUsage", testEmbedUsage},
	{"LapsedTokenReservations", testLapsedTokenReservations},
}

// embedToken builds an unsaved token of the account whose prefix and hash derive from seed.
func embedToken(accountID int64, seed string, budget int64, domains ...string) store.EmbedToken {
	h := sha256.Sum256([]byte("embed " + seed))
	return store.EmbedToken{AccountID: accountID, Prefix: fmt.Sprintf("svc_emb_%x", h[:4]), Hash: h[:],
		Label: seed, Domains: domains, DailyBudgetMicro: budget}
}

// newEmbedToken creates a token of the account (at most 5 active) or fails the test.
func newEmbedToken(t *testing.T, s store.Store, accountID int64, seed string, budget int64, domains ...string) store.EmbedToken {
	t.Helper()
	tok := embedToken(accountID, seed, budget, domains...)
	if err := s.CreateEmbedToken(ctx(), &tok, 5); err != nil {
		t.Fatalf("create embed token %s: %v", seed, err)
	}
	return tok
}

// openVisitor opens a visitor's conversation or fails the test.
func openVisitor(t *testing.T, s store.Store, accountID, tokenID int64, visitor string) store.Conversation {
	t.Helper()
	c, err := s.OpenVisitorConversation(ctx(), accountID, tokenID, visitor, "en")
	if err != nil {
		t.Fatalf("open visitor %s on token %d: %v", visitor, tokenID, err)
	}
	return c
}

// embedTurn is a turn of a visitor conversation attributed to its token.
func embedTurn(a store.Account, c store.Conversation, q string, cost int64) *store.Turn {
	tr := turn(a, c, q, "re: "+q, store.Charge{EventType: store.EventAnswer, AmountMicro: cost})
	tr.EmbedTokenID = c.EmbedTokenID
	return tr
}

func saveTurn(t *testing.T, s store.Store, tr *store.Turn) {
	t.Helper()
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatalf("save turn %q: %v", tr.User.Body, err)
	}
}

func tokenIDs(tokens []store.EmbedToken) []int64 {
	out := make([]int64, len(tokens))
	for i, tok := range tokens {
		out[i] = tok.ID
	}
	return out
}

func embedUsage(t *testing.T, s store.Store, accountID int64, since time.Time) map[int64]store.EmbedUsage {
	t.Helper()
	u, err := s.EmbedUsage(ctx(), accountID, since)
	if err != nil {
		t.Fatalf("embed usage: %v", err)
	}
	return u
}

func testEmbedTokenLifecycle(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Widgety", 0)
	b, _ := NewAccount(t, s, "Stranger", 0)
	before := time.Now().UTC().Add(-time.Second)
	t1 := newEmbedToken(t, s, a.ID, "one", 500_000, "shop.test", "www.shop.test")
	if t1.ID == 0 || t1.Status != store.EmbedActive || t1.CreatedAt.Before(before) || t1.CreatedAt.Location() != time.UTC ||
		!t1.UpdatedAt.Equal(t1.CreatedAt) || !t1.LastUsedAt.IsZero() || !t1.RevokedAt.IsZero() {
		t.Fatalf("created token: %+v", t1)
	}
	t2 := newEmbedToken(t, s, a.ID, "two", 100_000, "two.test")
	t3 := newEmbedToken(t, s, a.ID, "three", 100_000, "three.test")

	got, err := s.GetEmbedToken(ctx(), a.ID, t1.ID)
	if err != nil || got.Prefix != t1.Prefix || string(got.Hash) != string(t1.Hash) || got.Label != "one" ||
		!slices.Equal(got.Domains, []string{"shop.test", "www.shop.test"}) || got.DailyBudgetMicro != 500_000 ||
		got.AccountID != a.ID || !got.CreatedAt.Equal(t1.CreatedAt.Truncate(time.Microsecond)) {
		t.Fatalf("get: %v %+v", err, got)
	}
	if list, err := s.EmbedTokens(ctx(), a.ID); err != nil || !slices.Equal(tokenIDs(list), []int64{t3.ID, t2.ID, t1.ID}) {
		t.Fatalf("list, newest first: %v %v", err, tokenIDs(list))
	}

	// Update writes label, domains and budget and refreshes the times.
	up := got
	up.Label, up.Domains, up.DailyBudgetMicro = "renamed", []string{"new.test"}, 250_000
	if err := s.UpdateEmbedToken(ctx(), &up); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetEmbedToken(ctx(), a.ID, t1.ID); got.Label != "renamed" || !slices.Equal(got.Domains, []string{"new.test"}) ||
		got.DailyBudgetMicro != 250_000 || got.Prefix != t1.Prefix || got.UpdatedAt.Before(got.CreatedAt) ||
		got.Status != store.EmbedActive {
		t.Fatalf("after update: %+v", got)
	}

	// Revoking is permanent and idempotent; the revoked token sorts after the active ones.
	if err := s.RevokeEmbedToken(ctx(), a.ID, t2.ID); err != nil {
		t.Fatal(err)
	}
	rev, _ := s.GetEmbedToken(ctx(), a.ID, t2.ID)
	if rev.Status != store.EmbedRevoked || rev.RevokedAt.IsZero() {
		t.Fatalf("revoked token: %+v", rev)
	}
	if err := s.RevokeEmbedToken(ctx(), a.ID, t2.ID); err != nil {
		t.Fatalf("second revoke: %v", err)
	}
	if again, _ := s.GetEmbedToken(ctx(), a.ID, t2.ID); again.Status != store.EmbedRevoked || !again.RevokedAt.Equal(rev.RevokedAt) {
		t.Fatalf("second revoke changed the token: %+v, was %+v", again, rev)
	}
	if list, _ := s.EmbedTokens(ctx(), a.ID); !slices.Equal(tokenIDs(list), []int64{t3.ID, t1.ID, t2.ID}) {
		t.Fatalf("list, active first: %v", tokenIDs(list))
	}

	foreign := t1
	foreign.AccountID = b.ID
	for _, tc := range []struct {
		name string
		op   func() error
		want error // nil: any error
	}{
		{"update revoked", func() error { r := rev; r.Label = "x"; return s.UpdateEmbedToken(ctx(), &r) }, store.ErrRevoked},
		{"get of another account", func() error { _, err := s.GetEmbedToken(ctx(), b.ID, t1.ID); return err }, store.ErrNotFound},
		{"get unknown", func() error { _, err := s.GetEmbedToken(ctx(), a.ID, t3.ID+100); return err }, store.ErrNotFound},
		{"update of another account", func() error { return s.UpdateEmbedToken(ctx(), &foreign) }, store.ErrNotFound},
		{"revoke of another account", func() error { return s.RevokeEmbedToken(ctx(), b.ID, t1.ID) }, store.ErrNotFound},
		{"revoke unknown", func() error { return s.RevokeEmbedToken(ctx(), a.ID, t3.ID+100) }, store.ErrNotFound},
		{"create for unknown account", func() error {
			tok := embedToken(b.ID+100, "ghost", 1, "ghost.test")
			return s.CreateEmbedToken(ctx(), &tok, 5)
		}, store.ErrNotFound},
		{"create without budget", func() error {
			tok := embedToken(a.ID, "free", 0, "free.test")
			return s.CreateEmbedToken(ctx(), &tok, 5)
		}, nil},
		{"update to no budget", func() error { u := t3; u.DailyBudgetMicro = 0; return s.UpdateEmbedToken(ctx(), &u) }, nil},
	} {
		if err := tc.op(); err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Fatalf("%s: err %v, want %v", tc.name, err, tc.want)
		}
	}
	if got, _ := s.GetEmbedToken(ctx(), a.ID, t1.ID); got.Status != store.EmbedActive || got.Label != "renamed" {
		t.Fatalf("another account's calls changed the token: %+v", got)
	}
	if got, _ := s.GetEmbedToken(ctx(), a.ID, t3.ID); got.DailyBudgetMicro != 100_000 {
		t.Fatalf("a refused update changed the token: %+v", got)
	}
	if list, err := s.EmbedTokens(ctx(), b.ID); err != nil || len(list) != 0 {
		t.Fatalf("another account's list: %v %+v", err, list)
	}

	// Touch records use, at most once a minute.
	at := time.Now().UTC().Truncate(time.Microsecond)
	for _, tc := range []struct {
		at, want time.Time
	}{
		{at, at},
		{at.Add(30 * time.Second), at},
		{at.Add(2 * time.Minute), at.Add(2 * time.Minute)},
	} {
		if err := s.TouchEmbedToken(ctx(), t1.ID, tc.at); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.GetEmbedToken(ctx(), a.ID, t1.ID); !got.LastUsedAt.Equal(tc.want) {
			t.Fatalf("touch at %v: last used %v, want %v", tc.at, got.LastUsedAt, tc.want)
		}
	}
}

func testEmbedTokenLimit(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Limited", 0)
	b, _ := NewAccount(t, s, "Neighbour", 0)
	var made []store.EmbedToken
	for i := range 5 {
		made = append(made, newEmbedToken(t, s, a.ID, fmt.Sprintf("a%d", i), 1_000, "a.test"))
	}
	sixth := embedToken(a.ID, "a5", 1_000, "a.test")
	if err := s.CreateEmbedToken(ctx(), &sixth, 5); !errors.Is(err, store.ErrLimitReached) || sixth.ID != 0 {
		t.Fatalf("sixth active token: %v %+v", err, sixth)
	}
	// Another account's tokens are its own.
	newEmbedToken(t, s, b.ID, "b0", 1_000, "b.test")
	// A revoked token makes room; revoked tokens never count.
	if err := s.RevokeEmbedToken(ctx(), a.ID, made[0].ID); err != nil {
		t.Fatal(err)
	}
	newEmbedToken(t, s, a.ID, "a6", 1_000, "a.test")
	again := embedToken(a.ID, "a7", 1_000, "a.test")
	if err := s.CreateEmbedToken(ctx(), &again, 5); !errors.Is(err, store.ErrLimitReached) {
		t.Fatalf("sixth active token after a revoke and a create: %v", err)
	}
	if list, _ := s.EmbedTokens(ctx(), a.ID); len(list) != 6 {
		t.Fatalf("%d tokens, want 5 active and 1 revoked", len(list))
	}

	// Concurrent creates never make more than the limit.
	c, _ := NewAccount(t, s, "Stampede", 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok := embedToken(c.ID, fmt.Sprintf("c%d", i), 1_000, "c.test")
			err := s.CreateEmbedToken(ctx(), &tok, 5)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrLimitReached):
				refused++
			default:
				t.Errorf("create %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	list, err := s.EmbedTokens(ctx(), c.ID)
	if err != nil || ok != 5 || refused != 15 || len(list) != 5 {
		t.Fatalf("%d created, %d refused, %d stored (%v); want 5, 15 and 5", ok, refused, len(list), err)
	}
}

func testEmbedTokenLookup(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Finder", 0)
	b, _ := NewAccount(t, s, "Seeker", 0)
	ta := newEmbedToken(t, s, a.ID, "shared", 1_000, "shop.test", "www.shop.test")
	tb := newEmbedToken(t, s, b.ID, "shared", 1_000, "b.test") // same prefix, another account
	newEmbedToken(t, s, a.ID, "second", 1_000, "shop.test", "blog.test")
	gone := newEmbedToken(t, s, a.ID, "gone", 1_000, "gone.test")
	if err := s.RevokeEmbedToken(ctx(), a.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		prefix string
		want   []int64
	}{
		{"both accounts", ta.Prefix, []int64{ta.ID, tb.ID}},
		{"revoked", gone.Prefix, []int64{}},
		{"unknown", "svc_emb_00000000", []int64{}},
	} {
		got, err := s.ActiveEmbedTokensByPrefix(ctx(), tc.prefix)
		ids := tokenIDs(got)
		slices.Sort(ids)
		if err != nil || !slices.Equal(ids, tc.want) {
			t.Fatalf("%s: %v %v, want %v", tc.name, err, ids, tc.want)
		}
	}
	domains, err := s.ActiveEmbedDomains(ctx())
	slices.Sort(domains)
	if want := []string{"b.test", "blog.test", "shop.test", "www.shop.test"}; err != nil || !slices.Equal(domains, want) {
		t.Fatalf("domains: %v %v, want %v", err, domains, want)
	}
	if err := s.RevokeEmbedToken(ctx(), b.ID, tb.ID); err != nil {
		t.Fatal(err)
	}
	if domains, _ := s.ActiveEmbedDomains(ctx()); slices.Contains(domains, "b.test") {
		t.Fatalf("a revoked token's domain is still allowed: %v", domains)
	}
	if got, _ := s.ActiveEmbedTokensByPrefix(ctx(), ta.Prefix); len(got) != 1 || got[0].ID != ta.ID {
		t.Fatalf("after revoking B's token: %+v", got)
	}
}

func testVisitorConversations(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Hosting", 1_000_000)
	b, _ := NewAccount(t, s, "Snooper", 1_000_000)
	tok1 := newEmbedToken(t, s, a.ID, "one", 100_000, "shop.test")
	tok2 := newEmbedToken(t, s, a.ID, "two", 100_000, "shop.test")
	tokB := newEmbedToken(t, s, b.ID, "b", 100_000, "b.test")
	api, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	const v1, v2 = "6f1c2a3e-0000-4000-8000-000000000001", "6f1c2a3e-0000-4000-8000-000000000002"
	c11, err := s.OpenVisitorConversation(ctx(), a.ID, tok1.ID, v1, "de")
	if err != nil || c11.ID == 0 || c11.AccountID != a.ID || c11.EmbedTokenID != tok1.ID || c11.Visitor != v1 ||
		c11.Lang != "de" || c11.CreatedAt.IsZero() {
		t.Fatalf("open: %v %+v", err, c11)
	}
	again, err := s.OpenVisitorConversation(ctx(), a.ID, tok1.ID, v1, "tr")
	if err != nil || again.ID != c11.ID || again.Lang != "de" || again.EmbedTokenID != tok1.ID || again.Visitor != v1 {
		t.Fatalf("reopen made another conversation or changed it: %v %+v", err, again)
	}
	c12 := openVisitor(t, s, a.ID, tok1.ID, v2)
	c21 := openVisitor(t, s, a.ID, tok2.ID, v1)
	cB := openVisitor(t, s, b.ID, tokB.ID, v1)
	ids := []int64{api.ID, c11.ID, c12.ID, c21.ID, cB.ID}
	slices.Sort(ids)
	if len(slices.Compact(ids)) != 5 {
		t.Fatalf("conversations share ids: api %d, %d %d %d, B %d", api.ID, c11.ID, c12.ID, c21.ID, cB.ID)
	}
	if got, err := s.OpenConversation(ctx(), a.ID, "en"); err != nil || got.ID != api.ID || got.EmbedTokenID != 0 || got.Visitor != "" {
		t.Fatalf("the API conversation after visitors: %v %+v", err, got)
	}
	// A fresh account's first API conversation is still its own.
	c, _ := NewAccount(t, s, "Late", 0)
	tokC := newEmbedToken(t, s, c.ID, "c", 1_000, "c.test")
	cv := openVisitor(t, s, c.ID, tokC.ID, v1)
	if got, err := s.OpenConversation(ctx(), c.ID, "en"); err != nil || got.ID == cv.ID || got.EmbedTokenID != 0 {
		t.Fatalf("API conversation opened after a visitor's: %v %+v", err, got)
	}

	revoked := newEmbedToken(t, s, a.ID, "revoked", 1_000, "shop.test")
	openVisitor(t, s, a.ID, revoked.ID, v1) // seen just now: reopening would need no write
	if err := s.RevokeEmbedToken(ctx(), a.ID, revoked.ID); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		accountID int64
		tokenID   int64
		want      error
	}{
		{"another account's token", b.ID, tok1.ID, store.ErrNotFound},
		{"token of the other account", a.ID, tokB.ID, store.ErrNotFound},
		{"unknown token", a.ID, tok2.ID + 100, store.ErrNotFound},
		{"revoked token", a.ID, revoked.ID, store.ErrRevoked},
	} {
		if _, err := s.OpenVisitorConversation(ctx(), tc.accountID, tc.tokenID, v1, "en"); !errors.Is(err, tc.want) {
			t.Fatalf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}

	// Each visitor sees only their own messages.
	saveTurn(t, s, embedTurn(a, c11, "v1 asks", 10))
	saveTurn(t, s, embedTurn(a, c12, "v2 asks", 10))
	saveTurn(t, s, embedTurn(a, c21, "v1 on token two asks", 10))
	saveTurn(t, s, turn(a, api, "api asks", "api answer", store.Charge{EventType: store.EventAnswer, AmountMicro: 10}))
	for _, tc := range []struct {
		conv store.Conversation
		want string
	}{{c11, "v1 asks"}, {c12, "v2 asks"}, {c21, "v1 on token two asks"}, {api, "api asks"}} {
		msgs, err := s.Messages(ctx(), a.ID, tc.conv.ID, 0, 100)
		last, err2 := s.LastMessages(ctx(), a.ID, tc.conv.ID, 100)
		if err != nil || err2 != nil || len(msgs) != 2 || msgs[0].Body != tc.want || len(last) != 2 || last[0].Body != tc.want {
			t.Fatalf("messages of %q: %v %v %+v %+v", tc.want, err, err2, msgs, last)
		}
	}
	if msgs, _ := s.Messages(ctx(), b.ID, c11.ID, 0, 100); len(msgs) != 0 {
		t.Fatalf("another account reads a visitor's messages: %+v", msgs)
	}
}

func testVisitorFeedback(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Rated", 1_000_000)
	tok := newEmbedToken(t, s, a.ID, "tok", 100_000, "shop.test")
	mine := openVisitor(t, s, a.ID, tok.ID, "mine")
	theirs := openVisitor(t, s, a.ID, tok.ID, "theirs")
	myTurn, theirTurn := embedTurn(a, mine, "my question", 10), embedTurn(a, theirs, "their question", 10)
	saveTurn(t, s, myTurn)
	saveTurn(t, s, theirTurn)

	unknown := s.SaveFeedback(ctx(), &store.Feedback{AccountID: a.ID, ConversationID: mine.ID, MessageID: theirTurn.Reply.ID + 100,
		Rating: "helpful"})
	if !errors.Is(unknown, store.ErrNotFound) {
		t.Fatalf("unknown message: %v", unknown)
	}
	for _, tc := range []struct {
		name      string
		messageID int64
	}{
		{"their reply", theirTurn.Reply.ID},
		{"their question", theirTurn.User.ID}, // not ErrNotAssistant: that would tell it exists
	} {
		err := s.SaveFeedback(ctx(), &store.Feedback{AccountID: a.ID, ConversationID: mine.ID, MessageID: tc.messageID, Rating: "not_helpful"})
		if !errors.Is(err, store.ErrNotFound) || err.Error() != unknown.Error() {
			t.Fatalf("%s: %v, want the unknown message's %v", tc.name, err, unknown)
		}
	}
	if items, _ := s.ReviewList(ctx(), a.ID); len(items) != 0 {
		t.Fatalf("a refused rating was stored: %+v", items)
	}
	f := store.Feedback{AccountID: a.ID, ConversationID: mine.ID, MessageID: myTurn.Reply.ID, Rating: "not_helpful"}
	if err := s.SaveFeedback(ctx(), &f); err != nil || f.ID == 0 {
		t.Fatalf("rating my own reply: %v %+v", err, f)
	}
	// Without a conversation (the API, the owner) any of the account's messages may be rated.
	if err := s.SaveFeedback(ctx(), &store.Feedback{AccountID: a.ID, MessageID: theirTurn.Reply.ID, Rating: "not_helpful"}); err != nil {
		t.Fatal(err)
	}
	if items, _ := s.ReviewList(ctx(), a.ID); len(items) != 2 {
		t.Fatalf("review list: %+v", items)
	}
}

func testEmbedBudgetNotice(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Spender", 1_000_000)
	tok := newEmbedToken(t, s, a.ID, "tok", 10_000, "shop.test")
	c := openVisitor(t, s, a.ID, tok.ID, "v")
	since := time.Now().UTC().Truncate(24 * time.Hour)
	budget := &store.TokenBudget{TokenID: tok.ID, LimitMicro: 10_000, Since: since}
	for i, want := range []bool{false, false, true, false, false} {
		tr := embedTurn(a, c, fmt.Sprintf("q%d", i), 4_000)
		tr.Budget = budget
		saveTurn(t, s, tr)
		if tr.NoticeQueued != want {
			t.Fatalf("turn %d (spend %d): notice queued %v, want %v", i, 4_000*(i+1), tr.NoticeQueued, want)
		}
	}
	notices, err := s.Notices(ctx(), a.ID)
	if err != nil || len(notices) != 1 {
		t.Fatalf("notices: %v %+v", err, notices)
	}
	n := notices[0]
	var p store.BudgetPayload
	if err := json.Unmarshal([]byte(n.Payload), &p); err != nil {
		t.Fatalf("payload %q: %v", n.Payload, err)
	}
	want := store.BudgetPayload{TokenID: tok.ID, Day: since.Format("2006-01-02"), LimitMicro: 10_000, SpendMicro: 12_000}
	if n.Kind != store.NoticeBudgetReached || n.Status != store.NoticePending || n.AccountID != a.ID || p != want ||
		n.DedupeKey != store.BudgetNotice(a.ID, *budget, 0).DedupeKey {
		t.Fatalf("notice %+v payload %+v, want %+v", n, p, want)
	}

	// A turn that fails writes no notice: the notice exists exactly when its charge does.
	poor, _ := NewAccount(t, s, "Poor", 5_000)
	ptok := newEmbedToken(t, s, poor.ID, "poor", 1_000, "poor.test")
	pc := openVisitor(t, s, poor.ID, ptok.ID, "v")
	pb := &store.TokenBudget{TokenID: ptok.ID, LimitMicro: 1_000, Since: since}
	tooMuch := embedTurn(poor, pc, "expensive", 6_000)
	tooMuch.Budget = pb
	if err := s.SaveTurn(ctx(), tooMuch); !errors.Is(err, store.ErrInsufficientBalance) || tooMuch.NoticeQueued {
		t.Fatalf("overdrawing turn: %v, notice queued %v", err, tooMuch.NoticeQueued)
	}
	if notices, err := s.Notices(ctx(), poor.ID); err != nil || len(notices) != 0 {
		t.Fatalf("a refused turn queued a notice: %v %+v", err, notices)
	}
}

func testConcurrentBudgetReservations(t *testing.T, s store.Store) {
	const limit, each = 50_000, 21_000
	a, _ := NewAccount(t, s, "Burst", 10_000_000)
	other, _ := NewAccount(t, s, "Outsider", 10_000_000)
	tok := newEmbedToken(t, s, a.ID, "tok", limit, "shop.test")
	since := time.Now().UTC().Truncate(24 * time.Hour)
	budget := &store.TokenBudget{TokenID: tok.ID, LimitMicro: limit, Since: since}
	if _, err := s.Reserve(ctx(), other.ID, each, time.Minute, budget); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("reserve against another account's token: %v", err)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	var granted []store.Reservation
	refused := 0
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := s.Reserve(ctx(), a.ID, each, time.Minute, budget)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				granted = append(granted, r)
			case errors.Is(err, store.ErrBudgetReached):
				refused++
			default:
				t.Errorf("reserve %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	total := int64(len(granted)) * each
	// Granted while any budget is left: 0, 21k and 42k are below the limit, 63k is not.
	if total > limit+each || len(granted) != 3 || refused != 17 {
		t.Fatalf("%d granted (%d micro-USD), %d refused; want 3 and 17", len(granted), total, refused)
	}
	for _, r := range granted {
		if r.EmbedTokenID != tok.ID {
			t.Fatalf("reservation without its token: %+v", r)
		}
	}
	assertMoney(t, s, a.ID, 10_000_000, total)
	if u := embedUsage(t, s, a.ID, since)[tok.ID]; u.ReservedMicro != total || u.SpendMicro != 0 {
		t.Fatalf("usage while held: %+v", u)
	}

	// Two are released, one settles as a turn that costs more than it held.
	for _, r := range granted[1:] {
		if err := s.Release(ctx(), a.ID, r.ID); err != nil {
			t.Fatal(err)
		}
	}
	c := openVisitor(t, s, a.ID, tok.ID, "v")
	tr := embedTurn(a, c, "q", 30_000)
	tr.ReservationID, tr.Budget = granted[0].ID, budget
	saveTurn(t, s, tr)
	assertMoney(t, s, a.ID, 10_000_000-30_000, 0)
	if u := embedUsage(t, s, a.ID, since)[tok.ID]; u.ReservedMicro != 0 || u.SpendMicro != 30_000 {
		t.Fatalf("usage after settling: %+v", u)
	}
	// 30k spent: one more fits, then the budget is held.
	r, err := s.Reserve(ctx(), a.ID, each, time.Minute, budget)
	if err != nil {
		t.Fatalf("reserve with 20k of the budget left: %v", err)
	}
	if _, err := s.Reserve(ctx(), a.ID, 1, time.Minute, budget); !errors.Is(err, store.ErrBudgetReached) {
		t.Fatalf("reserve with 30k spent and 21k held: %v", err)
	}
	if u := embedUsage(t, s, a.ID, since)[tok.ID]; u.SpendMicro+u.ReservedMicro != 30_000+each {
		t.Fatalf("usage: %+v", u)
	}
	if err := s.Release(ctx(), a.ID, r.ID); err != nil {
		t.Fatal(err)
	}
	assertMoney(t, s, a.ID, 10_000_000-30_000, 0)
}

func testReserveWithoutBudget(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Mixed", 1_000_000)
	tok := newEmbedToken(t, s, a.ID, "tok", 5_000, "shop.test")
	since := time.Now().UTC().Truncate(24 * time.Hour)
	budget := &store.TokenBudget{TokenID: tok.ID, LimitMicro: 5_000, Since: since}
	c := openVisitor(t, s, a.ID, tok.ID, "v")
	saveTurn(t, s, embedTurn(a, c, "spends the budget", 5_000))
	if _, err := s.Reserve(ctx(), a.ID, 100, time.Minute, budget); !errors.Is(err, store.ErrBudgetReached) {
		t.Fatalf("reserve over the budget: %v", err)
	}
	// The API's reservation counts against no token.
	r, err := s.Reserve(ctx(), a.ID, 100_000, time.Minute, nil)
	if err != nil || r.EmbedTokenID != 0 {
		t.Fatalf("reserve without a budget: %v %+v", err, r)
	}
	if u := embedUsage(t, s, a.ID, since)[tok.ID]; u.ReservedMicro != 0 || u.SpendMicro != 5_000 {
		t.Fatalf("the API's reservation counts against the token: %+v", u)
	}
	// Nor does the API's spend: a fresh token's budget is untouched by it.
	api, _ := s.OpenConversation(ctx(), a.ID, "en")
	saveTurn(t, s, turn(a, api, "api", "answer", store.Charge{EventType: store.EventAnswer, AmountMicro: 50_000}))
	fresh := newEmbedToken(t, s, a.ID, "fresh", 5_000, "shop.test")
	if _, err := s.Reserve(ctx(), a.ID, 4_000, time.Minute, &store.TokenBudget{TokenID: fresh.ID, LimitMicro: 5_000,
		Since: since}); err != nil {
		t.Fatalf("a fresh token's reservation: %v", err)
	}
	if u := embedUsage(t, s, a.ID, since); u[tok.ID].SpendMicro != 5_000 || u[fresh.ID].SpendMicro != 0 || u[fresh.ID].ReservedMicro != 4_000 {
		t.Fatalf("usage: %+v", u)
	}
	assertMoney(t, s, a.ID, 1_000_000-55_000, 104_000)
}

func testVisitorSeen(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Seen", 1_000_000)
	tok := newEmbedToken(t, s, a.ID, "tok", 100_000, "shop.test")
	visitors := func(since time.Time) int {
		t.Helper()
		return embedUsage(t, s, a.ID, since)[tok.ID].Visitors
	}
	c := openVisitor(t, s, a.ID, tok.ID, "v")
	if n := visitors(clock.Now().Add(-time.Second)); n != 1 {
		t.Fatalf("visitors after the first open: %d", n)
	}
	clock.Advance(time.Hour)
	if n := visitors(clock.Now().Add(-time.Minute)); n != 0 {
		t.Fatalf("a visitor seen an hour ago counts as seen this minute: %d", n)
	}
	again := openVisitor(t, s, a.ID, tok.ID, "v")
	if n := visitors(clock.Now().Add(-time.Second)); n != 1 {
		t.Fatalf("reopening did not record the visitor: %d", n)
	}
	// Opening the widget is not a turn: updated_at stays the conversation's last turn.
	if !again.UpdatedAt.Equal(c.UpdatedAt) || again.ID != c.ID {
		t.Fatalf("reopening moved updated_at: %v, was %v", again.UpdatedAt, c.UpdatedAt)
	}
	// Within a minute of the last record, opening writes nothing.
	clock.Advance(30 * time.Second)
	openVisitor(t, s, a.ID, tok.ID, "v")
	if n := visitors(clock.Now().Add(-10 * time.Second)); n != 0 {
		t.Fatalf("reopening within the minute rewrote last seen: %d", n)
	}
	clock.Advance(31 * time.Second)
	openVisitor(t, s, a.ID, tok.ID, "v")
	if n := visitors(clock.Now().Add(-time.Second)); n != 1 {
		t.Fatalf("reopening after the minute did not record the visitor: %d", n)
	}
}

func testCountUserMessages(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Counter", 1_000_000)
	b, _ := NewAccount(t, s, "Other", 0)
	tok := newEmbedToken(t, s, a.ID, "tok", 100_000, "shop.test")
	c := openVisitor(t, s, a.ID, tok.ID, "v")
	other := openVisitor(t, s, a.ID, tok.ID, "w")
	first := embedTurn(a, c, "first", 1)
	saveTurn(t, s, first)
	saveTurn(t, s, embedTurn(a, other, "elsewhere", 1))
	clock.Advance(time.Hour)
	second := embedTurn(a, c, "second", 1)
	saveTurn(t, s, second)
	clock.Advance(time.Second)
	saveTurn(t, s, embedTurn(a, c, "third", 1))
	for _, tc := range []struct {
		name      string
		accountID int64
		conv      int64
		since     time.Time
		want      int
	}{
		{"all time", a.ID, c.ID, time.Time{}, 3},
		{"at the first", a.ID, c.ID, first.User.CreatedAt, 3},
		{"at the second, inclusive", a.ID, c.ID, second.User.CreatedAt, 2},
		{"just after the second", a.ID, c.ID, second.User.CreatedAt.Add(time.Microsecond), 1},
		{"in the future", a.ID, c.ID, clock.Now().Add(time.Hour), 0},
		{"the other visitor", a.ID, other.ID, time.Time{}, 1},
		{"another account", b.ID, c.ID, time.Time{}, 0},
	} {
		if n, err := s.CountUserMessages(ctx(), tc.accountID, tc.conv, tc.since); err != nil || n != tc.want {
			t.Fatalf("%s: %d %v, want %d", tc.name, n, err, tc.want)
		}
	}
}

func testEmbedUsage(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Usage", 10_000_000)
	b, _ := NewAccount(t, s, "Elsewhere", 10_000_000)
	tok := newEmbedToken(t, s, a.ID, "tok", 1_000_000, "shop.test")
	idle := newEmbedToken(t, s, a.ID, "idle", 1_000_000, "shop.test")
	tokB := newEmbedToken(t, s, b.ID, "b", 1_000_000, "b.test")
	v1, v2 := openVisitor(t, s, a.ID, tok.ID, "v1"), openVisitor(t, s, a.ID, tok.ID, "v2")
	yesterday := clock.Now().Add(-time.Minute)
	tr := embedTurn(a, v1, "yesterday", 1_000)
	tr.Extra = []store.Charge{{EventType: store.EventSummary, AmountMicro: 200}}
	saveTurn(t, s, tr)

	clock.Advance(24 * time.Hour)
	today := clock.Now().Add(-time.Minute)
	tr = embedTurn(a, v1, "today", 3_000)
	tr.Extra = []store.Charge{{EventType: store.EventSummary, AmountMicro: 100}}
	saveTurn(t, s, tr)
	if tr.Extra[0].EventID == 0 || tr.Charge.EventID == 0 {
		t.Fatalf("the charges recorded no events: %+v %+v", tr.Charge, tr.Extra)
	}
	cached := embedTurn(a, v2, "cached", 0)
	cached.Charge.EventType = store.EventCacheTenant
	saveTurn(t, s, cached)
	openVisitor(t, s, a.ID, tok.ID, "v1")     // seen today
	openVisitor(t, s, a.ID, tok.ID, "v3")     // seen today, no turn
	openVisitor(t, s, b.ID, tokB.ID, "b-one") // another account's
	api, _ := s.OpenConversation(ctx(), a.ID, "en")
	saveTurn(t, s, turn(a, api, "api", "answer", store.Charge{EventType: store.EventAnswer, AmountMicro: 5_000}))
	saveTurn(t, s, embedTurn(b, openVisitor(t, s, b.ID, tokB.ID, "b-two"), "b", 7_000))
	if _, err := s.Reserve(ctx(), a.ID, 2_500, time.Minute, &store.TokenBudget{TokenID: tok.ID, LimitMicro: 1_000_000,
		Since: today}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name  string
		since time.Time
		want  store.EmbedUsage
	}{
		// v1 and v2 had a turn today, v1 and v3 opened the widget today.
		{"today", today, store.EmbedUsage{SpendMicro: 3_100, ReservedMicro: 2_500, Conversations: 2, Visitors: 2}},
		{"since yesterday", yesterday, store.EmbedUsage{SpendMicro: 4_300, ReservedMicro: 2_500, Conversations: 2, Visitors: 3}},
		{"from now on", clock.Now().Add(time.Minute), store.EmbedUsage{ReservedMicro: 2_500}},
	} {
		u := embedUsage(t, s, a.ID, tc.since)
		if u[tok.ID] != tc.want {
			t.Fatalf("%s: %+v, want %+v", tc.name, u[tok.ID], tc.want)
		}
		if spend, err := s.EmbedSpend(ctx(), a.ID, tok.ID, tc.since); err != nil || spend != tc.want.SpendMicro {
			t.Fatalf("%s: EmbedSpend %d, %v; want %d", tc.name, spend, err, tc.want.SpendMicro)
		}
		if _, ok := u[idle.ID]; ok || len(u) != 1 {
			t.Fatalf("%s: tokens without activity or of another account reported: %+v", tc.name, u)
		}
	}
	if u := embedUsage(t, s, b.ID, today); len(u) != 1 || u[tokB.ID] != (store.EmbedUsage{SpendMicro: 7_000, Conversations: 1, Visitors: 2}) {
		t.Fatalf("the other account's usage: %+v", u)
	}
	if spend, err := s.EmbedSpend(ctx(), a.ID, tokB.ID, today); err != nil || spend != 0 {
		t.Fatalf("another account's token through EmbedSpend: %d, %v", spend, err)
	}
	// The API's spend is the account's, not a token's.
	if got := account(t, s, a.ID); got.BalanceMicro != 10_000_000-1_200-3_100-5_000 {
		t.Fatalf("balance %d", got.BalanceMicro)
	}
}

func testLapsedTokenReservations(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Lapsing", 1_000_000)
	tok := newEmbedToken(t, s, a.ID, "tok", 50_000, "shop.test")
	budget := func() *store.TokenBudget {
		return &store.TokenBudget{TokenID: tok.ID, LimitMicro: 50_000, Since: clock.Now().Add(-time.Minute)}
	}
	for range 2 {
		if _, err := s.Reserve(ctx(), a.ID, 30_000, time.Minute, budget()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Reserve(ctx(), a.ID, 1, time.Minute, budget()); !errors.Is(err, store.ErrBudgetReached) {
		t.Fatalf("reserve with 60k held: %v", err)
	}
	if u := embedUsage(t, s, a.ID, budget().Since)[tok.ID]; u.ReservedMicro != 60_000 {
		t.Fatalf("held: %+v", u)
	}
	clock.Advance(time.Minute + time.Second)
	// Lapsed reservations stop counting at once, before anything releases them.
	if u := embedUsage(t, s, a.ID, budget().Since)[tok.ID]; u.ReservedMicro != 0 {
		t.Fatalf("lapsed reservations still count: %+v", u)
	}
	r, err := s.Reserve(ctx(), a.ID, 30_000, time.Minute, budget())
	if err != nil {
		t.Fatalf("reserve after the lapse: %v", err)
	}
	assertMoney(t, s, a.ID, 1_000_000, 30_000)

	// Yesterday's spend does not count against today's budget.
	c := openVisitor(t, s, a.ID, tok.ID, "v")
	tr := embedTurn(a, c, "q", 60_000)
	tr.ReservationID = r.ID
	saveTurn(t, s, tr)
	if _, err := s.Reserve(ctx(), a.ID, 1, time.Minute, budget()); !errors.Is(err, store.ErrBudgetReached) {
		t.Fatalf("reserve with 60k spent: %v", err)
	}
	clock.Advance(24 * time.Hour)
	if _, err := s.Reserve(ctx(), a.ID, 30_000, time.Minute, budget()); err != nil {
		t.Fatalf("reserve on a new day: %v", err)
	}
	assertMoney(t, s, a.ID, 1_000_000-60_000, 30_000)
}

// The appearance is written whole and read back as written; lists read it too.
func testEmbedTokenAppearance(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Looks", 0)
	tok := embedToken(a.ID, "looks", 100_000, "looks.test")
	tok.Appearance = store.DefaultAppearance()
	if err := s.CreateEmbedToken(ctx(), &tok, 5); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetEmbedToken(ctx(), a.ID, tok.ID)
	if err != nil || !reflect.DeepEqual(got.Appearance, store.DefaultAppearance()) || got.AvatarHash != "" || got.AvatarData != nil {
		t.Fatalf("created: %v %+v", err, got)
	}
	look := store.EmbedAppearance{Title: "Şirin Destek", Welcome: "Hi!", WelcomeByLang: map[string]string{"tr": "Merhaba!", "de": "Grüß dich \"Gast\""},
		Position: "left", OffsetX: 0, OffsetY: 96, Theme: "auto", AvatarURL: "https://cdn.looks.test/a.png", LauncherLabel: "Sor bize",
		PanelWidth: 420, PanelHeight: 700, Starters: []string{"Kargo ne kadar?", "Do you ship to Berlin?"}, Inline: "#chat > .box"}
	up := got
	up.Appearance = look
	if err := s.UpdateEmbedToken(ctx(), &up); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(up.Appearance, look) {
		t.Fatalf("update refilled %+v, want %+v", up.Appearance, look)
	}
	got, err = s.GetEmbedToken(ctx(), a.ID, tok.ID)
	if err != nil || !reflect.DeepEqual(got.Appearance, look) {
		t.Fatalf("read back %v %+v, want %+v", err, got.Appearance, look)
	}
	list, err := s.EmbedTokens(ctx(), a.ID)
	if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0].Appearance, look) {
		t.Fatalf("list: %v %+v", err, list)
	}
	byPrefix, err := s.ActiveEmbedTokensByPrefix(ctx(), tok.Prefix)
	if err != nil || len(byPrefix) != 1 || !reflect.DeepEqual(byPrefix[0].Appearance, look) {
		t.Fatalf("by prefix: %v %+v", err, byPrefix)
	}
	// Back to the defaults.
	up.Appearance = store.DefaultAppearance()
	if err := s.UpdateEmbedToken(ctx(), &up); err != nil || !reflect.DeepEqual(up.Appearance, store.DefaultAppearance()) {
		t.Fatalf("reset: %v %+v", err, up.Appearance)
	}
}

// An avatar is stored with its token, served by hash only while an active token holds it,
// kept by an update that names it without its bytes, replaced and removed.
func testEmbedAvatar(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Avatars", 0)
	img := []byte("\x89PNG\r\n\x1a\n fake image bytes \x00\xff")
	sum := sha256.Sum256(img)
	hash := fmt.Sprintf("%x", sum)
	tok := embedToken(a.ID, "avatar", 100_000, "avatar.test")
	tok.Appearance = store.DefaultAppearance()
	tok.AvatarHash, tok.AvatarType, tok.AvatarData = hash, "image/png", img
	if err := s.CreateEmbedToken(ctx(), &tok, 5); err != nil {
		t.Fatal(err)
	}
	if tok.AvatarData != nil {
		t.Error("create left the bytes on the record")
	}
	got, err := s.EmbedAvatar(ctx(), hash)
	if err != nil || got.Type != "image/png" || string(got.Data) != string(img) || got.Hash != hash {
		t.Fatalf("avatar: %v %+v", err, got)
	}
	rec, err := s.GetEmbedToken(ctx(), a.ID, tok.ID)
	if err != nil || rec.AvatarHash != hash || rec.AvatarType != "image/png" || rec.AvatarData != nil {
		t.Fatalf("token: %v %+v", err, rec)
	}
	for _, bad := range []string{"", "00" + hash[2:], "nope"} {
		if _, err := s.EmbedAvatar(ctx(), bad); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("avatar %q: %v, want ErrNotFound", bad, err)
		}
	}

	// Another setting changes; the image stays.
	rec.Label = "relabelled"
	if err := s.UpdateEmbedToken(ctx(), &rec); err != nil {
		t.Fatal(err)
	}
	if got, err := s.EmbedAvatar(ctx(), hash); err != nil || string(got.Data) != string(img) {
		t.Fatalf("kept avatar: %v %+v", err, got)
	}
	// A hash that is not the stored one cannot be kept without its bytes.
	wrong := rec
	wrong.AvatarHash = strings.Repeat("ab", 32)
	if err := s.UpdateEmbedToken(ctx(), &wrong); err == nil {
		t.Error("an update named an avatar it did not store")
	}

	// Replaced.
	img2 := []byte("GIF89a other bytes")
	sum2 := sha256.Sum256(img2)
	hash2 := fmt.Sprintf("%x", sum2)
	rec.AvatarHash, rec.AvatarType, rec.AvatarData = hash2, "image/gif", img2
	if err := s.UpdateEmbedToken(ctx(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.AvatarHash != hash2 || rec.AvatarData != nil {
		t.Fatalf("replaced: %+v", rec)
	}
	if _, err := s.EmbedAvatar(ctx(), hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the replaced image is still served: %v", err)
	}
	if got, err := s.EmbedAvatar(ctx(), hash2); err != nil || got.Type != "image/gif" || string(got.Data) != string(img2) {
		t.Fatalf("new avatar: %v %+v", err, got)
	}

	// Two tokens may share one image; revoking one leaves the other's.
	other := embedToken(a.ID, "avatar-2", 100_000, "avatar.test")
	other.Appearance = store.DefaultAppearance()
	other.AvatarHash, other.AvatarType, other.AvatarData = hash2, "image/gif", img2
	if err := s.CreateEmbedToken(ctx(), &other, 5); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeEmbedToken(ctx(), a.ID, rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EmbedAvatar(ctx(), hash2); err != nil {
		t.Fatalf("shared avatar after one revocation: %v", err)
	}

	// Removed.
	other.AvatarHash, other.AvatarType, other.AvatarData = "", "", nil
	if err := s.UpdateEmbedToken(ctx(), &other); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EmbedAvatar(ctx(), hash2); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removed avatar still served (only a revoked token holds it): %v", err)
	}
	// Half an avatar is refused.
	other.AvatarHash = hash2
	if err := s.UpdateEmbedToken(ctx(), &other); err == nil {
		t.Error("an avatar hash without a type was stored")
	}
}
