// Package storetest is the conformance suite of store.Store. Every implementation runs it from
// its own tests with a constructor that returns a fresh, empty store, so the SQLite and the
// PostgreSQL stores are held to the same observable behaviour.
package storetest

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"iter"
	"maps"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/store"
)

// Opener returns a new empty store whose clock is now (every time it records or compares, such
// as a reservation's expiry); the suite closes it.
type Opener func(t *testing.T, now func() time.Time) store.Store

// Clock is the time a store under test sees: the real time (or, from ClockAt, a fixed start),
// moved on by whatever a test advanced it, so tests that pass time.Now()-based bounds keep
// working.
type Clock struct {
	mu     sync.Mutex
	start  time.Time // zero: the real time
	offset time.Duration
}

// ClockAt is a clock stopped at start, moved only by Advance, for tests whose outcome
// depends on the day or hour.
func ClockAt(start time.Time) *Clock { return &Clock{start: start} }

// Now is the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.start.IsZero() {
		return time.Now().Add(c.offset)
	}
	return c.start.Add(c.offset)
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

// suiteTest is one conformance test on a fresh store.
type suiteTest struct {
	name string
	fn   func(t *testing.T, s store.Store)
}

// clockedTest is one conformance test that moves the store's clock.
type clockedTest struct {
	name string
	fn   func(t *testing.T, s store.Store, clock *Clock)
}

// Run runs every conformance test.
func Run(t *testing.T, open Opener) {
	tests := []suiteTest{
		{"AccountLifecycle", testAccountLifecycle},
		{"BalanceAndLedger", testBalanceAndLedger},
		{"KeyRotation", testKeyRotation},
		{"ConversationAndSync", testConversationAndSync},
		{"TurnCharges", testTurnCharges},
		{"ConcurrentTurnsNeverOverdraw", testConcurrentTurns},
		{"ConcurrentTurnsOneCancelled", testConcurrentTurnsCancelled},
		{"ImportSeqAllOrNothing", testImportSeq},
		{"QuotaInsideTransaction", testQuota},
		{"QuotaUnderConcurrentTurns", testConcurrentQuota},
		{"AnswerCache", testAnswerCache},
		{"Feedback", testFeedback},
		{"KBImportAndSearch", testKBImportAndSearch},
		{"TermStatsFollowEveryKBChange", testTermStatsFollowKB},
		{"TenantIsolation", testTenantIsolation},
		{"UsageSummary", testUsageSummary},
		{"Sites", testSites},
		{"SiteLease", testSiteLease},
		{"CrawledPages", testCrawledPages},
		{"CrawlTenantIsolation", testCrawlTenantIsolation},
		{"ArticlesByLanguage", testArticlesByLanguage},
		{"CrawledArticleSlugs", testCrawledArticleSlugs},
		{"Headings", testHeadings},
		{"SectionChunks", testSectionChunks},
		{"Products", testProducts},
		{"ConcurrentReservations", testConcurrentReservations},
		{"TurnWithReservation", testTurnWithReservation},
		{"CappedCharges", testCappedCharges},
		{"TurnWithoutReservation", testTurnWithoutReservation},
		{"SummaryUpdate", testSummaryUpdate},
		{"SimilarCached", testSimilarCached},
		{"CacheWithdrawalByDocument", testCacheWithdrawalByDocument},
		{"CrawlCacheWithdrawalByDocument", testCrawlCacheWithdrawal},
		{"ResolveReview", testResolveReview},
		{"FlaggedAnswerLeavesCache", testFlaggedAnswerLeavesCache},
		{"FlaggedListLeavesCache", testFlaggedListLeavesCache},
		{"TextWithNUL", testTextWithNUL},
	}
	tests = append(append(tests, embedTests...), outboxTests...)
	tests = append(append(tests, catalogTests...), holdTests...)
	tests = append(append(tests, usersTests()...), dashboardTests()...)
	tests = append(tests, privacyTests...)
	tests = append(tests, ledgerCheckTests...)
	tests = append(tests, sourcesTests...)
	tests = append(tests, vectorTests...)
	tests = append(tests, testSetTests...)
	tests = append(tests, productUpsertTests...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t, time.Now)
			t.Cleanup(func() { s.Close() })
			tc.fn(t, s)
		})
	}
	// These tests move the store's clock.
	clocked := []clockedTest{
		{"ReserveAndRelease", testReserveAndRelease},
	}
	clocked = append(append(clocked, embedClockedTests...), outboxClockedTests...)
	clocked = append(clocked, holdClockedTests...)
	clocked = append(clocked, monitoringClockedTests...)
	clocked = append(append(clocked, usersClockedTests()...), dashboardClockedTests()...)
	clocked = append(clocked, privacyClockedTests...)
	for _, tc := range clocked {
		t.Run(tc.name, func(t *testing.T) {
			clock := &Clock{}
			s := open(t, clock.Now)
			t.Cleanup(func() { s.Close() })
			tc.fn(t, s, clock)
		})
	}
}

// NewAccount creates an account with sensible defaults and a key derived from name.
func NewAccount(t *testing.T, s store.Store, name string, balanceMicro int64) (store.Account, store.APIKey) {
	t.Helper()
	a := store.Account{Name: name, Plan: store.PlanStarter, Lang: "en", BalanceMicro: balanceMicro, SalesMode: true,
		TonePreset: store.ToneProfessional, SendRatePerMin: 15, DailyAnswers: 200, InputRate: 3_000_000, OutputRate: 25_000_000}
	k := testKey(name + "-0")
	if err := s.CreateAccount(context.Background(), &a, &k); err != nil {
		t.Fatalf("create account: %v", err)
	}
	return a, k
}

func testKey(seed string) store.APIKey {
	h := sha256.Sum256([]byte(seed))
	return store.APIKey{Prefix: fmt.Sprintf("svc_pk_%x", h[:4]), Hash: h[:]}
}

func ctx() context.Context { return context.Background() }

func testAccountLifecycle(t *testing.T, s store.Store) {
	a, k := NewAccount(t, s, "Acme", 0)
	if a.ID == 0 || k.ID == 0 || k.AccountID != a.ID || k.Status != store.KeyActive {
		t.Fatalf("ids not filled: account %+v key %+v", a, k)
	}
	got, err := s.GetAccount(ctx(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Acme" || got.Plan != store.PlanStarter || !got.SalesMode || got.InputRate != 3_000_000 {
		t.Fatalf("round trip: %+v", got)
	}
	if got.CreatedAt.Location() != time.UTC || got.CreatedAt.IsZero() {
		t.Fatalf("created_at not UTC: %v", got.CreatedAt)
	}
	got.Plan, got.SalesMode, got.TonePreset, got.ToneCustom, got.DailyAnswers = store.PlanGrowth, false, store.ToneWarm, "Say 'siz'.", 1000
	if err := s.UpdateAccount(ctx(), &got); err != nil {
		t.Fatal(err)
	}
	again, _ := s.GetAccount(ctx(), a.ID)
	if again.Plan != store.PlanGrowth || again.SalesMode || again.TonePreset != store.ToneWarm || again.ToneCustom != "Say 'siz'." || again.DailyAnswers != 1000 {
		t.Fatalf("update lost: %+v", again)
	}
	byName, err := s.FindAccountByName(ctx(), "Acme")
	if err != nil || byName.ID != a.ID {
		t.Fatalf("find by name: %v %+v", err, byName)
	}
	if _, err := s.GetAccount(ctx(), a.ID+100); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing account: %v", err)
	}
	missing := store.Account{ID: a.ID + 100, Name: "x"}
	if err := s.UpdateAccount(ctx(), &missing); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("update missing: %v", err)
	}
}

func testBalanceAndLedger(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Ledgerly", 1_000_000)
	bal, err := s.AddBalance(ctx(), a.ID, 2_500_000, "top-up")
	if err != nil || bal != 3_500_000 {
		t.Fatalf("add: %d %v", bal, err)
	}
	if _, err := s.AddBalance(ctx(), a.ID, -4_000_000, "too much"); !errors.Is(err, store.ErrInsufficientBalance) {
		t.Fatalf("overdraw accepted: %v", err)
	}
	if _, err := s.AddBalance(ctx(), a.ID+99, 1, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown account: %v", err)
	}
	assertLedgerSums(t, s, a.ID)
}

// ledgerSum returns the sum of the account's ledger, checking each row's running balance.
func ledgerSum(t *testing.T, s store.Store, accountID int64) int64 {
	t.Helper()
	entries, err := s.Ledger(ctx(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, e := range entries {
		sum += e.AmountMicro
		if e.BalanceAfter != sum {
			t.Fatalf("entry %d balance_after %d, running sum %d", e.ID, e.BalanceAfter, sum)
		}
	}
	return sum
}

// assertLedgerSums checks that the ledger sums to the balance, which is not negative.
func assertLedgerSums(t *testing.T, s store.Store, accountID int64) {
	t.Helper()
	sum := ledgerSum(t, s, accountID)
	a, _ := s.GetAccount(ctx(), accountID)
	if a.BalanceMicro != sum || a.BalanceMicro < 0 {
		t.Fatalf("balance %d, ledger sums to %d", a.BalanceMicro, sum)
	}
}

func testKeyRotation(t *testing.T, s store.Store) {
	a, old := NewAccount(t, s, "Rotor", 0)
	keys, err := s.ActiveKeysByPrefix(ctx(), old.Prefix)
	if err != nil || len(keys) != 1 || string(keys[0].Hash) != string(old.Hash) {
		t.Fatalf("lookup: %v %+v", err, keys)
	}
	nk := testKey("Rotor-1")
	if err := s.RotateKey(ctx(), a.ID, &nk); err != nil {
		t.Fatal(err)
	}
	if keys, _ := s.ActiveKeysByPrefix(ctx(), old.Prefix); len(keys) != 0 {
		t.Fatalf("old key still active: %+v", keys)
	}
	if keys, _ := s.ActiveKeysByPrefix(ctx(), nk.Prefix); len(keys) != 1 || keys[0].AccountID != a.ID {
		t.Fatalf("new key not active: %+v", keys)
	}
	// The read authentication makes: the key with its account, and nothing for the old key.
	if kas, _ := s.ActiveKeyAccounts(ctx(), old.Prefix); len(kas) != 0 {
		t.Fatalf("old key still found with its account: %+v", kas)
	}
	kas, err := s.ActiveKeyAccounts(ctx(), nk.Prefix)
	got, _ := s.GetAccount(ctx(), a.ID)
	if err != nil || len(kas) != 1 || kas[0].Key.ID != nk.ID || string(kas[0].Key.Hash) != string(nk.Hash) ||
		!reflect.DeepEqual(kas[0].Account, got) {
		t.Fatalf("key with account: %v %+v, want the key %d and %+v", err, kas, nk.ID, got)
	}
	now := time.Now().UTC().Truncate(time.Second)
	if err := s.TouchKey(ctx(), nk.ID, now); err != nil {
		t.Fatal(err)
	}
	k, err := s.GetKey(ctx(), a.ID, nk.ID)
	if err != nil || !k.LastUsedAt.Equal(now) {
		t.Fatalf("touch: %v %v", err, k.LastUsedAt)
	}
	if _, err := s.GetKey(ctx(), a.ID+1, nk.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("key of another account: %v", err)
	}
	// What a remembered key is checked against: the key's state and the account's money and
	// settings time, as the full read gives them; the old key is revoked, an unknown one gone.
	f, err := s.KeyFreshness(ctx(), nk.ID)
	if err != nil || f.Status != store.KeyActive || !f.LastUsedAt.Equal(now) || !f.AccountUpdatedAt.Equal(got.UpdatedAt) ||
		f.BalanceMicro != got.BalanceMicro || f.ReservedMicro != got.ReservedMicro {
		t.Fatalf("freshness: %v %+v, account %+v", err, f, got)
	}
	if f, err := s.KeyFreshness(ctx(), old.ID); err != nil || f.Status != store.KeyRevoked {
		t.Fatalf("freshness of the rotated key: %v %+v", err, f)
	}
	if _, err := s.KeyFreshness(ctx(), nk.ID+1000); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("freshness of an unknown key: %v", err)
	}
	if err := s.RotateKey(ctx(), a.ID+50, &store.APIKey{Prefix: "svc_pk_00000000", Hash: []byte("x")}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rotate unknown account: %v", err)
	}
}

func turn(a store.Account, c store.Conversation, q, reply string, charge store.Charge) *store.Turn {
	return &store.Turn{AccountID: a.ID, ConversationID: c.ID, Lang: "en",
		User:   store.Message{Role: store.RoleUser, Body: q, Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: reply, Source: store.SourceAI, Lang: "en"},
		Charge: charge}
}

func testConversationAndSync(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Talker", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "tr")
	if err != nil || c.Lang != "tr" {
		t.Fatalf("open: %v %+v", err, c)
	}
	c2, _ := s.OpenConversation(ctx(), a.ID, "de")
	if c2.ID != c.ID || c2.Lang != "tr" {
		t.Fatalf("second open made another conversation: %+v", c2)
	}
	tr := turn(a, c, "hello?", "hi", store.Charge{EventType: store.EventCacheShared})
	tr.Lang = "de"
	tr.Reply.Products = []store.Product{{Name: "Boot", Price: "10,00 €"}}
	tr.Reply.DocIDs = []int64{7, 9}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	if tr.User.ID == 0 || tr.Reply.ID <= tr.User.ID || tr.Reply.CreatedAt.IsZero() {
		t.Fatalf("ids/times not filled: %+v %+v", tr.User, tr.Reply)
	}
	for i := 0; i < 3; i++ {
		if err := s.SaveTurn(ctx(), turn(a, c, fmt.Sprintf("q%d", i), "a", store.Charge{EventType: store.EventCacheShared})); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := s.Messages(ctx(), a.ID, c.ID, 0, 100)
	if len(all) != 8 || all[0].ID != tr.User.ID {
		t.Fatalf("messages: %d", len(all))
	}
	if got := all[1]; len(got.Products) != 1 || got.Products[0].Price != "10,00 €" || len(got.DocIDs) != 2 {
		t.Fatalf("reply fields lost: %+v", got)
	}
	since, _ := s.Messages(ctx(), a.ID, c.ID, all[5].ID, 100)
	if len(since) != 2 || since[0].ID != all[6].ID {
		t.Fatalf("sync since: %+v", since)
	}
	last, _ := s.LastMessages(ctx(), a.ID, c.ID, 3)
	if len(last) != 3 || last[2].ID != all[7].ID || last[0].ID != all[5].ID {
		t.Fatalf("last messages: %+v", last)
	}
	if c3, _ := s.OpenConversation(ctx(), a.ID, "en"); c3.Lang != "en" {
		t.Fatalf("turn did not save conversation lang: %q", c3.Lang)
	}
	other, _ := NewAccount(t, s, "Other", 0)
	if leaked, _ := s.Messages(ctx(), other.ID, c.ID, 0, 100); len(leaked) != 0 {
		t.Fatalf("another account read %d messages", len(leaked))
	}
}

func testTurnCharges(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Payer", 10_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	ok := turn(a, c, "q", "a", store.Charge{EventType: store.EventAnswer, AmountMicro: 6_000, InputTokens: 100, OutputTokens: 20})
	if err := s.SaveTurn(ctx(), ok); err != nil {
		t.Fatal(err)
	}
	tooMuch := turn(a, c, "q2", "a2", store.Charge{EventType: store.EventAnswer, AmountMicro: 6_000})
	if err := s.SaveTurn(ctx(), tooMuch); !errors.Is(err, store.ErrInsufficientBalance) {
		t.Fatalf("overdraw: %v", err)
	}
	msgs, _ := s.Messages(ctx(), a.ID, c.ID, 0, 10)
	if len(msgs) != 2 {
		t.Fatalf("a refused turn wrote messages: %d", len(msgs))
	}
	got, _ := s.GetAccount(ctx(), a.ID)
	if got.BalanceMicro != 4_000 {
		t.Fatalf("balance %d", got.BalanceMicro)
	}
	assertLedgerSums(t, s, a.ID)
	avg, okAvg, err := s.AverageCost(ctx(), a.ID, 50)
	if err != nil || !okAvg || avg != 6_000 {
		t.Fatalf("average: %d %v %v", avg, okAvg, err)
	}
}

func testConcurrentTurns(t *testing.T, s store.Store) {
	const price = 3_550
	a, _ := NewAccount(t, s, "Crowd", 10*price)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	var wg sync.WaitGroup
	var mu sync.Mutex
	okCount, refused := 0, 0
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			err := s.SaveTurn(ctx(), turn(a, c, fmt.Sprintf("q%d", i), "a", store.Charge{EventType: store.EventAnswer, AmountMicro: price}))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				okCount++
			case errors.Is(err, store.ErrInsufficientBalance):
				refused++
			default:
				t.Errorf("turn %d: %v", i, err)
			}
		}(i)
	}
	wg.Wait()
	if okCount != 10 || refused != 40 {
		t.Fatalf("charged %d, refused %d; want 10 and 40", okCount, refused)
	}
	got, _ := s.GetAccount(ctx(), a.ID)
	if got.BalanceMicro != 0 {
		t.Fatalf("balance %d", got.BalanceMicro)
	}
	assertLedgerSums(t, s, a.ID)
}

// testConcurrentTurnsCancelled races turns whose requests already ended against turns that
// did not: a store may write turns together (group commit), and a turn that cannot be
// written must fail alone, leaving no message and no charge, while every other turn commits
// with its charge.
func testConcurrentTurnsCancelled(t *testing.T, s store.Store) {
	const price = 1_000
	a, _ := NewAccount(t, s, "Leavers", 100*price)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	gone, cancel := context.WithCancel(ctx())
	cancel()
	var wg sync.WaitGroup
	var saved, cancelled atomic.Int64
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c0 := ctx()
			if i%3 == 0 {
				c0 = gone
			}
			err := s.SaveTurn(c0, turn(a, c, fmt.Sprintf("q%d", i), "a", store.Charge{EventType: store.EventAnswer, AmountMicro: price}))
			switch {
			case err == nil:
				saved.Add(1)
			case i%3 == 0 && errors.Is(err, context.Canceled):
				cancelled.Add(1)
			default:
				t.Errorf("turn %d: %v", i, err)
			}
		}(i)
	}
	wg.Wait()
	if saved.Load() != 20 || cancelled.Load() != 10 {
		t.Fatalf("saved %d, cancelled %d; want 20 and 10", saved.Load(), cancelled.Load())
	}
	msgs, err := s.Messages(ctx(), a.ID, c.ID, 0, 100)
	if err != nil || len(msgs) != 40 {
		t.Fatalf("messages: %d %v; want the 20 saved turns' 40", len(msgs), err)
	}
	for _, m := range msgs {
		var n int
		if _, err := fmt.Sscanf(m.Body, "q%d", &n); err == nil && n%3 == 0 {
			t.Fatalf("a cancelled turn was stored: %q", m.Body)
		}
	}
	got, _ := s.GetAccount(ctx(), a.ID)
	if got.BalanceMicro != 80*price {
		t.Fatalf("balance %d, want %d", got.BalanceMicro, 80*price)
	}
	assertLedgerSums(t, s, a.ID)
}

// testImportSeq streams documents into one import: they are all written, with the running
// statistics, or, when the sequence fails part way, none of them.
func testImportSeq(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Streamer", 0)
	docs := func(fail bool) iter.Seq2[store.Document, error] {
		return func(yield func(store.Document, error) bool) {
			for i := range 3 {
				if !yield(page(fmt.Sprintf("https://s.test/%d", i), fmt.Sprint(i), "tent stake"), nil) {
					return
				}
			}
			if fail {
				yield(store.Document{}, errors.New("line 4: broken"))
			}
		}
	}
	if _, err := s.ImportDocumentSeq(ctx(), a.ID, docs(true)); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("a failing sequence: %v", err)
	}
	if n, _ := s.CountDocuments(ctx(), a.ID); n[store.DocPage] != 0 {
		t.Fatalf("a failed import left %d pages", n[store.DocPage])
	}
	if st, _ := s.TermStats(ctx(), a.ID, nil); st.Chunks != 0 {
		t.Fatalf("a failed import left %d chunks counted", st.Chunks)
	}
	res, err := s.ImportDocumentSeq(ctx(), a.ID, docs(false))
	if err != nil || res.Pages != 3 {
		t.Fatalf("import: %+v %v", res, err)
	}
	st, _ := s.TermStats(ctx(), a.ID, []store.SearchTerm{{Text: "tent"}})
	if st.Chunks != 3 || st.DocFreq["tent"] != 3 {
		t.Fatalf("statistics after the import: %+v", st)
	}
	// A chunk's token count is kept and handed back with it.
	counted := page("https://s.test/counted", "c", "counted chunk")
	counted.Chunks[0].Tokens = 7
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{counted}); err != nil {
		t.Fatal(err)
	}
	hits, err := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "counted"}}})
	if err != nil || len(hits) != 1 || hits[0].Tokens != 7 {
		t.Fatalf("search: %v %+v, want the chunk with its 7 tokens", err, hits)
	}
	if d, err := s.GetDocument(ctx(), a.ID, hits[0].DocID); err != nil || d.Chunks[0].Tokens != 7 {
		t.Fatalf("document: %v %+v", err, d.Chunks)
	}
}

func testQuota(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Quota", 1_000_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	since := time.Now().UTC().Add(-time.Hour)
	for i := 0; i < 3; i++ {
		tr := turn(a, c, "q", "a", store.Charge{EventType: store.EventAnswer, AmountMicro: 10})
		tr.QuotaLimit, tr.QuotaSince = 2, since
		err := s.SaveTurn(ctx(), tr)
		if i < 2 && err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		if i == 2 && !errors.Is(err, store.ErrQuotaReached) {
			t.Fatalf("third turn: %v", err)
		}
	}
	free := turn(a, c, "q", "a", store.Charge{EventType: store.EventCacheTenant})
	free.QuotaLimit, free.QuotaSince = 2, since
	if err := s.SaveTurn(ctx(), free); err != nil {
		t.Fatalf("a free turn hit the quota: %v", err)
	}
	n, err := s.CountEvents(ctx(), a.ID, store.EventAnswer, since)
	if err != nil || n != 2 {
		t.Fatalf("count: %d %v", n, err)
	}
}

// Parallel answers recount the quota each inside its own commit: of 20 at once with room
// for 5, exactly 5 are saved and charged, however the store runs its writers.
func testConcurrentQuota(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Quota race", 1_000_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	since := time.Now().UTC().Add(-time.Hour)
	const sends, limit = 20, 5
	var wg sync.WaitGroup
	var saved, refused atomic.Int32
	for i := range sends {
		wg.Go(func() {
			tr := turn(a, c, fmt.Sprintf("q%d", i), "a", store.Charge{EventType: store.EventAnswer, AmountMicro: 10})
			tr.QuotaLimit, tr.QuotaSince = limit, since
			switch err := s.SaveTurn(ctx(), tr); {
			case err == nil:
				saved.Add(1)
			case errors.Is(err, store.ErrQuotaReached):
				refused.Add(1)
			default:
				t.Errorf("turn %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if saved.Load() != limit || refused.Load() != sends-limit {
		t.Fatalf("saved %d, refused %d; want %d and %d", saved.Load(), refused.Load(), limit, sends-limit)
	}
	if n, err := s.CountEvents(ctx(), a.ID, store.EventAnswer, since); err != nil || n != limit {
		t.Fatalf("answers counted: %d %v", n, err)
	}
	if got, _ := s.GetAccount(ctx(), a.ID); got.BalanceMicro != 1_000_000-limit*10 {
		t.Fatalf("balance %d, want %d", got.BalanceMicro, 1_000_000-limit*10)
	}
}

func testAnswerCache(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Cachey", 1_000_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	tr := turn(a, c, "Where is my order?", "Track it under Orders.", store.Charge{EventType: store.EventAnswer, AmountMicro: 5})
	tr.Cache = &store.CacheEntry{Lang: "en", Key: "order", Question: "Where is my order?", Answer: "Track it under Orders.", DocIDs: []int64{3}}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	e, err := s.CachedAnswer(ctx(), a.ID, "en", "order")
	if err != nil || e.Answer != "Track it under Orders." || e.MessageID != tr.Reply.ID || len(e.DocIDs) != 1 {
		t.Fatalf("cached: %v %+v", err, e)
	}
	if _, err := s.CachedAnswer(ctx(), a.ID, "de", "order"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("cache crossed languages: %v", err)
	}
	other, _ := NewAccount(t, s, "Other", 0)
	if _, err := s.CachedAnswer(ctx(), other.ID, "en", "order"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("cache crossed accounts: %v", err)
	}
	hit := turn(a, c, "where is my order", e.Answer, store.Charge{EventType: store.EventCacheTenant})
	hit.CacheHitID = e.ID
	if err := s.SaveTurn(ctx(), hit); err != nil {
		t.Fatal(err)
	}
	top, _ := s.TopQuestions(ctx(), a.ID, "en", 5)
	if len(top) != 1 || top[0] != "Where is my order?" {
		t.Fatalf("top questions: %v", top)
	}
	// A new document withdraws nothing (CacheWithdrawalByDocument covers changes).
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{{Type: store.DocPage, URL: "https://x.test/a", Title: "A",
		Body: "b", Lang: "en", Hash: "h1", Chunks: []store.Chunk{{Text: "b", Terms: "b"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CachedAnswer(ctx(), a.ID, "en", "order"); err != nil {
		t.Fatalf("a new document withdrew a cached answer: %v", err)
	}
}

func testFeedback(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Critic", 1_000_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	tr := turn(a, c, "How long is shipping?", "Two days.", store.Charge{EventType: store.EventAnswer, AmountMicro: 5})
	tr.Cache = &store.CacheEntry{Lang: "en", Key: "long ship", Question: "How long is shipping?", Answer: "Two days."}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveFeedback(ctx(), &store.Feedback{AccountID: a.ID, MessageID: tr.User.ID, Rating: "helpful"}); !errors.Is(err, store.ErrNotAssistant) {
		t.Fatalf("feedback on a user message: %v", err)
	}
	other, _ := NewAccount(t, s, "Intruder", 0)
	if err := s.SaveFeedback(ctx(), &store.Feedback{AccountID: other.ID, MessageID: tr.Reply.ID, Rating: "not_helpful"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("feedback across accounts: %v", err)
	}
	f := store.Feedback{AccountID: a.ID, MessageID: tr.Reply.ID, Rating: "not_helpful", Comment: "It took five."}
	if err := s.SaveFeedback(ctx(), &f); err != nil || f.ID == 0 {
		t.Fatalf("save: %v", err)
	}
	if _, err := s.CachedAnswer(ctx(), a.ID, "en", "long ship"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("not_helpful answer still cached: %v", err)
	}
	items, err := s.ReviewList(ctx(), a.ID)
	if err != nil || len(items) != 1 || items[0].Question != "How long is shipping?" || items[0].Answer != "Two days." || items[0].Comment != "It took five." {
		t.Fatalf("review list: %v %+v", err, items)
	}
	f2 := store.Feedback{AccountID: a.ID, MessageID: tr.Reply.ID, Rating: "helpful"}
	if err := s.SaveFeedback(ctx(), &f2); err != nil {
		t.Fatal(err)
	}
	if items, _ := s.ReviewList(ctx(), a.ID); len(items) != 0 {
		t.Fatalf("re-rated answer still listed: %+v", items)
	}
}

func kbDocs() []store.Document {
	return []store.Document{
		{Type: store.DocPage, URL: "https://shop.test/returns", Title: "Returns", Body: "Shoes can be returned in 30 days.", Lang: "en", Hash: "r1",
			Chunks: []store.Chunk{{Heading: "Returns", Text: "Shoes can be returned in 30 days.", Terms: "return shoe return 30 day"}}},
		{Type: store.DocQA, Title: "How much is shipping?", Body: "Shipping is free over 50 EUR.", Lang: "en", Hash: "q1",
			Chunks: []store.Chunk{{Text: "How much is shipping?\nShipping is free over 50 EUR.", Terms: "much ship ship free 50 eur"}}},
		{Type: store.DocProduct, URL: "https://shop.test/p/boot", Title: "Trail Boot", Body: "Waterproof boot.", Lang: "en", Hash: "p1",
			Product: &store.Product{Name: "Trail Boot", URL: "https://shop.test/p/boot", Price: "119,90 €", Category: "Shoes"},
			Chunks:  []store.Chunk{{Text: "Trail Boot. Waterproof boot. 119,90 €", Terms: "trail boot waterproof boot 119 90"}}},
		{Type: store.DocArticle, Title: "Caring for boots", Body: "Clean them.", Lang: "en", Hash: "a1",
			Article: &store.ArticleMeta{Slug: "boot-care", Excerpt: "Clean them.", CategorySlug: "care", CategoryName: "Care"},
			Chunks:  []store.Chunk{{Text: "Clean them.", Terms: "care boot clean"}}},
		{Type: store.DocPage, URL: "https://shop.test/tr/iade", Title: "İade", Body: "Ayakkabıların iadesi ücretsiz.", Lang: "tr", Hash: "t1",
			Chunks: []store.Chunk{{Text: "Ayakkabıların iadesi ücretsiz.", Terms: "ayakk iades ucret"}}},
	}
}

func testKBImportAndSearch(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Shop", 0)
	res, err := s.ImportDocuments(ctx(), a.ID, kbDocs())
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages != 2 || res.QA != 1 || res.Products != 1 || res.Articles != 1 || res.Unchanged != 0 {
		t.Fatalf("import counts: %+v", res)
	}
	again, err := s.ImportDocuments(ctx(), a.ID, kbDocs())
	if err != nil || again.Unchanged != 5 || again.Pages != 0 {
		t.Fatalf("re-import not idempotent: %+v %v", again, err)
	}
	counts, _ := s.CountDocuments(ctx(), a.ID)
	if counts[store.DocPage] != 2 || counts[store.DocQA] != 1 {
		t.Fatalf("counts: %v", counts)
	}

	hits, err := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "boot"}}, Limit: 10})
	if err != nil || len(hits) != 2 {
		t.Fatalf("search boot: %v %+v", err, hits)
	}
	if hits[0].DocType != store.DocProduct || hits[0].Product == nil || hits[0].Product.Price != "119,90 €" {
		t.Fatalf("best boot hit: %+v", hits[0])
	}
	prefix, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "iade", Prefix: true}}})
	if len(prefix) != 1 || prefix[0].Lang != "tr" || prefix[0].URL != "https://shop.test/tr/iade" {
		t.Fatalf("prefix search: %+v", prefix)
	}
	onlyQA, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "ship"}, {Text: "boot"}}, Types: []string{store.DocQA}})
	if len(onlyQA) != 1 || onlyQA[0].DocType != store.DocQA {
		t.Fatalf("type filter: %+v", onlyQA)
	}
	hostile, err := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: `boot" OR "x`}, {Text: "NEAR("}, {Text: "*"}}})
	if err != nil {
		t.Fatalf("query syntax leaked into FTS: %v", err)
	}
	_ = hostile

	st, err := s.TermStats(ctx(), a.ID, []store.SearchTerm{{Text: "boot"}, {Text: "ship"}, {Text: "zzz"}, {Text: "ayak", Prefix: true}})
	if err != nil || st.Chunks != 5 || st.DocFreq["boot"] != 2 || st.DocFreq["ship"] != 1 || st.DocFreq["zzz"] != 0 || st.DocFreq["ayak"] != 1 {
		t.Fatalf("stats: %v %+v", err, st)
	}
	if st.AvgLength <= 0 {
		t.Fatalf("avg length %v", st.AvgLength)
	}
	want := map[string]int{store.DocPage: 2, store.DocQA: 1, store.DocProduct: 1, store.DocArticle: 1}
	kbs, err := s.KBState(ctx(), a.ID)
	if err != nil || !maps.Equal(kbs.Chunks, want) || kbs.Version <= 0 {
		t.Fatalf("kb state: %v %+v, want chunks %v", err, kbs, want)
	}

	arts, _ := s.Articles(ctx(), a.ID, "en", 10)
	if len(arts) != 1 || arts[0].Slug != "boot-care" || arts[0].CategoryName != "Care" {
		t.Fatalf("articles: %+v", arts)
	}
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	tr := turn(a, c, "boot care?", "Clean them.", store.Charge{EventType: store.EventCacheTenant})
	tr.Reply.DocIDs = []int64{arts[0].DocID}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	if arts, _ := s.Articles(ctx(), a.ID, "en", 10); arts[0].ViewCount != 1 {
		t.Fatalf("view count %d", arts[0].ViewCount)
	}
	qs, _ := s.QAQuestions(ctx(), a.ID, "en", 5)
	if len(qs) != 1 || qs[0] != "How much is shipping?" {
		t.Fatalf("qa questions: %v", qs)
	}

	// An update replaces the chunks: the old text is no longer found.
	docs := kbDocs()[:1]
	docs[0].Hash, docs[0].Chunks = "r2", []store.Chunk{{Text: "Sandals only.", Terms: "sandal"}}
	if res, err := s.ImportDocuments(ctx(), a.ID, docs); err != nil || res.Pages != 1 {
		t.Fatalf("update: %v %+v", err, res)
	}
	if old, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "return"}}}); len(old) != 0 {
		t.Fatalf("stale chunk still indexed: %+v", old)
	}
	d, err := s.GetDocument(ctx(), a.ID, hits[0].DocID)
	if err != nil || d.Title != "Trail Boot" || len(d.Chunks) != 1 || d.Product == nil || d.Product.Price != "119,90 €" {
		t.Fatalf("get document: %v %+v", err, d)
	}
}

func testTenantIsolation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	if _, err := s.ImportDocuments(ctx(), a.ID, kbDocs()); err != nil {
		t.Fatal(err)
	}
	hits, _ := s.SearchChunks(ctx(), b.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "boot"}, {Text: "ship"}}})
	if len(hits) != 0 {
		t.Fatalf("account B found A's chunks: %+v", hits)
	}
	st, _ := s.TermStats(ctx(), b.ID, []store.SearchTerm{{Text: "boot"}})
	if st.Chunks != 0 || st.DocFreq["boot"] != 0 {
		t.Fatalf("stats leaked: %+v", st)
	}
	if n, err := s.KBState(ctx(), b.ID); err != nil || len(n.Chunks) != 0 || n.Version != 0 {
		t.Fatalf("kb state leaked: %v %+v", err, n)
	}
	if _, err := s.GetDocument(ctx(), b.ID, 1); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("document leaked: %v", err)
	}
	if arts, _ := s.Articles(ctx(), b.ID, "", 10); len(arts) != 0 {
		t.Fatalf("articles leaked: %+v", arts)
	}
}

func testUsageSummary(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Usage", 1_000_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	for _, ch := range []store.Charge{
		{EventType: store.EventAnswer, AmountMicro: 4_000},
		{EventType: store.EventAnswer, AmountMicro: 5_001},
		{EventType: store.EventCacheTenant},
		{EventType: store.EventCacheShared},
	} {
		if err := s.SaveTurn(ctx(), turn(a, c, "q", "a", ch)); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := s.UsageSummary(ctx(), a.ID, time.Now().Add(-30*24*time.Hour), 3)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ByEvent[store.EventAnswer] != (store.EventTotal{Count: 2, CostMicro: 9_001}) || sum.ByEvent[store.EventCacheTenant].Count != 1 {
		t.Fatalf("by event: %+v", sum.ByEvent)
	}
	if sum.WindowCount != 4 || sum.WindowCost != 9_001 || sum.AllTimeCount != 4 || sum.AllTimeCost != 9_001 {
		t.Fatalf("totals: %+v", sum)
	}
	if len(sum.Recent) != 3 || sum.Recent[0].EventType != store.EventCacheShared {
		t.Fatalf("recent: %+v", sum.Recent)
	}
	future, _ := s.UsageSummary(ctx(), a.ID, time.Now().Add(time.Hour), 3)
	if future.WindowCount != 0 || future.AllTimeCount != 4 {
		t.Fatalf("window not applied: %+v", future)
	}
	avg, ok, _ := s.AverageCost(ctx(), a.ID, 50)
	if !ok || avg != 4_501 {
		t.Fatalf("average %d (rounded up)", avg)
	}
}

func testProducts(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	docs := kbDocs()
	if _, err := s.ImportDocuments(ctx(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	en, err := s.Products(ctx(), a.ID, store.ProductQuery{Lang: "en", Limit: 10})
	if err != nil || len(en) != 1 || en[0].Product == nil || en[0].Product.Price != "119,90 €" || en[0].Text == "" {
		t.Fatalf("products in en: %v %+v", err, en)
	}
	if de, _ := s.Products(ctx(), a.ID, store.ProductQuery{Lang: "de"}); len(de) != 0 {
		t.Fatalf("products in de: %+v", de)
	}
	byID, _ := s.Products(ctx(), a.ID, store.ProductQuery{DocIDs: []int64{docs[0].ID, docs[2].ID}})
	if len(byID) != 1 || byID[0].DocID != docs[2].ID {
		t.Fatalf("products by id (a page and a product): %+v", byID)
	}
	if other, _ := s.Products(ctx(), b.ID, store.ProductQuery{DocIDs: []int64{docs[2].ID}}); len(other) != 0 {
		t.Fatalf("B read A's product: %+v", other)
	}
}

// testTermStatsFollowKB: a store may remember term counts, but the very next call after any
// change of the account's chunks (a new document, an updated one, a deleted one) counts the
// KB as it now is, and another account's change moves nothing. KBState's version, under
// which callers remember what they worked out from the KB, moves with every such change and
// with no other.
func testTermStatsFollowKB(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Counted", 0)
	b, _ := NewAccount(t, s, "Other", 0)
	terms := []store.SearchTerm{{Text: "boot"}, {Text: "wat", Prefix: true}}
	version := int64(0) // a's, as last seen
	want := func(acct int64, chunks, boot, wat int) {
		t.Helper()
		for range 2 { // the second call may be answered from what the first counted
			st, err := s.TermStats(ctx(), acct, terms)
			if err != nil || st.Chunks != chunks || st.DocFreq["boot"] != boot || st.DocFreq["wat"] != wat {
				t.Fatalf("term stats %+v (%v), want %d chunks, boot %d, wat* %d", st, err, chunks, boot, wat)
			}
		}
	}
	moved := func(want bool) {
		t.Helper()
		kb, err := s.KBState(ctx(), a.ID)
		if err != nil || (kb.Version != version) != want {
			t.Fatalf("kb version %d (%v) after %d: moved should be %v", kb.Version, err, version, want)
		}
		version = kb.Version
	}
	page := func(url, terms string) store.Document {
		return store.Document{Type: store.DocPage, URL: url, Title: url, Body: terms, Lang: "en", Hash: terms,
			Chunks: []store.Chunk{{Text: terms, Terms: terms}}}
	}
	imp := func(acct int64, docs ...store.Document) int64 {
		t.Helper()
		if _, err := s.ImportDocuments(ctx(), acct, docs); err != nil {
			t.Fatal(err)
		}
		return docs[0].ID
	}
	imp(a.ID, page("https://a.test/1", "boot trail"))
	want(a.ID, 1, 1, 0)
	moved(true)
	second := imp(a.ID, page("https://a.test/2", "boot waterproof"))
	want(a.ID, 2, 2, 1)
	moved(true)
	imp(b.ID, page("https://b.test/1", "boot water"))
	want(a.ID, 2, 2, 1)
	want(b.ID, 1, 1, 1)
	moved(false)
	imp(a.ID, page("https://a.test/2", "boot waterproof")) // unchanged
	moved(false)
	// The same number of chunks and terms, other words.
	imp(a.ID, page("https://a.test/1", "sandal watch"))
	want(a.ID, 2, 1, 2)
	moved(true)
	if err := s.DeleteDocument(ctx(), a.ID, second); err != nil {
		t.Fatal(err)
	}
	want(a.ID, 1, 0, 1)
	moved(true)
}
