package api_test

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/billing"
	"svc/internal/config"
	"svc/internal/demo/demotest"
	"svc/internal/store"
)

// budgetQuestions are demotest.Questions: distinct cache misses that each buy an answer.
var budgetQuestions = demotest.Questions

func TestEmbedDailyBudget(t *testing.T) {
	clock := newTestClock()
	mb := startMailbox(t)
	h := newClockedHarness(t, config.Config{SMTPURL: mb.URL(), SMTPFrom: "svc@example.com",
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, clock)
	// Rates four times the defaults make a built-in answer cost about 0.008 USD, so the
	// smallest budget (0.05) is reached within the questions below.
	in, out := 4*billing.DefaultInputRate, 4*billing.DefaultOutputRate
	acct, key := h.tenant(account.Settings{Email: ptr("owner@example.com"), BalanceMicro: ptr(int64(10_000_000)),
		InputRate: &in, OutputRate: &out})
	tok, id := h.createToken(key, url.Values{"domains": {"example.com"}, "daily_budget_usd": {"0.05"}, "label": {"Shop widget"}})
	call := func(n int) widgetCall {
		return widgetCall{token: tok, visitor: visitorID(n), origin: "https://example.com", ip: "203.0.113." + strconv.Itoa(n)}
	}
	// The reservation of one built-in answer at the account's rates (chat's hold): the most
	// parallel visitors may overshoot the budget by.
	hold := billing.Cost(2500, 500, in, out)

	// 20 visitors ask at once.
	var wg sync.WaitGroup
	replies := make([]embedSend, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = h.widgetSend(call(i+1), budgetQuestions[i])
		}()
	}
	wg.Wait()
	spend := h.tokenSpend(acct, id)
	if spend > 50_000+hold {
		t.Fatalf("20 parallel visitors spent %d micro-USD of a 50,000 budget (one reservation is %d)", spend, hold)
	}
	answered := map[string]bool{}
	for i, r := range replies {
		if r.Messages[1].Source == "ai" {
			answered[budgetQuestions[i]] = true
		}
	}
	t.Logf("parallel burst: %d AI answers, spend %d micro-USD, bound %d", len(answered), spend, 50_000+hold)

	// Go on until the budget is reached: the widget turns cache-only, free. (A minute on, so
	// that surge protection, which allows 20 new questions a minute, stays out of it.)
	clock.Advance(time.Minute)
	reached := false
	for i := 20; i < len(budgetQuestions) && !reached; i++ {
		r := h.widgetSend(call(100+i), budgetQuestions[i])
		if r.Messages[1].Source == "ai" {
			answered[budgetQuestions[i]] = true
		}
		reached = r.Mode == "cache_only" && r.Reason == "budget"
	}
	spend = h.tokenSpend(acct, id)
	if !reached || spend < 50_000 || spend > 50_000+hold {
		t.Fatalf("budget not reached as expected: reached %v, spend %d", reached, spend)
	}
	balance := h.balance(acct)
	r := h.widgetSend(call(200), "Do you rent kayaks by the hour?")
	if r.Messages[1].Source != "system" || !r.LowConfidence || r.Mode != "cache_only" || r.Reason != "budget" {
		t.Fatalf("a new question at the cap: %+v", r)
	}
	// Every answered question is asked again at the cap: the cached ones come from the cache,
	// free. An answer that does not name what its question names ("Do you accept PayPal?",
	// answered by the list of methods it is not among) was never cached (chat's honest
	// cache), so it gets the cache-only notice like a new question.
	fromCache := 0
	for i, q := range budgetQuestions {
		if !answered[q] {
			continue
		}
		switch r := h.widgetSend(call(210+i), q); r.Messages[1].Source {
		case "cache_tenant":
			fromCache++
		case "system":
		default:
			t.Fatalf("an answered question at the cap: %+v", r.Messages[1])
		}
	}
	if fromCache == 0 {
		t.Fatal("no answered question was served from the cache at the cap")
	}
	if r := h.widgetSend(call(202), "How long does delivery take?"); r.Messages[1].Source != "cache_tenant" {
		t.Fatalf("a curated question at the cap: %+v", r.Messages[1])
	}
	if got := h.balance(acct); got != balance {
		t.Fatalf("cache-only answers cost %d micro-USD", balance-got)
	}
	var v embedView
	h.embed("GET", "start", call(203), nil).decode(t, &v)
	if v.Mode != "cache_only" || v.Reason != "budget" {
		t.Fatalf("start at the cap: mode %q reason %q", v.Mode, v.Reason)
	}
	tv := h.tokens(key)[id]
	if tv.Status != "active" || tv.BudgetUsedPct < 100 || tv.TodaySpendUSD < 0.05 || tv.Visitors < 20 || tv.Conversations < 20 {
		t.Fatalf("token at the cap: %+v", tv)
	}

	// One e-mail to the owner, however many visitors met the cap.
	waitFor(t, 10*time.Second, func() bool { return len(mb.Messages()) >= 1 })
	h.widgetSend(call(204), "Do you rent canoes?")
	time.Sleep(300 * time.Millisecond)
	msgs := mb.Messages()
	if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0] != "owner@example.com" || msgs[0].From != "svc@example.com" {
		t.Fatalf("mail: %+v", msgs)
	}
	if !strings.Contains(msgs[0].Data, "Shop widget") || !strings.Contains(msgs[0].Data, "0.0500") {
		t.Errorf("the mail does not name the token and its budget:\n%s", msgs[0].Data)
	}
	ns, err := h.st.Notices(context.Background(), acct)
	if err != nil || len(ns) != 1 || ns[0].Status != store.NoticeSent {
		t.Fatalf("notices: %+v %v", ns, err)
	}

	// The next UTC day the widget answers again.
	clock.Advance(24 * time.Hour)
	r = h.widgetSend(call(205), "Do you rent tents?")
	if r.Mode != "normal" || r.Messages[1].Source == "system" {
		t.Fatalf("next day: %+v", r)
	}
	if tv := h.tokens(key)[id]; tv.TodaySpendUSD >= 0.05 {
		t.Fatalf("yesterday's spend counted today: %+v", tv)
	}
}

// tokenSpend is everything the embed token has spent, read from the store (the test's
// answers all fall on one UTC day until it moves the clock on).
func (h *harness) tokenSpend(accountID, tokenID int64) int64 {
	h.t.Helper()
	spend, err := h.st.EmbedSpend(context.Background(), accountID, tokenID, time.Time{})
	if err != nil {
		h.t.Fatal(err)
	}
	return spend
}

func waitFor(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestEmbedSurgeProtection(t *testing.T) {
	clock := newTestClock()
	h := newClockedHarness(t, config.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, clock)
	acct, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(10_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}, "daily_budget_usd": {"100"}})
	call := func(n int) widgetCall {
		return widgetCall{token: tok, visitor: visitorID(n), origin: "https://example.com", ip: fmt.Sprintf("198.51.100.%d", n)}
	}
	// A quiet hour sets the baseline: one question every few minutes.
	for i := range 12 {
		h.widgetSend(call(1), fmt.Sprintf("Do you sell item number %d?", i))
		clock.Advance(5 * time.Minute)
	}
	// Then 40 different visitors ask 40 different questions within one minute: a launch,
	// not an attack, so every one of them is answered.
	for i := range 40 {
		if r := h.widgetSend(call(10+i), budgetQuestions[i%len(budgetQuestions)]+fmt.Sprintf(" (%d)", i)); r.Reason == "surge" {
			t.Fatalf("visitor %d of a crowd of 40 was turned away as a surge", i)
		}
	}
	clock.Advance(time.Minute)
	// A script asking new questions from two addresses, under every per-address and
	// per-visitor limit, is a spike within its first minute.
	var surged []embedSend
	for i := range 50 {
		c := call(100 + i/10)
		c.ip = fmt.Sprintf("203.0.113.%d", i%2)
		if r := h.widgetSend(c, fmt.Sprintf("Do you sell item number %d?", 500+i)); r.Reason == "surge" {
			surged = append(surged, r)
		}
	}
	if len(surged) == 0 {
		t.Fatal("50 new questions in a minute from two addresses did not trip surge protection")
	}
	balance := h.balance(acct)
	r := h.widgetSend(call(60), "Which payment methods do you accept in your stores?")
	if r.Mode != "cache_only" || r.Reason != "surge" || r.Messages[1].Source != "system" {
		t.Fatalf("during the surge: %+v", r)
	}
	if h.balance(acct) != balance {
		t.Fatal("a question during the surge was billed")
	}
	if ev := h.usageOf(key)["cache_only"]; ev.Count < 1 || ev.Cost != 0 {
		t.Fatalf("usage of cache-only replies: %+v", ev)
	}
	// It recovers by itself.
	clock.Advance(15 * time.Minute)
	var v embedView
	h.embed("GET", "start", call(61), nil).decode(t, &v)
	r = h.widgetSend(call(61), "Which payment methods do you accept?")
	if v.Mode != "normal" || r.Mode != "normal" || r.Messages[1].Source == "system" {
		t.Fatalf("after the surge: start %q, send %+v", v.Mode, r)
	}
}
