package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"
)

// testServer is an httptest server that counts connections and requests, so
// tests can prove a blocked fetch never reached it.
type testServer struct {
	*httptest.Server
	conns    atomic.Int64
	requests atomic.Int64
}

func newTestServer(t *testing.T, h http.Handler) *testServer {
	t.Helper()
	ts := &testServer{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			ts.conns.Add(1)
		}
	}
	srv.Start()
	ts.Server = srv
	t.Cleanup(srv.Close)
	return ts
}

// privateClient is a client allowed to reach the loopback test servers.
func privateClient(t *testing.T, opts Options) *Client {
	t.Helper()
	opts.AllowPrivate = true
	c := New(opts)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// fakeDNS makes c resolve the given names to the given addresses and fail
// for any other name, without touching the network.
func fakeDNS(c *Client, answers map[string][]string) {
	c.guard.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, s := range answers[host] {
			out = append(out, netip.MustParseAddr(s))
		}
		if len(out) == 0 {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return out, nil
	}
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitCtx returns when ctx ends or d passes, for handlers that stall.
func waitCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
