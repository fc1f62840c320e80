package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"svc/internal/account"
)

type sourceView struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// sourced is a message with its sources, as start, send and sync return them.
type sourced struct {
	ID      int64        `json:"id"`
	Role    string       `json:"role"`
	Body    string       `json:"body"`
	Source  string       `json:"source"`
	Sources []sourceView `json:"sources"`
}

func (h *harness) sendSourced(key, msg string) []sourced {
	h.t.Helper()
	r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {msg}})
	if r.Status != http.StatusOK {
		h.t.Fatalf("send %q: %d %s", msg, r.Status, r.raw)
	}
	var d struct {
		Messages []sourced `json:"messages"`
	}
	r.decode(h.t, &d)
	if len(d.Messages) != 2 {
		h.t.Fatalf("send %q: %s", msg, r.raw)
	}
	return d.Messages
}

// TestMessageSources: a composed reply names the page it quotes as data, and its body keeps
// the "Source:" line naming the same page; the same reply served again from the account's
// cache names it too; a curated Q&A names its entry (no URL); a fallback, small talk and
// the visitor's own messages carry an empty list. sync returns what send did. Every
// response also passes the OpenAPI validator, which requires sources on every message.
func TestMessageSources(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(10_000_000)), SalesMode: ptr(false)})

	first := h.sendSourced(key, "Which payment methods do you accept?")
	user, reply := first[0], first[1]
	if user.Sources == nil || len(user.Sources) != 0 {
		t.Fatalf("the visitor's message has sources %#v, want []", user.Sources)
	}
	if reply.Source != "ai" || len(reply.Sources) == 0 {
		t.Fatalf("composed reply: %+v", reply)
	}
	top := reply.Sources[0]
	lines := strings.Split(reply.Body, "\n")
	if top.Title == "" || !strings.HasPrefix(top.URL, "https://") || !strings.Contains(lines[len(lines)-1], top.Title) ||
		!strings.Contains(lines[len(lines)-1], top.URL) {
		t.Fatalf("the first source %+v is not the body's source line %q", top, lines[len(lines)-1])
	}

	again := h.sendSourced(key, "Which payment methods do you accept?")[1]
	if again.Source != "cache_tenant" || again.Body != reply.Body || !slices.Equal(again.Sources, reply.Sources) {
		t.Fatalf("cached reply: %+v, want the sources %+v", again, reply.Sources)
	}

	curated := h.sendSourced(key, "What is your return policy?")[1]
	if curated.Source != "cache_tenant" || !slices.Equal(curated.Sources, []sourceView{{Title: "What is your return policy?"}}) {
		t.Fatalf("curated reply: %+v", curated)
	}

	for _, q := range []string{"Hello!", "What is the airspeed velocity of an unladen swallow?"} {
		m := h.sendSourced(key, q)[1]
		if m.Sources == nil || len(m.Sources) != 0 {
			t.Fatalf("%q (%s) has sources %#v, want []", q, m.Source, m.Sources)
		}
	}

	r := h.get("/api/v1/chat/sync?sinceId=0", key)
	var sync struct {
		Messages []sourced `json:"messages"`
	}
	r.decode(t, &sync)
	if len(sync.Messages) != 10 || !slices.Equal(sync.Messages[1].Sources, reply.Sources) ||
		!slices.Equal(sync.Messages[3].Sources, reply.Sources) {
		t.Fatalf("sync: %+v", sync.Messages)
	}
}

// TestEmbedShowSources: a token shows sources unless show_sources is false; the setting is
// listed, changed by embedTokenUpdate, refused when it is not a boolean, and sent to the
// widget by start. The widget's messages carry their sources either way.
func TestEmbedShowSources(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(10_000_000)), SalesMode: ptr(false)})
	shown, shownID := h.createToken(key, url.Values{"domains": {"shop.test"}})
	hidden, _ := h.createToken(key, url.Values{"domains": {"shop.test"}, "show_sources": {"false"}})

	start := func(token string) bool {
		t.Helper()
		r := h.embed(http.MethodGet, "start", widgetCall{token: token, visitor: visitorID(1), origin: "https://shop.test"}, nil)
		var d struct {
			ShowSources *bool `json:"showSources"`
		}
		r.decode(t, &d)
		if r.Status != http.StatusOK || d.ShowSources == nil {
			t.Fatalf("start: %d %s", r.Status, r.raw)
		}
		return *d.ShowSources
	}
	if !start(shown) || start(hidden) {
		t.Fatal("start does not tell the widget the token's setting")
	}
	listed := func() map[int64]bool {
		t.Helper()
		var d struct {
			Tokens []struct {
				ID          int64 `json:"id"`
				ShowSources bool  `json:"show_sources"`
			} `json:"tokens"`
		}
		h.get("/api/v1/chat/embedTokens", key).decode(t, &d)
		out := map[int64]bool{}
		for _, tk := range d.Tokens {
			out[tk.ID] = tk.ShowSources
		}
		return out
	}
	if l := listed(); !l[shownID] || len(l) != 2 {
		t.Fatalf("embedTokens: %v", l)
	}
	for _, bad := range []string{"maybe", "", "yes"} {
		r := h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(shownID)}, "show_sources": {bad}})
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Message, "show_sources") {
			t.Fatalf("show_sources=%q: %d %s", bad, r.Status, r.raw)
		}
	}
	if r := h.postJSON("/api/v1/chat/embedTokenUpdate", key, map[string]any{"id": shownID, "show_sources": false}); r.Status != http.StatusOK {
		t.Fatalf("update: %d %s", r.Status, r.raw)
	}
	if start(shown) || listed()[shownID] {
		t.Fatal("embedTokenUpdate did not hide the sources")
	}
	// An update that leaves the field out keeps it.
	if r := h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(shownID)}, "label": {"Shop"}}); r.Status != http.StatusOK {
		t.Fatalf("update: %d %s", r.Status, r.raw)
	}
	if start(shown) {
		t.Fatal("an update without show_sources changed it")
	}
	h.widgetSend(widgetCall{token: hidden, visitor: visitorID(2), origin: "https://shop.test"}, "Which payment methods do you accept?")
	var raw struct {
		Messages []sourced `json:"messages"`
	}
	r := h.embed(http.MethodGet, "sync", widgetCall{token: hidden, visitor: visitorID(2), origin: "https://shop.test"}, nil)
	r.decode(t, &raw)
	if len(raw.Messages) != 2 || len(raw.Messages[1].Sources) == 0 {
		t.Fatalf("a hidden token's messages lost their sources: %s", r.raw)
	}
}
