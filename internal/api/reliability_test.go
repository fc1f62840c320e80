package api_test

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
)

// Five hundred sends at once on 0.05 USD with a model provider: the balance buys answers
// until it is spent, a funded account is never told it is out of money (a send that finds
// the money held by the others waits for them), the last answer overdraws by less than one
// answer with its context summary, and the balance always equals the ledger with nothing left
// reserved.
func TestFiveHundredConcurrentSendsOnASmallBalance(t *testing.T) {
	h, srv := newModelHarness(t, llmanswertest.Script{"reply": func(c llmtest.Call) llmtest.Step {
		st := llmanswertest.Script{}.Step(c)
		st.Delay = 10 * time.Millisecond // keep sends overlapping
		return st
	}})
	// llmanswertest.Usage at the default rates: an answer, and one with the plan and the
	// summary that one conversation of 500 messages keeps needing.
	const sends, balance, answerCost, withSummary = 500, 50_000, 9_320, 9_320 + 1_980 + 3_040
	id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(balance)), SendRatePerMin: ptr(10_000), DailyAnswers: ptr(0)})
	questions := []string{"Which payment methods do you accept?", "How long is the warranty?", "How long does delivery to Germany take?",
		"What are the opening hours of the Istanbul store?", "How do I track my order?", "Can I pay in instalments?",
		"How much is the cash on delivery fee?", "How much does shipping to the United States cost?"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	sources, statuses := map[string]int{}, map[int]int{}
	for i := range sends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := fmt.Sprintf("%s Order %d.", questions[i%len(questions)], 1000+i)
			r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {q}})
			mu.Lock()
			defer mu.Unlock()
			statuses[r.Status]++
			if r.Status == 200 {
				var d sendData
				r.decode(t, &d)
				sources[d.Messages[1].Source]++
			}
		}()
	}
	wg.Wait()
	t.Logf("statuses %v, sources %v, provider calls %d", statuses, sources, srv.CallCount())
	for status, n := range statuses {
		if status != 200 && status != 429 {
			t.Fatalf("%d responses with status %d", n, status)
		}
	}
	b := h.balance(id)
	if sum := h.ledgerSum(id); sum != b || h.reserved(id) != 0 {
		t.Fatalf("balance %d, ledger %d, reserved %d", b, sum, h.reserved(id))
	}
	// Every answer the balance could fund was given: it is spent, by at most one overdraft.
	if b > 0 || b <= -withSummary {
		t.Fatalf("balance left %d: want the money spent, overdrawn by less than one answer", b)
	}
	if most := (balance + answerCost - 1) / answerCost; sources["ai"] < balance/withSummary || sources["ai"] > most {
		t.Fatalf("%d answers, want %d to %d: %v", sources["ai"], balance/withSummary, most, sources)
	}
	// Contended sends were told to retry, not that the account is out of money; only the ones
	// that found it spent got the notice.
	if sources["system"]+statuses[429]+sources["ai"]+sources["cache_tenant"]+sources["fallback"] != sends {
		t.Fatalf("unaccounted sends: statuses %v sources %v", statuses, sources)
	}
	conv, _ := h.st.OpenConversation(context.Background(), id, "en")
	msgs, err := h.st.LastMessages(context.Background(), id, conv.ID, 2*sends)
	if err != nil {
		t.Fatal(err)
	}
	lastAnswer, firstNotice := int64(0), int64(-1)
	for _, m := range msgs {
		switch {
		case m.Role == "assistant" && m.Source == "ai":
			lastAnswer = max(lastAnswer, m.ID)
		case m.Role == "assistant" && m.Source == "system" && firstNotice < 0:
			firstNotice = m.ID
		}
	}
	if firstNotice >= 0 && firstNotice < lastAnswer {
		t.Fatalf("a balance notice (message %d) was stored before the last funded answer (%d)", firstNotice, lastAnswer)
	}
}
