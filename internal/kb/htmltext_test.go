package kb

import (
	"reflect"
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
				{heading: true, text: "How"},
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
			name: "plain text keeps paragraphs and line breaks",
			in:   "# Delivery\n\nWe ship   in 2 days.\nExpress: 1 day.\r\n\r\nPrice < 100 TL & more",
			want: []block{
				{heading: true, text: "Delivery"},
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
