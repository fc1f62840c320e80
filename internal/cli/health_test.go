package cli

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// runHealth runs `svc health args...` with SVC_ADDR set to addr.
func runHealth(t *testing.T, addr string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == "SVC_ADDR" {
			return addr
		}
		return ""
	}}
	code := Run(context.Background(), append([]string{"health"}, args...), env)
	return code, out.String(), errb.String()
}

// readyServer answers /readyz with status and counts the probes it saw.
func readyServer(t *testing.T, status int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	hits := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		hits.Add(1)
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, hits
}

func TestHealthReady(t *testing.T) {
	t.Parallel()
	srv, hits := readyServer(t, http.StatusOK)
	code, stdout, stderr := runHealth(t, "", "--url", srv.URL+"/readyz")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got := decodeOne(t, stdout)
	if got["status"] != "ok" || got["url"] != srv.URL+"/readyz" || hits.Load() != 1 {
		t.Fatalf("stdout %v, %d probes", got, hits.Load())
	}
}

func TestHealthNotReadyExits1(t *testing.T) {
	t.Parallel()
	srv, hits := readyServer(t, http.StatusServiceUnavailable)
	code, stdout, stderr := runHealth(t, "", "--url", srv.URL+"/readyz")
	if code != 1 || stdout != "" || hits.Load() != 1 {
		t.Fatalf("exit %d, stdout %q, %d probes", code, stdout, hits.Load())
	}
	if !strings.Contains(stderr, "503") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("stderr should be one line naming the status: %q", stderr)
	}
}

// The container sets SVC_ADDR=0.0.0.0:8080 for serve; the probe must reach it on loopback.
func TestHealthProbesSVCADDROnLoopback(t *testing.T) {
	t.Parallel()
	srv, hits := readyServer(t, http.StatusOK)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runHealth(t, "0.0.0.0:"+port)
	if code != 0 || hits.Load() != 1 {
		t.Fatalf("exit %d, %d probes, stderr %q", code, hits.Load(), stderr)
	}
	if got := decodeOne(t, stdout); got["url"] != "http://127.0.0.1:"+port+"/readyz" {
		t.Fatalf("probed %v", got["url"])
	}
	// --addr wins over the environment.
	code, _, _ = runHealth(t, "0.0.0.0:1", "--addr", "127.0.0.1:"+port)
	if code != 0 || hits.Load() != 2 {
		t.Fatalf("--addr: exit %d, %d probes", code, hits.Load())
	}
}

func TestHealthNothingListeningExits1(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, _, stderr := runHealth(t, "", "--addr", addr)
	if code != 1 || !strings.Contains(stderr, "is not answering") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestHealthBadArgumentsExit2(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--url", "ftp://x/readyz"},
		{"--addr", "nohostport"},
		{"--timeout", "-1s"},
		{"--bogus"},
		{"extra"},
	} {
		code, stdout, stderr := runHealth(t, "", args...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

func TestReadyzURL(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"0.0.0.0:8080":   "http://127.0.0.1:8080/readyz",
		":8080":          "http://127.0.0.1:8080/readyz",
		"[::]:8080":      "http://[::1]:8080/readyz",
		"10.0.0.5:9000":  "http://10.0.0.5:9000/readyz",
		"localhost:8080": "http://localhost:8080/readyz",
	} {
		if got, err := readyzURL(addr); err != nil || got != want {
			t.Errorf("readyzURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
}
