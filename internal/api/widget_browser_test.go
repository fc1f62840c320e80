package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"svc/internal/account"
)

// chromiumPath finds Debian's Chromium. Without it the browser tests skip, unless
// SVC_REQUIRE_BROWSER=1 (CI, where .ci/run installs it) makes that a failure.
func chromiumPath(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SVC_REQUIRE_BROWSER") == "1" {
		t.Fatal("Chromium is required (SVC_REQUIRE_BROWSER=1) but not installed")
	}
	t.Skip("Chromium is not installed; .ci/run installs Debian's chromium")
	return ""
}

// browser starts a headless Chromium with a fresh profile of its own: two browsers are two
// visitors, as two people on two machines would be.
func browser(t testing.TB) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	// The first run starts the browser and must not carry a timeout: it would stop the
	// browser with it. Each step gets its own (see run).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// run runs steps with a deadline.
func run(ctx context.Context, steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// eval evaluates expr and stores its value in dst.
func eval[T any](expr string, dst *T) chromedp.Action[chromedp.Void] {
	e := chromedp.Evaluate[T](expr)
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		v, err := e(ctx, t)
		*dst = v
		return chromedp.Void{}, err
	}
}

// js evaluates expr for its effect.
func js(expr string) chromedp.Action[chromedp.Void] { return chromedp.Evaluate[chromedp.Void](expr) }

// hostSite serves a customer's page with the widget's script tag, as a business would.
func hostSite(t testing.TB, scriptURL, token string) *httptest.Server {
	t.Helper()
	page := fmt.Sprintf(`<!doctype html><html><head><meta charset="utf-8"><title>Host</title>
<style>* { font-family: serif !important; } button { background: red !important; }</style></head>
<body><h1>A customer's page</h1>
<script src="%s" data-svc-token="%s" data-svc-lang="en" data-svc-color="#0a7cff" defer></script></body></html>`,
		scriptURL, token)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// In the widget's shadow root.
const shadow = `document.getElementById('svc-widget').shadowRoot`

func waitJS(expr string) chromedp.Action[chromedp.Void] {
	p := chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := p(ctx, t)
		return chromedp.Void{}, err
	}
}

func openWidget() chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		waitJS(`document.getElementById('svc-widget') !== null && document.getElementById('svc-widget').dataset.ready === '1'`),
		// A reload keeps the panel open (the widget remembers it for the tab).
		js(`document.getElementById('svc-widget').dataset.state === 'open' || `+shadow+`.querySelector('button.svc-launcher').click()`),
		waitJS(`document.getElementById('svc-widget').dataset.state === 'open'`),
	)
}

func ask(question string) chromedp.Action[chromedp.Void] {
	return js(fmt.Sprintf(`(() => { const i = %s.querySelector('textarea.svc-input');
		i.value = %q; i.dispatchEvent(new Event('input', {bubbles: true}));
		%s.querySelector('button.svc-send').click(); })()`, shadow, question, shadow))
}

func assistantCount(n int) chromedp.Action[chromedp.Void] {
	return waitJS(fmt.Sprintf(`%s.querySelectorAll('.svc-msg[data-role="assistant"]').length >= %d`, shadow, n))
}

func TestWidgetInChromium(t *testing.T) {
	chromiumPath(t)
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"localhost"}})
	site := hostSite(t, h.srv.URL+"/widget.js", tok)
	allowed := strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/"
	refused := site.URL + "/" // 127.0.0.1 is another origin, not in the token's domains

	alice := browser(t)
	var visitor, answer string
	err := run(alice,
		chromedp.Navigate(allowed),
		openWidget(),
		ask("How long does delivery take?"),
		assistantCount(1),
		eval(`localStorage.getItem('svc_visitor')`, &visitor),
		eval(shadow+`.querySelector('.svc-msg[data-role="assistant"] .svc-body').textContent`, &answer),
	)
	if err != nil {
		t.Fatalf("alice asks: %v", err)
	}
	if !strings.Contains(strings.ToLower(answer), "day") {
		t.Fatalf("answer %q", answer)
	}
	if len(visitor) != 36 {
		t.Fatalf("visitor id %q", visitor)
	}

	t.Run("the visitor id and the thread persist across reloads", func(t *testing.T) {
		var again string
		var users int
		err := run(alice,
			chromedp.Reload(),
			openWidget(),
			assistantCount(1),
			eval(`localStorage.getItem('svc_visitor')`, &again),
			eval(shadow+`.querySelectorAll('.svc-msg[data-role="user"]').length`, &users),
		)
		if err != nil {
			t.Fatal(err)
		}
		if again != visitor || users != 1 {
			t.Fatalf("after reload: visitor %q (was %q), %d user messages", again, visitor, users)
		}
	})

	t.Run("another browser profile cannot see the thread", func(t *testing.T) {
		bob := browser(t)
		var bobVisitor string
		var msgs int
		err := run(bob,
			chromedp.Navigate(allowed),
			openWidget(),
			waitJS(shadow+`.querySelector('.svc-chip') !== null || `+shadow+`.querySelectorAll('.svc-msg').length > 0`),
			eval(`localStorage.getItem('svc_visitor')`, &bobVisitor),
			eval(shadow+`.querySelectorAll('.svc-msg').length`, &msgs),
		)
		if err != nil {
			t.Fatal(err)
		}
		if bobVisitor == "" || bobVisitor == visitor || msgs != 0 {
			t.Fatalf("bob: visitor %q (alice %q), sees %d messages", bobVisitor, visitor, msgs)
		}
		// Bob, even knowing Alice's visitor id's conversation, gets only his own by design:
		// the thread is chosen by the visitor header, and his browser sends his.
	})

	t.Run("a page on another origin is refused", func(t *testing.T) {
		eve := browser(t)
		var msgs int
		err := run(eve,
			chromedp.Navigate(refused),
			openWidget(),
			waitJS(shadow+`.querySelector('.svc-error') !== null && `+shadow+`.querySelector('.svc-error').textContent.length > 0`),
			ask("How long does delivery take?"),
			chromedp.Sleep(500*time.Millisecond),
			eval(shadow+`.querySelectorAll('.svc-msg[data-role="assistant"]').length`, &msgs),
		)
		if err != nil {
			t.Fatal(err)
		}
		if msgs != 0 {
			t.Fatalf("a refused origin got %d answers", msgs)
		}
	})

	t.Run("the host page's CSS does not reach the widget", func(t *testing.T) {
		var bg string
		err := run(alice, eval(
			`getComputedStyle(`+shadow+`.querySelector('button.svc-launcher')).backgroundColor`, &bg))
		if err != nil {
			t.Fatal(err)
		}
		if bg == "rgb(255, 0, 0)" {
			t.Fatal("the host page's button style leaked into the widget")
		}
	})
}

// BenchmarkWidgetTimeToInteractive loads a customer's page in headless Chromium, each time
// with the script under a new URL so the browser fetches it afresh, and reports:
//   - ready_ms: from navigation start to the launcher in the page (script fetched, parsed,
//     run, Shadow DOM built), the page's own time to interactive for the widget;
//   - open_ms: from a click on the launcher to the conversation shown (start answered).
//
// go test -run '^$' -bench WidgetTimeToInteractive -benchtime 10x ./internal/api
//
// (10 loads: all come from 127.0.0.1, and the surface allows 30 requests a minute per address.)
func BenchmarkWidgetTimeToInteractive(b *testing.B) {
	chromiumPath(b)
	h := newHarness(b)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"localhost"}})
	n := 0
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body><h1>Shop</h1>
<script src="%s/widget.js?v=%s" data-svc-token="%s" data-svc-lang="en" defer></script></body></html>`,
			h.srv.URL, r.URL.Query().Get("v"), tok)
	}))
	b.Cleanup(site.Close)
	page := strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/"
	ctx := browser(b)
	var ready, open float64
	b.ResetTimer()
	for range b.N {
		n++
		var r, o float64
		err := run(ctx,
			chromedp.Navigate(fmt.Sprintf("%s?v=%d", page, n)),
			waitJS(`document.getElementById('svc-widget') !== null && document.getElementById('svc-widget').dataset.ready === '1'`),
			eval(`performance.getEntriesByName('svc-widget-ready')[0].startTime`, &r),
			js(`window.__t0 = performance.now(); `+shadow+`.querySelector('button.svc-launcher').click()`),
			waitJS(shadow+`.querySelector('.svc-chip') !== null || `+shadow+`.querySelectorAll('.svc-msg').length > 0`),
			eval(`performance.now() - window.__t0`, &o),
			js(`sessionStorage.clear()`), // the next page load starts closed
		)
		if err != nil {
			b.Fatal(err)
		}
		ready += r
		open += o
	}
	b.ReportMetric(ready/float64(b.N), "ready_ms")
	b.ReportMetric(open/float64(b.N), "open_ms")
}
