package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/llm/llmtest"
)

func TestCompleteReadsTextAndUsage(t *testing.T) {
	tests := []struct {
		provider string
		step     llmtest.Step
		want     Response
	}{
		{ProviderOpenAI, llmtest.Step{Text: "Merhaba!", InputTokens: 17, OutputTokens: 3},
			Response{Text: "Merhaba!", InputTokens: 17, OutputTokens: 3, Model: DefaultOpenAIModel, StopReason: "stop"}},
		{ProviderOpenAI, llmtest.Step{Text: "cut", InputTokens: 5, OutputTokens: 64, StopReason: "length"},
			Response{Text: "cut", InputTokens: 5, OutputTokens: 64, Model: DefaultOpenAIModel, StopReason: "length"}},
		{ProviderAnthropic, llmtest.Step{Text: "Hallo!", InputTokens: 21, OutputTokens: 4},
			Response{Text: "Hallo!", InputTokens: 21, OutputTokens: 4, Model: DefaultAnthropicModel, StopReason: "end_turn"}},
		{ProviderAnthropic, llmtest.Step{Text: "cut", InputTokens: 5, OutputTokens: 64, StopReason: "max_tokens"},
			Response{Text: "cut", InputTokens: 5, OutputTokens: 64, Model: DefaultAnthropicModel, StopReason: "max_tokens"}},
		// A model's NULs are dropped (nultext): a reply holding one is stored alike everywhere.
		{ProviderOpenAI, llmtest.Step{Text: "Mer\u0000haba", InputTokens: 1, OutputTokens: 2, StopReason: "nul"},
			Response{Text: "Merhaba", InputTokens: 1, OutputTokens: 2, Model: DefaultOpenAIModel, StopReason: "nul"}},
		{ProviderAnthropic, llmtest.Step{Text: "Hal\u0000lo", InputTokens: 1, OutputTokens: 2, StopReason: "nul"},
			Response{Text: "Hallo", InputTokens: 1, OutputTokens: 2, Model: DefaultAnthropicModel, StopReason: "nul"}},
	}
	for _, tc := range tests {
		t.Run(tc.provider+"/"+tc.want.StopReason, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			fake.Push(tc.step)
			c := newTestClient(t, fake, tc.provider, newFakeClock(), nil) // no Model: the defaults
			got, err := c.Complete(context.Background(), ask("Hi"))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCompleteSendsThePrompt(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			c := newTestClient(t, fake, provider, newFakeClock(), nil)
			req := Request{
				Model:  "override-model",
				System: "You answer questions about a shop.",
				Messages: []Message{
					{Role: RoleUser, Content: "Where is my order?"},
					{Role: RoleAssistant, Content: "Which order?"},
					{Role: RoleUser, Content: "Number 42."},
				},
				MaxTokens:   123,
				Temperature: 0,
			}
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Model != "override-model" {
				t.Errorf("response model %q, want the override", resp.Model)
			}
			calls := fake.Calls()
			if len(calls) != 1 {
				t.Fatalf("%d calls, want 1", len(calls))
			}
			got := calls[0]
			if got.Protocol != provider || got.Model != "override-model" || got.MaxTokens != 123 || got.System != req.System || got.JSON {
				t.Errorf("call = %+v", got)
			}
			if got.Temperature == nil || *got.Temperature != 0 {
				t.Errorf("temperature %v, want an explicit 0", got.Temperature)
			}
			want := []llmtest.Message{{Role: "user", Content: "Where is my order?"}, {Role: "assistant", Content: "Which order?"}, {Role: "user", Content: "Number 42."}}
			if len(got.Messages) != len(want) {
				t.Fatalf("messages %+v, want %+v", got.Messages, want)
			}
			for i := range want {
				if got.Messages[i] != want[i] {
					t.Errorf("message %d = %+v, want %+v", i, got.Messages[i], want[i])
				}
			}
			// Usage the fake computed, since the step did not give it, must come through.
			if resp.InputTokens <= 0 || resp.OutputTokens <= 0 {
				t.Errorf("usage %d/%d, want both counted", resp.InputTokens, resp.OutputTokens)
			}
		})
	}
}

func TestOpenAISendsMaxTokensAndBearer(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
	c := newTestClient(t, fake, ProviderOpenAI, newFakeClock(), nil)
	if _, err := c.Complete(context.Background(), ask("hi")); err != nil {
		t.Fatal(err)
	}
	call := fake.Calls()[0]
	var body map[string]any
	if err := json.Unmarshal(call.Body, &body); err != nil {
		t.Fatal(err)
	}
	if _, ok := body["max_tokens"]; !ok {
		t.Errorf("body has no max_tokens: %s", call.Body)
	}
	if _, ok := body["max_completion_tokens"]; ok {
		t.Errorf("body has max_completion_tokens, which local servers do not know: %s", call.Body)
	}
	if got := call.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization %q", got)
	}
}

func TestOpenAIWithoutKeyForLocalServers(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{}) // like Ollama: no key wanted
	c := newTestClient(t, fake, ProviderOpenAI, newFakeClock(), func(cfg *Config) { cfg.APIKey = "" })
	if _, err := c.Complete(context.Background(), ask("hi")); err != nil {
		t.Fatal(err)
	}
	if got := fake.Calls()[0].Header.Get("Authorization"); got != "" {
		t.Errorf("Authorization %q sent without a key", got)
	}
}

func TestAnthropicSendsItsHeaders(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
	c := newTestClient(t, fake, ProviderAnthropic, newFakeClock(), nil)
	if _, err := c.Complete(context.Background(), ask("hi")); err != nil {
		t.Fatal(err)
	}
	h := fake.Calls()[0].Header
	if h.Get("X-Api-Key") != testKey || h.Get("Anthropic-Version") == "" {
		t.Errorf("headers x-api-key=%q anthropic-version=%q", h.Get("X-Api-Key"), h.Get("Anthropic-Version"))
	}
}

func TestJSONMode(t *testing.T) {
	tests := []struct {
		name, provider, system string
		wantJSONFlag           bool
		wantSystem             string
	}{
		{"openai adds response_format and, lacking the word, the instruction", ProviderOpenAI, "Be brief.", true, "Be brief.\n\n" + jsonInstruction},
		{"openai leaves a prompt that asks for JSON alone", ProviderOpenAI, "Answer in JSON.", true, "Answer in JSON."},
		{"anthropic says it in the system text", ProviderAnthropic, "Be brief.", false, "Be brief.\n\n" + jsonInstruction},
		{"anthropic without a system text", ProviderAnthropic, "", false, jsonInstruction},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			fake.Push(llmtest.Step{Text: `{"ok":true}`})
			c := newTestClient(t, fake, tc.provider, newFakeClock(), nil)
			req := ask("Give me the status.")
			req.System, req.JSON = tc.system, true
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != `{"ok":true}` {
				t.Errorf("text %q", resp.Text)
			}
			call := fake.Calls()[0]
			if call.JSON != tc.wantJSONFlag {
				t.Errorf("JSON flag %v, want %v (body %s)", call.JSON, tc.wantJSONFlag, call.Body)
			}
			if call.System != tc.wantSystem {
				t.Errorf("system %q, want %q", call.System, tc.wantSystem)
			}
			if tc.provider == ProviderOpenAI && !strings.Contains(string(call.Body), `"response_format":{"type":"json_object"}`) {
				t.Errorf("body lacks response_format json_object: %s", call.Body)
			}
		})
	}
}

func TestOpenAIEmptyChoicesIsAnError(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
	fake.Push(llmtest.Step{NoContent: true})
	c := newTestClient(t, fake, ProviderOpenAI, newFakeClock(), nil)
	_, err := c.Complete(context.Background(), ask("hi"))
	e := asError(t, err)
	if e.Retryable || !strings.Contains(err.Error(), "no choices") {
		t.Errorf("err = %v (retryable %v)", err, e.Retryable)
	}
	if n := fake.CallCount(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestAnthropicEmptyContentIsEmptyText(t *testing.T) {
	fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
	fake.Push(llmtest.Step{NoContent: true, OutputTokens: 1})
	c := newTestClient(t, fake, ProviderAnthropic, newFakeClock(), nil)
	resp, err := c.Complete(context.Background(), ask("hi"))
	if err != nil || resp.Text != "" || resp.OutputTokens != 1 {
		t.Errorf("resp %+v, err %v", resp, err)
	}
}

func TestInvalidRequestsNeverReachTheProvider(t *testing.T) {
	tests := []struct {
		name string
		req  Request
	}{
		{"no max tokens", Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}},
		{"no messages", Request{MaxTokens: 10}},
		{"system role in messages", Request{MaxTokens: 10, Messages: []Message{{Role: "system", Content: "hi"}}}},
		{"blank message", Request{MaxTokens: 10, Messages: []Message{{Role: RoleUser, Content: "  "}}}},
	}
	for _, provider := range providers {
		for _, tc := range tests {
			t.Run(provider+"/"+tc.name, func(t *testing.T) {
				fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
				c := newTestClient(t, fake, provider, newFakeClock(), nil)
				_, err := c.Complete(context.Background(), tc.req)
				if e := asError(t, err); e.Retryable || e.Provider != provider {
					t.Errorf("err %+v", e)
				}
				if n := fake.CallCount(); n != 0 {
					t.Errorf("%d calls reached the fake", n)
				}
			})
		}
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	const secret = "sk-very-secret-key-000111"
	tests := []struct {
		name     string
		provider string
		fakeKey  string
		script   func(llmtest.Call) llmtest.Step
	}{
		{"openai wrong key", ProviderOpenAI, "another-key", nil},
		{"anthropic wrong key", ProviderAnthropic, "another-key", nil},
		{"openai gateway echoes the key", ProviderOpenAI, "", func(c llmtest.Call) llmtest.Step {
			return llmtest.Step{Status: 502, Text: "upstream refused " + c.Header.Get("Authorization")}
		}},
		{"anthropic gateway echoes the key", ProviderAnthropic, "", func(c llmtest.Call) llmtest.Step {
			return llmtest.Step{Status: 400, Text: "bad key " + c.Header.Get("X-Api-Key")}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: tc.fakeKey, Script: tc.script})
			c := newTestClient(t, fake, tc.provider, newFakeClock(), func(cfg *Config) {
				cfg.APIKey = secret
				cfg.MaxRetries = -1
			})
			_, err := c.Complete(context.Background(), ask("hi"))
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error shows the key: %v", err)
			}
			if e := asError(t, err); e.Status < 400 {
				t.Errorf("status %d", e.Status)
			}
		})
	}
	t.Run("transport error", func(t *testing.T) {
		fake := llmtest.New(llmtest.Options{})
		fake.Close() // nothing listens any more
		for _, provider := range providers {
			c := newTestClient(t, fake, provider, newFakeClock(), func(cfg *Config) {
				cfg.APIKey = secret
				cfg.MaxRetries = -1
			})
			_, err := c.Complete(context.Background(), ask("hi"))
			e := asError(t, err)
			if !e.Retryable || e.Status != 0 || strings.Contains(err.Error(), secret) {
				t.Errorf("%s: %v (retryable %v)", provider, err, e.Retryable)
			}
		}
	})
}

func TestNonConformingOpenAIErrorBodyKeepsStatus(t *testing.T) {
	// Some compatible servers answer {"error":"text"}, not the provider's error object; the status and Retry-After must survive anyway.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":"model is loading"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := build(Config{Provider: ProviderOpenAI, BaseURL: srv.URL + "/v1", MaxRetries: -1}, newFakeClock().Clock())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), ask("hi"))
	e := asError(t, err)
	if e.Status != http.StatusServiceUnavailable || !e.Retryable || e.RetryAfter != 2*time.Second {
		t.Errorf("err %+v", e)
	}
}

func TestConcurrentCalls(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey, Script: func(c llmtest.Call) llmtest.Step {
				return llmtest.Step{Text: "echo: " + c.Messages[len(c.Messages)-1].Content}
			}})
			c := newTestClient(t, fake, provider, newFakeClock(), nil)
			const n = 24
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				wg.Go(func() {
					q := strings.Repeat("q", i+1)
					resp, err := c.Complete(context.Background(), ask(q))
					if err == nil && resp.Text != "echo: "+q {
						err = errors.New("crossed answer: " + resp.Text)
					}
					if err != nil {
						errs <- err
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if got := fake.CallCount(); got != n {
				t.Errorf("%d calls, want %d", got, n)
			}
		})
	}
}
