package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
)

// A client that sends its request and half-closes the connection (or closes it) makes Go
// cancel the request's context, and whatever the handler was doing fails with
// context.Canceled. That is the client going away, not a server error: no ERROR log, no 5xx
// in the access log, which records 499 (nginx's "client closed request") instead.
func TestClientHalfCloseIsNotAServerError(t *testing.T) {
	t.Parallel()
	h, logs := newLoggedHarness(t)
	_, key := h.tenant(account.Settings{SendRatePerMin: ptr(10_000), DailyAnswers: ptr(0)})
	addr := h.srv.Listener.Addr().String()

	var ids []string
	statuses := map[int]int{}
	cancelled := 0
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; (cancelled < 3 || i < 20) && i < 400 && time.Now().Before(deadline); i++ {
		id := fmt.Sprintf("halfclose-%d", i)
		ids = append(ids, id)
		status, body := rawRequest(t, addr, sendRequest(key, id, fmt.Sprintf("How+long+does+delivery+to+zone+%d+take%%3F", i)), true)
		statuses[status]++
		if status >= 500 {
			t.Errorf("request %s: %d %s", id, status, body)
		}
		if status == 499 {
			cancelled++
			if !strings.Contains(body, `"success":false`) {
				t.Errorf("request %s: 499 without an envelope: %q", id, body)
			}
		}
	}
	// A full close before reading: the answer reaches nobody, but the log still tells.
	for i := range 10 {
		id := fmt.Sprintf("close-%d", i)
		ids = append(ids, id)
		rawRequest(t, addr, sendRequest(key, id, "hello"), false)
	}

	access := waitForAccessLines(t, logs, ids)
	for id, rec := range access {
		if s, _ := rec["status"].(float64); s >= 500 {
			t.Errorf("access log of %s: status %v", id, rec["status"])
		}
	}
	for _, rec := range logs.lines(t) {
		if rec["level"] == "ERROR" {
			t.Errorf("ERROR logged for a client that went away: %v", rec)
		}
	}
	logged499 := 0
	for _, rec := range access {
		if rec["status"] == 499.0 {
			logged499++
		}
	}
	if logged499 < cancelled || logged499 == 0 {
		t.Errorf("%d requests answered 499 and %d logged as 499 (statuses %v); the test never saw a cancelled request",
			cancelled, logged499, statuses)
	}
}

// waitForAccessLines polls until every id has its access log line: the line is written after
// the response, so a client can read its answer first.
func waitForAccessLines(t *testing.T, logs *logBuffer, ids []string) map[string]map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		access := logs.accessLines(t)
		missing := 0
		for _, id := range ids {
			if access[id] == nil {
				missing++
			}
		}
		if missing == 0 {
			return access
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d requests have no access log line", missing, len(ids))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A store that really fails is still a server error, not a client's cancel: 503 (the store
// does not answer its ping, so it is the retryable outage answer) with Retry-After, and an
// ERROR line with the cause.
func TestStoreFailureIsStillAServerError(t *testing.T) {
	t.Parallel()
	h, logs := newLoggedHarness(t)
	_, key := h.tenant(account.Settings{})
	if err := h.st.Close(); err != nil {
		t.Fatal(err)
	}
	r := h.get("/api/v1/chat/start", key)
	if r.Status != http.StatusServiceUnavailable || r.Error != "server_error" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("start on a closed store: %d %s", r.Status, r.raw)
	}
	id := r.Header.Get("X-Request-Id")
	access := waitForAccessLines(t, logs, []string{id})
	if access[id]["status"] != 503.0 {
		t.Errorf("access log: %v", access[id])
	}
	found := false
	for _, rec := range logs.lines(t) {
		if rec["level"] == "ERROR" && rec["request_id"] == id && strings.Contains(fmt.Sprint(rec["error"]), "closed") {
			found = true
		}
	}
	if !found {
		t.Errorf("no ERROR line with the cause for %s:\n%s", id, logs.String())
	}
}

// The dashboard's pages make the same promise: a sign-in abandoned by its client is a 499,
// not an empty 200 or a 500.
func TestDashboardClientHalfCloseIsNotAServerError(t *testing.T) {
	t.Parallel()
	h, logs := newLoggedHarness(t)
	addr := h.srv.Listener.Addr().String()
	var ids []string
	cancelled := 0
	for i := 0; i < 40 && (cancelled < 3 || i < 10); i++ {
		id := fmt.Sprintf("dash-%d", i)
		ids = append(ids, id)
		body := fmt.Sprintf("email=owner%d%%40example.com&password=correct-horse-battery", i)
		req := fmt.Sprintf("POST /dashboard/login HTTP/1.1\r\nHost: svc.test\r\nSec-Fetch-Site: same-origin\r\n"+
			"X-Request-Id: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s",
			id, len(body), body)
		status, got := rawRequest(t, addr, req, true)
		if status == 499 {
			cancelled++
		}
		if status >= 500 || status == http.StatusOK && got == "" {
			t.Errorf("%s: %d %q", id, status, got)
		}
	}
	access := waitForAccessLines(t, logs, ids)
	for id, rec := range access {
		if s, _ := rec["status"].(float64); s >= 500 || s == 0 {
			t.Errorf("access log of %s: status %v", id, rec["status"])
		}
	}
	for _, rec := range logs.lines(t) {
		if rec["level"] == "ERROR" {
			t.Errorf("ERROR logged for a client that went away: %v", rec)
		}
	}
	if cancelled == 0 {
		t.Errorf("no sign-in was cancelled by its client's half-close")
	}
}
