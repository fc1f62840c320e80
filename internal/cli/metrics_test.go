package cli

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"svc/internal/metrics/metricstest"
)

// freeAddr is a loopback address nothing listens on (just now).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// With SVC_METRICS_ADDR, /metrics has a listener of its own, which requires the token when
// one is set; the main listener does not serve it. serve stops both.
func TestServeMetricsOnSeparateAddress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	addr, maddr := freeAddr(t), freeAddr(t)
	const token = "separate-listener-token-0123"
	env := map[string]string{"SVC_DATA": dir, "SVC_METRICS_ADDR": maddr, "SVC_METRICS_TOKEN": token}
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", "--addr", addr}, Env{Stdin: strings.NewReader(""), Stdout: &stdout,
			Stderr: &stderr, Getenv: func(k string) string { return env[k] }})
	}()
	get := func(url, bearer string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, _ := get("http://"+addr+"/healthz", ""); code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never became healthy: %s", stderr.String())
		}
	}
	f := metricstest.Scrape(t, http.DefaultClient, "http://"+maddr+"/metrics", token)
	if v, ok := f.Value("svc_http_request_duration_seconds", map[string]string{"route": "/healthz", "code": "200"}); !ok || v < 1 {
		t.Fatalf("the health probes were not counted: %v %v", v, ok)
	}
	if code, body := get("http://"+maddr+"/metrics", ""); code != http.StatusUnauthorized || !strings.Contains(body, `"unauthorized"`) {
		t.Fatalf("metrics address without the token: %d %s", code, body)
	}
	if code, _ := get("http://"+maddr+"/api/v1/chat/apiKey", token); code != http.StatusNotFound {
		t.Fatalf("the metrics address serves more than /metrics: %d", code)
	}
	if code, body := get("http://"+addr+"/metrics", token); code != http.StatusNotFound || strings.Contains(body, "svc_") {
		t.Fatalf("main listener /metrics: %d %s", code, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d: %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not shut down")
	}
	if code, _ := get("http://"+maddr+"/metrics", token); code != 0 {
		t.Fatalf("metrics listener still answers after shutdown: %d", code)
	}
}

// A bad metrics configuration is refused before serving, with a one-line reason.
func TestServeMetricsConfigErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SVC_METRICS_TOKEN": "short"}, "SVC_METRICS_TOKEN must be at least"},
		{map[string]string{"SVC_METRICS_ADDR": "nonsense"}, "SVC_METRICS_ADDR must be host:port"},
	} {
		c.env["SVC_DATA"] = t.TempDir()
		var stdout, stderr bytes.Buffer
		code := Run(context.Background(), []string{"serve", "--addr", freeAddr(t)}, Env{Stdin: strings.NewReader(""),
			Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return c.env[k] }})
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.env, code, stderr.String())
		}
	}
}
