package api_test

import (
	"net/http"
	"strings"
	"testing"

	"svc/internal/account"
)

// Through the real router: a raw % in a form body or a query string is a 400 that says what
// is wrong and how to write it instead.
func TestRawPercentIsExplained(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})
	r := h.do(http.MethodPost, "/api/v1/chat/marketingGenerate", key, strings.NewReader("brief=50% off"),
		"application/x-www-form-urlencoded")
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Message, `near "50% off"`) || !strings.Contains(r.Message, "%25") {
		t.Errorf("raw %% in a form: %d %s", r.Status, r.raw)
	}
	r = h.get("/api/v1/chat/sync?sinceId=0&note=100%", key)
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Message, "query string") || !strings.Contains(r.Message, "%25") {
		t.Errorf("raw %% in a query: %d %s", r.Status, r.raw)
	}
}
