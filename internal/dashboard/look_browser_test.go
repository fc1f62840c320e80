package dashboard_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// uiLook is what the framed preview widget shows of the appearance.
type uiLook struct {
	Title, Welcome, Theme, Pos, Launcher string
	LauncherLeft, Width                  float64
	Chips                                []string
}

const uiLookJS = `(() => { const f = document.querySelector('iframe[data-live-preview]');
	const host = f.contentDocument.getElementById('svc-widget'), r = host.shadowRoot, w = r.querySelector('[data-welcome]');
	return {Title: r.querySelector('.svc-title').textContent, Welcome: w ? w.textContent : '', Theme: host.dataset.theme,
		Pos: host.dataset.pos, Launcher: r.querySelector('.svc-launcher').textContent,
		LauncherLeft: r.querySelector('.svc-launcher').getBoundingClientRect().left,
		Width: parseFloat(host.style.getPropertyValue('--pw')), Chips: []}; })()`

// TestBrowserWidgetLookPreviewFollowsTheForm: on a token's edit page, the live preview
// follows the appearance form as the owner types, before anything is saved: the title key by
// key, the welcome, the theme, the side and its offset, the launcher's label and the panel's
// width; a colour that does not stand out from the page is warned about as it is picked; and
// saving publishes the settings to the API.
func TestBrowserWidgetLookPreviewFollowsTheForm(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	h := newHarness(t)
	_, key, email, pw := h.tenant("Look Shop")
	var created struct {
		ID int64 `json:"id"`
	}
	if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/embedTokenCreate", key, url.Values{"domains": {"shop.example"}}, &created); st != http.StatusOK {
		t.Fatalf("embedTokenCreate: HTTP %d", st)
	}
	u := uiOpen(t, bctx, h.srv.URL)
	u.signIn(email, pw)
	edit := "/dashboard/widget/tokens/" + strconv.FormatInt(created.ID, 10) + "/edit"
	if st := u.open(edit + "?lang=en"); st != http.StatusOK {
		t.Fatalf("edit page: HTTP %d", st)
	}
	u.wait("the preview's widget", `(() => { const f = document.querySelector('iframe[data-live-preview]');
		const h = f && f.contentDocument && f.contentDocument.getElementById('svc-widget'); return h && h.dataset.ready === '1'; })()`)
	if got := uiMust[uiLook](u, uiLookJS); got.Title != "Look Shop" || got.Theme != "light" || got.Pos != "right" {
		t.Fatalf("before typing: %+v", got)
	}

	// Typed key by key: the preview's title follows each key.
	u.js(`document.querySelector("#l-title").focus()`)
	u.keys("type the title", "Hel")
	u.wait("the title to follow", `(`+uiLookJS+`).Title === 'Hel'`)
	u.keys("type more", "p desk")
	u.wait("the title to follow", `(`+uiLookJS+`).Title === 'Help desk'`)

	u.fill("#l-welcome-en", "Hello! How can we help?")
	u.fill("#l-theme", "dark")
	u.js(`document.querySelector('input[name=position][value=left]').click()`)
	u.fill("#l-offset-x", "40")
	u.fill("#l-launcher", "Ask us")
	u.fill("#l-width", "460")
	u.wait("the preview to follow the form", `(l => l.Welcome === 'Hello! How can we help?' && l.Theme === 'dark' && l.Pos === 'left' &&
		l.LauncherLeft === 40 && l.Launcher === 'Ask us' && l.Width === 460)(`+uiLookJS+`)`)

	// The default blue stands out too little from the dark theme's background (2.8:1), not
	// from a light page; a pale yellow the other way round: warned as they are picked.
	u.wait("the dark theme's warning", `document.querySelectorAll('[data-contrast-warnings] p').length === 1`)
	u.fill("#l-theme", "light")
	u.wait("no warning on a light page", `document.querySelectorAll('[data-contrast-warnings] p').length === 0`)
	u.fill("#p-color", "#ffeb3b")
	u.wait("the contrast warning", `document.querySelectorAll('[data-contrast-warnings] p').length === 1`)
	if w := u.text("[data-contrast-warnings] p"); !strings.Contains(w, "#ffeb3b") || !strings.Contains(w, "3:1") {
		t.Errorf("warning: %q", w)
	}
	u.fits("the edit page with the appearance form")

	// Nothing is saved until the form is sent.
	var before struct {
		Tokens []struct {
			Title string `json:"title"`
			Theme string `json:"theme"`
		} `json:"tokens"`
	}
	uiAPI(t, h, http.MethodGet, "/api/v1/chat/embedTokens", key, nil, &before)
	if len(before.Tokens) != 1 || before.Tokens[0].Title != "" {
		t.Fatalf("saved before the form was sent: %+v", before)
	}
	u.submit("save the token", `form[data-look-form] button[type="submit"]`)
	if p := u.location(); p != "/dashboard/widget" {
		t.Fatalf("after saving: %s", p)
	}
	var after struct {
		Tokens []map[string]any `json:"tokens"`
	}
	uiAPI(t, h, http.MethodGet, "/api/v1/chat/embedTokens", key, nil, &after)
	got, _ := json.Marshal(after.Tokens)
	for _, want := range []string{`"title":"Help desk"`, `"welcome_en":"Hello! How can we help?"`, `"theme":"light"`, `"position":"left"`,
		`"offset_x":40`, `"launcher_label":"Ask us"`, `"panel_width":460`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("saved settings lack %s: %s", want, got)
		}
	}

	// A value out of range is refused with the field's limit, the form kept as typed.
	u.open(edit)
	u.fill("#l-width", "900")
	u.js(`document.querySelector('#l-width').removeAttribute('max')`)
	u.submit("save a width out of range", `form[data-look-form] button[type="submit"]`)
	if p := u.location(); p == "/dashboard/widget" {
		t.Fatalf("a width out of range was saved")
	}
	if body := u.text("main"); !strings.Contains(body, "600") || uiMust[string](u, `document.querySelector('#l-width').value`) != "900" {
		t.Errorf("the refusal does not name the limit, or the form lost the value: %.300s", body)
	}
}
