package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"svc/internal/account"
)

// appearancePage serves a customer's page whose body holds extra (before the widget's tag)
// and whose tag carries attrs; it answers on localhost, an allowed origin of the tokens here.
func appearancePage(t *testing.T, scriptURL, token, extra, attrs string) string {
	t.Helper()
	page := fmt.Sprintf(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head>
<body><main><h1>A customer's page</h1>%s</main>
<script src="%s" data-svc-token="%s" data-svc-lang="en" data-svc-color="#0a7cff" %s defer></script></body></html>`,
		extra, scriptURL, token, attrs)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/"
}

// widgetLook is what the page shows of the widget's appearance.
type widgetLook struct {
	Title, Welcome, LauncherText, Avatar, Theme, PanelBG string
	WelcomeFirst, WelcomeStored, AvatarLoaded            bool
	LauncherLeft, LauncherBottom, PanelLeft, PanelWidth  float64
	Chips                                                []string
}

const lookJS = `(() => {
	const r = ` + shadow + `, l = r.querySelector('.svc-launcher').getBoundingClientRect(), p = r.querySelector('.svc-panel');
	const pr = p.getBoundingClientRect(), w = r.querySelector('[data-welcome]'), img = r.querySelector('.svc-avatar');
	return {title: r.querySelector('.svc-title').textContent, welcome: w ? w.textContent : '',
		welcomeFirst: !!w && r.querySelector('.svc-messages').firstElementChild === w, welcomeStored: !!w && !!w.dataset.id,
		launcherText: r.querySelector('.svc-launcher').textContent, avatar: img.hidden ? '' : img.src,
		avatarLoaded: !img.hidden && img.complete && img.naturalWidth > 0, theme: document.getElementById('svc-widget').dataset.theme,
		panelBG: getComputedStyle(p).backgroundColor, launcherLeft: l.left, launcherBottom: innerHeight - l.bottom,
		panelLeft: pr.left, panelWidth: pr.width,
		chips: [...r.querySelectorAll('.svc-chip')].map(b => b.textContent)};
})()`

type lookViolation struct {
	ID    string `json:"id"`
	Help  string `json:"help"`
	Nodes []string
}

func runAxe(ctx context.Context, src string) ([]lookViolation, error) {
	var out []lookViolation
	err := run(ctx, js(src), func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		v, err := chromedp.Evaluate[[]lookViolation](`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v =>
			({id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 100) + ' ' + (n.failureSummary || '').slice(0, 200))})))`, chromedp.EvalAwaitPromise)(ctx, t)
		out = v
		return chromedp.Void{}, err
	})
	return out, err
}

// TestWidgetAppearanceInChromium: each setting of a token shows in a real browser: the title,
// the welcome as the first assistant bubble (not a stored message), the left position with
// its offsets, the dark theme (axe-clean, open and closed), the avatar loaded from svc's own
// origin, the launcher's label, the panel's width and the owner's starter questions.
func TestWidgetAppearanceInChromium(t *testing.T) {
	chromiumPath(t)
	axe := axeSource(t)
	h := newHarness(t)
	_, key := h.tenant(account.Settings{Name: ptr("Yolcu Outdoor"), BalanceMicro: ptr(int64(5_000_000))})
	imgSrv, _ := h.avatarServer()
	tok, _ := h.createToken(key, url.Values{"domains": {"localhost"}, "title": {"Yolcu Help"}, "welcome": {"Willkommen"},
		"welcome_en": {"Hello! Ask us about tents."}, "position": {"left"}, "offset_x": {"32"}, "offset_y": {"48"}, "theme": {"dark"},
		"avatar_url": {imgSrv.URL + "/a.png"}, "launcher_label": {"Questions?"}, "panel_width": {"420"},
		"starters": {"Do you ship abroad?\nHow do I return an item?"}})

	ctx := browser(t)
	page := appearancePage(t, h.srv.URL+"/widget.js", tok, "", "")
	var closed, open widgetLook
	err := run(ctx, chromedp.Navigate(page),
		waitJS(`document.getElementById('svc-widget') && document.getElementById('svc-widget').dataset.ready === '1'`),
		eval(lookJS, &closed))
	if err != nil {
		t.Fatal(err)
	}
	if closed.LauncherText != "Questions?" || closed.Theme != "dark" || closed.LauncherLeft != 32 || closed.LauncherBottom != 48 {
		t.Fatalf("closed: %+v", closed)
	}
	vs, err := runAxe(ctx, axe)
	if err != nil || len(vs) > 0 {
		t.Fatalf("axe, dark and closed: %v %+v", err, vs)
	}
	err = run(ctx, js(shadow+`.querySelector('.svc-launcher').click()`),
		waitJS(shadow+`.querySelectorAll('.svc-chip').length > 0 && `+shadow+`.querySelector('.svc-avatar').complete`),
		// axe judges colours as painted: after the panel's fade-in.
		waitJS(shadow+`.querySelector('.svc-panel').getAnimations().length === 0`), eval(lookJS, &open))
	if err != nil {
		t.Fatal(err)
	}
	if open.Title != "Yolcu Help" || open.Welcome != "Hello! Ask us about tents." || !open.WelcomeFirst || open.WelcomeStored ||
		open.PanelLeft != 32 || open.PanelWidth != 420 || open.PanelBG != "rgb(27, 31, 36)" ||
		!slices.Equal(open.Chips, []string{"Do you ship abroad?", "How do I return an item?"}) {
		t.Fatalf("open: %+v", open)
	}
	if !strings.HasPrefix(open.Avatar, h.srv.URL+"/widget/avatar/") || !open.AvatarLoaded {
		t.Fatalf("the avatar must load from svc's origin %s: %+v", h.srv.URL, open)
	}
	vs, err = runAxe(ctx, axe)
	if err != nil || len(vs) > 0 {
		t.Fatalf("axe, dark and open: %v %+v", err, vs)
	}
	// The welcome is no message: the conversation has none until the visitor writes.
	var stored int
	if err := run(ctx, eval(shadow+`.querySelectorAll('.svc-msg[data-id]').length`, &stored)); err != nil || stored != 0 {
		t.Fatalf("stored messages after opening: %d %v", stored, err)
	}
	// A starter is sent as the visitor's question; the welcome stays first.
	err = run(ctx, js(shadow+`.querySelector('.svc-chip').click()`), assistantCount(2), eval(lookJS, &open))
	if err != nil || !open.WelcomeFirst {
		t.Fatalf("after a starter: %v %+v", err, open)
	}
}

// TestWidgetInlineInChromium: with data-svc-inline (or the token's inline selector) the
// widget renders open inside the page's element, without a launcher, starts once visible, and
// answers there; a selector that matches nothing floats as usual.
func TestWidgetInlineInChromium(t *testing.T) {
	chromiumPath(t)
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"localhost"}, "inline": {"#help"}, "theme": {"auto"}})

	type inlineState struct {
		InHelp, LauncherShown, PanelShown, Floating bool
		Width, HelpWidth                            float64
	}
	const stateJS = `(() => { const host = document.getElementById('svc-widget'), r = host.shadowRoot;
		const l = r.querySelector('.svc-launcher'), p = r.querySelector('.svc-panel');
		const help = document.querySelector('#help') || document.querySelector('#other');
		return {inHelp: !!help && help.contains(host), launcherShown: getComputedStyle(l).display !== 'none',
			panelShown: !p.hidden && getComputedStyle(p).display !== 'none', floating: getComputedStyle(p).position === 'fixed',
			width: p.getBoundingClientRect().width, helpWidth: help ? help.getBoundingClientRect().width : 0}; })()`
	ready := waitJS(`document.getElementById('svc-widget') && document.getElementById('svc-widget').dataset.ready === '1'`)

	for name, c := range map[string]struct{ extra, attrs string }{
		"token's selector": {`<div id="help" style="width:500px"></div>`, ``},
		"script attribute": {`<div id="other" style="width:500px"></div>`, `data-svc-inline="#other"`},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := browser(t)
			var s inlineState
			err := run(ctx, chromedp.Navigate(appearancePage(t, h.srv.URL+"/widget.js", tok, c.extra, c.attrs)), ready,
				waitJS(shadow+`.querySelectorAll('.svc-chip').length > 0`), eval(stateJS, &s))
			if err != nil {
				t.Fatal(err)
			}
			if !s.InHelp || s.LauncherShown || !s.PanelShown || s.Floating || s.Width != s.HelpWidth {
				t.Fatalf("inline: %+v", s)
			}
			if err := run(ctx, ask("Do you ship abroad?"), assistantCount(1)); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("no such element", func(t *testing.T) {
		ctx := browser(t)
		var s inlineState
		err := run(ctx, chromedp.Navigate(appearancePage(t, h.srv.URL+"/widget.js", tok, ``, ``)), ready, eval(stateJS, &s))
		if err != nil {
			t.Fatal(err)
		}
		if s.InHelp || !s.LauncherShown {
			t.Fatalf("without the element the widget must float: %+v", s)
		}
	})
}
