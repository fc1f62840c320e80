package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/store"
)

func read(t *testing.T, name string, data []byte, opt Options) (Result, error) {
	t.Helper()
	opt.Name = name
	return Read(context.Background(), bytes.NewReader(data), opt)
}

func mustRead(t *testing.T, name string, data []byte, opt Options) store.Document {
	t.Helper()
	res, err := read(t, name, data, opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Documents) != 1 || res.Chunks() == 0 {
		t.Fatalf("%s: %d documents, %d chunks", name, len(res.Documents), res.Chunks())
	}
	return res.Documents[0]
}

// chunk finds the chunk holding want and returns its heading.
func chunkWith(t *testing.T, d store.Document, want string) store.Chunk {
	t.Helper()
	for _, c := range d.Chunks {
		if strings.Contains(c.Text, want) {
			return c
		}
	}
	var all []string
	for _, c := range d.Chunks {
		all = append(all, fmt.Sprintf("[%s] %q", c.Heading, c.Text))
	}
	t.Fatalf("no chunk holds %q:\n%s", want, strings.Join(all, "\n"))
	return store.Chunk{}
}

// Every format keeps its structure: headings head their sections' chunks, table rows carry
// their column headers, lists stay lists, sheets are sections; the language is detected.
func TestFormatsKeepStructure(t *testing.T) {
	t.Parallel()
	type want struct {
		text, heading string
	}
	cases := []struct {
		name  string
		data  []byte
		lang  string
		title string
		wants []want
	}{
		{"returns.docx", docxOf(t,
			wp("Titel", "Returns policy")+
				wp("", "You may return goods within 14 days of delivery, unworn and with their labels.")+
				wp("berschrift1", "Size chart")+
				wtbl(true, []string{"Size", "Chest"}, []string{"M", "96–101 cm"}, []string{"L", "102–107 cm"})+
				wp("berschrift2", "Care")+wli(0, "Wash cold")+wli(1, "inside out")+
				wp("Custom", "Leather")+wp("", "Polish the leather every month.")),
			"en", "returns", []want{
				{"Size: M, Chest: 96–101 cm", "Size chart"},
				{"- Wash cold\n  - inside out", "Size chart › Care"},
				{"Polish the leather", "Size chart › Leather"}, // based on heading 2, as Care
				{"You may return goods", "Returns policy"},
			}},
		{"versand.odt", odtOf(t, `<text:h text:outline-level="1">Versand und Lieferung</text:h>`+
			`<text:p>Wir liefern innerhalb von <text:span>zwei</text:span><text:s text:c="2"/>Werktagen. Die Lieferung ist ab 50 Euro kostenlos und wir versenden mit DHL.</text:p>`+
			`<text:h text:outline-level="2">Größen</text:h>`+
			odsTable("Größen", true, []string{"Größe", "Brustumfang"}, []string{"M", "96–101 cm"})+
			`<text:list><text:list-item><text:p>Paket</text:p><text:list><text:list-item><text:p>Brief</text:p></text:list-item></text:list></text:list-item></text:list>`),
			"de", "versand", []want{
				{"Größe: M, Brustumfang: 96–101 cm", "Größen"},
				{"- Paket\n  - Brief", "Größen"},
				{"Wir liefern innerhalb von zwei Werktagen", "Versand und Lieferung"},
			}},
		{"beden.ods", odsOf(t,
			odsTable("Beden tablosu", false, []string{"Beden", "Göğüs", "Bel"}, []string{"M", "96–101 cm", "80 cm"},
				[]string{"", "", ""}, []string{"L", "102–107 cm", "86 cm"}),
			odsTable("Boş", false),
			odsTable("Notlar", false, []string{"Ürünlerimizi iade etmek için faturanızı saklayın ve kargoya verin."})),
			"tr", "beden", []want{
				{"Beden: L, Göğüs: 102–107 cm, Bel: 86 cm", "Beden tablosu"},
				{"Ürünlerimizi iade etmek", "Notlar"},
			}},
		{"sizes.xlsx", xlsxOf(t,
			xsheet{"Size chart", [][]any{{"Size", "Chest", "Waist"}, {"M", "96–101 cm", 80}, {"L", "102–107 cm", 86.5}}},
			xsheet{"Shipping", [][]any{{"Country", "Days"}, {"Germany", 2}, {"Turkey", 5}}},
			xsheet{"Empty", nil}),
			"en", "sizes", []want{
				{"Size: M, Chest: 96–101 cm, Waist: 80", "Size chart"},
				{"Country: Turkey, Days: 5", "Shipping"},
			}},
		{"iade.csv", []byte("Beden;Göğüs;Fiyat\nM;96–101 cm;\"1.299,90 TL\"\n\nL;102–107 cm;1.399,90 TL\n"),
			"tr", "iade", []want{{"Beden: M, Göğüs: 96–101 cm, Fiyat: 1.299,90 TL", "iade"}}},
		{"guide.md", []byte("# Care guide\n\nClean your *boots* with a soft [brush](https://x.test).\n\n## Sizes\n\n| Size | Chest |\n|---|---|\n| M | 96–101 cm |\n\n- dry slowly\n  - away from heat\n- polish\n\n```\nno code runs here\n```\n"),
			"en", "guide", []want{
				{"Size: M, Chest: 96–101 cm", "Sizes"},
				{"- dry slowly\n  - away from heat\n- polish", "Sizes"},
				{"Clean your boots with a soft brush.", "Care guide"},
			}},
		{"size-guide.html", []byte(`<!doctype html><html lang="en"><head><title>Size guide | Shop</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav><main><h1>Size guide</h1><p>Our boots run small: take one size up when in doubt.</p>
<h2>Boots</h2><table><thead><tr><th>EU</th><th>UK</th></tr></thead><tbody><tr><td>42</td><td>8</td></tr></tbody></table></main>
<footer>© Shop</footer></body></html>`),
			"en", "Size guide", []want{{"EU: 42, UK: 8", "Boots"}}},
		{"notes.txt", []byte("# Opening hours\n\nWe open at <b>9</b> every weekday and close at 18 o'clock.\n\nOn Saturdays we open at 10.\n"),
			"en", "notes", []want{{"We open at <b>9</b> every weekday", "Opening hours"}}},
		{"manual.pdf", pdfOf(t, "# Rückgabe und Umtausch", "Sie können Waren innerhalb von 14 Tagen zurückgeben. Die Rücksendung ist für Sie kostenlos, wenn Sie das beiliegende Etikett verwenden und die Ware unbenutzt ist.",
			"# Pflege", "Leder regelmäßig mit Wachs pflegen.", "• Nicht in die Waschmaschine", "\f", "Weitere Hinweise finden Sie online."),
			"de", "manual", []want{
				{"Sie können Waren innerhalb von 14 Tagen zurückgeben.", "Rückgabe und Umtausch"},
				{"- Nicht in die Waschmaschine", "Pflege"},
				{"Weitere Hinweise", "Pflege"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := mustRead(t, tc.name, tc.data, Options{})
			if d.Lang != tc.lang || d.Title != tc.title || d.Type != store.DocPage {
				t.Errorf("lang %q title %q type %q; want %q %q", d.Lang, d.Title, d.Type, tc.lang, tc.title)
			}
			for _, w := range tc.wants {
				if c := chunkWith(t, d, w.text); c.Heading != w.heading {
					t.Errorf("%q is under %q, want %q", w.text, c.Heading, w.heading)
				}
			}
			// The same file again is the same document: its content hash is stable.
			if again := mustRead(t, tc.name, tc.data, Options{}); again.Hash != d.Hash {
				t.Error("reading the file twice gave two hashes")
			}
		})
	}
}

// Options override the title, the URL and the language.
func TestOptions(t *testing.T) {
	t.Parallel()
	d := mustRead(t, "x.txt", []byte("Kargo ücretsizdir ve siparişler iki gün içinde teslim edilir."),
		Options{Title: "Kargo", URL: "https://shop.test/kargo", Lang: "de"})
	if d.Title != "Kargo" || d.URL != "https://shop.test/kargo" || d.Lang != "de" {
		t.Fatalf("%q %q %q", d.Title, d.URL, d.Lang)
	}
	if d := mustRead(t, "x.txt", []byte("Kargo ücretsizdir ve siparişler iki gün içinde teslim edilir."), Options{}); d.Lang != "tr" {
		t.Fatalf("detected %q", d.Lang)
	}
	if _, err := read(t, "x.txt", []byte("text"), Options{Lang: "fr"}); errs.KindOf(err) != errs.BadRequest {
		t.Fatalf("lang fr: %v", err)
	}
}

// Detection goes by content for containers and by name for text, and refuses the rest.
func TestDetect(t *testing.T) {
	t.Parallel()
	docx := docxOf(t, wp("", "hello"))
	odt := odtOf(t, `<text:p>hello</text:p>`)
	xlsx := xlsxOf(t, xsheet{"S", [][]any{{"a"}}})
	ods := odsOf(t, odsTable("S", false, []string{"a"}))
	pdf := pdfOf(t, "hello")
	ole := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...)
	other := zipOf(t, [2]string{"readme.txt", "hi"})
	cases := []struct {
		name string
		data []byte
		want Format
		code string
	}{
		{"a.docx", docx, DOCX, ""},
		{"a.pdf", docx, DOCX, ""}, // content wins for containers
		{"upload", odt, ODT, ""},
		{"a.xlsx", xlsx, XLSX, ""},
		{"a.ods", ods, ODS, ""},
		{"a.PDF", pdf, PDF, ""},
		{"a.txt", pdf, PDF, ""},
		{"a.csv", []byte("a,b\n1,2\n"), CSV, ""},
		{"a.tsv", []byte("a\tb\n"), CSV, ""},
		{"a.markdown", []byte("# x"), Markdown, ""},
		{"a.htm", []byte("<p>x</p>"), HTML, ""},
		{"a.txt", []byte("<!DOCTYPE html><html><body>x</body></html>"), HTML, ""},
		{"README", []byte("plain"), Text, ""},
		{"a.txt", []byte("<p>still text</p>"), Text, ""},
		{"a.pdf", []byte("not a pdf at all"), "", CodeCorrupt},
		{"a.xlsx", []byte("PK\x03\x04garbage"), "", CodeCorrupt},
		{"a.docx", ole, "", CodeEncrypted},
		{"a.doc", ole, "", CodeUnknownFormat},
		{"a.zip", other, "", CodeUnknownFormat},
		{"a.json", []byte(`{"a":1}`), "", CodeUnknownFormat},
		{"a.txt", []byte("\x00\x01\x02binary"), "", CodeUnknownFormat},
		{"photo.jpg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF"), "", CodeUnknownFormat},
	}
	for _, tc := range cases {
		got, err := Detect(tc.name, tc.data)
		if got != tc.want || Code(err) != tc.code {
			t.Errorf("%s: %q %v; want %q %q", tc.name, got, err, tc.want, tc.code)
		}
	}
}

// encryptedPDF is a PDF that needs a user password to open.
func encryptedPDF(t testing.TB, user string) []byte {
	p := fpdf.New("P", "mm", "A4", "")
	p.SetProtection(fpdf.CnProtectPrint, user, "owner")
	p.AddPage()
	p.SetFont("Helvetica", "", 11)
	p.MultiCell(0, 5, "Secret price list for our resellers: every boot costs 80 euros.", "", "", false)
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// scanPDF is a PDF of pages with drawings and no text layer, as a scanner makes.
func scanPDF(t testing.TB, pages int) []byte {
	p := fpdf.New("P", "mm", "A4", "")
	for range pages {
		p.AddPage()
		p.Rect(10, 10, 100, 100, "F")
	}
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Every problem of a file is a client error naming the file, with its code, its sentinel
// and a message the catalog has in every language.
func TestFileProblems(t *testing.T) {
	t.Parallel()
	big := make([]byte, 2<<20)
	for i := range big {
		big[i] = 'a' + byte(i%26)
		if i%80 == 79 {
			big[i] = '\n'
		}
	}
	var rows strings.Builder
	rows.WriteString("a,b\n")
	for i := range 50 {
		fmt.Fprintf(&rows, "x%d,y%d\n", i, i)
	}
	deep := strings.Repeat("<w:sdt><w:sdtContent>", 200) + wp("", "deep") + strings.Repeat("</w:sdtContent></w:sdt>", 200)
	bomb := zipOf(t, [2]string{"word/document.xml", `<w:document ` + wordNS + `><w:body>` + wp("", strings.Repeat("a", 3<<20)) + `</w:body></w:document>`})
	var many [][2]string
	for i := range 40 {
		many = append(many, [2]string{fmt.Sprintf("word/part%d.xml", i), "x"})
	}
	many = append(many, [2]string{"word/document.xml", `<w:document ` + wordNS + `/>`})
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cases := []struct {
		name string
		data []byte
		lim  Limits
		code string
		is   error
		ctx  context.Context
	}{
		{"secret.pdf", encryptedPDF(t, "pw"), Limits{}, CodeEncrypted, ErrEncrypted, nil},
		{"scan.pdf", scanPDF(t, 2), Limits{}, CodeNoText, ErrNoText, nil},
		{"long.pdf", scanPDF(t, 3), Limits{MaxPages: 2}, CodeTooManyPages, ErrTooManyPages, nil},
		{"big.txt", big, Limits{MaxBytes: 1 << 20}, CodeTooLarge, ErrTooLarge, nil},
		{"rows.csv", []byte(rows.String()), Limits{MaxRows: 20}, CodeTooManyRows, ErrTooManyRows, nil},
		{"cells.csv", []byte(rows.String()), Limits{MaxCells: 30}, CodeTooManyCells, ErrTooManyRows, nil},
		{"text.txt", big, Limits{MaxText: 1 << 20}, CodeTooMuchText, ErrTooMuchText, nil},
		{"deep.docx", docxOf(t, deep), Limits{MaxXMLDepth: 64}, CodeXMLDepth, ErrTooComplex, nil},
		{"bomb.docx", bomb, Limits{MaxUnzipped: 1 << 20}, CodeZipBomb, ErrTooComplex, nil},
		{"parts.docx", zipOf(t, many...), Limits{MaxZipEntries: 20}, CodeZipEntries, ErrTooComplex, nil},
		{"sheets.xlsx", xlsxOf(t, xsheet{"a", [][]any{{"x"}}}, xsheet{"b", [][]any{{"y"}}}), Limits{MaxSheets: 1}, CodeTooManySheets, ErrTooManyRows, nil},
		{"slow.csv", []byte(rows.String()), Limits{}, CodeTimeout, ErrTimeout, expired},
		{"empty.txt", nil, Limits{}, CodeNoText, ErrNoText, nil},
		{"blank.md", []byte("\n\n   \n"), Limits{}, CodeNoText, ErrNoText, nil},
		{"empty.xlsx", xlsxOf(t, xsheet{"a", nil}), Limits{}, CodeNoText, ErrNoText, nil},
		{"broken.pdf", []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage"), Limits{}, CodeCorrupt, ErrCorrupt, nil},
		{"data.bin", []byte{0, 1, 2, 3}, Limits{}, CodeUnknownFormat, ErrUnknownFormat, nil},
	}
	cat := i18n.MustLoad()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.ctx
			if c == nil {
				c = context.Background()
			}
			res, err := Read(c, bytes.NewReader(tc.data), Options{Name: "uploads/" + tc.name, Limits: tc.lim})
			if err == nil {
				t.Fatalf("read: %d documents", len(res.Documents))
			}
			if Code(err) != tc.code || !errors.Is(err, tc.is) {
				t.Fatalf("%v: code %q, want %q (%v)", err, Code(err), tc.code, tc.is)
			}
			e, ok := errs.As(err)
			wantKind := errs.BadRequest
			if tc.code == CodeTooLarge {
				wantKind = errs.TooLarge
			}
			if !ok || e.Kind != wantKind || !strings.HasPrefix(e.Safe, tc.name) || e.Key != "err.ingest."+tc.code {
				t.Fatalf("error %+v", e)
			}
			for _, l := range i18n.Langs {
				if msg := cat.T(l, e.Key, e.Args...); strings.Contains(msg, "%!") || !strings.Contains(msg, tc.name) {
					t.Errorf("%s: %q", l, msg)
				}
			}
		})
	}
}

// A PDF encrypted with an empty password whose streams the library cannot decrypt (fpdf's
// RC4) is reported as encrypted, not as a scan without text.
func TestPDFEncryptedWithEmptyPassword(t *testing.T) {
	t.Parallel()
	_, err := read(t, "open.pdf", encryptedPDF(t, ""), Options{})
	if Code(err) != CodeEncrypted {
		t.Fatalf("%v", err)
	}
}

// Running headers and footers and page numbers are dropped; a paragraph's hyphenated line
// ends are joined.
func TestPDFRunningHeaders(t *testing.T) {
	t.Parallel()
	p := fpdf.New("P", "mm", "A4", "")
	p.SetHeaderFunc(func() {
		p.SetFont("Helvetica", "", 8)
		p.CellFormat(0, 5, "Acme GmbH - Handbuch", "", 1, "", false, 0, "")
	})
	p.SetFooterFunc(func() {
		p.SetY(-15)
		p.SetFont("Helvetica", "", 8)
		p.CellFormat(0, 5, fmt.Sprintf("Seite %d", p.PageNo()), "", 0, "C", false, 0, "")
	})
	tr := p.UnicodeTranslatorFromDescriptor("")
	for i := range 3 {
		p.AddPage()
		p.SetFont("Helvetica", "", 11)
		p.MultiCell(0, 5, tr(fmt.Sprintf("Kapitel %d erklärt die Bedienung des Geräts ausführlich und Schritt für Schritt.", i+1)), "", "", false)
	}
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		t.Fatal(err)
	}
	d := mustRead(t, "handbuch.pdf", buf.Bytes(), Options{})
	if strings.Contains(d.Body, "Acme GmbH") || strings.Contains(d.Body, "Seite") {
		t.Fatalf("running header or footer kept: %q", d.Body)
	}
	chunkWith(t, d, "Kapitel 3 erklärt die Bedienung")
}

// The catalog has every problem's message in every language with the English arguments.
func TestCatalogHasEveryProblem(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	for code := range messages {
		if !cat.Has("err.ingest." + code) {
			t.Errorf("catalog lacks err.ingest.%s", code)
		}
	}
	for _, k := range []string{"err.ingest.product_rows", "err.ingest.price", "err.ingest.sku_repeated", "err.ingest.url_repeated"} {
		if !cat.Has(k) {
			t.Errorf("catalog lacks %s", k)
		}
	}
}
