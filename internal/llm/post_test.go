package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"svc/internal/llm/llmtest"
	"svc/internal/remote"
)

func TestBaseURLWithTrailingSlash(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			c := newTestClient(t, fake, provider, newFakeClock(), func(cfg *Config) { cfg.BaseURL += "/" })
			if _, err := c.Complete(context.Background(), ask("hi")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// serve starts a server answering every request with h, counting the requests.
func serve(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// direct builds a client for provider at base, with no retries.
func direct(t *testing.T, provider, base string) Client {
	t.Helper()
	c, err := build(Config{Provider: provider, BaseURL: base, APIKey: testKey, MaxRetries: -1}, newFakeClock().Clock())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRedirectsStayOnTheProvidersOrigin(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.Start(t, llmtest.Options{APIKey: testKey})
			// Same origin: followed, body and key included (307 keeps the method and body).
			same, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/old/") {
					http.Redirect(w, r, strings.TrimPrefix(r.URL.Path, "/old"), http.StatusTemporaryRedirect)
					return
				}
				// Relay to the fake, as a gateway would.
				req, _ := http.NewRequestWithContext(r.Context(), r.Method, fake.URL()+r.URL.Path, r.Body)
				req.Header = r.Header.Clone()
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadGateway)
					return
				}
				defer res.Body.Close()
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(res.StatusCode)
				_, _ = io.Copy(w, res.Body)
			})
			old := same.URL + "/old"
			if provider == ProviderOpenAI {
				old += "/v1"
			}
			if _, err := direct(t, provider, old).Complete(context.Background(), ask("hi")); err != nil {
				t.Fatalf("same-origin redirect: %v", err)
			}
			if fake.CallCount() != 1 {
				t.Errorf("%d calls reached the provider, want 1", fake.CallCount())
			}

			// Another origin: refused, and the other server never sees the key.
			var leaked atomic.Bool
			elsewhere, reached := serve(t, func(w http.ResponseWriter, r *http.Request) {
				leaked.Store(r.Header.Get("X-Api-Key") != "" || r.Header.Get("Authorization") != "")
			})
			away, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
			})
			_, err := direct(t, provider, away.URL).Complete(context.Background(), ask("hi"))
			e := asError(t, err)
			if !errors.Is(err, remote.ErrCrossOriginRedirect) || e.Retryable {
				t.Errorf("err %v (retryable %v), want a refused redirect, not retried", err, e.Retryable)
			}
			if reached.Load() != 0 || leaked.Load() {
				t.Errorf("the other origin was called %d times (key sent: %v)", reached.Load(), leaked.Load())
			}
		})
	}
}

func TestErrorMessagesFromTheBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, provider, body, want string
	}{
		{"openai error object", ProviderOpenAI, `{"error":{"message":"Rate limit reached","type":"requests","code":null}}`, "Rate limit reached"},
		{"openai error string", ProviderOpenAI, `{"error":"model is loading"}`, "model is loading"},
		{"openai html page", ProviderOpenAI, `<html><body>Bad Gateway</body></html>`, "Bad Gateway"},
		{"anthropic error", ProviderAnthropic, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "overloaded_error: Overloaded"},
		{"anthropic html page", ProviderAnthropic, `<html>oops</html>`, "Bad Gateway"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadGateway)
				_, _ = w.Write([]byte(tc.body))
			})
			_, err := direct(t, tc.provider, srv.URL).Complete(context.Background(), ask("hi"))
			e := asError(t, err)
			if e.Status != http.StatusBadGateway || !e.Retryable || e.Err.Error() != tc.want {
				t.Errorf("err %+v (message %q), want 502 %q", e, e.Err, tc.want)
			}
			if n.Load() != 1 {
				t.Errorf("%d calls", n.Load())
			}
		})
	}
}

func TestUnreadableSuccessIsNotRetried(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<html>captive portal</html>"))
			})
			_, err := direct(t, provider, srv.URL).Complete(context.Background(), ask("hi"))
			if e := asError(t, err); e.Retryable || e.Status != 0 {
				t.Errorf("err %v (%+v)", err, e)
			}
		})
	}
}

func TestBodyCutShortIsRetryable(t *testing.T) {
	t.Parallel()
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
				// Promise more than is sent: the server then drops the connection.
				w.Header().Set("Content-Length", "1000")
				_, _ = w.Write([]byte(`{"choices":[`))
			})
			_, err := direct(t, provider, srv.URL).Complete(context.Background(), ask("hi"))
			if e := asError(t, err); !e.Retryable || e.Status != 0 {
				t.Errorf("err %v (%+v), want a retryable transport error", err, e)
			}
		})
	}
}

func TestOversizedResponseIsRefused(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"choices":[{"message":{"content":"`))
		chunk := []byte(strings.Repeat("x", 1<<16))
		for range remote.MaxResponseBytes/len(chunk) + 1 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	_, err := direct(t, ProviderOpenAI, srv.URL).Complete(context.Background(), ask("hi"))
	if e := asError(t, err); !errors.Is(err, remote.ErrResponseTooLarge) || e.Retryable {
		t.Errorf("err %v (retryable %v)", err, e.Retryable)
	}
}
