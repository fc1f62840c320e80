package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestGetStatuses(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var code int
		if _, err := fmt.Sscanf(r.URL.Path, "/%d", &code); err != nil {
			code = http.StatusOK
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(strings.Repeat("error page ", 10000)))
	}))
	c := privateClient(t, Options{})
	for _, code := range []int{200, 204, 400, 401, 403, 404, 410, 429, 500, 502, 503} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			resp, err := c.Get(testContext(t), Request{URL: fmt.Sprintf("%s/%d", srv.URL, code)})
			if err != nil {
				t.Fatalf("status %d is not an error, got %v", code, err)
			}
			if resp.Status != code {
				t.Fatalf("Status = %d, want %d", resp.Status, code)
			}
			wantBody := code == 200
			if got := len(resp.Body) > 0; got != wantBody {
				t.Fatalf("len(Body) = %d for %d", len(resp.Body), code)
			}
			if resp.ContentType != "text/html" {
				t.Fatalf("ContentType = %q", resp.ContentType)
			}
		})
	}
}

func TestGetResponseFields(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != "test-agent/1" {
			http.Error(w, "bad agent", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "Text/HTML; Charset=UTF-8")
		w.Header().Set("ETag", `"e1"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		_, _ = w.Write([]byte("<p>hi</p>"))
	}))
	c := privateClient(t, Options{UserAgent: "test-agent/1"})
	resp, err := c.Get(testContext(t), Request{URL: srv.URL + "/page#frag"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || resp.ContentType != "text/html" || string(resp.Body) != "<p>hi</p>" ||
		resp.ETag != `"e1"` || resp.LastModified != "Mon, 02 Jan 2006 15:04:05 GMT" ||
		resp.URL.String() != srv.URL+"/page" || resp.Header.Get("ETag") == "" || resp.Charset != "utf-8" {
		t.Fatalf("unexpected response: %+v (url %s)", resp, resp.URL)
	}
}

func TestConditionalGet(t *testing.T) {
	const etag, lastMod = `"v1"`, "Mon, 02 Jan 2006 15:04:05 GMT"
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == etag || r.Header.Get("If-Modified-Since") == lastMod {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lastMod)
		_, _ = w.Write([]byte("content"))
	}))
	c := privateClient(t, Options{})
	first, err := c.Get(testContext(t), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if first.NotModified || string(first.Body) != "content" {
		t.Fatalf("first fetch: %+v", first)
	}
	for _, req := range []Request{
		{URL: srv.URL, ETag: first.ETag},
		{URL: srv.URL, LastModified: first.LastModified},
	} {
		resp, err := c.Get(testContext(t), req)
		if err != nil {
			t.Fatal(err)
		}
		if !resp.NotModified || resp.Status != http.StatusNotModified || len(resp.Body) != 0 {
			t.Fatalf("conditional fetch %+v: %+v", req, resp)
		}
		if resp.ETag != req.ETag || resp.LastModified != req.LastModified {
			t.Fatalf("validators not carried over: %+v", resp)
		}
	}
}

// A 2 GB body, declared or streamed, stops at the limit quickly and without
// holding more than the limit in memory.
func TestHugeBody(t *testing.T) {
	const total = 2 << 30
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/declared" {
			w.Header().Set("Content-Length", fmt.Sprint(total))
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for sent := 0; sent < total; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	const limit = 5 << 20
	c := privateClient(t, Options{MaxBodyBytes: limit})
	for _, path := range []string{"/declared", "/streamed"} {
		t.Run(path, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			resp, err := c.Get(testContext(t), Request{URL: srv.URL + path})
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Get = %v, %v; want ErrTooLarge", resp, err)
			}
			if elapsed > 10*time.Second {
				t.Fatalf("took %s", elapsed)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%s: %s, %d KiB allocated", path, elapsed, alloc>>10)
			if alloc > 32<<20 {
				t.Fatalf("allocated %d MiB for a %d MiB limit", alloc>>20, limit>>20)
			}
		})
	}
}

func TestBodyExactlyAtLimit(t *testing.T) {
	const limit = 1000
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := limit
		if r.URL.Path == "/over" {
			n++
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		// No Content-Length: the limit must work on the stream itself.
		w.(http.Flusher).Flush()
		_, _ = w.Write(bytes.Repeat([]byte("a"), n))
	}))
	c := privateClient(t, Options{MaxBodyBytes: limit})
	resp, err := c.Get(testContext(t), Request{URL: srv.URL + "/exact"})
	if err != nil || len(resp.Body) != limit {
		t.Fatalf("exact: %v, %d bytes", err, len(resp.Body))
	}
	if _, err := c.Get(testContext(t), Request{URL: srv.URL + "/over"}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over: %v, want ErrTooLarge", err)
	}
}

func TestGzip(t *testing.T) {
	page := []byte("<html><body>" + strings.Repeat("merhaba dünya ", 100) + "</body></html>")
	bomb := gzipBytes(t, make([]byte, 8<<20)) // 8 MiB of zeros, ~8 KiB compressed
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Errorf("Accept-Encoding = %q", r.Header.Get("Accept-Encoding"))
		}
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gzipBytes(t, page))
		case "/bomb":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(bomb)
		case "/corrupt":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write([]byte("not gzip at all"))
		case "/br":
			w.Header().Set("Content-Encoding", "br")
			_, _ = w.Write([]byte("whatever"))
		}
	}))
	c := privateClient(t, Options{MaxBodyBytes: 1 << 20})

	resp, err := c.Get(testContext(t), Request{URL: srv.URL + "/page"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resp.Body, page) {
		t.Fatalf("gzip page decoded to %d bytes", len(resp.Body))
	}
	if _, err := c.Get(testContext(t), Request{URL: srv.URL + "/bomb"}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("gzip bomb: %v, want ErrTooLarge", err)
	}
	if _, err := c.Get(testContext(t), Request{URL: srv.URL + "/corrupt"}); err == nil {
		t.Fatal("corrupt gzip accepted")
	}
	if _, err := c.Get(testContext(t), Request{URL: srv.URL + "/br"}); !errors.Is(err, ErrEncoding) {
		t.Fatalf("br: %v, want ErrEncoding", err)
	}
}

// A server that drips its body, or never sends headers, is cut at Timeout.
func TestSlowServers(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/drip":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusOK)
			for {
				if _, err := w.Write([]byte("x")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(250 * time.Millisecond):
				}
			}
		case "/stall":
			waitCtx(r.Context(), 30*time.Second)
		}
	}))
	const timeout = time.Second
	c := privateClient(t, Options{Timeout: timeout})
	for _, path := range []string{"/drip", "/stall"} {
		t.Run(path, func(t *testing.T) {
			start := time.Now()
			_, err := c.Get(testContext(t), Request{URL: srv.URL + path})
			elapsed := time.Since(start)
			if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want ErrTimeout and DeadlineExceeded", err)
			}
			if elapsed < timeout-50*time.Millisecond || elapsed > timeout+2*time.Second {
				t.Fatalf("gave up after %s, timeout %s", elapsed, timeout)
			}
		})
	}
}

// A caller's cancellation is reported as such, not as our timeout.
func TestCallerCancel(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		waitCtx(r.Context(), 30*time.Second)
	}))
	c := privateClient(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := c.Get(ctx, Request{URL: srv.URL})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want context.Canceled only", err)
	}
}

func TestHugeHeaders(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 64 {
			w.Header().Set(fmt.Sprintf("X-Big-%d", i), strings.Repeat("h", 16<<10))
		}
		_, _ = w.Write([]byte("ok"))
	}))
	c := privateClient(t, Options{})
	start := time.Now()
	if _, err := c.Get(testContext(t), Request{URL: srv.URL}); err == nil || !strings.Contains(err.Error(), "header") {
		t.Fatalf("1 MiB of headers accepted: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("huge headers took too long to refuse")
	}
}

func TestContentTypeSniffed(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // suppress net/http's own sniffing
		_, _ = w.Write([]byte("<!DOCTYPE html><html><body>caf\xe9</body></html>"))
	}))
	c := privateClient(t, Options{})
	resp, err := c.Get(testContext(t), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentType != "text/html" || !strings.Contains(string(resp.Body), "café") {
		t.Fatalf("ContentType %q body %q", resp.ContentType, resp.Body)
	}
}

func TestParseContentType(t *testing.T) {
	tests := map[string]string{
		"":                                 "",
		"text/html":                        "text/html",
		"TEXT/HTML; charset=UTF-8":         "text/html",
		"text/html;charset":                "text/html",
		"text/html; charset=\"unclosed":    "text/html",
		"application/xhtml+xml; q=1":       "application/xhtml+xml",
		"garbage;;; =":                     "garbage",
		" text/plain ; charset=iso-8859-9": "text/plain",
	}
	for in, want := range tests {
		if got, _ := parseContentType(in); got != want {
			t.Errorf("parseContentType(%q) = %q, want %q", in, got, want)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A test Transport replaces the network, but URL checks still run first.
func TestCustomTransport(t *testing.T) {
	var calls int
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		calls++
		return &http.Response{
			StatusCode: http.StatusOK,
			Header:     http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
			Body:       io.NopCloser(strings.NewReader("from " + r.URL.Host)),
			Request:    r,
		}, nil
	})
	c := New(Options{Transport: rt})
	resp, err := c.Get(testContext(t), Request{URL: "https://example.com/x"})
	if err != nil || string(resp.Body) != "from example.com" {
		t.Fatalf("Get = %+v, %v", resp, err)
	}
	for _, raw := range []string{"http://169.254.169.254/", "http://127.0.0.1/", "file:///etc/passwd"} {
		if _, err := c.Get(testContext(t), Request{URL: raw}); err == nil {
			t.Fatalf("Get(%s) succeeded through a test transport", raw)
		}
	}
	if calls != 1 {
		t.Fatalf("transport called %d times, want 1", calls)
	}
}
