package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/billing"
	"svc/internal/config"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
)

// sse is one event of a streamed answer and when the client read it.
type sse struct {
	name string
	data json.RawMessage
	at   time.Time
}

// stream is a streamed send as the client read it.
type stream struct {
	status int
	header http.Header
	proto  int
	events []sse
	raw    []byte
}

// text is the reply the events make: the deltas joined, each replace applied.
func (s stream) text(t testing.TB) string {
	t.Helper()
	out := ""
	for _, e := range s.events {
		var d struct {
			Text string `json:"text"`
		}
		switch e.name {
		case "delta", "replace":
			if err := json.Unmarshal(e.data, &d); err != nil {
				t.Fatalf("%s data %s: %v", e.name, e.data, err)
			}
			if e.name == "replace" {
				out = ""
			}
			out += d.Text
		}
	}
	return out
}

func (s stream) names() string {
	var n []string
	for _, e := range s.events {
		n = append(n, e.name)
	}
	return strings.Join(n, ",")
}

// last is the final event, which must be done or error.
func (s stream) last(t testing.TB) sse {
	t.Helper()
	if len(s.events) == 0 {
		t.Fatalf("no events: %d %s", s.status, s.raw)
	}
	return s.events[len(s.events)-1]
}

// done decodes the done event's data, which the OpenAPI document's send response describes.
func (s stream) done(t testing.TB, h *harness, path string, v any) {
	t.Helper()
	e := s.last(t)
	if e.name != "done" {
		t.Fatalf("stream ended with %s %s (events %s)", e.name, e.data, s.names())
	}
	env, _ := json.Marshal(map[string]any{"success": true, "data": e.data})
	u, _ := url.Parse(path)
	if err := h.v.ValidateResponse(http.MethodPost, u, http.StatusOK, http.Header{"Content-Type": {"application/json"}}, env); err != nil {
		t.Errorf("done data against the document: %v", err)
	}
	if err := json.Unmarshal(e.data, v); err != nil {
		t.Fatal(err)
	}
}

// readStream reads a streamed answer event by event, noting when each arrived; stop, when
// set, is called after each event and ends the reading (and the request) when it is true.
func readStream(t testing.TB, resp *http.Response, stop func(sse) bool) stream {
	t.Helper()
	out := stream{status: resp.StatusCode, header: resp.Header, proto: resp.ProtoMajor}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		out.raw, _ = io.ReadAll(resp.Body)
		return out
	}
	br := bufio.NewReader(resp.Body)
	var ev sse
	var raw bytes.Buffer
	for {
		line, err := br.ReadString('\n')
		raw.WriteString(line)
		if err != nil {
			break
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			ev.at = time.Now()
			out.events = append(out.events, ev)
			if stop != nil && stop(ev) {
				out.raw = raw.Bytes()
				return out
			}
			ev = sse{}
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data = json.RawMessage(strings.TrimPrefix(line, "data: "))
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	out.raw = raw.Bytes()
	return out
}

// streamRequest is a streamed send's request to base+path.
func streamRequest(t testing.TB, ctx context.Context, base, path, key, msg string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, strings.NewReader(url.Values{"message": {msg}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/event-stream")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return req
}

// sendStream posts a streamed send on the harness's server and reads it whole; its answer
// is checked against the OpenAPI document.
func (h *harness) sendStream(key, msg string) stream {
	h.t.Helper()
	return h.streamOn(h.srv, streamRequest(h.t, context.Background(), h.srv.URL, "/api/v1/chat/send", key, msg))
}

func (h *harness) streamOn(srv *httptest.Server, req *http.Request) stream {
	h.t.Helper()
	resp, err := srv.Client().Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	s := readStream(h.t, resp, nil)
	h.v.Check(h.t, req, resp, s.raw)
	return s
}

// checkStream asserts the shape of a whole stream: its headers, user first, done last, the
// deltas joined equal to the reply in done; it returns done's data.
func checkStream(t *testing.T, h *harness, s stream, question string) sendData {
	t.Helper()
	if s.status != http.StatusOK || s.header.Get("Cache-Control") != "no-cache" || s.header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("status %d, headers %v: %s", s.status, s.header, s.raw)
	}
	var user struct{ Role, Body string }
	if len(s.events) < 3 || s.events[0].name != "user" || json.Unmarshal(s.events[0].data, &user) != nil ||
		user.Role != "user" || user.Body != question {
		t.Fatalf("events %s: %s", s.names(), s.raw)
	}
	var d sendData
	s.done(t, h, "/api/v1/chat/send", &d)
	if len(d.Messages) != 2 || d.Messages[0].Body != question || s.text(t) != d.Messages[1].Body {
		t.Fatalf("deltas %q, done %+v", s.text(t), d)
	}
	return d
}

// The API streams with the built-in engine: the reply sentence by sentence, the same reply the
// JSON send gives the same question on a fresh conversation, and the same usage.
func TestStreamSendBuiltin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{Name: ptr("Streamed")})
	_, other := h.tenant(account.Settings{Name: ptr("Unstreamed")})
	for _, q := range []string{"How long does delivery to Germany take?", "Hello!", "How long does delivery to Germany take?"} {
		s := h.sendStream(key, q)
		d := checkStream(t, h, s, q)
		plain, _ := h.send(other, q)
		if d.Messages[1].Body != plain.Messages[1].Body || d.Messages[1].Source != plain.Messages[1].Source {
			t.Fatalf("%q: streamed %+v, JSON %+v", q, d.Messages[1], plain.Messages[1])
		}
		if strings.Count(d.Messages[1].Body, ". ") > 1 && strings.Count(s.names(), "delta") < 2 {
			t.Errorf("%q: one delta for several sentences: %s", q, s.names())
		}
	}
	if a, b := h.usageOf(key), h.usageOf(other); len(a) != len(b) || a["cache_tenant"] != b["cache_tenant"] {
		t.Errorf("usage streamed %+v, unstreamed %+v", a, b)
	}
}

// slowModelHarness is newModelHarness with the slow model and an attempt timeout that a
// loaded machine (or the race detector) cannot reach.
func slowModelHarness(t *testing.T) (*harness, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: slowModel().Step})
	h := newHarnessWith(t, config.Config{LLMProvider: "openai", LLMBaseURL: srv.OpenAIBaseURL(), LLMAPIKey: "provider-key",
		LLMModel: "gpt-test", LLMTimeout: 20 * time.Second, LLMMaxRetries: 0})
	return h, srv
}

// slowModel is the fake model writing its replies at 100 tokens a second after 50 ms.
func slowModel() llmanswertest.Script {
	return llmanswertest.Script{"reply": func(c llmtest.Call) llmtest.Step {
		u := llmanswertest.Usage["reply"]
		text := llmanswertest.Faithful(c) + " We are happy to help with anything else about your order."
		return llmtest.Step{Text: text, InputTokens: u[0], OutputTokens: u[1], Delay: 50 * time.Millisecond, TokenInterval: 10 * time.Millisecond}
	}}
}

// With a slow model the first sentence arrives well before done; the stream, the stored reply
// and the JSON send agree; the charge is the JSON send's.
func TestStreamSendSlowModel(t *testing.T) {
	t.Parallel()
	h, srv := slowModelHarness(t)
	id, key := h.tenant(account.Settings{Name: ptr("Streamed"), BalanceMicro: ptr(int64(1_000_000))})
	otherID, other := h.tenant(account.Settings{Name: ptr("Unstreamed"), BalanceMicro: ptr(int64(1_000_000))})
	const q = "How long does delivery to Germany take?"
	s := h.sendStream(key, q)
	d := checkStream(t, h, s, q)
	if d.Messages[1].Source != "ai" || !strings.Contains(d.Messages[1].Body, "Source:") {
		t.Fatalf("reply %+v", d.Messages[1])
	}
	var first time.Time
	for _, e := range s.events {
		if e.name == "delta" {
			first = e.at
			break
		}
	}
	if gap := s.last(t).at.Sub(first); gap < 100*time.Millisecond {
		t.Errorf("first delta only %v before done", gap)
	}
	plain, _ := h.send(other, q)
	if plain.Messages[1].Body != d.Messages[1].Body {
		t.Fatalf("JSON reply %q, streamed %q", plain.Messages[1].Body, d.Messages[1].Body)
	}
	if a, b := 1_000_000-h.balance(id), 1_000_000-h.balance(otherID); a != b || a != 9_320 {
		t.Errorf("charged %d streamed, %d unstreamed, want 9320 both", a, b)
	}
	calls := srv.Calls()
	if !calls[0].Stream || calls[1].Stream || calls[2].Stream {
		t.Errorf("only the streamed send's reply call streams: %v %v %v", calls[0].Stream, calls[1].Stream, calls[2].Stream)
	}
}

// Refusals before the stream are the usual JSON envelope with their status: no key, a bad
// message, the send rate, the daily quota.
func TestStreamRefusalsStayJSON(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{Name: ptr("Limited"), SendRatePerMin: ptr(2)})
	if s := h.sendStream("", "Hello"); s.status != http.StatusUnauthorized || !bytes.Contains(s.raw, []byte(`"unauthorized"`)) {
		t.Errorf("no key: %d %s", s.status, s.raw)
	}
	if s := h.sendStream(key, "  "); s.status != http.StatusBadRequest || !bytes.Contains(s.raw, []byte(`"bad_request"`)) {
		t.Errorf("empty: %d %s", s.status, s.raw)
	}
	// A streamed send and a JSON send each count once against the two a minute.
	checkStream(t, h, h.sendStream(key, "How long does delivery to Germany take?"), "How long does delivery to Germany take?")
	h.send(key, "Hello")
	s := h.sendStream(key, "What is your return policy?")
	if s.status != http.StatusTooManyRequests || s.header.Get("Retry-After") == "" || !bytes.Contains(s.raw, []byte(`"rate_limited"`)) {
		t.Errorf("third send a minute: %d %v %s", s.status, s.header, s.raw)
	}

	m, _ := newModelHarness(t, llmanswertest.Script{})
	_, quota := m.tenant(account.Settings{Name: ptr("Quota"), BalanceMicro: ptr(int64(1_000_000)), DailyAnswers: ptr(1)})
	checkStream(t, m, m.sendStream(quota, "How long does delivery to Germany take?"), "How long does delivery to Germany take?")
	s = m.sendStream(quota, "How much does the Uludağ 2 tent weigh?")
	if s.status != http.StatusTooManyRequests || !bytes.Contains(s.raw, []byte(`"limit_reached"`)) {
		t.Errorf("past the daily answers: %d %s", s.status, s.raw)
	}
}

// The stream works through the HTTP/2 server as through HTTP/1.1.
func TestStreamSendHTTP2(t *testing.T) {
	t.Parallel()
	h, _ := slowModelHarness(t)
	_, key := h.tenant(account.Settings{Name: ptr("H2"), BalanceMicro: ptr(int64(1_000_000))})
	tls := httptest.NewUnstartedServer(h.srv.Config.Handler)
	tls.EnableHTTP2 = true
	tls.StartTLS()
	t.Cleanup(tls.Close)
	const q = "How long does delivery to Germany take?"
	s := h.streamOn(tls, streamRequest(t, context.Background(), tls.URL, "/api/v1/chat/send", key, q))
	if s.proto != 2 {
		t.Fatalf("HTTP/%d", s.proto)
	}
	checkStream(t, h, s, q)
}

// A client that leaves mid-stream loses nothing: the reply is saved whole, billed once, and
// is in the conversation when it is opened again.
func TestStreamClientLeavesMidReply(t *testing.T) {
	t.Parallel()
	h, _ := slowModelHarness(t)
	id, key := h.tenant(account.Settings{Name: ptr("Leaver"), BalanceMicro: ptr(int64(1_000_000))})
	// A server of its own, whose Close waits for the abandoned send to finish.
	own := httptest.NewServer(h.srv.Config.Handler)
	ctx, cancel := context.WithCancel(context.Background())
	req := streamRequest(t, ctx, own.URL, "/api/v1/chat/send", key, "How long does delivery to Germany take?")
	resp, err := own.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	s := readStream(t, resp, func(e sse) bool { return e.name == "delta" })
	cancel()
	resp.Body.Close()
	own.Close()
	if s.names() != "user,delta" {
		t.Fatalf("read %s", s.names())
	}
	var v struct {
		Messages []message `json:"messages"`
	}
	h.get("/api/v1/chat/start", key).decode(t, &v)
	if len(v.Messages) != 2 || v.Messages[1].Source != "ai" || !strings.Contains(v.Messages[1].Body, "anything else") {
		t.Fatalf("conversation after the client left: %+v", v.Messages)
	}
	if spent := 1_000_000 - h.balance(id); spent != 9_320 || h.ledgerSum(id) != h.balance(id) || h.reserved(id) != 0 {
		t.Fatalf("charged %d, ledger %d, balance %d, reserved %d", spent, h.ledgerSum(id), h.balance(id), h.reserved(id))
	}
	if u := h.usageOf(key)["answer"]; u.Count != 1 || u.Cost != billing.USD(9_320) {
		t.Fatalf("usage %+v", u)
	}
}

// The widget's surface streams the same way; done is its JSON send's data, mode included.
func TestStreamEmbedSend(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{Name: ptr("Widget shop")})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	const q = "How long does delivery to Germany take?"
	body, _ := json.Marshal(map[string]string{"message": q})
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/api/v1/embed/send", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("X-SVC-Embed-Token", tok)
	req.Header.Set("X-SVC-Visitor", visitorID(1))
	req.Header.Set("Origin", "https://example.com")
	s := h.streamOn(h.srv, req)
	if s.header.Get("Access-Control-Allow-Origin") != "https://example.com" || s.events[0].name != "user" {
		t.Fatalf("%d %v %s", s.status, s.header, s.raw)
	}
	var d embedSend
	s.done(t, h, "/api/v1/embed/send", &d)
	if d.Mode != "normal" || len(d.Messages) != 2 || s.text(t) != d.Messages[1].Body {
		t.Fatalf("done %+v, deltas %q", d, s.text(t))
	}
	plain := h.widgetSend(widgetCall{token: tok, visitor: visitorID(2), origin: "https://example.com"}, q)
	if plain.Messages[1].Body != d.Messages[1].Body {
		t.Errorf("JSON %q, streamed %q", plain.Messages[1].Body, d.Messages[1].Body)
	}
}
