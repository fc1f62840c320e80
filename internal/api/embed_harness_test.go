package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/cli"
	"svc/internal/config"
	"svc/internal/openapi/validate"
	"svc/internal/store/storetest"
	"svc/internal/store/teststore"
)

// testClock is the one clock of a harness's store, chat, limiter and outbox, so a test can
// move a whole minute or day on without waiting for it.
type testClock = storetest.Clock

func newTestClock() *testClock {
	return storetest.ClockAt(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC))
}

// newClockedHarness serves cfg on a store and app driven by clock (nil: the real clock). With
// cfg.SMTPURL set, the outbox worker runs for the test's duration.
func newClockedHarness(t testing.TB, cfg config.Config, clock *testClock) *harness {
	t.Helper()
	validatorOnce.Do(func() { validator, validatorErr = validate.NewValidator() })
	if validatorErr != nil {
		t.Fatal(validatorErr)
	}
	if cfg.LLMProvider == "" {
		cfg.LLMProvider = "builtin"
	}
	if cfg.SMTPFrom == "" {
		cfg.SMTPFrom = config.DefaultSMTPFrom
	}
	var now func() time.Time
	if clock != nil {
		now = clock.Now
	}
	st := teststore.Open(t, now)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	accounts := account.New(st, now)
	app, err := cli.NewApp(st, accounts, cfg, log, cli.AppOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	if app.Outbox != nil {
		go func() { defer close(done); app.Outbox.Run(ctx) }()
	} else {
		close(done)
	}
	srv := httptest.NewServer(app.Handler)
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	return &harness{t: t, srv: srv, st: st, accounts: accounts, v: validator}
}

// createToken makes an embed token over the management API and returns it with its id.
func (h *harness) createToken(key string, form url.Values) (string, int64) {
	h.t.Helper()
	r := h.postForm("/api/v1/chat/embedTokenCreate", key, form)
	if r.Status != http.StatusOK {
		h.t.Fatalf("embedTokenCreate %v: %d %s", form, r.Status, r.raw)
	}
	var d struct {
		Token string `json:"token"`
		ID    int64  `json:"id"`
	}
	r.decode(h.t, &d)
	return d.Token, d.ID
}

// widgetCall is one request of the widget: its token, visitor, page origin and (with
// trusted proxies configured) client address.
type widgetCall struct {
	token, visitor, origin, ip string
	header                     http.Header
}

func (h *harness) embed(method, action string, c widgetCall, body any) response {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, h.srv.URL+"/api/v1/embed/"+action, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("X-SVC-Embed-Token", c.token)
	}
	if c.visitor != "" {
		req.Header.Set("X-SVC-Visitor", c.visitor)
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	if c.ip != "" {
		req.Header.Set("X-Forwarded-For", c.ip)
	}
	for k, vs := range c.header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return h.doReq(req)
}

// widgetSend posts a visitor's message and decodes the reply; it fails on a non-200.
func (h *harness) widgetSend(c widgetCall, msg string) embedSend {
	h.t.Helper()
	r := h.embed(http.MethodPost, "send", c, map[string]string{"message": msg})
	if r.Status != http.StatusOK {
		h.t.Fatalf("widget send %q: %d %s", msg, r.Status, r.raw)
	}
	var d embedSend
	r.decode(h.t, &d)
	if len(d.Messages) != 2 {
		h.t.Fatalf("widget send %q: %s", msg, r.raw)
	}
	return d
}

type embedSend struct {
	ConversationID int64     `json:"conversationId"`
	Messages       []message `json:"messages"`
	LowConfidence  bool      `json:"lowConfidence"`
	Mode           string    `json:"mode"`
	Reason         string    `json:"reason"`
}

type embedView struct {
	ConversationID int64     `json:"conversationId"`
	Lang           string    `json:"lang"`
	Name           string    `json:"name"`
	Mode           string    `json:"mode"`
	Reason         string    `json:"reason"`
	Messages       []message `json:"messages"`
}

// visitorID is a well-formed visitor UUID numbered n.
func visitorID(n int) string {
	s := strconv.Itoa(n)
	return "7d444840-9dc0-41d4-a716-" + string(bytes.Repeat([]byte("0"), 12-len(s))) + s
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
