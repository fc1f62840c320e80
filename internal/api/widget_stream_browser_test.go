package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"svc/internal/account"
	"svc/internal/config"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
)

// streamWidgetHarness serves the widget with a model writing at 60 tokens a second, and a
// host page for a token of it, whose widget calls api (the service, or a proxy before it).
func streamWidgetHarness(t *testing.T) (h *harness, key, tok string) {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: llmanswertest.Script{"reply": func(c llmtest.Call) llmtest.Step {
		u := llmanswertest.Usage["reply"]
		text := llmanswertest.Faithful(c) + " Our team packs every order with care. Tracking links arrive by e-mail. Write to us with any other question."
		return llmtest.Step{Text: text, InputTokens: u[0], OutputTokens: u[1], Delay: 100 * time.Millisecond, TokenInterval: 16 * time.Millisecond}
	}}.Step})
	h = newHarnessWith(t, config.Config{LLMProvider: "openai", LLMBaseURL: srv.OpenAIBaseURL(), LLMAPIKey: "provider-key",
		LLMModel: "gpt-test", LLMTimeout: 10 * time.Second, LLMMaxRetries: 0})
	_, key = h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ = h.createToken(key, url.Values{"domains": {"localhost"}})
	return h, key, tok
}

// hostPage serves a customer's page whose widget talks to api.
func hostPage(t *testing.T, h *harness, tok, api string) string {
	t.Helper()
	page := fmt.Sprintf(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head>
<body><main><h1>A customer's page</h1></main>
<script src="%s/widget.js" data-svc-token="%s" data-svc-api="%s" data-svc-lang="en" defer></script></body></html>`, h.srv.URL, tok, api)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(site.Close)
	return strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/"
}

// watchStream records, from before the question is asked, every text the streaming bubble
// shows and whether it is hidden from the live region.
const watchStream = `(() => { window.__grow = []; const root = ` + shadow + `;
	new MutationObserver(() => { const e = root.querySelector('.svc-msg[data-role="stream"]');
		if (e) { const t = e.textContent; const g = window.__grow;
			if (!g.length || g[g.length - 1].text !== t) g.push({text: t, hidden: e.getAttribute('aria-hidden')}); } })
	.observe(root, {subtree: true, childList: true, characterData: true}); })()`

type growth struct {
	Text   string `json:"text"`
	Hidden string `json:"hidden"`
}

// stored is the visitor's reply as the service stored it, read with the widget's own calls.
func storedReply(t *testing.T, h *harness, tok, visitor string) message {
	t.Helper()
	r := h.embed(http.MethodGet, "sync", widgetCall{token: tok, visitor: visitor, origin: "http://localhost"}, nil)
	var v embedView
	r.decode(t, &v)
	if len(v.Messages) != 2 {
		t.Fatalf("stored messages %+v", v.Messages)
	}
	return v.Messages[1]
}

const finalReply = `.svc-msg[data-role="assistant"][data-id]`

// The widget shows the reply growing sentence by sentence in a bubble hidden from the live
// region, then the stored message in its place, read once; axe-core finds nothing serious
// while it streams or after.
func TestStreamWidgetInChromium(t *testing.T) {
	chromiumPath(t)
	axe := axeSource(t)
	h, key, tok := streamWidgetHarness(t)
	page := hostPage(t, h, tok, h.srv.URL)
	ctx := browser(t)
	var grow []growth
	var final, visitor string
	var streaming, finals int
	var midAxe, endAxe []axeViolation
	err := run(ctx,
		chromedp.Navigate(page),
		openWidget(),
		waitJS(shadow+`.querySelector('.svc-chip') !== null`),
		js(watchStream),
		ask("How long does delivery to Germany take?"),
		waitJS(shadow+`.querySelector('.svc-msg[data-role="stream"]') !== null`),
		axeRun(axe, &midAxe),
		waitJS(shadow+`.querySelector('`+finalReply+`') !== null`),
		eval(`window.__grow`, &grow),
		eval(shadow+`.querySelector('`+finalReply+` .svc-body').textContent`, &final),
		eval(shadow+`.querySelectorAll('.svc-msg[data-role="stream"]').length`, &streaming),
		eval(shadow+`.querySelectorAll('.svc-msg[data-role="assistant"]').length`, &finals),
		eval(`localStorage.getItem('svc_visitor')`, &visitor),
		axeRun(axe, &endAxe),
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(grow) < 3 || streaming != 0 || finals != 1 {
		t.Fatalf("grew %d times (%+v), %d streaming bubbles and %d replies left", len(grow), grow, streaming, finals)
	}
	for i, g := range grow {
		if g.Hidden != "true" || i > 0 && !strings.HasPrefix(g.Text, grow[i-1].Text) {
			t.Fatalf("growth %d: %+v after %+v", i, g, grow[max(i-1, 0)])
		}
	}
	reply := storedReply(t, h, tok, visitor)
	body, _, _ := strings.Cut(reply.Body, "\nSource:") // the widget lists its sources instead
	if want := strings.ReplaceAll(body, "\n", ""); final != want || !strings.HasPrefix(grow[len(grow)-1].Text, want) {
		t.Fatalf("final %q, last streamed %q, stored %q", final, grow[len(grow)-1].Text, reply.Body)
	}
	for _, v := range append(midAxe, endAxe...) {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("axe: %s [%s] %s %s", v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
	if u := h.usageOf(key)["answer"]; u.Count != 1 {
		t.Errorf("usage %+v", u)
	}
}

// A visitor who closes the page mid-reply finds the whole reply when they come back, billed
// once.
func TestStreamWidgetPageClosedMidReply(t *testing.T) {
	chromiumPath(t)
	h, key, tok := streamWidgetHarness(t)
	page := hostPage(t, h, tok, h.srv.URL)
	ctx := browser(t)
	// Each visit is a tab of its own in one browser (one localStorage): the first tab is
	// closed mid-reply, as a visitor closes the page, and a new one comes back.
	first, closeFirst := chromedp.NewContext(ctx)
	var visitor, partial string
	err := run(first,
		chromedp.Navigate(page),
		openWidget(),
		waitJS(shadow+`.querySelector('.svc-chip') !== null`),
		ask("How long does delivery to Germany take?"),
		waitJS(shadow+`.querySelector('.svc-msg[data-role="stream"]') !== null`),
		eval(shadow+`.querySelector('.svc-msg[data-role="stream"]').textContent`, &partial),
		eval(`localStorage.getItem('svc_visitor')`, &visitor),
	)
	closeFirst()
	if err != nil {
		t.Fatal(err)
	}
	again, closeAgain := chromedp.NewContext(ctx)
	defer closeAgain()
	var final string
	var users, replies int
	err = run(again,
		chromedp.Navigate(page),
		openWidget(),
		// The reply is there at once when the send has finished, else the next poll brings it.
		waitJS(shadow+`.querySelector('`+finalReply+`') !== null`),
		eval(shadow+`.querySelector('`+finalReply+` .svc-body').textContent`, &final),
		eval(shadow+`.querySelectorAll('.svc-msg[data-role="user"]').length`, &users),
		eval(shadow+`.querySelectorAll('.svc-msg[data-role="assistant"]').length`, &replies),
	)
	if err != nil {
		t.Fatal(err)
	}
	reply := storedReply(t, h, tok, visitor)
	body, _, _ := strings.Cut(reply.Body, "\nSource:")
	if users != 1 || replies != 1 || final != strings.ReplaceAll(body, "\n", "") || !strings.Contains(final, "Write to us") ||
		!strings.HasPrefix(final, partial) || len(partial) >= len(final) {
		t.Fatalf("after reopening: %d questions, %d replies, %q (partial %q, stored %q)", users, replies, final, partial, reply.Body)
	}
	if u := h.usageOf(key)["answer"]; u.Count != 1 {
		t.Errorf("billed %+v", u)
	}
}

// Behind a proxy that strips streaming (it drops the Accept header) the widget gets the JSON
// answer and shows it as before, with no streaming bubble.
func TestStreamWidgetJSONFallback(t *testing.T) {
	chromiumPath(t)
	h, _, tok := streamWidgetHarness(t)
	target, _ := url.Parse(h.srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	director := proxy.Director
	proxy.Director = func(r *http.Request) {
		director(r)
		r.Header.Del("Accept")
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	page := hostPage(t, h, tok, front.URL)
	ctx := browser(t)
	var grow []growth
	var final string
	err := run(ctx,
		chromedp.Navigate(page),
		openWidget(),
		waitJS(shadow+`.querySelector('.svc-chip') !== null`),
		js(watchStream),
		ask("How long does delivery to Germany take?"),
		waitJS(shadow+`.querySelector('`+finalReply+`') !== null`),
		eval(`window.__grow`, &grow),
		eval(shadow+`.querySelector('`+finalReply+` .svc-body').textContent`, &final),
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(grow) != 0 || !strings.Contains(final, "Write to us") {
		t.Fatalf("streamed %+v, final %q", grow, final)
	}
}

// axeViolation is one rule axe-core found broken.
type axeViolation struct {
	ID     string          `json:"id"`
	Impact string          `json:"impact"`
	Help   string          `json:"help"`
	Nodes  json.RawMessage `json:"nodes"`
}

// axeSource is axe-core from the dashboard's node_modules (npm ci there); without it the
// test skips, or fails under SVC_REQUIRE_BROWSER=1.
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../dashboard/node_modules/axe-core/axe.min.js")
	if err != nil {
		if os.Getenv("SVC_REQUIRE_BROWSER") == "1" {
			t.Fatalf("axe-core is required: %v; run npm ci in internal/dashboard", err)
		}
		t.Skipf("axe-core is not installed (%v); run npm ci in internal/dashboard", err)
	}
	return string(b)
}

// axeRun runs axe-core on the page, the widget's open shadow root included.
func axeRun(src string, out *[]axeViolation) chromedp.Action[chromedp.Void] {
	loaded := chromedp.Evaluate[bool](`typeof window.axe === 'object'`)
	check := chromedp.Evaluate[[]axeViolation](`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({
		id: v.id, impact: v.impact || '', help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target)})))`, chromedp.EvalAwaitPromise)
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if ok, err := loaded(ctx, t); err != nil || !ok {
			if _, err := js(src)(ctx, t); err != nil {
				return chromedp.Void{}, err
			}
		}
		v, err := check(ctx, t)
		*out = v
		return chromedp.Void{}, err
	}
}
