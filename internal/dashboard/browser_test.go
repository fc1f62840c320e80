package dashboard_test

// Helpers of the dashboard's browser tests (a11y_test.go, flows_browser_test.go): a headless
// Chromium driven with chromedp against the harness's real server. Every name here starts
// with "ui" so as not to clash with the harness's own (browser, page).

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// uiSlots bounds the Chromiums running at once: the tests run in parallel on small machines.
var uiSlots = make(chan struct{}, 2)

// uiRequired: under SVC_REQUIRE_BROWSER=1 (CI) what the browser tests need must be there.
func uiRequired() bool { return os.Getenv("SVC_REQUIRE_BROWSER") == "1" }

// uiChromiumPath finds Debian's Chromium, or skips (fails under SVC_REQUIRE_BROWSER=1).
func uiChromiumPath(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if uiRequired() {
		t.Fatal("Chromium is required (SVC_REQUIRE_BROWSER=1) but not installed")
	}
	t.Skip("Chromium is not installed; .ci/run installs Debian's chromium")
	return ""
}

// uiStart starts a headless Chromium with a fresh profile, 1280×900, for the test. Its
// contexts are the parents of uiOpen's tabs.
func uiStart(t *testing.T) context.Context {
	t.Helper()
	path := uiChromiumPath(t)
	uiSlots <- struct{}{}
	t.Cleanup(func() { <-uiSlots })
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	// The first run starts the browser and must carry no timeout: it would stop the browser.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// uiTab is one tab in a browser context of its own (its own cookies: one signed-in user),
// on the harness's server.
type uiTab struct {
	t    testing.TB
	ctx  context.Context
	base string // the dashboard's origin

	mu      sync.Mutex
	dialogs []string // JavaScript dialogs that opened, "type: message"
	accept  bool     // accept dialogs (confirm) rather than dismiss them
}

// uiOpen opens a tab of uiStart's browser in a new browser context. Every JavaScript dialog
// is recorded and answered (dismissed unless acceptDialogs), so that a dialog never stalls
// the page: tests look at u.seenDialogs().
func uiOpen(t testing.TB, parent context.Context, base string) *uiTab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open tab: %v", err)
	}
	u := &uiTab{t: t, ctx: ctx, base: base}
	// Listen's func runs in the tab's read loop and must not call the browser: answer the
	// dialog from another goroutine.
	err := chromedp.Listen(ctx, func(ev any) {
		d, ok := ev.(*cdppage.EventJavascriptDialogOpening)
		if !ok {
			return
		}
		u.mu.Lock()
		u.dialogs = append(u.dialogs, string(d.Type)+": "+d.Message)
		accept := u.accept
		u.mu.Unlock()
		go func() {
			_, _ = chromedp.Call(ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: accept})
		}()
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// acceptDialogs makes the tab accept (true) or dismiss the dialogs that open from now on.
func (u *uiTab) acceptDialogs(accept bool) {
	u.mu.Lock()
	u.accept = accept
	u.mu.Unlock()
}

// seenDialogs is what dialogs opened so far.
func (u *uiTab) seenDialogs() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.dialogs...)
}

// uiDeadline is the limit of one step (a navigation, a script, a wait).
const uiDeadline = 30 * time.Second

// do runs steps with a deadline.
func (u *uiTab) do(steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(u.ctx, uiDeadline)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// must runs steps and fails the test on an error.
func (u *uiTab) must(what string, steps ...chromedp.Action[chromedp.Void]) {
	u.t.Helper()
	if err := u.do(steps...); err != nil {
		u.t.Fatalf("%s: %v", what, err)
	}
}

// uiEval evaluates expr in the tab's page and decodes its value.
func uiEval[T any](u *uiTab, expr string, opts ...chromedp.EvaluateOption) (T, error) {
	ctx, cancel := context.WithTimeout(u.ctx, uiDeadline)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
}

// uiMust is uiEval failing the test on an error.
func uiMust[T any](u *uiTab, expr string, opts ...chromedp.EvaluateOption) T {
	u.t.Helper()
	v, err := uiEval[T](u, expr, opts...)
	if err != nil {
		u.t.Fatalf("evaluate %.80q: %v", expr, err)
	}
	return v
}

// js evaluates expr for its effect.
func (u *uiTab) js(expr string) {
	u.t.Helper()
	if _, err := uiEval[chromedp.Void](u, expr); err != nil {
		u.t.Fatalf("evaluate %.80q: %v", expr, err)
	}
}

// poll evaluates the predicate expr until it is true or the deadline passes, returning
// whether it became true. Errors while a new document loads are expected and ignored.
func (u *uiTab) poll(expr string, limit time.Duration) bool {
	ctx, cancel := context.WithTimeout(u.ctx, limit)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		ectx, ecancel := context.WithTimeout(ctx, 5*time.Second)
		ok, err := chromedp.Run(ectx, chromedp.Evaluate[bool](`!!(`+expr+`)`))
		ecancel()
		if err == nil && ok {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// wait polls for expr and fails the test, naming what it waited for, at the deadline.
func (u *uiTab) wait(what, expr string) {
	u.t.Helper()
	if !u.poll(expr, uiDeadline) {
		u.t.Fatalf("waited %s for %s (%s); at %s", uiDeadline, what, expr, u.location())
	}
}

// location is the page's URL path and query, or "?" when it cannot be read.
func (u *uiTab) location() string {
	v, err := uiEval[string](u, `location.pathname + location.search`)
	if err != nil {
		return "?"
	}
	return v
}

// open navigates to path on the server, waits for the page to be ready and returns the
// HTTP status of the document.
func (u *uiTab) open(path string) int64 {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, uiDeadline)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(u.base+path))
	if err != nil {
		u.t.Fatalf("open %s: %v", path, err)
	}
	u.wait("the page "+path+" to be ready", `document.readyState === 'complete'`)
	if resp == nil {
		return 0
	}
	return resp.Status
}

// navigatesBy runs trigger, which makes the page load a new document (a form sent, a link
// followed), and waits for that document to be ready.
func (u *uiTab) navigatesBy(what string, trigger func()) {
	u.t.Helper()
	u.js(`window.__uiOld = true`)
	trigger()
	u.wait(what, `!window.__uiOld && document.readyState === 'complete'`)
}

// keys types keys (chromedp's kb: "\t" is Tab, "\r" Enter) into whatever has the focus.
func (u *uiTab) keys(what, keys string, opts ...chromedp.KeyOption) {
	u.t.Helper()
	u.must(what, chromedp.KeyEvent(keys, opts...))
}

// fill sets a field's value as typing would (input and change events).
func (u *uiTab) fill(selector, value string) {
	u.t.Helper()
	u.js(fmt.Sprintf(`(() => { const el = document.querySelector(%s);
		if (!el) throw new Error('no field ' + %[1]s);
		el.value = %s; el.dispatchEvent(new Event('input', {bubbles: true}));
		el.dispatchEvent(new Event('change', {bubbles: true})); })()`, uiJS(selector), uiJS(value)))
}

// submit clicks the element selector matches (a form's button, with the mouse, as a person
// would) and waits for the page the form answers with.
func (u *uiTab) submit(what, selector string) {
	u.t.Helper()
	u.navigatesBy(what, func() { u.click(what, selector) })
}

// click clicks the first element selector matches with the mouse, once it is visible.
func (u *uiTab) click(what, selector string) {
	u.t.Helper()
	u.must(what, chromedp.Click(chromedp.CSS(selector)))
}

// signIn signs in through the form, as a person would, and waits for the dashboard.
func (u *uiTab) signIn(email, password string) {
	u.t.Helper()
	u.open("/dashboard/login")
	u.fill("#email", email)
	u.fill("#password", password)
	u.submit("sign in as "+email, `form[action="/dashboard/login"] button[type="submit"]`)
	if p := u.location(); strings.HasPrefix(p, "/dashboard/login") {
		u.t.Fatalf("sign in as %s: still at %s", email, p)
	}
}

// text is the visible text of the first element selector matches ("" when none).
func (u *uiTab) text(selector string) string {
	u.t.Helper()
	return uiMust[string](u, fmt.Sprintf(`(document.querySelector(%s) || {innerText: ''}).innerText`, uiJS(selector)))
}

// links lists the distinct same-origin paths (and queries) of the links, or frames, that
// selector matches; downloads and links to new windows left out.
func (u *uiTab) links(selector string) []string {
	u.t.Helper()
	return uiMust[[]string](u, fmt.Sprintf(`[...new Set([...document.querySelectorAll(%s)]
		.map(e => e.tagName === 'IFRAME' ? Object.assign(new URL(e.src), {tgt: ''}) : Object.assign(new URL(e.href), {tgt: e.target, dl: e.hasAttribute('download')}))
		.filter(l => l.origin === location.origin && !l.dl && l.tgt !== '_blank')
		.map(l => l.pathname + l.search))]`, uiJS(selector)))
}

// screenshot takes the viewport as PNG.
func (u *uiTab) screenshot() []byte {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, uiDeadline)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		u.t.Fatalf("screenshot: %v", err)
	}
	return png
}

// uiJS quotes s as a JavaScript string literal.
func uiJS(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// uiAxeSource is axe-core's script from node_modules (pinned in package-lock.json; CI runs
// npm ci). Missing, the test skips, or fails under SVC_REQUIRE_BROWSER=1.
func uiAxeSource(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("node_modules/axe-core/axe.min.js")
	if err != nil {
		if uiRequired() {
			t.Fatalf("axe-core is required (SVC_REQUIRE_BROWSER=1): %v; run npm ci in internal/dashboard", err)
		}
		t.Skipf("axe-core is not installed (%v); run npm ci in internal/dashboard", err)
	}
	return string(b)
}

// uiViolation is one rule axe found broken, with the first few nodes.
type uiViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Count  int    `json:"count"`
	Nodes  []struct {
		Target  json.RawMessage `json:"target"`
		HTML    string          `json:"html"`
		Summary string          `json:"summary"`
	} `json:"nodes"`
}

// serious reports whether the violation fails a page: impact serious or critical.
func (v uiViolation) serious() bool { return v.Impact == "serious" || v.Impact == "critical" }

func (v uiViolation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s] %s (%d nodes)", v.ID, v.Impact, v.Help, v.Count)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n      %s %s", n.Target, n.HTML)
		if n.Summary != "" {
			fmt.Fprintf(&b, "\n        %s", strings.ReplaceAll(n.Summary, "\n", " / "))
		}
	}
	return b.String()
}

// axe runs axe-core on the tab's current document. Its source is evaluated over CDP
// (Runtime.evaluate is not subject to the page's CSP, which forbids inline scripts).
func (u *uiTab) axe(src string) ([]uiViolation, error) {
	loaded, err := uiEval[bool](u, `typeof window.axe === 'object' && typeof window.axe.run === 'function'`)
	if err != nil {
		return nil, err
	}
	if !loaded {
		if _, err := uiEval[chromedp.Void](u, src); err != nil {
			return nil, fmt.Errorf("inject axe: %w", err)
		}
	}
	return uiEval[[]uiViolation](u, `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({
		id: v.id, impact: v.impact || '', help: v.help, count: v.nodes.length,
		nodes: v.nodes.slice(0, 3).map(n => ({target: n.target, html: n.html.slice(0, 160),
			summary: (n.failureSummary || '').slice(0, 300)}))})))`, chromedp.EvalAwaitPromise)
}

// uiAPI calls the JSON API with the secret key and decodes the envelope's data into out
// (when not nil). Unlike h.api it reports to t, so subtests may use it.
func uiAPI(t testing.TB, h *harness, method, path, key string, form url.Values, out any) int {
	t.Helper()
	resp := h.on(t).apiDo(method, path, key, form)
	defer resp.Body.Close()
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&struct{ Data any }{out}); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode
}

// uiSent is what /api/v1/chat/send answers, as far as the tests read it.
type uiSent struct {
	ConversationID int64 `json:"conversationId"`
	Messages       []struct {
		ID   int64  `json:"id"`
		Role string `json:"role"`
		Body string `json:"body"`
	} `json:"messages"`
}

// uiAsk sends question through the API and returns the reply's message id.
func uiAsk(t testing.TB, h *harness, key, question string) int64 {
	t.Helper()
	var s uiSent
	if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/send", key, url.Values{"message": {question}}, &s); st != http.StatusOK {
		t.Fatalf("send %q: HTTP %d", question, st)
	}
	for _, m := range s.Messages {
		if m.Role == "assistant" {
			return m.ID
		}
	}
	t.Fatalf("send %q: no assistant reply", question)
	return 0
}

// uiNotFound reports whether a status says the page is not there (yet).
func uiNotFound(status int64) bool { return status == http.StatusNotFound }

// uiShape is a link's kind: its path with the numbers replaced and the names of its
// query's fields, so that one page of each kind is checked.
func uiShape(link string) string {
	path, query, _ := strings.Cut(link, "?")
	var b strings.Builder
	digits := false
	for _, r := range path {
		if r >= '0' && r <= '9' {
			if !digits {
				b.WriteString("{n}")
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	if q, err := url.ParseQuery(query); err == nil && len(q) > 0 {
		b.WriteString("?" + strings.Join(slices.Sorted(maps.Keys(q)), "&"))
	}
	return b.String()
}

// uiUntil polls cond, a check on the Go side, until it holds or limit passes.
func uiUntil(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		<-tick.C
	}
	return true
}
