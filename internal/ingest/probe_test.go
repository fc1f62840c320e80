package ingest

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

func TestProbe(t *testing.T) {
	files := map[string][]byte{
		"a.docx": docxOf(t, wp("Titel", "Returns policy")+wp("", "You may return goods within 14 days.")+wp("berschrift1", "Sizes")+wtbl(true, []string{"Size", "Chest"}, []string{"M", "96–101 cm"}, []string{"L", "102–107 cm"})+wli(0, "first")+wli(1, "nested")+wp("Custom", "Custom heading")+wp("", "after")),
		"b.odt":  odtOf(t, `<text:h text:outline-level="1">Versand</text:h><text:p>Wir liefern in <text:span>zwei</text:span><text:s text:c="3"/>Tagen.</text:p><text:list><text:list-item><text:p>eins</text:p><text:list><text:list-item><text:p>zwei</text:p></text:list-item></text:list></text:list-item></text:list>`+odsTable("T", true, []string{"Größe", "Brust"}, []string{"M", "96 cm"})),
		"c.ods":  odsOf(t, odsTable("Beden", false, []string{"Beden", "Göğüs"}, []string{"M", "96–101 cm"}, []string{"", ""}, []string{"L", "102 cm"}), odsTable("Empty", false)),
		"d.xlsx": xlsxOf(t, xsheet{"Sizes", [][]any{{"Size", "Chest"}, {"M", "96–101 cm"}, {"L", 102.5}}}, xsheet{"Notes", [][]any{{"Free returns within 30 days"}}}),
		"e.pdf":  pdfOf(t, "# Rückgabe", "Sie können Waren binnen 14 Tagen zurückgeben. This is a long paragraph that wraps over several lines so we can see how the extractor handles wrapped lines.", "# Size chart", "Second paragraph here.", "- a bullet item", "\f", "Page two text."),
		"f.md":   []byte("# Title\n\nSome *text* with [a link](http://x).\n\n## Sizes\n\n| Size | Chest |\n|---|---|\n| M | 96 cm |\n\n- one\n  - two\n- three\n\n```\ncode here\n```\n"),
		"g.csv":  []byte("Größe;Brust;Taille\nM;96–101 cm;80\nL;102 cm;86\n"),
		"h.html": []byte("<html><head><title>Size guide | Shop</title></head><body><nav>menu</nav><main><h1>Size guide</h1><p>Our sizes run small.</p><table><tr><th>Size</th><th>Chest</th></tr><tr><td>M</td><td>96 cm</td></tr></table></main></body></html>"),
		"i.txt":  []byte("# Hello\n\nPlain <p>text</p> here.\n"),
	}
	for name, data := range files {
		res, err := Read(context.Background(), bytes.NewReader(data), Options{Name: name})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		d := res.Documents[0]
		fmt.Printf("=== %s [%s] %q lang=%s\n", name, res.Format, d.Title, d.Lang)
		for _, c := range d.Chunks {
			fmt.Printf("  [%s] %q\n", c.Heading, c.Text)
		}
	}
}
