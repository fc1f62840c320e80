package crawl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ledongthuc/pdf"
)

// maxPDFText bounds the text taken from one PDF: a manual of a few hundred pages is useful,
// a scanned catalogue of thousands of pages would only crowd the index.
const maxPDFText = 1 << 20

// pdfText extracts the plain text of a PDF (manuals, price lists and terms are often
// published as PDFs). The parser runs on bytes a stranger sent us, so a panic inside it is
// turned into an error rather than taking the crawl down.
func pdfText(body []byte) (text string, err error) {
	defer func() {
		if p := recover(); p != nil {
			text, err = "", fmt.Errorf("pdf: unreadable: %v", p)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return "", fmt.Errorf("pdf: %w", err)
	}
	rd, err := r.GetPlainText()
	if err != nil {
		return "", fmt.Errorf("pdf: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(rd, maxPDFText))
	if err != nil {
		return "", fmt.Errorf("pdf: %w", err)
	}
	text = strings.TrimSpace(string(b))
	if text == "" {
		return "", errors.New("pdf: no text (a scan?)")
	}
	return text, nil
}

// pdfTitle names a PDF by its file name: "/docs/e-bike-manual.pdf" becomes "e-bike manual".
func pdfTitle(path string) string {
	name := path[strings.LastIndex(path, "/")+1:]
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".pdf"), ".PDF")
	return strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '+' }), " ")
}
