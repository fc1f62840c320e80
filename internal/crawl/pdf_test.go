package crawl_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"svc/internal/crawl"
)

// minimalPDF writes a one-page PDF showing lines of text, with a correct cross-reference
// table, the way a PDF library would.
func minimalPDF(lines ...string) []byte {
	var content strings.Builder
	content.WriteString("BT /F1 12 Tf 72 720 Td 14 TL\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) Tj T*\n", l)
	}
	content.WriteString("ET")
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()),
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

// A linked PDF becomes KB text; a broken one is skipped without failing the crawl.
func TestPDFsBecomeKBText(t *testing.T) {
	manual := minimalPDF("Charging the battery", "A full charge takes four and a half hours with the standard charger.")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, page("Downloads", "Manuals for every model of our e-bikes.",
				`<a href="/docs/e-bike-manual.pdf">Manual</a> <a href="/docs/broken.pdf">Broken</a>`))
		case "/docs/e-bike-manual.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write(manual)
		case "/docs/broken.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	e := newEnv(t, srv.URL)
	res := e.crawl(t, crawl.Options{})
	if res.SkippedBy["empty"] != 1 || res.Updated != 2 {
		t.Fatalf("crawl: %+v", res)
	}
	for _, d := range e.docs(t) {
		if strings.HasSuffix(d.URL, "e-bike-manual.pdf") {
			if d.Title != "e bike manual" || !strings.Contains(d.Chunks, "four and a half hours") {
				t.Fatalf("pdf stored as %+v", d)
			}
			return
		}
	}
	t.Fatal("the PDF was not stored")
}
