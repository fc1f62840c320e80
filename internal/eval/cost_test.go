package eval

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/billing"
	"svc/internal/engine"
	"svc/internal/llm"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer"
	"svc/internal/llmanswer/llmanswertest"
)

// BenchmarkXQuADAnswerCost measures what the model-backed pipeline sends and receives per
// answer on the XQuAD dev questions, priced at SERVICE.md's 3.00/25.00 USD per 1M tokens.
// A fake provider stands in for the model: it counts every real prompt with the o200k
// tokenizer and replies with what a grounded model would write at the length the built-in
// engine's extract has (plus its citation), and a verdict for the check. Reported per
// language: model calls per question, mean input and output tokens and mean USD per
// question; questions the pipeline answers without a model cost nothing and are included.
//
//	go test ./internal/eval -run '^$' -bench XQuADAnswerCost -benchtime 1x
func BenchmarkXQuADAnswerCost(b *testing.B) {
	dir := xquadDir(&testing.T{})
	for _, lg := range []string{"en", "de", "tr"} {
		b.Run(lg, func(b *testing.B) {
			c, err := loadCorpus(context.Background(), dir, lg)
			if err != nil {
				b.Fatal(err)
			}
			defer c.close()
			base, err := engine.New(c.st, engine.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var mu sync.Mutex
			var in, out, calls int
			script := llmanswertest.Script{
				"reply": func(call llmtest.Call) llmtest.Step {
					a, _ := base.Answer(context.Background(), engine.Request{AccountID: c.accountID, Question: llmanswertest.Question(call), Lang: lg})
					text := a.Text
					if i := strings.LastIndex(text, "\n"); i > 0 {
						text = text[:i] // the source line is ours, not the model's
					}
					return measured(base, call, text+" [1]", &mu, &in, &out, &calls)
				},
				"check": func(call llmtest.Call) llmtest.Step {
					return measured(base, call, `{"supported": true}`, &mu, &in, &out, &calls)
				},
				"plan": func(call llmtest.Call) llmtest.Step {
					return measured(base, call, `{"standalone": "`+llmanswertest.Question(call)+`", "queries": [], "answerable": true}`, &mu, &in, &out, &calls)
				},
			}
			srv := llmtest.New(llmtest.Options{Script: script.Step})
			defer srv.Close()
			client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.OpenAIBaseURL(), Timeout: 10 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			eng, err := llmanswer.New(client, base, c.st, llmanswer.Options{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				in, out, calls = 0, 0, 0
				for _, q := range c.qs {
					if _, err := eng.Answer(context.Background(), engine.Request{AccountID: c.accountID, Question: q.text, Lang: lg}); err != nil {
						b.Fatal(err)
					}
				}
			}
			n := float64(len(c.qs))
			cost := billing.Cost(in, out, billing.DefaultInputRate, billing.DefaultOutputRate)
			b.ReportMetric(float64(calls)/n, "calls/q")
			b.ReportMetric(float64(in)/n, "in-tokens/q")
			b.ReportMetric(float64(out)/n, "out-tokens/q")
			b.ReportMetric(billing.USD(cost)/n, "usd/q")
			b.Logf("%s: %d questions, %s USD in all, %.5f USD a question", lg, len(c.qs), billing.FormatUSD(cost), billing.USD(cost)/n)
		})
	}
}

// measured answers a call with text, counting the prompt and the text with the tokenizer
// the pipeline bills in, and reports those counts as the provider's usage.
func measured(base *engine.Engine, call llmtest.Call, text string, mu *sync.Mutex, in, out, calls *int) llmtest.Step {
	n := base.CountTokens(call.System)
	for _, m := range call.Messages {
		n += base.CountTokens(m.Content)
	}
	o := base.CountTokens(text)
	mu.Lock()
	*in += n
	*out += o
	*calls++
	mu.Unlock()
	return llmtest.Step{Text: text, InputTokens: n, OutputTokens: o}
}
