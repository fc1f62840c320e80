package ingest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"
)

// The test files are made here rather than committed: each builder writes the smallest
// file of its format that a real program would write, with the parts the reader uses.

// zipOf writes a zip of the given members, in order (an OpenDocument file's "mimetype"
// first, stored, as the standard asks).
func zipOf(t testing.TB, members ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		method := zip.Deflate
		if m[0] == "mimetype" {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m[0], Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

// docxOf writes a Word document whose body is the given WordprocessingML (w:p, w:tbl …),
// with a styles part declaring Title and Heading 1–3 under localised ids, as German Word does.
func docxOf(t testing.TB, bodyXML string) []byte {
	t.Helper()
	styles := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ` + wordNS + `>
<w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style>
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="berschrift2"><w:name w:val="heading 2"/></w:style>
<w:style w:type="paragraph" w:styleId="Custom"><w:name w:val="My heading"/><w:basedOn w:val="berschrift2"/></w:style>
<w:style w:type="paragraph" w:styleId="Listenabsatz"><w:name w:val="List Paragraph"/></w:style>
</w:styles>`
	doc := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ` + wordNS + `><w:body>` + bodyXML + `</w:body></w:document>`
	return zipOf(t,
		[2]string{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		[2]string{"word/styles.xml", styles},
		[2]string{"word/document.xml", doc})
}

// wp is a Word paragraph of style (none when "") holding text.
func wp(style, text string) string {
	ppr := ""
	if style != "" {
		ppr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ppr + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

// wli is a bulleted Word paragraph at level.
func wli(level int, text string) string {
	return fmt.Sprintf(`<w:p><w:pPr><w:pStyle w:val="Listenabsatz"/><w:numPr><w:ilvl w:val="%d"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>%s</w:t></w:r></w:p>`, level, text)
}

// wtbl is a Word table; its first row is marked as a header row when header is set.
func wtbl(header bool, rows ...[]string) string {
	var sb strings.Builder
	sb.WriteString(`<w:tbl>`)
	for i, r := range rows {
		sb.WriteString(`<w:tr>`)
		if i == 0 && header {
			sb.WriteString(`<w:trPr><w:tblHeader/></w:trPr>`)
		}
		for _, c := range r {
			sb.WriteString(`<w:tc>` + wp("", c) + `</w:tc>`)
		}
		sb.WriteString(`</w:tr>`)
	}
	sb.WriteString(`</w:tbl>`)
	return sb.String()
}

const odfNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"`

// odfOf writes an OpenDocument file of mime type holding office:body's inner XML.
func odfOf(t testing.TB, mime, inner string) []byte {
	t.Helper()
	content := `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odfNS + ` office:version="1.3"><office:body>` + inner + `</office:body></office:document-content>`
	return zipOf(t, [2]string{"mimetype", mime},
		[2]string{"META-INF/manifest.xml", `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`},
		[2]string{"content.xml", content})
}

func odtOf(t testing.TB, textXML string) []byte {
	return odfOf(t, "application/vnd.oasis.opendocument.text", `<office:text>`+textXML+`</office:text>`)
}

// odsTable is an ODF table; header rows go in table:table-header-rows.
func odsTable(name string, header bool, rows ...[]string) string {
	var sb strings.Builder
	sb.WriteString(`<table:table table:name="` + name + `">`)
	for i, r := range rows {
		if i == 0 && header {
			sb.WriteString(`<table:table-header-rows>`)
		}
		sb.WriteString(`<table:table-row>`)
		for _, c := range r {
			if c == "" {
				sb.WriteString(`<table:table-cell/>`)
				continue
			}
			sb.WriteString(`<table:table-cell office:value-type="string"><text:p>` + c + `</text:p></table:table-cell>`)
		}
		// Every row of a real sheet ends with its empty columns repeated.
		sb.WriteString(`<table:table-cell table:number-columns-repeated="16000"/></table:table-row>`)
		if i == 0 && header {
			sb.WriteString(`</table:table-header-rows>`)
		}
	}
	sb.WriteString(`<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>`)
	sb.WriteString(`</table:table>`)
	return sb.String()
}

func odsOf(t testing.TB, tables ...string) []byte {
	return odfOf(t, "application/vnd.oasis.opendocument.spreadsheet", `<office:spreadsheet>`+strings.Join(tables, "")+`</office:spreadsheet>`)
}

// xlsxOf writes a workbook with excelize: sheets in order, each its rows from A1.
func xlsxOf(t testing.TB, sheets ...xsheet) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", s.name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(s.name); err != nil {
			t.Fatal(err)
		}
		for r, row := range s.rows {
			cell, _ := excelize.CoordinatesToCellName(1, r+1)
			vals := make([]any, len(row))
			for j, v := range row {
				vals[j] = v
			}
			if err := f.SetSheetRow(s.name, cell, &vals); err != nil {
				t.Fatal(err)
			}
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type xsheet struct {
	name string
	rows [][]any
}

// pdfOf writes a PDF with fpdf: each item a heading ("# " prefix, 18 pt bold) or a body
// paragraph (11 pt). Core fonts speak Windows-1252, so Turkish letters need another font.
func pdfOf(t testing.TB, items ...string) []byte {
	t.Helper()
	p := fpdf.New("P", "mm", "A4", "")
	tr := p.UnicodeTranslatorFromDescriptor("")
	p.AddPage()
	for _, it := range items {
		if h, ok := strings.CutPrefix(it, "# "); ok {
			p.SetFont("Helvetica", "B", 18)
			p.MultiCell(0, 9, tr(h), "", "", false)
			p.Ln(3)
			continue
		}
		if it == "\f" {
			p.AddPage()
			continue
		}
		p.SetFont("Helvetica", "", 11)
		p.MultiCell(0, 5, tr(it), "", "", false)
		p.Ln(4)
	}
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipReader(data []byte) (*zip.Reader, error) {
	return zip.NewReader(bytes.NewReader(data), int64(len(data)))
}
