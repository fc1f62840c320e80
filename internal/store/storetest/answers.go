package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

// account reads an account or fails the test.
func account(t *testing.T, s store.Store, id int64) store.Account {
	t.Helper()
	a, err := s.GetAccount(ctx(), id)
	if err != nil {
		t.Fatalf("get account %d: %v", id, err)
	}
	return a
}

func reserve(t *testing.T, s store.Store, accountID, amount int64) store.Reservation {
	t.Helper()
	r, err := s.Reserve(ctx(), accountID, amount, time.Minute, nil)
	if err != nil {
		t.Fatalf("reserve %d: %v", amount, err)
	}
	return r
}

// assertMoney checks the balance and the reserved part, that reservations never hold more
// than the balance, and that the ledger sums to the balance.
func assertMoney(t *testing.T, s store.Store, accountID, balance, reserved int64) {
	t.Helper()
	a := account(t, s, accountID)
	if a.BalanceMicro != balance || a.ReservedMicro != reserved {
		t.Fatalf("balance %d reserved %d, want %d and %d", a.BalanceMicro, a.ReservedMicro, balance, reserved)
	}
	if a.BalanceMicro-a.ReservedMicro < 0 {
		t.Fatalf("reservations hold %d of a balance of %d", a.ReservedMicro, a.BalanceMicro)
	}
	assertLedgerSums(t, s, accountID)
}

func testReserveAndRelease(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Holder", 10_000)
	b, _ := NewAccount(t, s, "Bystander", 10_000)
	if got := account(t, s, a.ID); got.ReservedMicro != 0 {
		t.Fatalf("a new account has %d reserved", got.ReservedMicro)
	}
	for _, tc := range []struct {
		name      string
		accountID int64
		amount    int64
		ttl       time.Duration
		want      error // nil: any error
	}{
		{"zero amount", a.ID, 0, time.Minute, nil},
		{"negative amount", a.ID, -5, time.Minute, nil},
		{"unknown account", a.ID + 99, 5, time.Minute, store.ErrNotFound},
		{"more than the balance", a.ID, 10_001, time.Minute, store.ErrInsufficientBalance},
	} {
		_, err := s.Reserve(ctx(), tc.accountID, tc.amount, tc.ttl, nil)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Fatalf("%s: err %v, want %v", tc.name, err, tc.want)
		}
	}
	assertMoney(t, s, a.ID, 10_000, 0)

	before := clock.Now()
	r1 := reserve(t, s, a.ID, 4_000)
	if r1.ID == 0 || r1.AccountID != a.ID || r1.AmountMicro != 4_000 || r1.ExpiresAt.Sub(r1.CreatedAt) != time.Minute ||
		r1.CreatedAt.Before(before.Add(-time.Second)) || r1.CreatedAt.Location() != time.UTC {
		t.Fatalf("reservation: %+v", r1)
	}
	assertMoney(t, s, a.ID, 10_000, 4_000)
	r2 := reserve(t, s, a.ID, 6_000) // exactly what is free
	if r2.ID == r1.ID {
		t.Fatalf("two reservations share id %d", r1.ID)
	}
	if _, err := s.Reserve(ctx(), a.ID, 1, time.Minute, nil); !errors.Is(err, store.ErrInsufficientBalance) {
		t.Fatalf("reserve with nothing free: %v", err)
	}
	assertMoney(t, s, a.ID, 10_000, 10_000)
	// Another account's money and reservations are its own.
	rb := reserve(t, s, b.ID, 10_000)
	if err := s.Release(ctx(), b.ID, r1.ID); err != nil {
		t.Fatalf("release of another account's reservation: %v", err)
	}
	assertMoney(t, s, a.ID, 10_000, 10_000)

	if err := s.Release(ctx(), a.ID, r1.ID); err != nil {
		t.Fatal(err)
	}
	assertMoney(t, s, a.ID, 10_000, 6_000)
	if err := s.Release(ctx(), a.ID, r1.ID); err != nil {
		t.Fatalf("second release: %v", err)
	}
	assertMoney(t, s, a.ID, 10_000, 6_000)

	// r2 lapses; the next Reserve releases it before it checks the free balance.
	clock.Advance(time.Minute + time.Second)
	r3, err := s.Reserve(ctx(), a.ID, 10_000, time.Hour, nil)
	if err != nil {
		t.Fatalf("reserve after a lapse: %v", err)
	}
	if !r3.ExpiresAt.After(clock.Now().Add(59 * time.Minute)) {
		t.Fatalf("expiry not on the store's clock: %v, clock %v", r3.ExpiresAt, clock.Now())
	}
	assertMoney(t, s, a.ID, 10_000, 10_000)
	// Releasing the lapsed reservation gives nothing back twice.
	if err := s.Release(ctx(), a.ID, r2.ID); err != nil {
		t.Fatal(err)
	}
	assertMoney(t, s, a.ID, 10_000, 10_000)
	// B's lapsed reservation is released by B's next Reserve, not by A's.
	if got := account(t, s, b.ID); got.ReservedMicro != 10_000 {
		t.Fatalf("A's reserve touched B's reservations: %d", got.ReservedMicro)
	}
	if _, err := s.Reserve(ctx(), b.ID, 10_000, time.Minute, nil); err != nil {
		t.Fatalf("B reserve after its lapse: %v", err)
	}
	if err := s.Release(ctx(), b.ID, rb.ID); err != nil {
		t.Fatal(err)
	}
	assertMoney(t, s, b.ID, 10_000, 10_000)
	if err := s.Release(ctx(), a.ID, r3.ID); err != nil {
		t.Fatal(err)
	}
	assertMoney(t, s, a.ID, 10_000, 0)
}

func testConcurrentReservations(t *testing.T, s store.Store) {
	const x = 1_000
	a, _ := NewAccount(t, s, "Rush", 5*x+x/2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Reserve(ctx(), a.ID, x, time.Minute, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrInsufficientBalance):
				refused++
			default:
				t.Errorf("reserve %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if ok != 5 || refused != 15 {
		t.Fatalf("%d reservations held, %d refused; want 5 and 15", ok, refused)
	}
	assertMoney(t, s, a.ID, 5*x+x/2, 5*x)
}

func testTurnWithReservation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Settler", 100_000)
	other, _ := NewAccount(t, s, "Nosy", 0)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	r := reserve(t, s, a.ID, 30_000)
	answerCalls := []store.CallUsage{
		{Call: "plan", Model: "m-small", InputTokens: 400, OutputTokens: 20, CostMicro: 2_000},
		{Call: "reply", Model: "m-large", InputTokens: 500, OutputTokens: 100, CostMicro: 9_000},
		{Call: "check", Model: "m-small", InputTokens: 120, OutputTokens: 5, CostMicro: 1_000},
	}
	summaryCalls := []store.CallUsage{{Call: "summary", Model: "m-small", InputTokens: 300, OutputTokens: 50, CostMicro: 3_000}}
	tr := turn(a, c, "Do you ship to Norway?", "Yes, in five days.", store.Charge{EventType: store.EventAnswer,
		AmountMicro: 12_000, InputTokens: 1_020, OutputTokens: 125, Calls: answerCalls})
	tr.ReservationID = r.ID
	tr.Extra = []store.Charge{{EventType: store.EventSummary, AmountMicro: 3_000, InputTokens: 300, OutputTokens: 50,
		Calls: summaryCalls}}
	since := time.Now().UTC().Add(-time.Hour)
	tr.QuotaLimit, tr.QuotaSince = 2, since
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	if tr.Capped != 0 || tr.Charge.AmountMicro != 12_000 || tr.Extra[0].AmountMicro != 3_000 {
		t.Fatalf("charged %d + %d, capped %d; want 12000 + 3000, 0", tr.Charge.AmountMicro, tr.Extra[0].AmountMicro, tr.Capped)
	}
	if tr.Charge.EventID == 0 || tr.Extra[0].EventID == 0 || tr.Charge.EventID == tr.Extra[0].EventID {
		t.Fatalf("event ids %d and %d", tr.Charge.EventID, tr.Extra[0].EventID)
	}
	// The reservation is gone with the turn: releasing it again gives nothing back.
	assertMoney(t, s, a.ID, 85_000, 0)
	if err := s.Release(ctx(), a.ID, r.ID); err != nil {
		t.Fatal(err)
	}
	assertMoney(t, s, a.ID, 85_000, 0)

	var charges []int64
	ledger, _ := s.Ledger(ctx(), a.ID)
	for _, e := range ledger {
		if e.AmountMicro < 0 {
			charges = append(charges, e.AmountMicro)
			if e.MessageID != tr.Reply.ID {
				t.Fatalf("ledger charge on message %d, want %d", e.MessageID, tr.Reply.ID)
			}
		}
	}
	if !slices.Equal(charges, []int64{-12_000, -3_000}) {
		t.Fatalf("ledger charges %v", charges)
	}

	for _, tc := range []struct {
		name      string
		accountID int64
		eventID   int64
		want      []store.CallUsage
	}{
		{"answer", a.ID, tr.Charge.EventID, answerCalls},
		{"summary", a.ID, tr.Extra[0].EventID, summaryCalls},
		{"another account's event", other.ID, tr.Charge.EventID, nil},
		{"no such event", a.ID, tr.Extra[0].EventID + 100, nil},
	} {
		got, err := s.UsageCalls(ctx(), tc.accountID, tc.eventID)
		if err != nil || got == nil || !slices.Equal(got, tc.want) {
			t.Fatalf("%s: calls %+v (%v), want %+v", tc.name, got, err, tc.want)
		}
	}

	sum, err := s.UsageSummary(ctx(), a.ID, since, 10)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ByEvent[store.EventAnswer] != (store.EventTotal{Count: 1, CostMicro: 12_000}) ||
		sum.ByEvent[store.EventSummary] != (store.EventTotal{Count: 1, CostMicro: 3_000}) || sum.WindowCost != 15_000 {
		t.Fatalf("by event: %+v", sum.ByEvent)
	}
	for _, e := range sum.Recent {
		if e.MessageID != tr.Reply.ID {
			t.Fatalf("event %+v not tied to the reply %d", e, tr.Reply.ID)
		}
	}

	// The summary event does not count against the quota: a second answer still fits a limit of 2.
	for i, want := range []error{nil, store.ErrQuotaReached} {
		next := turn(a, c, fmt.Sprintf("q%d", i), "a", store.Charge{EventType: store.EventAnswer, AmountMicro: 10})
		next.QuotaLimit, next.QuotaSince = 2, since
		if err := s.SaveTurn(ctx(), next); !errors.Is(err, want) {
			t.Fatalf("answer %d after the summary: %v, want %v", i+2, err, want)
		}
	}
}

func testCappedCharges(t *testing.T, s store.Store) {
	for i, tc := range []struct {
		name      string
		balance   int64
		hold      int64 // this turn's reservation
		others    int64 // another send's reservation, still live
		lapsed    bool  // this turn's reservation was released before the turn
		charge    int64
		extra     int64 // a summary charge, 0 = none
		wantTaken int64
		wantExtra int64
		capped    int64
		balanceTo int64
	}{
		{name: "reservation covers it", balance: 5_000, hold: 3_000, charge: 2_500,
			wantTaken: 2_500, balanceTo: 2_500},
		{name: "over the reservation, within the free balance", balance: 5_000, hold: 2_000, charge: 4_000,
			wantTaken: 4_000, balanceTo: 1_000},
		{name: "over the whole balance", balance: 5_000, hold: 5_000, charge: 8_000,
			wantTaken: 5_000, capped: 3_000, balanceTo: 0},
		{name: "never from another send's reservation", balance: 6_000, hold: 3_000, others: 3_000, charge: 4_000,
			wantTaken: 3_000, capped: 1_000, balanceTo: 3_000},
		{name: "extra capped after the answer", balance: 5_000, hold: 5_000, charge: 4_000, extra: 2_000,
			wantTaken: 4_000, wantExtra: 1_000, capped: 1_000, balanceTo: 0},
		{name: "reservation already gone and nothing free", balance: 5_000, hold: 5_000, lapsed: true, others: 5_000,
			charge: 1_000, wantTaken: 0, capped: 1_000, balanceTo: 5_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := NewAccount(t, s, fmt.Sprintf("Capped %d", i), tc.balance)
			c, _ := s.OpenConversation(ctx(), a.ID, "en")
			r := reserve(t, s, a.ID, tc.hold)
			if tc.lapsed {
				if err := s.Release(ctx(), a.ID, r.ID); err != nil {
					t.Fatal(err)
				}
			}
			if tc.others > 0 {
				reserve(t, s, a.ID, tc.others)
			}
			tr := turn(a, c, "q", "a", store.Charge{EventType: store.EventAnswer, AmountMicro: tc.charge,
				Calls: []store.CallUsage{{Call: "reply", Model: "m", CostMicro: tc.charge}}})
			tr.ReservationID = r.ID
			if tc.extra > 0 {
				tr.Extra = []store.Charge{{EventType: store.EventSummary, AmountMicro: tc.extra}}
			}
			if err := s.SaveTurn(ctx(), tr); err != nil {
				t.Fatalf("a settled answer failed: %v", err)
			}
			if tr.Charge.AmountMicro != tc.wantTaken || tr.Capped != tc.capped ||
				(tc.extra > 0 && tr.Extra[0].AmountMicro != tc.wantExtra) {
				t.Fatalf("took %d (extra %+v), capped %d; want %d, %d, %d", tr.Charge.AmountMicro, tr.Extra,
					tr.Capped, tc.wantTaken, tc.wantExtra, tc.capped)
			}
			assertMoney(t, s, a.ID, tc.balanceTo, tc.others)
			sum, _ := s.UsageSummary(ctx(), a.ID, time.Now().Add(-time.Hour), 10)
			if got := sum.ByEvent[store.EventAnswer]; got.Count != 1 || got.CostMicro != tc.wantTaken {
				t.Fatalf("answer event %+v, want cost %d", got, tc.wantTaken)
			}
			if tc.extra > 0 && sum.ByEvent[store.EventSummary].CostMicro != tc.wantExtra {
				t.Fatalf("summary event %+v, want cost %d", sum.ByEvent[store.EventSummary], tc.wantExtra)
			}
			// The calls keep the provider's own cost, whatever was written off.
			calls, _ := s.UsageCalls(ctx(), a.ID, tr.Charge.EventID)
			if len(calls) != 1 || calls[0].CostMicro != tc.charge {
				t.Fatalf("calls %+v", calls)
			}
			if msgs, _ := s.Messages(ctx(), a.ID, c.ID, 0, 10); len(msgs) != 2 {
				t.Fatalf("%d messages stored, want 2", len(msgs))
			}
		})
	}
}

func testTurnWithoutReservation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Unreserved", 10_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	held := reserve(t, s, a.ID, 8_000)
	refusedCalls := []store.CallUsage{{Call: "reply", CostMicro: 3_000}}
	tooMuch := turn(a, c, "q", "a", store.Charge{EventType: store.EventAnswer, AmountMicro: 3_000, Calls: refusedCalls})
	if err := s.SaveTurn(ctx(), tooMuch); !errors.Is(err, store.ErrInsufficientBalance) {
		t.Fatalf("a charge over the free balance: %v", err)
	}
	if tooMuch.Charge.AmountMicro != 3_000 || tooMuch.Charge.EventID != 0 || tooMuch.Capped != 0 {
		t.Fatalf("a refused turn changed its charge: %+v capped %d", tooMuch.Charge, tooMuch.Capped)
	}
	fits := turn(a, c, "q", "a", store.Charge{EventType: store.EventAnswer, AmountMicro: 2_000})
	if err := s.SaveTurn(ctx(), fits); err != nil {
		t.Fatalf("a charge of exactly the free balance: %v", err)
	}
	assertMoney(t, s, a.ID, 8_000, 8_000)
	if err := s.Release(ctx(), a.ID, held.ID); err != nil {
		t.Fatal(err)
	}

	// Extra charges follow the same rule, and one that does not fit fails the whole turn.
	withExtra := turn(a, c, "q", "a", store.Charge{EventType: store.EventAnswer, AmountMicro: 5_000})
	withExtra.Extra = []store.Charge{{EventType: store.EventSummary, AmountMicro: 4_000}}
	if err := s.SaveTurn(ctx(), withExtra); !errors.Is(err, store.ErrInsufficientBalance) {
		t.Fatalf("an extra charge over the balance: %v", err)
	}
	assertMoney(t, s, a.ID, 8_000, 0)
	if msgs, _ := s.Messages(ctx(), a.ID, c.ID, 0, 10); len(msgs) != 2 {
		t.Fatalf("refused turns wrote messages: %d stored, want 2", len(msgs))
	}
	if n, _ := s.CountEvents(ctx(), a.ID, store.EventAnswer, time.Now().Add(-time.Hour)); n != 1 {
		t.Fatalf("%d answer events, want 1", n)
	}
	withExtra.Extra[0].AmountMicro = 3_000
	if err := s.SaveTurn(ctx(), withExtra); err != nil {
		t.Fatal(err)
	}
	if withExtra.Extra[0].EventID == 0 {
		t.Fatal("extra event id not set")
	}
	assertMoney(t, s, a.ID, 0, 0)
}

func testSummaryUpdate(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Summed", 0)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	if c.Summary != "" || c.SummarizedThrough != 0 {
		t.Fatalf("a new conversation has a summary: %+v", c)
	}
	first := turn(a, c, "Do you sell boots?", "Yes.", store.Charge{EventType: store.EventCacheShared})
	if err := s.SaveTurn(ctx(), first); err != nil {
		t.Fatal(err)
	}
	second := turn(a, c, "In size 44?", "Yes.", store.Charge{EventType: store.EventCacheShared})
	second.Summary = &store.SummaryUpdate{Text: "The visitor looks for boots.", Through: first.Reply.ID}
	if err := s.SaveTurn(ctx(), second); err != nil {
		t.Fatal(err)
	}
	got, _ := s.OpenConversation(ctx(), a.ID, "en")
	if got.Summary != "The visitor looks for boots." || got.SummarizedThrough != first.Reply.ID {
		t.Fatalf("summary %q through %d, want through %d", got.Summary, got.SummarizedThrough, first.Reply.ID)
	}
	// A turn without a summary update keeps it.
	if err := s.SaveTurn(ctx(), turn(a, c, "q", "a", store.Charge{EventType: store.EventCacheShared})); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.OpenConversation(ctx(), a.ID, "en"); again.Summary != got.Summary || again.SummarizedThrough != got.SummarizedThrough {
		t.Fatalf("summary lost: %+v", again)
	}
	// A fold that committed after a newer one (parallel sends) never takes the summary back.
	newer := turn(a, c, "And in black?", "Yes.", store.Charge{EventType: store.EventCacheShared})
	newer.Summary = &store.SummaryUpdate{Text: "Boots, size 44.", Through: second.Reply.ID}
	older := turn(a, c, "Price?", "119 EUR.", store.Charge{EventType: store.EventCacheShared})
	older.Summary = &store.SummaryUpdate{Text: "Boots.", Through: first.Reply.ID}
	for _, tn := range []*store.Turn{newer, older} {
		if err := s.SaveTurn(ctx(), tn); err != nil {
			t.Fatal(err)
		}
	}
	if last, _ := s.OpenConversation(ctx(), a.ID, "en"); last.Summary != "Boots, size 44." || last.SummarizedThrough != second.Reply.ID {
		t.Fatalf("an older fold replaced a newer summary: %q through %d", last.Summary, last.SummarizedThrough)
	}
}

// saveCached stores a cached answer through a turn and returns the entry as saved.
func saveCached(t *testing.T, s store.Store, a store.Account, lang, key string, terms []string, docIDs []int64) store.CacheEntry {
	t.Helper()
	c, err := s.OpenConversation(ctx(), a.ID, lang)
	if err != nil {
		t.Fatal(err)
	}
	tr := turn(a, c, key+"?", "answer to "+key, store.Charge{EventType: store.EventCacheShared})
	tr.Cache = &store.CacheEntry{Lang: lang, Key: key, Question: key + "?", Answer: "answer to " + key, Terms: terms, DocIDs: docIDs,
		Evidence: "ev:" + key}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatalf("save cached %q: %v", key, err)
	}
	return *tr.Cache
}

func cacheKeys(entries []store.CacheEntry) []string {
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = e.Key
	}
	return keys
}

func sortedTerms(terms []string) []string {
	out := slices.Clone(terms)
	slices.Sort(out)
	return slices.Compact(out)
}

func testSimilarCached(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Similar", 0)
	b, _ := NewAccount(t, s, "Stranger", 0)
	saveCached(t, s, a, "en", "ship cost europe", []string{"ship", "cost", "europ"}, []int64{11})
	saveCached(t, s, a, "en", "ship time", []string{"ship", "time"}, []int64{12, 13})
	saveCached(t, s, a, "en", "returns", []string{"return", "polici"}, nil)
	best := saveCached(t, s, a, "en", "ship cost time", []string{"ship", "cost", "time", "free", "ship"}, []int64{14})
	saveCached(t, s, a, "de", "versand", []string{"ship", "cost", "time"}, nil)
	saveCached(t, s, b, "en", "b ship cost time", []string{"ship", "cost", "time"}, nil)

	query := []string{"ship", "cost", "time", "time"}
	for _, tc := range []struct {
		name      string
		accountID int64
		lang      string
		terms     []string
		limit     int
		want      []string
	}{
		{"most shared first, newest among equals", a.ID, "en", query, 10,
			[]string{"ship cost time", "ship time", "ship cost europe"}},
		{"limit", a.ID, "en", query, 2, []string{"ship cost time", "ship time"}},
		{"language", a.ID, "de", query, 10, []string{"versand"}},
		{"tenant", b.ID, "en", query, 10, []string{"b ship cost time"}},
		{"one rare term", a.ID, "en", []string{"europ", "nothing"}, 10, []string{"ship cost europe"}},
		{"no shared term", a.ID, "en", []string{"nothing"}, 10, []string{}},
		{"no terms", a.ID, "en", nil, 10, []string{}},
	} {
		got, err := s.SimilarCached(ctx(), tc.accountID, tc.lang, tc.terms, tc.limit)
		if err != nil || !slices.Equal(cacheKeys(got), tc.want) {
			t.Fatalf("%s: %v %v, want %v", tc.name, cacheKeys(got), err, tc.want)
		}
		for _, e := range got {
			if e.AccountID != tc.accountID || e.Lang != tc.lang {
				t.Fatalf("%s: entry %+v of another account or language", tc.name, e)
			}
		}
	}

	got, _ := s.SimilarCached(ctx(), a.ID, "en", query, 1)
	e := got[0]
	if e.ID != best.ID || e.Answer != "answer to ship cost time" || e.MessageID != best.MessageID || e.Evidence != "ev:ship cost time" ||
		!slices.Equal(e.DocIDs, []int64{14}) || !slices.Equal(sortedTerms(e.Terms), []string{"cost", "free", "ship", "time"}) ||
		len(e.Terms) != 4 {
		t.Fatalf("entry not filled: %+v", e)
	}

	// Saving the entry again replaces its terms (and keeps its identity).
	again := saveCached(t, s, a, "en", "ship cost time", []string{"refund"}, []int64{15})
	if again.ID != best.ID {
		t.Fatalf("re-saved entry got id %d, want %d", again.ID, best.ID)
	}
	got, _ = s.SimilarCached(ctx(), a.ID, "en", query, 10)
	if slices.Contains(cacheKeys(got), "ship cost time") {
		t.Fatalf("old terms still match: %v", cacheKeys(got))
	}
	got, _ = s.SimilarCached(ctx(), a.ID, "en", []string{"refund"}, 10)
	if len(got) != 1 || got[0].ID != best.ID || !slices.Equal(got[0].Terms, []string{"refund"}) || !slices.Equal(got[0].DocIDs, []int64{15}) {
		t.Fatalf("new terms: %+v", got)
	}
	if cached, err := s.CachedAnswer(ctx(), a.ID, "en", "ship cost time"); err != nil || cached.ID != best.ID || cached.Terms != nil {
		t.Fatalf("cached answer (its terms are not read): %v %+v", err, cached)
	}
}

// page is an imported page document with one chunk.
func page(url, hash, terms string) store.Document {
	return store.Document{Type: store.DocPage, URL: url, Title: url, Body: terms, Lang: "en", Hash: hash,
		Chunks: []store.Chunk{{Text: terms, Terms: terms}}}
}

// assertCached checks which of keys are still cached (in en).
func assertCached(t *testing.T, s store.Store, accountID int64, want map[string]bool) {
	t.Helper()
	for key, cached := range want {
		_, err := s.CachedAnswer(ctx(), accountID, "en", key)
		switch {
		case cached && err != nil:
			t.Fatalf("%q withdrawn: %v", key, err)
		case !cached && !errors.Is(err, store.ErrNotFound):
			t.Fatalf("%q still cached: %v", key, err)
		}
	}
}

func testCacheWithdrawalByDocument(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Withdrawer", 0)
	b, _ := NewAccount(t, s, "Neighbour", 0)
	docs := []store.Document{page("https://shop.test/a", "a1", "alpha"), page("https://shop.test/b", "b1", "beta")}
	if _, err := s.ImportDocuments(ctx(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	docA, docB := docs[0].ID, docs[1].ID
	saveCached(t, s, a, "en", "from a", []string{"alpha"}, []int64{docA})
	saveCached(t, s, a, "en", "from b", []string{"beta"}, []int64{docB})
	saveCached(t, s, a, "en", "from both", []string{"alpha", "beta"}, []int64{docB, docA})
	// B's entry names A's document id: another tenant's import never withdraws it.
	saveCached(t, s, b, "en", "from a", []string{"alpha"}, []int64{docA})

	steps := []struct {
		name   string
		docs   []store.Document
		cached map[string]bool
	}{
		{"re-import unchanged", []store.Document{page("https://shop.test/a", "a1", "alpha")},
			map[string]bool{"from a": true, "from b": true, "from both": true}},
		{"a brand-new document", []store.Document{page("https://shop.test/c", "c1", "gamma")},
			map[string]bool{"from a": true, "from b": true, "from both": true}},
		{"a changed", []store.Document{page("https://shop.test/a", "a2", "alpha omega")},
			map[string]bool{"from a": false, "from b": true, "from both": false}},
	}
	for _, st := range steps {
		if _, err := s.ImportDocuments(ctx(), a.ID, st.docs); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		assertCached(t, s, a.ID, st.cached)
	}
	if _, err := s.CachedAnswer(ctx(), b.ID, "en", "from a"); err != nil {
		t.Fatalf("A's import withdrew B's entry: %v", err)
	}
	if got, _ := s.SimilarCached(ctx(), a.ID, "en", []string{"alpha", "beta"}, 10); !slices.Equal(cacheKeys(got), []string{"from b"}) {
		t.Fatalf("withdrawn entries still found by terms: %v", cacheKeys(got))
	}

	// An entry that names no document may rest on anything: any change withdraws it.
	saveCached(t, s, a, "en", "from nowhere", []string{"delta"}, nil)
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{page("https://shop.test/b", "b1", "beta")}); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{"from nowhere": true, "from b": true})
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{page("https://shop.test/d", "d1", "delta")}); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{"from nowhere": false, "from b": true})

	// A not_helpful rating withdraws the rated answer and its terms.
	entry, _ := s.CachedAnswer(ctx(), a.ID, "en", "from b")
	if err := s.SaveFeedback(ctx(), &store.Feedback{AccountID: a.ID, MessageID: entry.MessageID, Rating: "not_helpful"}); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{"from b": false})
	if got, _ := s.SimilarCached(ctx(), a.ID, "en", []string{"beta"}, 10); len(got) != 0 {
		t.Fatalf("a withdrawn answer found by terms: %v", cacheKeys(got))
	}
}

func testCrawlCacheWithdrawal(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Crawled", 0)
	site := newSite(t, s, a.ID, "https://shop.test/")
	boot := store.PageState{URL: "https://shop.test/p/boot", Hash: "h1"}
	docs := crawledDocs("119,90 €")
	if _, err := s.SavePage(ctx(), a.ID, site.ID, boot, docs); err != nil {
		t.Fatal(err)
	}
	product, faq := docs[0].ID, docs[1].ID
	imported := []store.Document{page("https://shop.test/about", "ab1", "about")}
	if _, err := s.ImportDocuments(ctx(), a.ID, imported); err != nil {
		t.Fatal(err)
	}
	saveCached(t, s, a, "en", "price", []string{"boot"}, []int64{product})
	saveCached(t, s, a, "en", "waterproof", []string{"waterproof"}, []int64{faq})
	saveCached(t, s, a, "en", "about", []string{"about"}, []int64{imported[0].ID})

	// The same page again and a brand-new page change nothing cached.
	if _, err := s.SavePage(ctx(), a.ID, site.ID, boot, crawledDocs("119,90 €")); err != nil {
		t.Fatal(err)
	}
	shoe := store.PageState{URL: "https://shop.test/p/shoe", Hash: "s1"}
	if _, err := s.SavePage(ctx(), a.ID, site.ID, shoe, []store.Document{{Type: store.DocPage, Title: "Shoe", Body: "Shoe.",
		Lang: "en", Hash: "s1", Chunks: []store.Chunk{{Text: "Shoe.", Terms: "shoe"}}}}); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{"price": true, "waterproof": true, "about": true})

	// The FAQ entry stays, the product changes: only the price answer goes.
	boot.Hash = "h2"
	if _, err := s.SavePage(ctx(), a.ID, site.ID, boot, crawledDocs("99,90 €")); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{"price": false, "waterproof": true, "about": true})

	// The FAQ entry vanishes from the page: its answer goes.
	boot.Hash = "h3"
	saveCached(t, s, a, "en", "price", []string{"boot"}, []int64{product})
	if _, err := s.SavePage(ctx(), a.ID, site.ID, boot, crawledDocs("99,90 €")[:1]); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{"price": true, "waterproof": false, "about": true})

	// Removing the page withdraws what was drawn from it, and only that.
	if _, err := s.RemovePages(ctx(), a.ID, site.ID, []string{boot.URL}); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{"price": false, "about": true})
}

func testResolveReview(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Reviewer", 1_000_000)
	b, _ := NewAccount(t, s, "Outsider", 0)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	bad := turn(a, c, "How long is shipping?", "Two days.", store.Charge{EventType: store.EventAnswer, AmountMicro: 5})
	good := turn(a, c, "Do you ship to Norway?", "Yes.", store.Charge{EventType: store.EventAnswer, AmountMicro: 5})
	for _, tr := range []*store.Turn{bad, good} {
		if err := s.SaveTurn(ctx(), tr); err != nil {
			t.Fatal(err)
		}
	}
	notHelpful := store.Feedback{AccountID: a.ID, MessageID: bad.Reply.ID, Rating: "not_helpful", Comment: "Five."}
	helpful := store.Feedback{AccountID: a.ID, MessageID: good.Reply.ID, Rating: "helpful"}
	for _, f := range []*store.Feedback{&notHelpful, &helpful} {
		if err := s.SaveFeedback(ctx(), f); err != nil {
			t.Fatal(err)
		}
	}
	qa := func(answer, hash string) *store.Document {
		return &store.Document{Type: store.DocQA, Title: "How long is shipping?", Body: answer, Lang: "en", Hash: hash,
			Chunks: []store.Chunk{{Text: "How long is shipping?\n" + answer, Terms: "long ship " + hash}}}
	}

	for _, tc := range []struct {
		name       string
		accountID  int64
		feedbackID int64
	}{
		{"another account's feedback", b.ID, notHelpful.ID},
		{"a helpful rating", a.ID, helpful.ID},
		{"no such feedback", a.ID, notHelpful.ID + helpful.ID + 100},
	} {
		if err := s.ResolveReview(ctx(), tc.accountID, tc.feedbackID, qa("Five days.", "rv1")); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
	for _, id := range []int64{a.ID, b.ID} {
		if n, _ := s.CountDocuments(ctx(), id); n[store.DocQA] != 0 {
			t.Fatalf("a refused resolution stored a document: %v", n)
		}
	}
	if items, _ := s.ReviewList(ctx(), a.ID); len(items) != 1 || items[0].Resolved {
		t.Fatalf("review list before: %+v", items)
	}

	doc := qa("Five days.", "rv1")
	if err := s.ResolveReview(ctx(), a.ID, notHelpful.ID, doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID == 0 {
		t.Fatal("document id not filled")
	}
	hits, err := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "rv1"}}})
	if err != nil || len(hits) != 1 || hits[0].DocID != doc.ID || hits[0].DocType != store.DocQA {
		t.Fatalf("resolved answer not searchable: %v %+v", err, hits)
	}
	if qs, _ := s.QAQuestions(ctx(), a.ID, "en", 10); !slices.Equal(qs, []string{"How long is shipping?"}) {
		t.Fatalf("qa questions: %v", qs)
	}
	if hits, _ := s.SearchChunks(ctx(), b.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "rv1"}}}); len(hits) != 0 {
		t.Fatalf("another account finds the resolution: %+v", hits)
	}
	items, _ := s.ReviewList(ctx(), a.ID)
	if len(items) != 1 || !items[0].Resolved || items[0].FeedbackID != notHelpful.ID {
		t.Fatalf("review list after: %+v", items)
	}

	// Resolving again with a better answer updates the same Q&A entry and withdraws the
	// answers drawn from it.
	saveCached(t, s, a, "en", "long ship", []string{"long", "ship"}, []int64{doc.ID})
	better := qa("Four to five days.", "rv2")
	if err := s.ResolveReview(ctx(), a.ID, notHelpful.ID, better); err != nil {
		t.Fatal(err)
	}
	if better.ID != doc.ID {
		t.Fatalf("second resolution made document %d, want %d updated", better.ID, doc.ID)
	}
	if n, _ := s.CountDocuments(ctx(), a.ID); n[store.DocQA] != 1 {
		t.Fatalf("documents: %v", n)
	}
	assertCached(t, s, a.ID, map[string]bool{"long ship": false})
	if hits, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "rv2"}}}); len(hits) != 1 {
		t.Fatalf("updated resolution not searchable: %+v", hits)
	}
}
