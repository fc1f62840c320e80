package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestEndpointResolvesLikeTheSDKs(t *testing.T) {
	t.Parallel()
	tests := []struct{ base, path, want string }{
		{"https://api.openai.com/v1", "chat/completions", "https://api.openai.com/v1/chat/completions"},
		{"https://api.openai.com/v1/", "chat/completions", "https://api.openai.com/v1/chat/completions"},
		{"http://localhost:11434/v1", "chat/completions", "http://localhost:11434/v1/chat/completions"},
		{"http://localhost:8080", "chat/completions", "http://localhost:8080/chat/completions"},
		{"http://localhost:8080/", "chat/completions", "http://localhost:8080/chat/completions"},
		{"https://gw.example/openai/deploy", "chat/completions", "https://gw.example/openai/deploy/chat/completions"},
		{"https://api.anthropic.com", "v1/messages", "https://api.anthropic.com/v1/messages"},
		{"https://api.anthropic.com/", "v1/messages", "https://api.anthropic.com/v1/messages"},
		{"https://gw.example/anthropic", "v1/messages", "https://gw.example/anthropic/v1/messages"},
		// As with the SDK, Anthropic's base must not end in /v1 itself.
		{"https://api.anthropic.com/v1", "v1/messages", "https://api.anthropic.com/v1/v1/messages"},
	}
	for _, tc := range tests {
		u, err := ResolveEndpoint(tc.base, tc.path)
		if err != nil || u.String() != tc.want {
			t.Errorf("ResolveEndpoint(%q, %q) = %v, %v; want %s", tc.base, tc.path, u, err, tc.want)
		}
	}
}

func TestErrorIsUnavailable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"rate limited", statusError("embedding", "openai", "", 429, nil, "", time.Now()), true},
		{"server error", statusError("embedding", "openai", "", 503, nil, "", time.Now()), true},
		{"bad request", statusError("embedding", "openai", "", 400, nil, "", time.Now()), false},
		{"unauthorized", statusError("embedding", "openai", "", 401, nil, "", time.Now()), false},
		{"breaker open", Refused("embedding", "openai", time.Second), true},
		{"breaker open, wrapped", fmt.Errorf("search: %w", Refused("rerank", "tei", 0)), true},
		{"caller canceled", Canceled("embedding", "openai", canceledContext()), false},
		{"local check", (&Endpoint{api: "embedding", provider: "ollama"}).Failed(errors.New("empty vector")), false},
		{"not ours", errors.New("boom"), false},
	}
	for _, tc := range tests {
		if got := errors.Is(tc.err, ErrUnavailable); got != tc.want {
			t.Errorf("%s: errors.Is(%v, ErrUnavailable) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

func canceledContext() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestErrorMessageNamesTheCall(t *testing.T) {
	t.Parallel()
	e := statusError("embedding", "ollama", "", 404, nil, `model "x" not found`, time.Now())
	if got, want := e.Error(), `embedding ollama: status 404: model "x" not found`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (&Error{Provider: "p", Err: errors.New("oops")}).Error(), "p: oops"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPostSendsHeadersAndDecodes(t *testing.T) {
	t.Parallel()
	var seen http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		if r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	e := NewEndpoint(Options{API: "embedding", Provider: "openai", Client: DefaultHTTPClient(), BaseURL: srv.URL + "/v1",
		Path: "embeddings", Header: http.Header{"Authorization": {"Bearer k"}}, Timeout: 5 * time.Second})
	var out struct{ OK bool }
	if err := e.Post(context.Background(), map[string]string{"a": "b"}, &out); err != nil || !out.OK {
		t.Fatalf("Post: %v, %+v", err, out)
	}
	if seen.Get("Authorization") != "Bearer k" || seen.Get("Content-Type") != "application/json" ||
		!strings.HasPrefix(seen.Get("User-Agent"), "svc-embedding/") {
		t.Errorf("headers %v", seen)
	}
}

func TestJSONErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct{ body, want string }{
		{`{"error":{"message":"Rate limit reached","type":"requests","code":null}}`, "Rate limit reached"},
		{`{"error":"model \"bge-m3\" not found, try pulling it first"}`, `model "bge-m3" not found, try pulling it first`},
		{`{"error":"batch size 40 > maximum allowed batch size 32","error_type":"Validation"}`, "batch size 40 > maximum allowed batch size 32"},
		{`{"message":"invalid request: model is required"}`, "invalid request: model is required"},
		{`{"detail":"Invalid API key"}`, "Invalid API key"},
		{`{"detail":[{"msg":"field required"}]}`, ""},
		{`<html><body>Bad Gateway</body></html>`, ""},
		{`{"error":{"code":500}}`, ""},
	}
	for _, tc := range tests {
		if got := JSONErrorMessage([]byte(tc.body)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.body, got, tc.want)
		}
	}
}
