package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"svc/internal/account"
	"svc/internal/demo"
	"svc/internal/i18n"
)

// TestWidgetHintFollowsTheReply: on an English page, a visitor who writes Turkish (then
// German) gets the reply in that language, and the rephrase hint under a low-confidence
// reply is in the reply's language too, not the page's.
func TestWidgetHintFollowsTheReply(t *testing.T) {
	chromiumPath(t)
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"localhost"}})
	site := hostSite(t, h.srv.URL+"/widget.js", tok) // data-svc-lang="en"
	page := strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/"
	cat := i18n.MustLoad()

	b := browser(t)
	if err := run(b, chromedp.Navigate(page), openWidget()); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct{ lang, question string }{
		{"tr", "Uzay mekiği için yedek parça satıyor musunuz?"},
		{"de", "Verkaufen Sie Ersatzteile für Raumschiffe?"},
		{"en", "Do you sell spare parts for spaceships?"},
	} {
		var hint, hintLang string
		last := shadow + `.querySelectorAll('.svc-msg[data-role="assistant"]')[` + fmt.Sprint(i) + `]`
		err := run(b,
			ask(tc.question),
			assistantCount(i+1),
			waitJS(last+`.querySelector('.svc-hint') !== null`),
			eval(last+`.querySelector('.svc-hint').textContent`, &hint),
			eval(last+`.querySelector('.svc-hint').lang`, &hintLang),
		)
		if err != nil {
			t.Fatalf("%s: %v", tc.lang, err)
		}
		if want := cat.T(tc.lang, "embed.hint"); hint != want || hintLang != tc.lang {
			t.Errorf("%q: hint %q (lang %q), want %q", tc.question, hint, hintLang, want)
		}
	}
}

// TestDemoPageOnAPhone opens the demo page at 390×844 as a phone: the page must not scroll
// sideways (its long script tag in a code block once did), the launcher must lie wholly
// inside the viewport, and the open panel's Send button must be visible and be what a tap
// on it reaches.
func TestDemoPageOnAPhone(t *testing.T) {
	chromiumPath(t)
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"localhost"}})
	// A real token is long; the demo shows it in the page's code block.
	body := demo.Page(h.srv.URL+"/widget.js", tok, "en")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	page := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/"

	b := browser(t)
	var overflow, launcher, sendBtn string
	err := run(b,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(page),
		waitJS(`document.getElementById('svc-widget') !== null && document.getElementById('svc-widget').dataset.ready === '1'`),
		// A phone widens its layout viewport (innerWidth) to fit a page that overflows, so
		// the page is measured against the phone's width, not against innerWidth alone.
		eval(`(() => { const d = document.documentElement, w = Math.min(innerWidth, 390);
			return d.scrollWidth <= w && innerWidth <= 390 ? '' :
				'scrollWidth ' + d.scrollWidth + ', innerWidth ' + innerWidth + ', phone 390'; })()`, &overflow),
		eval(inViewport(shadow+`.querySelector('button.svc-launcher')`), &launcher),
		openWidget(),
		eval(inViewport(shadow+`.querySelector('button.svc-send')`), &sendBtn),
	)
	if err != nil {
		t.Fatal(err)
	}
	for what, problem := range map[string]string{"page": overflow, "launcher": launcher, "send button": sendBtn} {
		if problem != "" {
			t.Errorf("%s at 390 px: %s", what, problem)
		}
	}
}

// inViewport is a script that returns "" when el's box lies wholly inside the phone's 390×844
// viewport and a tap on its centre reaches it, else what is wrong.
func inViewport(el string) string {
	return `(() => { const e = ` + el + `; if (!e) return 'missing';
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) return 'not shown';
		const vw = Math.min(innerWidth, 390), vh = Math.min(innerHeight, 844);
		if (r.left < 0 || r.top < 0 || r.right > vw || r.bottom > vh)
			return 'box ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ' outside ' + vw + 'x' + vh;
		const hit = e.getRootNode().elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return hit === e || e.contains(hit) ? '' : 'covered by ' + (hit ? hit.tagName + '.' + hit.className : 'nothing'); })()`
}
