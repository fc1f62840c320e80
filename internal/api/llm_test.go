package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/billing"
	"svc/internal/config"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
)

// newModelHarness serves with the model-backed engine writing through a fake provider that
// speaks the OpenAI wire protocol with the token counts of llmanswertest.Usage.
func newModelHarness(t *testing.T, s llmanswertest.Script) (*harness, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: s.Step})
	h := newHarnessWith(t, config.Config{LLMProvider: "openai", LLMBaseURL: srv.OpenAIBaseURL(), LLMAPIKey: "provider-key",
		LLMModel: "gpt-test", LLMTimeout: time.Second, LLMMaxRetries: 0})
	return h, srv
}

// usageOf reads usageSummary's by_event.
func (h *harness) usageOf(key string) map[string]struct {
	Count int     `json:"count"`
	Cost  float64 `json:"cost"`
} {
	h.t.Helper()
	var u struct {
		ByEvent map[string]struct {
			Count int     `json:"count"`
			Cost  float64 `json:"cost"`
		} `json:"by_event"`
	}
	h.get("/api/v1/chat/usageSummary", key).decode(h.t, &u)
	return u.ByEvent
}

// ledgerSum adds up the account's ledger, which must equal its balance.
func (h *harness) ledgerSum(accountID int64) int64 {
	h.t.Helper()
	entries, err := h.st.Ledger(context.Background(), accountID)
	if err != nil {
		h.t.Fatal(err)
	}
	var sum int64
	for _, e := range entries {
		sum += e.AmountMicro
	}
	return sum
}

func (h *harness) reserved(accountID int64) int64 {
	h.t.Helper()
	a, err := h.st.GetAccount(context.Background(), accountID)
	if err != nil {
		h.t.Fatal(err)
	}
	return a.ReservedMicro
}

func TestModelAnswerIsChargedByRealTokens(t *testing.T) {
	h, srv := newModelHarness(t, llmanswertest.Script{})
	u := llmanswertest.Usage
	in, out := u["reply"][0]+u["check"][0], u["reply"][1]+u["check"][1]
	tests := []struct {
		name              string
		inPerM, outPerM   int64
		wantMicro         int64
		question, keyword string
	}{
		{"default rates", billing.DefaultInputRate, billing.DefaultOutputRate, 9_320, "How much does the Uludağ 2 tent weigh?", "Uludağ"},
		{"account rates", 1_000_000, 2_000_000, 2_505, "Welche Wassersäule hat die Poyraz Regenjacke?", "Poyraz"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := billing.Cost(in, out, tc.inPerM, tc.outPerM); got != tc.wantMicro {
				t.Fatalf("test arithmetic: %d", got)
			}
			id, key := h.tenant(account.Settings{Name: ptr(tc.name), BalanceMicro: ptr(int64(1_000_000)),
				InputRate: ptr(tc.inPerM), OutputRate: ptr(tc.outPerM)})
			before := srv.CallCount()
			d, _ := h.send(key, tc.question)
			if rep := d.Messages[1]; rep.Source != "ai" || d.LowConfidence || !strings.Contains(rep.Body, tc.keyword) {
				t.Fatalf("reply %+v", rep)
			}
			if n := srv.CallCount() - before; n != 2 {
				t.Fatalf("%d provider calls, want reply and check", n)
			}
			if spent := 1_000_000 - h.balance(id); spent != tc.wantMicro {
				t.Fatalf("charged %d micro-USD, want %d", spent, tc.wantMicro)
			}
			if r := h.reserved(id); r != 0 {
				t.Fatalf("reservation left behind: %d", r)
			}
			ev := h.usageOf(key)["answer"]
			if ev.Count != 1 || ev.Cost != billing.USD(tc.wantMicro) {
				t.Fatalf("usage answer %+v", ev)
			}
			var k struct {
				Pricing struct {
					In      float64 `json:"input_per_m_usd"`
					Out     float64 `json:"output_per_m_usd"`
					Typical float64 `json:"typical_ai_usd"`
				} `json:"pricing"`
			}
			h.get("/api/v1/chat/apiKey", key).decode(t, &k)
			if k.Pricing.In != billing.USD(tc.inPerM) || k.Pricing.Out != billing.USD(tc.outPerM) || k.Pricing.Typical != billing.USD(tc.wantMicro) {
				t.Fatalf("pricing %+v", k.Pricing)
			}
			sum, err := h.st.UsageSummary(context.Background(), id, time.Time{}, 5)
			if err != nil {
				t.Fatal(err)
			}
			calls, err := h.st.UsageCalls(context.Background(), id, sum.Recent[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != 2 || calls[0].Call != "reply" || calls[0].InputTokens != u["reply"][0] || calls[1].Call != "check" ||
				calls[0].Model != "gpt-test" {
				t.Fatalf("recorded calls %+v", calls)
			}
			// The same question again is a free cache hit and never reaches the provider.
			before = srv.CallCount()
			again, _ := h.send(key, tc.question)
			if again.Messages[1].Source != "cache_tenant" || srv.CallCount() != before || 1_000_000-h.balance(id) != tc.wantMicro {
				t.Fatalf("repeat: %+v, %d calls", again.Messages[1], srv.CallCount()-before)
			}
		})
	}
}

func TestProviderFailureChargesNothing(t *testing.T) {
	tests := []struct {
		name string
		step llmtest.Step
	}{
		{"server error", llmtest.Step{Status: 502, Text: "bad gateway"}},
		{"rate limited", llmtest.Step{Status: 429, RetryAfter: "20"}},
		{"timeout", llmtest.Step{Delay: 3 * time.Second}},
		{"quality check fails", llmtest.Step{Text: `{"supported": false}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sub := "reply"
			if tc.name == "quality check fails" {
				sub = "check"
			}
			h, _ := newModelHarness(t, llmanswertest.Script{sub: func(llmtest.Call) llmtest.Step { return tc.step }})
			id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(1_000_000))})
			d, r := h.send(key, "How much does the Uludağ 2 tent weigh?")
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.raw)
			}
			if h.balance(id) != 1_000_000 || h.reserved(id) != 0 {
				t.Fatalf("balance %d, reserved %d: a failed answer was charged", h.balance(id), h.reserved(id))
			}
			usage := h.usageOf(key)
			if usage["answer"].Count != 0 {
				t.Fatalf("usage %+v", usage)
			}
			if tc.name == "quality check fails" {
				if !d.LowConfidence || d.Messages[1].Source != "fallback" || usage["fallback"].Count != 1 {
					t.Fatalf("want a free fallback: %+v %+v", d, usage)
				}
				return
			}
			// The built-in engine answers instead, for free, and the answer is not cached.
			if d.LowConfidence || d.Messages[1].Source != "ai" || !strings.Contains(d.Messages[1].Body, "kg") || usage["degraded"].Count != 1 {
				t.Fatalf("want a free built-in answer: %+v %+v", d, usage)
			}
		})
	}
}

// TestContextSummaryAfterMessage31 fills the 30-message window and checks that the send that
// brings message 31 folds the oldest message into the summary, billed as its own event.
func TestContextSummaryAfterMessage31(t *testing.T) {
	h, srv := newModelHarness(t, llmanswertest.Script{})
	id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(10_000_000)), SendRatePerMin: ptr(1000), DailyAnswers: ptr(0)})
	for i := range 15 {
		h.send(key, fmt.Sprintf("Tell me about order number %d please", 1000+i))
	}
	conv, err := h.st.OpenConversation(context.Background(), id, "en")
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := h.st.LastMessages(context.Background(), id, conv.ID, 100)
	if len(msgs) != 30 || conv.Summary != "" {
		t.Fatalf("%d messages, summary %q before message 31", len(msgs), conv.Summary)
	}
	before := h.balance(id)
	h.send(key, "How much does the Uludağ 2 tent weigh?")
	conv, _ = h.st.OpenConversation(context.Background(), id, "en")
	if conv.Summary != "Visitor asked about delivery." || conv.SummarizedThrough != msgs[0].ID {
		t.Fatalf("summary %q through %d, want through message %d", conv.Summary, conv.SummarizedThrough, msgs[0].ID)
	}
	var summaryCalls int
	for _, c := range srv.Calls() {
		if llmanswertest.SubCall(c) == "summary" {
			summaryCalls++
			if !strings.Contains(c.Messages[0].Content, "order number 1000") || strings.Contains(c.Messages[0].Content, "order number 1001") {
				t.Errorf("summary folded the wrong turns:\n%s", c.Messages[0].Content)
			}
		}
	}
	if summaryCalls != 1 {
		t.Fatalf("%d summary calls", summaryCalls)
	}
	u := llmanswertest.Usage
	wantSummary := billing.Cost(u["summary"][0], u["summary"][1], billing.DefaultInputRate, billing.DefaultOutputRate)
	usage := h.usageOf(key)
	if s := usage["summary"]; s.Count != 1 || s.Cost != billing.USD(wantSummary) {
		t.Fatalf("usage summary event %+v, want cost %d", s, wantSummary)
	}
	wantAnswer := billing.Cost(u["plan"][0]+u["reply"][0]+u["check"][0], u["plan"][1]+u["reply"][1]+u["check"][1],
		billing.DefaultInputRate, billing.DefaultOutputRate)
	if spent := before - h.balance(id); spent != wantSummary+wantAnswer {
		t.Fatalf("message 31 cost %d, want summary %d + answer %d", spent, wantSummary, wantAnswer)
	}
	// The next turn reads the summary and does not summarise again.
	n := srv.CallCount()
	h.send(key, "How much does shipping to the United States cost?")
	for _, c := range srv.Calls()[n:] {
		switch llmanswertest.SubCall(c) {
		case "summary":
			t.Fatal("summarised again one turn later")
		case "plan", "reply":
			if !strings.Contains(c.Messages[0].Content, "<summary>\nVisitor asked about delivery.\n</summary>") {
				t.Errorf("%s prompt lacks the summary", llmanswertest.SubCall(c))
			}
		}
	}
}

// TestReservationsBoundParallelSpending sends in parallel against a balance that covers a
// few reservations: the balance never goes below zero, the ledger matches it, and every
// reservation is released.
func TestReservationsBoundParallelSpending(t *testing.T) {
	h, _ := newModelHarness(t, llmanswertest.Script{"reply": func(c llmtest.Call) llmtest.Step {
		st := llmanswertest.Script{}.Step(c)
		st.Delay = 50 * time.Millisecond // keep sends overlapping
		return st
	}})
	id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(60_000)), SendRatePerMin: ptr(1000), DailyAnswers: ptr(0)})
	questions := []string{"Which payment methods do you accept?", "How long is the warranty?", "How long does delivery to Germany take?",
		"What are the opening hours of the Istanbul store?", "How do I track my order?", "Can I pay in instalments?",
		"How much is the cash on delivery fee?", "How much does shipping to the United States cost?"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	sources := map[string]int{}
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {questions[i%len(questions)]}})
			var d sendData
			if r.Status == 200 {
				r.decode(t, &d)
				mu.Lock()
				sources[d.Messages[1].Source]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sum := h.ledgerSum(id)
	// The last answer may overdraw by less than one answer's cost with its plan and context
	// summary (its hold was what was left), never more.
	if b := h.balance(id); b <= -(9_320+1_980+3_040) || sum != b || h.reserved(id) != 0 {
		t.Fatalf("balance %d, ledger %d, reserved %d", b, sum, h.reserved(id))
	}
	if sources["ai"] == 0 || sources["system"] == 0 {
		t.Fatalf("want some answers and some balance notices: %v", sources)
	}
	t.Logf("sources %v, balance left %d", sources, h.balance(id))
}

func TestCancelledSendChargesNothing(t *testing.T) {
	// A good reply that arrives after the client has gone: were it committed, it would be
	// charged and stored.
	h, srv := newModelHarness(t, llmanswertest.Script{"reply": func(c llmtest.Call) llmtest.Step {
		st := llmanswertest.Script{}.Step(c)
		st.Delay = 900 * time.Millisecond
		return st
	}})
	id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(1_000_000))})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := newSendRequest(ctx, h, key, "How much does the Uludağ 2 tent weigh?")
	if resp, err := h.srv.Client().Do(req); err == nil {
		resp.Body.Close()
	}
	// The server notices the cancellation when the provider call returns.
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) && (srv.CallCount() == 0 || h.reserved(id) != 0) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if h.balance(id) != 1_000_000 || h.reserved(id) != 0 {
		t.Fatalf("balance %d, reserved %d after a cancelled send", h.balance(id), h.reserved(id))
	}
	conv, _ := h.st.OpenConversation(context.Background(), id, "en")
	if msgs, _ := h.st.LastMessages(context.Background(), id, conv.ID, 10); len(msgs) != 0 {
		t.Fatalf("a cancelled send stored %d messages", len(msgs))
	}
}

func newSendRequest(ctx context.Context, h *harness, key, msg string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.srv.URL+"/api/v1/chat/send",
		strings.NewReader(url.Values{"message": {msg}}.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req, nil
}

// TestParallelSendsFoldOnce: an integration's sends run in parallel in its one conversation.
// When message 31 arrives in four of them at once, the turns that left the window are
// summarised, and billed, once; the other sends keep them in their context verbatim.
func TestParallelSendsFoldOnce(t *testing.T) {
	h, srv := newModelHarness(t, llmanswertest.Script{})
	id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(10_000_000)), SendRatePerMin: ptr(1000), DailyAnswers: ptr(0)})
	for i := range 15 {
		h.send(key, fmt.Sprintf("Tell me about order number %d please", 1000+i))
	}
	var wg sync.WaitGroup
	status := make([]int, 4)
	for i := range status {
		wg.Go(func() {
			r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {fmt.Sprintf("Where is parcel %d now?", 2000+i)}})
			status[i] = r.Status
		})
	}
	wg.Wait()
	for i, st := range status {
		if st != http.StatusOK {
			t.Fatalf("send %d: status %d", i, st)
		}
	}
	summaryCalls := 0
	for _, c := range srv.Calls() {
		if llmanswertest.SubCall(c) == "summary" {
			summaryCalls++
		}
	}
	if s := h.usageOf(key)["summary"]; summaryCalls != 1 || s.Count != 1 {
		t.Fatalf("%d summary calls, %d summary events; want one of each", summaryCalls, s.Count)
	}
	if got := h.ledgerSum(id); got != h.balance(id) {
		t.Fatalf("ledger %d, balance %d", got, h.balance(id))
	}
}

// With a model, a question the KB cannot answer is declined like the built-in engine
// declines it: the built-in answerability decision turns it away before any model call, and
// a follow-up that the planning sub-call says the KB cannot answer gets the fallback too.
// Both are low confidence, sourced "fallback" and free.
func TestModelDeclinesWhatTheKBCannotAnswer(t *testing.T) {
	unanswerable := func(llmtest.Call) llmtest.Step {
		return llmtest.Step{Text: `{"standalone": "Do you have a store in Munich?", "queries": [], "answerable": false}`}
	}
	h, srv := newModelHarness(t, llmanswertest.Script{"plan": unanswerable})
	id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(1_000_000))})
	_, other := h.tenant(account.Settings{BalanceMicro: ptr(int64(1_000_000))})

	before := srv.CallCount()
	d, r := h.send(other, "What is the capital of Australia?")
	if r.Status != 200 || !d.LowConfidence || d.Messages[1].Source != "fallback" {
		t.Fatalf("an unrelated question: status %d, %+v", r.Status, d)
	}
	if n := srv.CallCount() - before; n != 0 {
		t.Errorf("an unrelated question cost %d model calls, want none", n)
	}

	first, _ := h.send(key, "How much does the Uludağ 2 tent weigh?")
	if first.LowConfidence {
		t.Fatalf("an answerable question was declined: %+v", first)
	}
	spent := 1_000_000 - h.balance(id)
	follow, r := h.send(key, "And do you have a store in Munich?")
	if r.Status != 200 || !follow.LowConfidence || follow.Messages[len(follow.Messages)-1].Source != "fallback" {
		t.Fatalf("a follow-up the planner finds unanswerable: status %d, %+v", r.Status, follow)
	}
	if got := 1_000_000 - h.balance(id); got != spent {
		t.Errorf("the declined follow-up was charged %d micro-USD", got-spent)
	}
	if h.reserved(id) != 0 {
		t.Errorf("%d micro-USD still reserved", h.reserved(id))
	}
}
