package crawl

import (
	"bytes"
	"context"
	"strings"

	"svc/internal/ingest"
	"svc/internal/store"
)

// pdfLimits bound a PDF the crawler found: a manual of a few hundred pages is useful, a
// scanned catalogue of thousands would only crowd the index (and is refused whole rather
// than cut, as an upload is). The body is already bounded by the fetcher.
var pdfLimits = ingest.Limits{MaxText: 2 << 20}

// pdfDocument reads a PDF (manuals, price lists and terms are often published as PDFs) with
// the upload reader, ingest, so a crawled PDF keeps its headings as sections just as an
// uploaded one does. The reader is bounded and survives any bytes (a panic in the parsing
// library is its error); a PDF it cannot read (a scan, a damaged file) yields an error.
func pdfDocument(ctx context.Context, body []byte, url, path string) (store.Document, error) {
	res, err := ingest.Read(ctx, bytes.NewReader(body), ingest.Options{Name: "file.pdf", Title: pdfTitle(path),
		URL: url, Limits: pdfLimits})
	if err != nil {
		return store.Document{}, err
	}
	return res.Documents[0], nil
}

// pdfTitle names a PDF by its file name: "/docs/e-bike-manual.pdf" becomes "e-bike manual".
func pdfTitle(path string) string {
	name := path[strings.LastIndex(path, "/")+1:]
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".pdf"), ".PDF")
	return strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '+' }), " ")
}
