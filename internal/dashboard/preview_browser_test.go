package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// uiPreview is the widget page's preview frame and the widget in it: the frame's inner height, and
// the launcher's and the panel's boxes in the frame's own coordinates.
type uiPreview struct {
	State                       string // the frame's data-state, set by app.js
	Height                      float64
	LauncherTop, LauncherBottom float64
	PanelTop, PanelBottom       float64
	PanelHeight                 float64
}

const uiPreviewJS = `(() => { const f = document.querySelector('iframe[data-widget-preview]');
	const host = f && f.contentDocument && f.contentDocument.getElementById('svc-widget');
	if (!host) return {State: ''};
	const l = host.shadowRoot.querySelector('button.svc-launcher').getBoundingClientRect();
	const p = host.shadowRoot.querySelector('.svc-panel').getBoundingClientRect();
	return {State: f.dataset.state || '', Height: f.clientHeight, LauncherTop: l.top, LauncherBottom: l.bottom,
		PanelTop: p.top, PanelBottom: p.bottom, PanelHeight: p.height}; })()`

// TestBrowserWidgetPreviewIsSizedToTheWidget: the live preview is not a large empty box
// until its launcher is opened. Closed, the frame is as tall as its note and the launcher,
// which shows whole; opened, it grows so the whole panel shows, and it shrinks again when the
// widget is closed; at a phone's width too, where the page stays within the screen.
func TestBrowserWidgetPreviewIsSizedToTheWidget(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	h := newHarness(t)
	_, key, email, pw := h.tenant("Preview Shop")
	if st := uiAPI(t, h, http.MethodPost, "/api/v1/chat/embedTokenCreate", key, url.Values{"domains": {"shop.example"}}, nil); st != http.StatusOK {
		t.Fatalf("embedTokenCreate: HTTP %d", st)
	}
	u := uiOpen(t, bctx, h.srv.URL)
	u.signIn(email, pw)
	const widget = `document.querySelector('iframe[data-widget-preview]').contentDocument.getElementById('svc-widget').shadowRoot`
	for _, w := range uiWidths {
		u.viewport(w)
		u.open("/dashboard/widget")
		u.wait("the preview's widget, closed", `(() => { const f = document.querySelector('iframe[data-widget-preview]');
			const h = f && f.contentDocument && f.contentDocument.getElementById('svc-widget');
			return h && h.dataset.ready === '1' && f.dataset.state === 'closed'; })()`)
		closed := uiMust[uiPreview](u, uiPreviewJS)
		if closed.Height > 400 || closed.LauncherTop < 0 || closed.LauncherBottom > closed.Height {
			t.Errorf("%d px, closed: the frame is %.0f px tall, the launcher at %.0f–%.0f", w, closed.Height, closed.LauncherTop, closed.LauncherBottom)
		}

		u.js(widget + `.querySelector('button.svc-launcher').click()`)
		u.wait("the preview to open", `document.querySelector('iframe[data-widget-preview]').dataset.state === 'open'`)
		// The panel slides in (a 0.18 s animation): wait for it to be in the frame.
		u.poll(`(p => p.PanelTop >= 0 && p.PanelBottom <= p.Height + 0.5)(`+uiPreviewJS+`)`, uiDeadline)
		open := uiMust[uiPreview](u, uiPreviewJS)
		if open.PanelTop < 0 || open.PanelBottom > open.Height+0.5 || open.PanelHeight < 600 {
			t.Errorf("%d px, open: the frame is %.0f px tall, the panel at %.0f–%.0f (%.0f px)", w, open.Height, open.PanelTop, open.PanelBottom, open.PanelHeight)
		}
		u.fits(fmt.Sprintf("the widget page with the preview open (%d px)", w))

		u.js(widget + `.querySelector('button.svc-close').click()`)
		u.wait("the preview to close", `document.querySelector('iframe[data-widget-preview]').dataset.state === 'closed'`)
		if again := uiMust[uiPreview](u, uiPreviewJS); again.Height != closed.Height {
			t.Errorf("%d px: closed again, the frame is %.0f px tall, was %.0f", w, again.Height, closed.Height)
		}
	}
}
