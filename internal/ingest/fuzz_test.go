package ingest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"svc/internal/errs"
)

// fuzzLimits keep one fuzzed input cheap: what the bounds refuse is checked by the unit
// tests, here they only keep the fuzzer fast.
var fuzzLimits = Limits{MaxBytes: 1 << 20, MaxPages: 20, MaxRows: 2000, MaxCells: 20000, MaxText: 1 << 20,
	MaxZipEntries: 100, MaxUnzipped: 8 << 20, MaxXMLDepth: 64, Timeout: 5 * time.Second}

// checkRead reads data as name and checks what every reader promises whatever the input:
// no panic; an error is a client error with a problem code; a result has documents whose
// text is valid UTF-8 without NULs, in chunks no longer than the chunker's bound.
func checkRead(t *testing.T, name string, data []byte) {
	res, err := Read(context.Background(), bytes.NewReader(data), Options{Name: name, Limits: fuzzLimits})
	if err != nil {
		if k := errs.KindOf(err); (k != errs.BadRequest && k != errs.TooLarge) || Code(err) == "" {
			t.Fatalf("error of kind %v, code %q: %v", k, Code(err), err)
		}
		return
	}
	if len(res.Documents) == 0 || res.Chunks() == 0 {
		t.Fatalf("no error and nothing read: %+v", res)
	}
	for _, d := range res.Documents {
		if !utf8.ValidString(d.Body) || strings.ContainsRune(d.Body, 0) || d.Lang == "" {
			t.Fatalf("body %q lang %q", d.Body, d.Lang)
		}
		for _, c := range d.Chunks {
			if !utf8.ValidString(c.Text) || utf8.RuneCountInString(c.Text) > 1100 {
				t.Fatalf("chunk of %d runes: %q", utf8.RuneCountInString(c.Text), c.Text)
			}
		}
	}
}

// minimalPDF is a one-page PDF whose content stream is content, uncompressed, with a
// WinAnsi Helvetica as /F1.
func minimalPDF(content string) []byte {
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

func FuzzPDF(f *testing.F) {
	f.Add(pdfOf(f, "# Returns", "You may return goods within 14 days.", "- a bullet"))
	f.Add(minimalPDF("BT /F1 12 Tf 72 720 Td 14 TL (Charging the battery) Tj T* (A full charge takes four hours.) Tj ET"))
	f.Add(scanPDF(f, 1))
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, "f.pdf", data) })
}

// FuzzPDFContent fuzzes the content stream interpreter inside a valid file.
func FuzzPDFContent(f *testing.F) {
	f.Add("BT /F1 12 Tf 72 720 Td 14 TL (Charging the battery) Tj T* (A full charge takes four hours.) Tj ET")
	f.Add("BT /F1 24 Tf 1 0 0 1 72 700 Tm (Heading) Tj /F1 10 Tf 0 -30 TD [(Wor) -40 (ds) -300 (apart)] TJ (next) ' ET")
	f.Add("q 0.75 0 0 -0.75 0 792 cm BT /F1 12 Tf 2 Tc 1 Tw 90 Tz (scaled) Tj ET Q Q Q")
	f.Add("BT /F9 12 Tf (no such font) Tj /F1 Tf () Tj [1 2 (x)] TJ 1 2 3 \" ET")
	// A hex string open at the end of the stream made the library's lexer loop forever.
	f.Add("BT /F1 12 Tf (before) Tj <48 65")
	f.Fuzz(func(t *testing.T, content string) { checkRead(t, "c.pdf", minimalPDF(content)) })
}

func FuzzDOCX(f *testing.F) {
	f.Add(wp("Titel", "Returns") + wp("", "Text.") + wtbl(true, []string{"Size", "Chest"}, []string{"M", "96 cm"}) + wli(1, "item"))
	f.Add(`<w:p><w:p><w:r><w:t>box</w:t></w:r></w:p></w:p><w:tbl><w:tr><w:tc><w:tbl><w:tr><w:tc>` + wp("", "in") + `</w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>`)
	f.Add(`<w:p><w:pPr><w:outlineLvl w:val="99"/><w:numPr><w:ilvl w:val="-5"/></w:numPr></w:pPr><w:r><w:delText>gone</w:delText><w:tab/><w:br/><w:t>&amp;&lt;</w:t></w:r></w:p></w:tc></w:tr>`)
	f.Fuzz(func(t *testing.T, bodyXML string) { checkRead(t, "f.docx", docxOf(t, bodyXML)) })
}

func FuzzODT(f *testing.F) {
	f.Add(`<text:h text:outline-level="2">Versand</text:h><text:p>Wir <text:s text:c="3"/>liefern.<text:line-break/></text:p><text:list><text:list-item><text:p>eins</text:p></text:list-item></text:list>` +
		odsTable("T", true, []string{"a", "b"}, []string{"1", "2"}))
	f.Add(`<text:h text:outline-level="-1"><text:note><text:p>n</text:p></text:note>x</text:h></text:list></table:table-row>`)
	f.Fuzz(func(t *testing.T, inner string) { checkRead(t, "f.odt", odtOf(t, inner)) })
}

func FuzzODS(f *testing.F) {
	f.Add(odsTable("Beden", false, []string{"Beden", "Göğüs"}, []string{"M", "96 cm"}))
	f.Add(`<table:table table:name="x"><table:table-row table:number-rows-repeated="99999999"><table:table-cell table:number-columns-repeated="99999999" office:value-type="string"><text:p>a</text:p></table:table-cell></table:table-row></table:table>`)
	f.Fuzz(func(t *testing.T, tables string) { checkRead(t, "f.ods", odsOf(t, tables)) })
}

// FuzzXLSX fuzzes the first sheet's XML of a workbook excelize wrote.
func FuzzXLSX(f *testing.F) {
	base := xlsxOf(f, xsheet{"Sheet", [][]any{{"Size", "Chest"}, {"M", "96 cm"}}})
	f.Add([]byte(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Size</t></is></c><c r="B1" t="inlineStr"><is><t>Chest</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>M</t></is></c><c r="B2"><v>96</v></c></row></sheetData></worksheet>`))
	f.Add([]byte(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1048576"><c r="XFD1048576" t="s"><v>99</v></c></row></sheetData></worksheet>`))
	f.Fuzz(func(t *testing.T, sheet []byte) {
		checkRead(t, "f.xlsx", replaceMember(t, base, "xl/worksheets/sheet1.xml", sheet))
	})
}

// replaceMember rewrites one member of a zip.
func replaceMember(t testing.TB, data []byte, name string, content []byte) []byte {
	zr, err := zipReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var members [][2]string
	for _, m := range zr.File {
		if m.Name == name {
			members = append(members, [2]string{name, string(content)})
			continue
		}
		rc, err := m.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(rc)
		rc.Close()
		members = append(members, [2]string{m.Name, b.String()})
	}
	return zipOf(t, members...)
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("Größe;Brust\nM;\"96,5 cm\"\n"))
	f.Add([]byte("a,\"b\nc\",d\n\"unterminated\n"))
	f.Add([]byte("\xff\xfea\x00,\x00b\x00\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, "f.csv", data) })
}

func FuzzMarkdown(f *testing.F) {
	f.Add([]byte("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n  - y\n\n```\ncode\n```\n<div>raw</div>\n"))
	f.Add([]byte(strings.Repeat("> ", 300) + "deep\n" + strings.Repeat("- ", 300) + "list\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, "f.md", data) })
}

func FuzzHTML(f *testing.F) {
	f.Add([]byte("<html><head><title>T</title></head><body><table><thead><tr><th>a</th></tr></thead><tr><td>1</td></tr></table></body></html>"))
	f.Add([]byte("<table><caption>c</caption><tr><td><table><tr><td>in</td></tr></table></td></tr></table><p>x</p>"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, "f.html", data) })
}

func FuzzText(f *testing.F) {
	f.Add([]byte("# Hello\n\nPlain text.\r\nMore.\n"))
	f.Add([]byte("\xef\xbb\xbfKargo \xfd\xf0\xfe\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, "f.txt", data) })
}

// FuzzDetect gives Read any bytes under any name.
func FuzzDetect(f *testing.F) {
	f.Add("a.docx", docxOf(f, wp("", "hello")))
	f.Add("a.ods", odsOf(f, odsTable("S", false, []string{"a"})))
	f.Add("x", []byte("PK\x03\x04"))
	f.Add("a.doc", []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	f.Fuzz(func(t *testing.T, name string, data []byte) { checkRead(t, name, data) })
}

// FuzzProducts reads any CSV as a products file: an error is a client error, products have
// names and checked fields.
func FuzzProducts(f *testing.F) {
	f.Add([]byte("name,price,url,sku\nBoot,119.90 €,https://shop.test/boot,B1\nSock,cheap,,\n"))
	f.Add([]byte("Ürün Adı;Fiyat\nBot;1.299,90 TL\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Products(context.Background(), bytes.NewReader(data), Options{Name: "p.csv", Limits: fuzzLimits})
		if err != nil {
			if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			return
		}
		for _, d := range docs {
			if d.Product == nil || d.Product.Name == "" || (d.Product.Price != "" && !validPrice(d.Product.Price)) {
				t.Fatalf("product %+v", d.Product)
			}
		}
	})
}
