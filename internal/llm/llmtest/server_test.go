package llmtest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// post sends a raw request, the way no SDK would, and decodes the JSON answer.
func post(t *testing.T, url string, header map[string]string, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer is not JSON: %s", raw)
	}
	return res.StatusCode, res.Header, out
}

func TestAnthropicValidation(t *testing.T) {
	good := map[string]string{"x-api-key": "k", "anthropic-version": "2023-06-01"}
	tests := []struct {
		name    string
		header  map[string]string
		body    string
		status  int
		errType string
	}{
		{"no max_tokens", good, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, 400, "invalid_request_error"},
		{"zero max_tokens", good, `{"model":"m","max_tokens":0,"messages":[{"role":"user","content":"hi"}]}`, 400, "invalid_request_error"},
		{"no model", good, `{"max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`, 400, "invalid_request_error"},
		{"no messages", good, `{"model":"m","max_tokens":5}`, 400, "invalid_request_error"},
		{"system role in messages", good, `{"model":"m","max_tokens":5,"messages":[{"role":"system","content":"hi"}]}`, 400, "invalid_request_error"},
		{"wrong key", map[string]string{"x-api-key": "nope", "anthropic-version": "2023-06-01"}, `{}`, 401, "authentication_error"},
		{"no version", map[string]string{"x-api-key": "k"}, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`, 400, "invalid_request_error"},
		{"bad JSON", good, `{`, 400, "invalid_request_error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, Options{APIKey: "k"})
			status, _, out := post(t, s.AnthropicBaseURL()+"/v1/messages", tc.header, tc.body)
			errObj, _ := out["error"].(map[string]any)
			if status != tc.status || out["type"] != "error" || errObj["type"] != tc.errType || errObj["message"] == "" {
				t.Errorf("status %d, body %v", status, out)
			}
			if s.CallCount() != 1 {
				t.Errorf("rejected call not recorded")
			}
		})
	}
}

func TestOpenAIValidation(t *testing.T) {
	auth := map[string]string{"Authorization": "Bearer k"}
	tests := []struct {
		name   string
		header map[string]string
		body   string
		status int
	}{
		{"no model", auth, `{"messages":[{"role":"user","content":"hi"}]}`, 400},
		{"no messages", auth, `{"model":"m"}`, 400},
		{"no key", nil, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, 401},
		{"wrong key", map[string]string{"Authorization": "Bearer x"}, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, Options{APIKey: "k"})
			status, _, out := post(t, s.OpenAIBaseURL()+"/chat/completions", tc.header, tc.body)
			errObj, _ := out["error"].(map[string]any)
			if status != tc.status || errObj["message"] == "" || errObj["type"] == "" {
				t.Errorf("status %d, body %v", status, out)
			}
			if _, ok := errObj["code"]; !ok {
				t.Errorf("error has no code field: %v", out)
			}
		})
	}
}

func TestQueueScriptAndDefault(t *testing.T) {
	s := Start(t, Options{})
	s.Push(Step{Text: "first"}, Step{Text: "second", Status: 429, RetryAfter: "3"})
	body := `{"model":"m","messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"abcdefgh"}]}],"max_tokens":9,"temperature":0.5,"response_format":{"type":"json_object"}}`
	url := s.OpenAIBaseURL() + "/chat/completions"

	status, _, out := post(t, url, nil, body)
	choice := out["choices"].([]any)[0].(map[string]any)
	msg := choice["message"].(map[string]any)
	usage := out["usage"].(map[string]any)
	// "sys" + "abcdefgh" is 11 bytes: 3 tokens.
	if status != 200 || msg["content"] != "first" || choice["finish_reason"] != "stop" || usage["prompt_tokens"] != 3.0 || usage["completion_tokens"] != 2.0 || usage["total_tokens"] != 5.0 {
		t.Errorf("first: %d %v", status, out)
	}
	status, h, _ := post(t, url, nil, body)
	if status != 429 || h.Get("Retry-After") != "3" {
		t.Errorf("second: %d, Retry-After %q", status, h.Get("Retry-After"))
	}
	s.SetScript(func(c Call) Step { return Step{Text: "scripted for " + c.Model} })
	if _, _, out := post(t, url, nil, body); !strings.Contains(string(mustJSON(out)), "scripted for m") {
		t.Errorf("script: %v", out)
	}
	s.SetScript(nil)
	if _, _, out := post(t, url, nil, body); !strings.Contains(string(mustJSON(out)), `"content":"ok"`) {
		t.Errorf("default: %v", out)
	}

	c := s.Calls()[0]
	if c.Protocol != ProtocolOpenAI || c.Model != "m" || c.System != "sys" || c.MaxTokens != 9 || !c.JSON ||
		c.Temperature == nil || *c.Temperature != 0.5 || len(c.Messages) != 1 || c.Messages[0] != (Message{"user", "abcdefgh"}) {
		t.Errorf("recorded %+v", c)
	}
}

func TestAnthropicAnswerShape(t *testing.T) {
	s := Start(t, Options{})
	s.Push(Step{Text: "hallo", InputTokens: 11, OutputTokens: 2})
	header := map[string]string{"x-api-key": "any", "anthropic-version": "2023-06-01"}
	body := `{"model":"claude","max_tokens":5,"system":[{"type":"text","text":"be kind"}],"messages":[{"role":"user","content":"hi"}]}`
	status, _, out := post(t, s.AnthropicBaseURL()+"/v1/messages", header, body)
	content := out["content"].([]any)[0].(map[string]any)
	usage := out["usage"].(map[string]any)
	if status != 200 || out["type"] != "message" || out["role"] != "assistant" || out["model"] != "claude" ||
		content["type"] != "text" || content["text"] != "hallo" || out["stop_reason"] != "end_turn" ||
		usage["input_tokens"] != 11.0 || usage["output_tokens"] != 2.0 {
		t.Errorf("answer %v", out)
	}
	if c := s.Calls()[0]; c.System != "be kind" || c.Protocol != ProtocolAnthropic {
		t.Errorf("recorded %+v", c)
	}
}

func TestDelayEndsWhenTheClientLeaves(t *testing.T) {
	s := New(Options{Default: Step{Delay: time.Minute, Text: "late"}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.OpenAIBaseURL()+"/chat/completions",
		strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Error("a delayed answer arrived before the client gave up")
	}
	// A second request still waiting must not hold up Close.
	go func() {
		req, _ := http.NewRequest(http.MethodPost, s.OpenAIBaseURL()+"/chat/completions",
			strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
	}()
	for s.CallCount() < 2 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	s.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
}

func TestConcurrentUse(t *testing.T) {
	s := Start(t, Options{})
	const n = 32
	for range n / 2 {
		s.Push(Step{Text: "queued"})
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, s.OpenAIBaseURL()+"/chat/completions",
				strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			_ = s.Calls()
		})
	}
	wg.Wait()
	if got := s.CallCount(); got != n {
		t.Errorf("%d calls recorded, want %d", got, n)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// A streamed call is answered on the protocol's own events, the text in pieces of about a
// token that join to it, the usage where the protocol puts it.
func TestStreamWireFormats(t *testing.T) {
	s := Start(t, Options{})
	s.Push(Step{Text: "Ships in 2 days.", InputTokens: 9, OutputTokens: 5}, Step{Text: "Ships in 2 days.", InputTokens: 9, OutputTokens: 5})
	read := func(url string, header map[string]string, body string) string {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("content type %q", res.Header.Get("Content-Type"))
		}
		raw, _ := io.ReadAll(res.Body)
		return string(raw)
	}
	oa := read(s.OpenAIBaseURL()+"/chat/completions", nil,
		`{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"when?"}]}`)
	for _, want := range []string{`"object":"chat.completion.chunk"`, `"delta":{"content":"Ship"}`, `"finish_reason":"stop"`,
		`"usage":{"completion_tokens":5,"prompt_tokens":9,"total_tokens":14}`, "data: [DONE]\n\n"} {
		if !strings.Contains(oa, want) {
			t.Errorf("OpenAI stream lacks %s:\n%s", want, oa)
		}
	}
	an := read(s.AnthropicBaseURL()+"/v1/messages", map[string]string{"x-api-key": "k", "anthropic-version": "2023-06-01"},
		`{"model":"m","max_tokens":9,"stream":true,"messages":[{"role":"user","content":"when?"}]}`)
	for _, want := range []string{"event: message_start\n", `"input_tokens":9`, "event: content_block_delta\n",
		`"delta":{"text":"Ship","type":"text_delta"}`, `"stop_reason":"end_turn"`, `"output_tokens":5`, "event: message_stop\n"} {
		if !strings.Contains(an, want) {
			t.Errorf("Anthropic stream lacks %s:\n%s", want, an)
		}
	}
	if c := s.Calls(); !c[0].Stream || !c[0].IncludeUsage || !c[1].Stream {
		t.Errorf("calls %+v", c)
	}
	if got := strings.Join(Pieces("Ships in 2 days, größer."), "|"); got != "Ship|s |in |2 |days|, |grö|ßer|." {
		t.Errorf("pieces %s", got)
	}
}
