package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"svc/internal/embedding/embedtest"
	"svc/internal/metrics/metricstest"
)

// `svc serve` with an embedding provider that hangs still answers every question with a 200
// within 5 s (the search by meaning gives up after SVC_EMBED_QUERY_TIMEOUT), counts the
// degraded searches in /metrics, and shuts down cleanly with the background embedder stuck
// in a call; once the provider answers, questions are embedded again.
func TestServeWithAHangingEmbeddingProvider(t *testing.T) {
	t.Parallel()
	srv := embedtest.Start(t, embedtest.Options{})
	srv.SetDefault(embedtest.Fault{Delay: time.Minute})
	const token = "metrics-token-0123456789"
	env := map[string]string{"SVC_DATA": t.TempDir(), "SVC_EMBED_PROVIDER": "openai", "SVC_EMBED_BASE_URL": srv.OpenAIBaseURL(),
		"SVC_EMBED_MODEL": "concepts", "SVC_EMBED_QUERY_TIMEOUT": "1s", "SVC_METRICS_TOKEN": token, "SVC_LOG_LEVEL": "error"}
	getenv := func(k string) string { return env[k] }
	var out, errb bytes.Buffer
	if code := Run(context.Background(), []string{"account", "create", "--name", "Shop", "--balance-usd", "5"},
		Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv}); code != 0 {
		t.Fatal(errb.String())
	}
	var demo struct {
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal(out.Bytes(), &demo); err != nil || demo.APIKey == "" {
		t.Fatalf("account create printed %q: %v", out.String(), err)
	}
	if code := Run(context.Background(), []string{"kb", "import", "--account", "1", "../demo/data/kb.jsonl"},
		Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv}); code != 0 {
		t.Fatal(errb.String())
	}
	r := startServerEnv(t, func(r *running) Env {
		return Env{Stdin: strings.NewReader(""), Stdout: &r.stdout, Stderr: &r.stderr, Getenv: getenv}
	})
	send := func(q string) (int, time.Duration) {
		t.Helper()
		req, _ := http.NewRequest("POST", r.base+"/api/v1/chat/send", strings.NewReader(url.Values{"message": {q}}.Encode()))
		req.Header.Set("Authorization", "Bearer "+demo.APIKey)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, time.Since(start)
	}
	questions := []string{"Can I get my money back?", "How long does delivery take?", "Do you have stores in Ankara?"}
	for _, q := range questions {
		if code, took := send(q); code != http.StatusOK || took > 5*time.Second {
			t.Fatalf("%q while the provider hangs: %d after %v", q, code, took)
		}
	}
	// Every question the engine searched by meaning gave up within the query timeout.
	count := func(name string, labels map[string]string) float64 {
		v, _ := metricstest.Scrape(t, http.DefaultClient, r.base+"/metrics", token).Value(name, labels)
		return v
	}
	degraded := count("svc_semantic_degraded_total", map[string]string{"reason": "provider"})
	timeouts := count("svc_embedding_errors_total", map[string]string{"use": "query", "kind": "timeout"})
	if degraded == 0 || timeouts != degraded {
		t.Errorf("%v degraded searches, %v question embeddings timed out", degraded, timeouts)
	}
	srv.SetDefault(embedtest.Fault{})
	calls := count("svc_embedding_calls_total", map[string]string{"use": "query"})
	if code, _ := send("Is there a warranty on the tent?"); code != http.StatusOK {
		t.Fatalf("after the outage: %d", code)
	}
	if got := count("svc_embedding_calls_total", map[string]string{"use": "query"}); got < calls+1 ||
		count("svc_semantic_degraded_total", map[string]string{"reason": "provider"}) != degraded {
		t.Errorf("after the outage: %v question embeddings (was %v), degraded %v", got, calls, degraded)
	}
	// The vector indexes' gauges are served beside the counters.
	f := metricstest.Scrape(t, http.DefaultClient, r.base+"/metrics", token)
	for _, name := range []string{"svc_vector_index_vectors", "svc_vector_index_bytes", "svc_vector_index_builds"} {
		if _, ok := f.Value(name, nil); !ok {
			t.Errorf("no %s in /metrics", name)
		}
	}
	r.stop(t)
}
