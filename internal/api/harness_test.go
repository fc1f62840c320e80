package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"svc/internal/account"
	"svc/internal/config"
	"svc/internal/demo/demotest"
	"svc/internal/openapi/validate"
	"svc/internal/store"
)

var (
	validatorOnce sync.Once
	validator     *validate.Validator
	validatorErr  error
)

// harness is a real server on a real store (an SQLite file, or a PostgreSQL schema with
// SVC_TEST_STORE=postgres: see teststore), driven over HTTP. Every response it
// receives is checked against the OpenAPI document.
type harness struct {
	t        testing.TB
	srv      *httptest.Server
	st       store.Store
	accounts *account.Service
	v        *validate.Validator
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	return newHarnessWith(t, config.Config{LLMProvider: "builtin"})
}

// newHarnessWith serves with the answer engine cfg names (a fake provider's URL, say), on
// the real clock.
func newHarnessWith(t testing.TB, cfg config.Config) *harness {
	t.Helper()
	return newClockedHarness(t, cfg, nil)
}

func ptr[T any](v T) *T { return &v }

// tenant creates an account with the demo KB and returns its id and key.
func (h *harness) tenant(set account.Settings) (int64, string) {
	h.t.Helper()
	if set.Name == nil {
		set.Name = ptr("Test Shop")
	}
	a, key, err := h.accounts.Create(context.Background(), set)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.st.ImportDocuments(context.Background(), a.ID, demotest.Docs(h.t)); err != nil {
		h.t.Fatal(err)
	}
	return a.ID, key
}

// response is a decoded envelope.
type response struct {
	Status  int
	Header  http.Header
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
	raw     []byte
}

func (r response) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode %s: %v", r.raw, err)
	}
}

// do sends a request and checks the answer against the OpenAPI document.
func (h *harness) do(method, path, key string, body io.Reader, contentType string) response {
	h.t.Helper()
	req, err := http.NewRequest(method, h.srv.URL+path, body)
	if err != nil {
		h.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return h.doReq(req)
}

func (h *harness) doReq(req *http.Request) response {
	h.t.Helper()
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if _, bench := h.t.(*testing.B); !bench {
		// Benchmarks measure the server, not the validator.
		h.v.Check(h.t, req, resp, raw)
	}
	out := response{Status: resp.StatusCode, Header: resp.Header, raw: raw}
	if req.Method != http.MethodHead && len(raw) > 0 && !strings.HasSuffix(req.URL.Path, "openapi.json") {
		if err := json.Unmarshal(raw, &out); err != nil {
			h.t.Fatalf("%s %s: body is not JSON: %q", req.Method, req.URL.Path, raw)
		}
	}
	return out
}

func (h *harness) get(path, key string) response { return h.do(http.MethodGet, path, key, nil, "") }

func (h *harness) postForm(path, key string, form url.Values) response {
	return h.do(http.MethodPost, path, key, strings.NewReader(form.Encode()), "application/x-www-form-urlencoded")
}

func (h *harness) postJSON(path, key string, v any) response {
	b, _ := json.Marshal(v)
	return h.do(http.MethodPost, path, key, bytes.NewReader(b), "application/json")
}

func (h *harness) postMultipart(path, key string, fields map[string]string) response {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	mw.Close()
	return h.do(http.MethodPost, path, key, &buf, mw.FormDataContentType())
}

type message struct {
	ID        int64  `json:"id"`
	Role      string `json:"role"`
	Body      string `json:"body"`
	Source    string `json:"source"`
	CreatedAt string `json:"created_at"`
	Products  []struct {
		Name  string `json:"name"`
		Price string `json:"price"`
	} `json:"products"`
}

type sendData struct {
	ConversationID int64     `json:"conversationId"`
	Messages       []message `json:"messages"`
	LowConfidence  bool      `json:"lowConfidence"`
}

// send posts a message and returns the decoded reply; it fails the test on a non-200.
func (h *harness) send(key, msg string) (sendData, response) {
	h.t.Helper()
	r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {msg}})
	var d sendData
	if r.Status == http.StatusOK {
		r.decode(h.t, &d)
		if len(d.Messages) != 2 || d.Messages[0].Role != "user" || d.Messages[1].Role != "assistant" {
			h.t.Fatalf("send %q: messages %+v", msg, d.Messages)
		}
	}
	return d, r
}

func (h *harness) balance(accountID int64) int64 {
	h.t.Helper()
	a, err := h.st.GetAccount(context.Background(), accountID)
	if err != nil {
		h.t.Fatal(err)
	}
	return a.BalanceMicro
}
