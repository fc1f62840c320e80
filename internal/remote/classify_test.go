package remote

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"http date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second},
		{"date in the past", map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0},
		{"milliseconds win", map[string]string{"Retry-After": "7", "Retry-After-Ms": "250"}, 250 * time.Millisecond},
		{"bad milliseconds fall back", map[string]string{"Retry-After": "3", "Retry-After-Ms": "soon"}, 3 * time.Second},
		{"negative", map[string]string{"Retry-After": "-5"}, 0},
		{"garbage", map[string]string{"Retry-After": "later"}, 0},
		{"huge", map[string]string{"Retry-After": "1e30"}, MaxRetryAfter},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.header {
				h.Set(k, v)
			}
			if got := ParseRetryAfter(h, now); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestStatusErrors(t *testing.T) {
	tests := []struct {
		status    int
		retryable bool
	}{
		{400, false}, {401, false}, {403, false}, {404, false}, {422, false},
		{408, true}, {409, true}, {429, true}, {500, true}, {502, true}, {503, true}, {529, true},
	}
	for _, tc := range tests {
		e := statusError("llm", "openai", "", tc.status, nil, "", time.Now())
		if e.Retryable != tc.retryable || e.Status != tc.status {
			t.Errorf("%d: %+v", tc.status, e)
		}
		if e.Err.Error() == "" {
			t.Errorf("%d: empty message", tc.status)
		}
	}
}

func TestCleanRedactsAndShortens(t *testing.T) {
	const key = "sk-abc123"
	got := Clean("bad key sk-abc123\n  given, sk-abc123 again", key)
	if strings.Contains(got, key) || got != "bad key [redacted] given, [redacted] again" {
		t.Errorf("got %q", got)
	}
	long := Clean(strings.Repeat("ü", 400), "")
	if len(long) > maxMessageBytes+len("…") || !strings.HasSuffix(long, "…") || !strings.HasPrefix(long, "ü") {
		t.Errorf("long message %d bytes: %q", len(long), long[:10])
	}
}

func TestFailSaysWhichContextEnded(t *testing.T) {
	e := NewEndpoint(Options{API: "t", Provider: "p", Client: DefaultHTTPClient(), BaseURL: "http://x.example", Timeout: time.Hour})
	broken := &url.Error{Op: "Post", URL: "http://x.example", Err: errors.New("connection refused")}

	caller, cancel := context.WithCancelCause(context.Background())
	attempt, cancelAttempt := context.WithTimeout(caller, time.Hour)
	defer cancelAttempt()
	if err := e.fail(caller, attempt, answer{}, broken); !err.Retryable || errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Errorf("live contexts: %v, want the retryable transport error", err)
	}

	expired, cancelExpired := context.WithTimeout(context.Background(), 0)
	defer cancelExpired()
	if err := e.fail(context.Background(), expired, answer{}, broken); !err.Retryable || !errors.Is(err, ErrTimeout) ||
		errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrUnavailable) {
		t.Errorf("attempt timed out: %v, want a retryable ErrTimeout that is not the caller's deadline", err)
	}

	shutdown := errors.New("shutting down")
	cancel(shutdown)
	err := e.fail(caller, attempt, answer{}, broken)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, shutdown) || err.Retryable || errors.Is(err, ErrUnavailable) {
		t.Errorf("err %v, want both context.Canceled and the cause, not retryable", err)
	}
}
