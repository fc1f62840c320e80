package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"svc/internal/account"
)

// A NUL (U+0000) in any parameter of any surface is a 400 bad_request naming the parameter,
// on SQLite and on PostgreSQL alike (SVC_TEST_STORE=postgres), and nothing of the request is
// stored. PostgreSQL refused such text with a 500 (SQLSTATE 22021); SQLite stored it.
func TestNULInTextIsRefusedNamingTheField(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	accountID, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	sent, _ := h.send(key, "Do you have a store in Istanbul?")
	reply := fmt.Sprint(sent.Messages[1].ID)
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	visitor := widgetCall{token: tok, visitor: visitorID(1), origin: "https://example.com"}
	answer := h.widgetSend(visitor, "How long does delivery take?").Messages[1].ID

	refused := func(what string, r response, field string) {
		t.Helper()
		if r.Status != http.StatusBadRequest || r.Error != "bad_request" || !strings.Contains(r.Message, `"`+field+`"`) ||
			!strings.Contains(r.Message, "NUL") {
			t.Errorf("%s: %d %s %q, want 400 bad_request naming %q", what, r.Status, r.Error, r.Message, field)
		}
	}
	refused("feedback comment (form)", h.postForm("/api/v1/chat/feedback", key,
		url.Values{"messageId": {reply}, "rating": {"not_helpful"}, "comment": {"pg\x00"}}), "comment")
	refused("feedback comment (JSON)", h.postJSON("/api/v1/chat/feedback", key,
		map[string]any{"messageId": sent.Messages[1].ID, "rating": "not_helpful", "comment": "a\u0000b"}), "comment")
	refused("feedback comment (multipart)", h.postMultipart("/api/v1/chat/feedback", key,
		map[string]string{"messageId": reply, "rating": "not_helpful", "comment": "a\x00b"}), "comment")
	refused("send message", h.postForm("/api/v1/chat/send", key, url.Values{"message": {"a\x00b"}}), "message")
	refused("query string", h.get("/api/v1/chat/sync?sinceId=1%00", key), "sinceId")
	refused("a list item", h.postJSON("/api/v1/chat/embedTokenCreate", key,
		map[string]any{"domains": []string{"shop.test", "b\u0000d.test"}}), "domains")
	refused("a field's name", h.postForm("/api/v1/chat/feedback", key,
		url.Values{"messageId": {reply}, "rating": {"helpful"}, "x\x00": {""}}), "x")
	refused("the legacy path", h.postForm("/api.php?endpoint=chat&action=feedback", key,
		url.Values{"messageId": {reply}, "rating": {"helpful"}, "comment": {"\x00"}}), "comment")
	refused("intelligence", h.postForm("/api/v1/intelligence/summarize", key, url.Values{"query": {"a\x00b"}}), "query")
	refused("embed feedback comment", h.embed(http.MethodPost, "feedback", visitor,
		map[string]any{"messageId": answer, "rating": "not_helpful", "comment": "pg\u0000"}), "comment")
	refused("embed send", h.embed(http.MethodPost, "send", visitor, map[string]any{"message": "a\u0000b"}), "message")

	// Nothing was stored: no review item, no feedback, the same messages.
	items, err := h.st.ReviewList(context.Background(), accountID)
	if err != nil || len(items) != 0 {
		t.Fatalf("review items after refused feedback: %v %+v", err, items)
	}
	var st struct {
		Messages []message `json:"messages"`
	}
	h.get("/api/v1/chat/start", key).decode(t, &st)
	if len(st.Messages) != 2 {
		t.Fatalf("the API conversation has %d messages, want the 2 of the one send", len(st.Messages))
	}
}
