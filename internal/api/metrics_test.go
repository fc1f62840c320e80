package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/config"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
	"svc/internal/metrics/metricstest"
)

const metricsToken = "test-metrics-token-0123456789"

// scrape reads the main listener's /metrics with the token. /metrics is outside the
// OpenAPI document (it is the operator's, in Prometheus's format), so it is not validated.
func (h *harness) scrape() metricstest.Families {
	h.t.Helper()
	return metricstest.Scrape(h.t, h.srv.Client(), h.srv.URL+"/metrics", metricsToken)
}

// rawGet sends a GET outside the OpenAPI check and returns the status and body.
func (h *harness) rawGet(path string, header http.Header) (int, http.Header, []byte) {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body
}

func want(t *testing.T, f metricstest.Families, name string, labels map[string]string, v float64) {
	t.Helper()
	got, ok := f.Value(name, labels)
	if !ok || got != v {
		t.Errorf("%s%v = %v (present %v), want %v", name, labels, got, ok, v)
	}
}

// Real requests (a send, a rate-limited send, widget requests, probes) show up in the scrape
// under bounded labels.
func TestMetricsCountRealRequests(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, config.Config{MetricsToken: metricsToken})
	_, key := h.tenant(account.Settings{SendRatePerMin: ptr(1)})

	d, r := h.send(key, "How long does delivery take?")
	if r.Status != http.StatusOK {
		t.Fatalf("send: %d %s", r.Status, r.raw)
	}
	source := d.Messages[1].Source
	if _, r := h.send(key, "And returns?"); r.Status != http.StatusTooManyRequests {
		t.Fatalf("second send of 1 a minute: %d", r.Status)
	}

	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	w := widgetCall{token: tok, visitor: visitorID(1), origin: "https://example.com"}
	if r := h.embed(http.MethodGet, "start", w, nil); r.Status != http.StatusOK {
		t.Fatalf("embed start: %d %s", r.Status, r.raw)
	}
	ws := h.widgetSend(w, "How long does delivery take?")
	if r := h.embed(http.MethodGet, "start", widgetCall{token: "svc_et_nonsense", visitor: visitorID(1),
		origin: "https://example.com"}, nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("embed with a bad token: %d", r.Status)
	}
	// Paths a client makes up: none may become a label value.
	h.get("/api/v1/chat/made-up-action-12345", key)
	h.get("/no/such/path/67890", "")
	h.get("/healthz", "")

	f := h.scrape()
	const dur = "svc_http_request_duration_seconds"
	want(t, f, dur, map[string]string{"route": "/api/v1/chat/send", "code": "200"}, 1)
	want(t, f, dur, map[string]string{"route": "/api/v1/chat/send", "code": "429"}, 1)
	want(t, f, dur, map[string]string{"route": "/api/v1/embed/start", "code": "200"}, 1)
	want(t, f, dur, map[string]string{"route": "/api/v1/embed/start", "code": "401"}, 1)
	want(t, f, dur, map[string]string{"route": "/api/v1/embed/send", "code": "200"}, 1)
	want(t, f, dur, map[string]string{"route": "/api/v1/chat/{action}", "code": "404"}, 1)
	want(t, f, dur, map[string]string{"route": "/", "code": "404"}, 1)
	want(t, f, dur, map[string]string{"route": "/healthz", "code": "200"}, 1)
	for _, route := range f.LabelValues(dur, "route") {
		if strings.ContainsAny(route, "0123456789") && !strings.HasPrefix(route, "/api/v1/") {
			t.Errorf("route label %q carries a raw path", route)
		}
		if strings.Contains(route, "made-up") || strings.Contains(route, "no/such") {
			t.Errorf("route label %q comes from the client", route)
		}
	}

	want(t, f, "svc_answers_total", map[string]string{"source": source, "lang": "en", "channel": "api"}, 1)
	want(t, f, "svc_answers_total", map[string]string{"source": ws.Messages[1].Source, "lang": "en", "channel": "widget"}, 1)
	want(t, f, "svc_answers_total", nil, 2)
	want(t, f, "svc_ratelimit_refusals_total", map[string]string{"class": "send:key"}, 1)
	if classes := f.LabelValues("svc_ratelimit_refusals_total", "class"); !slices.Equal(classes, []string{"send:key"}) {
		t.Errorf("refusal classes %v", classes)
	}
	// Read from the store at scrape time: the sends settled, nothing is held or queued.
	want(t, f, "svc_reservations_open", nil, 0)
	want(t, f, "svc_reservations_held_micro_usd", nil, 0)
	want(t, f, "svc_outbox_notices", map[string]string{"status": "pending"}, 0)
	if _, ok := f.Value("go_goroutines", nil); !ok {
		t.Error("no Go runtime metrics")
	}

	// A second scrape sees the first one, under its own fixed route.
	want(t, h.scrape(), dur, map[string]string{"route": "/metrics", "code": "200"}, 1)
}

// The widget's per-address limit is counted under its class, without the address.
func TestMetricsWidgetRefusalsByClass(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, config.Config{MetricsToken: metricsToken})
	_, key := h.tenant(account.Settings{})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	refused := 0
	for i := range 40 {
		r := h.embed(http.MethodGet, "sync", widgetCall{token: tok, visitor: visitorID(i % 3), origin: "https://example.com"}, nil)
		if r.Status == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("40 requests a minute from one address were never refused")
	}
	f := h.scrape()
	var sum float64
	for _, class := range f.LabelValues("svc_ratelimit_refusals_total", "class") {
		if !strings.HasPrefix(class, "embed:") || strings.ContainsAny(class, "0123456789.") {
			t.Errorf("class %q", class)
		}
		v, _ := f.Value("svc_ratelimit_refusals_total", map[string]string{"class": class})
		sum += v
	}
	if sum < float64(refused) {
		t.Fatalf("%v refusals counted, %d refused", sum, refused)
	}
}

// /metrics on the main listener needs the token; the refusal is the API's envelope.
func TestMetricsTokenOnMainListener(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, config.Config{MetricsToken: metricsToken})
	for _, c := range []struct {
		name   string
		header http.Header
	}{
		{"no credentials", nil},
		{"wrong token", http.Header{"Authorization": {"Bearer " + metricsToken + "x"}}},
		{"prefix of the token", http.Header{"Authorization": {"Bearer " + metricsToken[:10]}}},
		{"other scheme", http.Header{"Authorization": {"Basic " + metricsToken}}},
	} {
		status, hdr, body := h.rawGet("/metrics", c.header)
		var env struct {
			Success bool   `json:"success"`
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(body, &env); err != nil || status != http.StatusUnauthorized || env.Success ||
			env.Error != "unauthorized" || env.Message == "" || hdr.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: %d %s", c.name, status, body)
		}
		if strings.Contains(string(body), "svc_") {
			t.Errorf("%s: metrics leaked in the refusal", c.name)
		}
	}
	status, hdr, body := h.rawGet("/metrics", http.Header{"Authorization": {"Bearer " + metricsToken}})
	if status != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/plain") ||
		!strings.Contains(string(body), "svc_http_request_duration_seconds") {
		t.Fatalf("with the token: %d %s", status, hdr.Get("Content-Type"))
	}
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+metricsToken)
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /metrics: %d", resp.StatusCode)
	}
}

// Without SVC_METRICS_ADDR or SVC_METRICS_TOKEN there is no /metrics at all.
func TestMetricsOffByDefault(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	status, _, body := h.rawGet("/metrics", http.Header{"Authorization": {"Bearer " + metricsToken}})
	if status != http.StatusNotFound || strings.Contains(string(body), "svc_") {
		t.Fatalf("/metrics without configuration: %d %s", status, body)
	}
	// With a separate address configured, the main listener does not serve it either (serve
	// starts the other listener; the handler here is the main one).
	h = newHarnessWith(t, config.Config{MetricsAddr: "127.0.0.1:0", MetricsToken: metricsToken})
	status, _, body = h.rawGet("/metrics", http.Header{"Authorization": {"Bearer " + metricsToken}})
	if status != http.StatusNotFound || strings.Contains(string(body), "svc_") {
		t.Fatalf("/metrics on the main listener with a metrics address: %d %s", status, body)
	}
}

// Provider calls are counted per provider and model, with the tokens the provider reported
// and failures by kind.
func TestMetricsProviderCalls(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: llmanswertest.Script{}.Step})
	h := newHarnessWith(t, config.Config{LLMProvider: "openai", LLMBaseURL: srv.OpenAIBaseURL(), LLMAPIKey: "provider-key",
		LLMModel: "gpt-test", LLMTimeout: time.Second, LLMMaxRetries: 0, MetricsToken: metricsToken})
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(1_000_000))})
	if _, r := h.send(key, "How much does the Uludağ 2 tent weigh?"); r.Status != http.StatusOK {
		t.Fatalf("send: %d %s", r.Status, r.raw)
	}
	calls := srv.Calls()
	var in, out float64
	for _, c := range calls {
		u := llmanswertest.Usage[llmanswertest.SubCall(c)]
		in, out = in+float64(u[0]), out+float64(u[1])
	}
	if len(calls) == 0 || in == 0 {
		t.Fatalf("the model was not called: %d calls", len(calls))
	}
	f := h.scrape()
	pm := map[string]string{"provider": "openai", "model": "gpt-test"}
	want(t, f, "svc_llm_calls_total", pm, float64(len(calls)))
	want(t, f, "svc_llm_call_duration_seconds", pm, float64(len(calls)))
	want(t, f, "svc_llm_tokens_total", map[string]string{"provider": "openai", "model": "gpt-test", "direction": "input"}, in)
	want(t, f, "svc_llm_tokens_total", map[string]string{"provider": "openai", "model": "gpt-test", "direction": "output"}, out)
	if _, ok := f.Value("svc_llm_errors_total", nil); ok {
		t.Errorf("errors counted for calls that succeeded")
	}

	// The provider fails: the answer degrades to the built-in engine, and the failures are
	// counted by kind.
	srv.SetScript(func(llmtest.Call) llmtest.Step { return llmtest.Step{Status: http.StatusServiceUnavailable} })
	if _, r := h.send(key, "Which payment methods do you accept?"); r.Status != http.StatusOK {
		t.Fatalf("degraded send: %d %s", r.Status, r.raw)
	}
	failed := len(srv.Calls()) - len(calls)
	if failed == 0 {
		t.Fatal("the failing provider was not called")
	}
	f = h.scrape()
	want(t, f, "svc_llm_calls_total", pm, float64(len(calls)+failed))
	want(t, f, "svc_llm_errors_total", map[string]string{"provider": "openai", "model": "gpt-test", "kind": "server_error"},
		float64(failed))
	if models := f.LabelValues("svc_llm_calls_total", "model"); !slices.Equal(models, []string{"gpt-test"}) {
		t.Errorf("model labels %v", models)
	}
}
