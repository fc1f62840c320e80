package kb

import (
	"reflect"
	"strings"
	"testing"
)

func TestToBlocks(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      []block
		wantTitle string
	}{
		{
			name: "page chrome dropped, headings and entities kept",
			in: `<!doctype html><html><head><title>Returns &amp; Refunds</title><style>p{color:red}</style></head>
<body><header><a href="/">Logo</a> Home | Shop</header>
<nav><ul><li>Menu item</li></ul></nav>
<main><h1>Returns   &amp; refunds</h1>
<p>Boots can be returned within&nbsp;30 days &ndash; free of charge.</p>
<script>var tracking = "secret";</script>
<h2>How</h2><ul><li>Open your <b>order</b></li><li>Print the label</li></ul>
<div style="display: none">Cookie banner</div>
<aside>Related posts</aside><form><input name="q"> Search</form></main>
<footer>© 2026 Shop · Imprint</footer></body></html>`,
			// Readability drops the <h1> that repeats the title; the title heads every chunk.
			want: []block{
				{text: "Boots can be returned within 30 days – free of charge."},
				{heading: true, level: 2, text: "How"},
				{text: "Open your order"},
				{text: "Print the label"},
			},
			wantTitle: "Returns & Refunds",
		},
		{
			name: "fragment with br and table",
			in:   `<p>Store<br>Moda Cad. 12</p><table><tr><td>Mon</td><td>10:00&ndash;20:00</td></tr></table>`,
			want: []block{
				{text: "Store"},
				{text: "Moda Cad. 12"},
				{text: "Mon 10:00–20:00"},
			},
		},
		{
			// A table of contents and tabs that link to the page's own sections repeat
			// its headings, and so does one such item of a list; text of its own around
			// such a link, or a link elsewhere, is content.
			name: "in-page links dropped",
			in: `<p>Avoid these scams:</p><ul><li><a href="#phishing">Phishing</a></li><li><a href="#">SIM swap</a></li></ul>` +
				`<p><a href="#use">How to use it</a> <a href="#accept">How to accept it</a></p>` +
				`<h2 id="phishing">Phishing</h2><p>Check the <a href="#phishing">address</a> before you log in.</p>` +
				`<ul><li><a href="#wiki">Wiki</a></li><li><a href="https://forum.example/">Forum</a></li></ul>`,
			want: []block{
				{text: "Avoid these scams:"},
				{heading: true, level: 2, text: "Phishing"},
				{text: "Check the address before you log in."},
				{text: "Forum"},
			},
		},
		{
			name: "plain text keeps paragraphs and line breaks",
			in:   "# Delivery\n\nWe ship   in 2 days.\nExpress: 1 day.\r\n\r\nPrice < 100 TL & more",
			want: []block{
				{heading: true, level: 1, text: "Delivery"},
				{text: "We ship in 2 days.\nExpress: 1 day."},
				{text: "Price < 100 TL & more"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, title := toBlocks(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("blocks:\n got %+v\nwant %+v", got, tt.want)
			}
			if title != tt.wantTitle {
				t.Errorf("title = %q, want %q", title, tt.wantTitle)
			}
		})
	}
}

func TestLooksLikeHTML(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"<p>x</p>", true},
		{"a<br/>b", true},
		{`<DIV class="x">y</DIV>`, true},
		{"price < 100 and > 50", false},
		{"I <3 tents", false},
		{"use a <tent> please", false},
	}
	for _, tt := range tests {
		if got := looksLikeHTML(tt.in); got != tt.want {
			t.Errorf("looksLikeHTML(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// An imported page with a whole HTML document is cleaned like a crawled page: chrome built
// from divs (cookie banners, mega menus, "customers also bought") never reaches the index.
func TestWholePageImportDropsDivChrome(t *testing.T) {
	body := `<!doctype html><html lang="de"><head><title>Versand | Teehaus</title></head><body>
<div class="mega-menu"><a href="/">Start</a> Tee Zubehör Angebote</div>
<div id="cookie-consent" role="dialog"><p>Wir verwenden Cookies für ein besseres Einkaufserlebnis.</p></div>
<div class="content"><h1>Versand</h1>
<p>Wir versenden jede Bestellung innerhalb von zwei Werktagen mit DHL. Ab 40 Euro ist der Versand kostenlos.</p>
<p>Nach Österreich und in die Schweiz dauert die Lieferung drei bis fünf Werktage.</p></div>
<div class="related-products"><h3>Kunden kauften auch</h3><p>Teekanne Gusseisen</p></div>
<div class="site-copyright">© 2026 Teehaus</div></body></html>`
	doc, err := Build(Record{Type: TypePage, URL: "https://tee.example/versand", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Cookies", "Angebote", "Teekanne", "© 2026"} {
		if strings.Contains(doc.Body, bad) {
			t.Errorf("chrome %q in body: %q", bad, doc.Body)
		}
	}
	if !strings.Contains(doc.Body, "zwei Werktagen") || doc.Title != "Versand" || doc.Lang != "de" {
		t.Errorf("content lost: title %q lang %s body %q", doc.Title, doc.Lang, doc.Body)
	}
}
