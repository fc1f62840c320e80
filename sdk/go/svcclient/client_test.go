package svcclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a stand-in server: it records each request and answers from a script, or an
// empty success.
type recorder struct {
	mu     sync.Mutex
	seen   []seenRequest
	script []func(w http.ResponseWriter)
}

type seenRequest struct {
	method, path, query, contentType, auth string
	body                                   []byte
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.seen = append(rec.seen, seenRequest{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("Authorization"), body})
	var step func(w http.ResponseWriter)
	if len(rec.script) > 0 {
		step, rec.script = rec.script[0], rec.script[1:]
	}
	rec.mu.Unlock()
	if step != nil {
		step(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"success":true,"data":{}}`)
}

func ok(w http.ResponseWriter) { io.WriteString(w, `{"success":true,"data":{}}`) }

// sleeps records the waits a client asked for instead of waiting.
type sleeps struct{ got []time.Duration }

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.got = append(s.got, d)
	return nil
}

func newTest(t *testing.T, rec *recorder, opts ...Option) (*Client, *sleeps) {
	t.Helper()
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+"/", "svc_pk_0123456789abcdef0123456789abcdef", opts...)
	if err != nil {
		t.Fatal(err)
	}
	s := &sleeps{}
	c.sleep = s.sleep
	return c, s
}

func refuse(status int, code, retryAfter string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.Header().Set("X-Request-Id", "req-1")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"success": false, "error": code, "message": "No."})
	}
}

// Every operation of the table is reached by a method, with the table's method and path:
// the table the drift test reads is what the client really calls.
func TestEveryOperationHasAMethod(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, _ := newTest(t, rec)
	ctx := context.Background()
	calls := []func() error{
		func() error { _, err := c.Start(ctx); return err },
		func() error { _, err := c.Send(ctx, "hi"); return err },
		func() error { _, err := c.Suggestions(ctx); return err },
		func() error { _, err := c.Sync(ctx, 3); return err },
		func() error { return c.Feedback(ctx, 2, NotHelpful, "short") },
		func() error { _, err := c.APIKey(ctx); return err },
		func() error { _, err := c.UsageSummary(ctx); return err },
		func() error { _, err := c.GetTone(ctx); return err },
		func() error { _, err := c.EmbedTokens(ctx); return err },
		func() error {
			_, err := c.EmbedTokenCreate(ctx, EmbedTokenSettings{Domains: []string{"a.example"}, Theme: Ptr("dark")})
			return err
		},
		func() error { return c.EmbedTokenUpdate(ctx, 1, EmbedTokenSettings{Title: Ptr("Help")}) },
		func() error { return c.EmbedTokenRevoke(ctx, 1) },
		func() error { _, err := c.MarketingGenerate(ctx, MarketingRequest{Brief: "b"}); return err },
		func() error { _, err := c.KBDocuments(ctx, KBDocumentsQuery{Type: "qa", Limit: 5}); return err },
		func() error {
			_, err := c.KBDocumentUpload(ctx, "a.md", strings.NewReader("# A"), UploadOptions{Lang: "en"})
			return err
		},
		func() error { return c.KBDocumentDelete(ctx, 1) },
		func() error { _, err := c.KBQACreate(ctx, QA{Question: Ptr("q"), Answer: Ptr("a")}); return err },
		func() error { return c.KBQAUpdate(ctx, 1, QA{Answer: Ptr("b")}) },
		func() error { return c.KBQADelete(ctx, 1) },
		func() error { _, err := c.KBProductsUpsert(ctx, []KBProduct{{Name: "P", SKU: "1"}}); return err },
		func() error {
			_, err := c.KBProductsUpsertFile(ctx, "p.csv", strings.NewReader("name,sku\nP,1\n"))
			return err
		},
		func() error {
			_, err := c.KBImport(ctx, strings.NewReader(`{"type":"qa","question":"q","answer":"a"}`))
			return err
		},
		func() error { _, err := c.KBCrawlStart(ctx, CrawlTarget{URL: "https://x.example/"}); return err },
		func() error { _, err := c.KBCrawlStatus(ctx, 4); return err },
	}
	for _, op := range []string{OpAnswer, OpSummarize, OpCompare, OpExtract, OpData} {
		calls = append(calls, func() error { _, err := c.Intelligence(ctx, op, IntelligenceRequest{Question: "q"}); return err })
	}
	for i, call := range calls {
		if err := call(); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	var got, want []string
	for _, s := range rec.seen {
		got = append(got, s.method+" "+s.path)
		if s.auth != "Bearer svc_pk_0123456789abcdef0123456789abcdef" {
			t.Errorf("%s: Authorization %q", s.path, s.auth)
		}
	}
	for _, o := range Operations() {
		want = append(want, o.Method+" "+o.Path())
	}
	slices.Sort(got)
	got = slices.Compact(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("requests made:\n%v\noperations:\n%v", got, want)
	}
	if _, err := c.Intelligence(ctx, "bogus", IntelligenceRequest{}); err == nil {
		t.Error("an unknown op was sent")
	}
}

func TestRequestEncodings(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, _ := newTest(t, rec)
	ctx := context.Background()
	if _, err := c.Sync(ctx, 42); err != nil {
		t.Fatal(err)
	}
	if err := c.EmbedTokenUpdate(ctx, 7, EmbedTokenSettings{Domains: []string{"a.example", "b.example"}, ShowSources: Ptr(false),
		Position: Ptr("left"), AvatarURL: Ptr("")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.KBDocumentUpload(ctx, "size chart.csv", strings.NewReader("size,chest\nM,96-101\n"), UploadOptions{Title: "Sizes"}); err != nil {
		t.Fatal(err)
	}
	if s := rec.seen[0]; s.query != "sinceId=42" || len(s.body) > 0 {
		t.Errorf("sync: query %q body %q", s.query, s.body)
	}
	var upd map[string]any
	if err := json.Unmarshal(rec.seen[1].body, &upd); err != nil || rec.seen[1].contentType != "application/json" {
		t.Fatalf("update body %q (%s): %v", rec.seen[1].body, rec.seen[1].contentType, err)
	}
	want := map[string]any{"id": 7.0, "domains": "a.example,b.example", "show_sources": false, "position": "left", "avatar_url": ""}
	for k, v := range want {
		if upd[k] != v {
			t.Errorf("update field %s = %v, want %v (body %s)", k, upd[k], v, rec.seen[1].body)
		}
	}
	if _, ok := upd["label"]; ok {
		t.Errorf("an unset field was sent: %s", rec.seen[1].body)
	}
	up := rec.seen[2]
	if !strings.HasPrefix(up.contentType, "multipart/form-data; boundary=") ||
		!strings.Contains(string(up.body), `name="file"; filename="size chart.csv"`) ||
		!strings.Contains(string(up.body), "M,96-101") || !strings.Contains(string(up.body), "Sizes") {
		t.Errorf("upload: %s\n%s", up.contentType, up.body)
	}
}

func TestEnvelopeErrors(t *testing.T) {
	t.Parallel()
	rec := &recorder{script: []func(http.ResponseWriter){
		refuse(400, "bad_request", ""),
		func(w http.ResponseWriter) { w.WriteHeader(502); io.WriteString(w, "<html>bad gateway</html>") },
	}}
	c, _ := newTest(t, rec)
	_, err := c.Send(context.Background(), "")
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 400 || ae.Code != "bad_request" || ae.Message != "No." || ae.RequestID != "req-1" {
		t.Fatalf("err = %#v", err)
	}
	if !IsCode(err, "bad_request") || !strings.Contains(err.Error(), "req-1") {
		t.Errorf("IsCode/Error: %v", err)
	}
	_, err = c.GetTone(context.Background())
	if !errors.As(err, &ae) || ae.Status != 502 || ae.Code != "invalid_response" {
		t.Fatalf("non-envelope answer: %#v", err)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("honoured", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{script: []func(http.ResponseWriter){refuse(429, "rate_limited", "7"), refuse(429, "rate_limited", "")}}
		c, s := newTest(t, rec)
		if _, err := c.Send(ctx, "hi"); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s.got, []time.Duration{7 * time.Second, time.Second}) || len(rec.seen) != 3 {
			t.Errorf("waits %v, requests %d", s.got, len(rec.seen))
		}
	})
	t.Run("bounded", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{script: []func(http.ResponseWriter){refuse(429, "rate_limited", "3"), refuse(429, "rate_limited", "3")}}
		c, s := newTest(t, rec, WithRetries(1, time.Minute))
		_, err := c.Send(ctx, "hi")
		var ae *APIError
		if !errors.As(err, &ae) || ae.Code != "rate_limited" || ae.RetryAfter != 3*time.Second || len(s.got) != 1 {
			t.Errorf("err %v, waits %v", err, s.got)
		}
	})
	t.Run("too long a wait", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{script: []func(http.ResponseWriter){refuse(429, "limit_reached", "50000")}}
		c, s := newTest(t, rec)
		if _, err := c.Send(ctx, "hi"); !IsCode(err, "limit_reached") || len(s.got) != 0 {
			t.Errorf("err %v, waits %v", err, s.got)
		}
	})
	t.Run("503 retried for reads only", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{script: []func(http.ResponseWriter){refuse(503, "server_error", "2"), ok, refuse(503, "server_error", "2")}}
		c, s := newTest(t, rec)
		if _, err := c.GetTone(ctx); err != nil || len(s.got) != 1 {
			t.Fatalf("read: %v, waits %v", err, s.got)
		}
		if _, err := c.Send(ctx, "hi"); !IsCode(err, "server_error") || len(s.got) != 1 {
			t.Errorf("write: %v, waits %v", err, s.got)
		}
	})
	t.Run("date form", func(t *testing.T) {
		t.Parallel()
		now := time.Date(2026, 11, 21, 15, 4, 5, 0, time.UTC)
		if d := retryAfter(now.Add(90*time.Second).Format(http.TimeFormat), now); d != 90*time.Second {
			t.Errorf("date: %v", d)
		}
		if d := retryAfter("soon", now); d != 0 {
			t.Errorf("junk: %v", d)
		}
	})
}

// A server that never answers is cut off by the per-attempt timeout.
func TestTimeout(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, "svc_pk_x", WithTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Start(context.Background()); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
}

func TestNewRefusesBadArguments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ base, key string }{{"", "k"}, {"ftp://x", "k"}, {"http://", "k"}, {"http://x", " "}} {
		if _, err := New(tc.base, tc.key); err == nil {
			t.Errorf("New(%q, %q) succeeded", tc.base, tc.key)
		}
	}
	c, err := New("http://x", "k")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.EmbedTokenCreate(context.Background(), EmbedTokenSettings{}); err == nil {
		t.Error("a token without domains was sent")
	}
}

func TestUploadTooLarge(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, _ := newTest(t, rec)
	big := io.LimitReader(zeros{}, MaxUpload+1)
	if _, err := c.KBDocumentUpload(context.Background(), "big.txt", big, UploadOptions{}); err == nil || len(rec.seen) != 0 {
		t.Errorf("err %v, sent %d", err, len(rec.seen))
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
