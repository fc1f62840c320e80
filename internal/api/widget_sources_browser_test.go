package api_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"svc/internal/account"
	"svc/internal/kb"
)

// A Q&A entry (a source without a URL) whose question is markup: the widget must show it as
// text, and not as a link.
const oddSourceJSONL = `{"type":"qa","question":"<img src=x onerror=\"window.pwned=1\">Do you offer gift wrapping & cards?","answer":"Yes: gift wrapping costs 25 TL per order and includes a handwritten card.","lang":"en"}
`

// sourceRow is one entry of a reply's source list as the widget shows it.
type sourceRow struct {
	Text   string `json:"text"`
	Href   string `json:"href"`
	Target string `json:"target"`
	Rel    string `json:"rel"`
}

// lastSources reads the newest assistant message's source list, its label and its body.
func lastSources(rows *[]sourceRow, label, body *string) chromedp.Action[chromedp.Void] {
	last := `[...` + shadow + `.querySelectorAll('.svc-msg[data-role="assistant"]')].pop()`
	return chromedp.Steps(
		eval(`[...(`+last+`.querySelectorAll('.svc-sources li > *'))].map(e => ({text: e.textContent,
			href: e.getAttribute('href') || '', target: e.getAttribute('target') || '', rel: e.getAttribute('rel') || ''}))`, rows),
		eval(`(`+last+`.querySelector('.svc-sources-title') || {textContent: ''}).textContent`, label),
		eval(last+`.querySelector('.svc-body').textContent`, body),
	)
}

// TestWidgetSourceLinks: under a reply the widget lists its sources as links that open a
// new tab without a handle on the page (rel noopener nofollow), labelled in the widget's
// language, and drops the body's "Source:" line they replace; a source without an http(s)
// URL is plain text, and markup in a title stays text. A token with show_sources off shows
// neither the list nor the line.
func TestWidgetSourceLinks(t *testing.T) {
	chromiumPath(t)
	h := newHarness(t)
	id, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), SalesMode: ptr(false)})
	recs, err := kb.ParseJSONL(strings.NewReader(oddSourceJSONL))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := kb.BuildAll(recs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.ImportDocuments(context.Background(), id, docs); err != nil {
		t.Fatal(err)
	}
	shown, _ := h.createToken(key, url.Values{"domains": {"localhost"}})
	hidden, _ := h.createToken(key, url.Values{"domains": {"localhost"}, "show_sources": {"false"}})
	page := func(token string) string {
		return strings.Replace(hostSite(t, h.srv.URL+"/widget.js", token).URL, "127.0.0.1", "localhost", 1) + "/"
	}

	ctx := browser(t)
	var rows []sourceRow
	var label, body string
	err = run(ctx, chromedp.Navigate(page(shown)), openWidget(),
		ask("Which payment methods do you accept?"), assistantCount(1), lastSources(&rows, &label, &body))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || !strings.HasPrefix(rows[0].Href, "https://yolcu-outdoor.example/") || rows[0].Text == "" ||
		rows[0].Target != "_blank" || !strings.Contains(rows[0].Rel, "noopener") || !strings.Contains(rows[0].Rel, "nofollow") {
		t.Fatalf("source links: %+v", rows)
	}
	if label != "Sources" || strings.Contains(body, "Source:") || strings.Contains(body, rows[0].Href) {
		t.Fatalf("label %q, body %q: the source line should give way to the list", label, body)
	}

	err = run(ctx, ask("Do you offer gift wrapping & cards?"), assistantCount(2), lastSources(&rows, &label, &body))
	if err != nil {
		t.Fatal(err)
	}
	var pwned bool
	if err := run(ctx, eval(`window.pwned === 1`, &pwned)); err != nil {
		t.Fatal(err)
	}
	want := `<img src=x onerror="window.pwned=1">Do you offer gift wrapping & cards?`
	if len(rows) != 1 || rows[0].Text != want || rows[0].Href != "" || pwned {
		t.Fatalf("a source without an http(s) URL: %+v (pwned %v); body %q", rows, pwned, body)
	}

	other := browser(t)
	err = run(other, chromedp.Navigate(page(hidden)), openWidget(),
		ask("Which payment methods do you accept?"), assistantCount(1), lastSources(&rows, &label, &body))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 0 || label != "" || strings.Contains(body, "Source:") || body == "" {
		t.Fatalf("show_sources off: %+v %q, body %q", rows, label, body)
	}
}
