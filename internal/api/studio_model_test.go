package api_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/config"
	"svc/internal/llm/llmtest"
)

// A provider that hallucinates on every call: the invented price, discount, product and
// features must not reach the caller, and the call is billed by the provider's tokens.
func hallucinate(c llmtest.Call) llmtest.Step {
	sys := c.System
	step := func(text string) llmtest.Step { return llmtest.Step{Text: text, InputTokens: 1200, OutputTokens: 300} }
	switch {
	case strings.Contains(sys, "You write marketing content"):
		return step(`{"headline":"Black Friday: 50% off every Everest X900 tent!",
"body":"Our Uludağ 2 Tent is a two-person tent. This week only, take 50% off and enjoy free shipping forever. Every tent comes with a lifetime warranty. Order the new Everest X900 for just $149.",
"cta":"Grab your 50% discount now",
"variants":["Everest X900: now $149","50% off all tents","Free shipping forever"],
"hashtags":["#BlackFriday","#EverestX900","#YolcuOutdoor"],
"strategy_used":"AIDA"}`)
	case strings.Contains(sys, "Answer the question"):
		return step(`{"answer":"Delivery to Germany is free and takes 1 day with our 50% Black Friday discount.","sources":[{"passage":1,"quote":"invented"}]}`)
	case strings.Contains(sys, "Compare the products"):
		return step(`{"products":[{"name":"Uludağ 2 Tent","price":"$149.00","category":"Tents","attributes":{"warranty":"lifetime"},"details":""},{"name":"Everest X900","price":"$99.00","category":"Tents","attributes":{},"details":""}],"verdict":"The Everest X900 is 50% cheaper and ships free."}`)
	case strings.Contains(sys, "Summarize"):
		return step(`{"points":[{"text":"Every order ships free with a lifetime warranty.","passage":1},{"text":"Use code BLACK50 for 50% off.","passage":1}]}`)
	default:
		return step(`{"fields":[{"name":"price","value":"$149.00","passage":1}]}`)
	}
}

func TestGeneratorsWithHallucinatingModel(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: hallucinate})
	h := newHarnessWith(t, config.Config{LLMProvider: "openai", LLMBaseURL: srv.OpenAIBaseURL(), LLMAPIKey: "provider-key",
		LLMModel: "gpt-test", LLMTimeout: time.Second, LLMMaxRetries: 0})
	acct, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), MarketingRatePerMin: ptr(100),
		IntelligenceRatePerMin: ptr(100)})
	banned := []string{"50%", "50 %", "black friday", "everest", "x900", "149", "lifetime", "free shipping", "forever",
		"discount", "black50", "ships free"}
	check := func(what, text string) {
		t.Helper()
		low := strings.ToLower(text)
		for _, b := range banned {
			if strings.Contains(low, b) {
				t.Errorf("%s: the model's invention %q survived:\n%s", what, b, excerpt(low, b))
			}
		}
	}
	before := h.balance(acct)
	g, r := h.marketing(key, url.Values{"brief": {"Announce our 50% Black Friday discount on the Everest X900"}, "lang": {"en"},
		"variants": {"3"}})
	if r.Status != 200 {
		t.Fatalf("marketing: %d %s", r.Status, r.raw)
	}
	check("marketing", strings.Join(contentStrings(map[string]any(g.Content)), "\n"))
	if vs, _ := g.Content["variants"].([]any); len(vs) != 3 {
		t.Errorf("variants after the guard: %v", g.Content["variants"])
	}
	if g.Meta.Tokens != 1500 {
		t.Errorf("meta.tokens %d, want the provider's 1,200 + 300", g.Meta.Tokens)
	}
	for _, tc := range []struct {
		op   string
		form url.Values
	}{
		{"answer", url.Values{"question": {"How long does delivery to Germany take?"}}},
		{"compare", url.Values{"items[]": {"Uludağ 2 Tent", "Aladağ 35 Backpack"}}},
		{"summarize", url.Values{"topic": {"delivery"}}},
		{"extract", url.Values{"fields": {"price"}, "topic": {"Uludağ 2 Tent"}}},
	} {
		for _, format := range []string{"text", "json", "table"} {
			tc.form.Set("format", format)
			tc.form.Set("lang", "en")
			res := h.intel(key, tc.op, tc.form)
			if res.Status != 200 {
				t.Fatalf("%s: %d %s", tc.op, res.Status, res.raw)
			}
			check(tc.op+" "+format, string(res.raw))
		}
	}
	charged := before - h.balance(acct)
	// 13 model calls at 1,200 input and 300 output tokens, default rates: 0.0036 + 0.0075 USD each.
	if want := int64(13 * 11_100); charged != want {
		t.Errorf("charged %d micro-USD, want %d (13 calls by the provider's tokens)", charged, want)
	}
}

func TestGeneratorsDegradeWhenTheProviderFails(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Default: llmtest.Step{Status: 503, Text: "down"}})
	h := newHarnessWith(t, config.Config{LLMProvider: "openai", LLMBaseURL: srv.OpenAIBaseURL(), LLMAPIKey: "provider-key",
		LLMModel: "gpt-test", LLMTimeout: time.Second, LLMMaxRetries: 0})
	acct, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	before := h.balance(acct)
	g, r := h.marketing(key, url.Values{"brief": {"Our tents"}, "lang": {"en"}})
	if r.Status != 200 || g.Content["headline"] == "" {
		t.Fatalf("marketing with the provider down: %d %s", r.Status, r.raw)
	}
	if res := h.intel(key, "answer", url.Values{"question": {"How long does delivery take?"}}); res.Status != 200 {
		t.Fatalf("answer with the provider down: %d %s", res.Status, res.raw)
	}
	if h.balance(acct) != before || h.reserved(acct) != 0 {
		t.Fatalf("a failed provider charged %d and holds %d", before-h.balance(acct), h.reserved(acct))
	}
	if u := h.usageOf(key)["generation_degraded"]; u.Count != 2 || u.Cost != 0 {
		t.Fatalf("degraded usage: %+v", u)
	}
}
