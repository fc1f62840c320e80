package dashboard_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"svc/internal/store"
)

// kbUploadFiles posts several files under the field "file", as a multiple file input does.
func (b *browser) kbUploadFiles(files map[string][]byte, fields url.Values) page {
	b.h.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range fields {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	for name, content := range files {
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			b.h.t.Fatal(err)
		}
		_, _ = fw.Write(content)
	}
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.h.srv.URL+"/dashboard/kb/import", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", b.h.srv.URL)
	return b.do(req)
}

// Several files of several formats in one upload: each is stored on its own or listed with
// its problem; the stored ones are uploads, with their origin on the documents list.
func TestKBImportSeveralFormatsAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	mustContain(t, b.get("/dashboard/kb/import").Body, `name="file"`, ` multiple `, `.pdf,.docx,.odt,.xlsx,.ods`, `name="products"`)

	p := b.kbUploadFiles(map[string][]byte{
		"size-chart.md":   []byte("# Size chart\n\nOur boots run small.\n\n| Size | Chest |\n|---|---|\n| M | 96–101 cm |\n"),
		"shipping.html":   []byte("<h1>Shipping</h1><p>We ship within two working days to every EU country.</p>"),
		"opening.csv":     []byte("Day,Hours\nMonday,9–18\nSaturday,10–14\n"),
		"broken.pdf":      []byte("this is no pdf"),
		"kb.jsonl":        []byte(`{"type":"qa","question":"Do you sell gift cards?","answer":"Yes, from 10 euros.","lang":"en"}` + "\n"),
		"holiday.png.txt": {0, 1, 2, 3, 4},
	}, nil)
	kbMustStatus(t, "mixed upload", p, http.StatusBadRequest)
	mustContain(t, p.Body, "2 of 6 files could not be imported; the others were.",
		"broken.pdf is damaged or is not a valid PDF file.",
		"holiday.png.txt: this kind of file cannot be read. Accepted formats: PDF, DOCX",
		"1 record imported.", "Imported: ")
	rows := h.kbDocs(a.ID, store.DocPage, "")
	titles := map[string]string{}
	for _, r := range rows {
		titles[r.Title] = r.Origin
	}
	if titles["size chart"] != store.OriginUpload || titles["Shipping"] != store.OriginUpload || titles["opening"] != store.OriginUpload {
		t.Fatalf("uploaded pages: %v", titles)
	}
	chart := h.kbDocs(a.ID, store.DocPage, "96–101 cm")
	if len(chart) != 1 {
		t.Fatalf("size chart: %+v", chart)
	}
	doc, err := h.st.GetDocument(t.Context(), a.ID, chart[0].ID)
	if err != nil || !strings.Contains(doc.Body, "Size: M, Chest: 96–101 cm") {
		t.Fatalf("table row with its headers: %q %v", doc.Body, err)
	}
	list := b.get("/dashboard/kb/documents")
	mustContain(t, list.Body, `<th scope="col">Origin</th>`, `<td>Upload</td>`, `<td>Import</td>`)
	mustContain(t, b.get("/dashboard/kb/documents/"+strconv.FormatInt(chart[0].ID, 10)).Body, "<dt>Origin</dt><dd>Upload</dd>")

	// The same document again is up to date; one file alone that fails is the page's error.
	p = b.kbUploadFiles(map[string][]byte{"size-chart.md": []byte("# Size chart\n\nOur boots run small.\n\n| Size | Chest |\n|---|---|\n| M | 96–101 cm |\n")}, nil)
	kbMustStatus(t, "again", p, http.StatusOK)
	mustContain(t, p.Body, "Already up to date.")
	p = b.kbUploadFiles(map[string][]byte{"scan.pdf": []byte("%PDF-1.4\n")}, nil)
	kbMustStatus(t, "one bad file", p, http.StatusBadRequest)
	mustContain(t, p.Body, "None of the files could be imported.", "scan.pdf")
}

// Products spreadsheets update cards by SKU; a bad row is listed by its number.
func TestKBImportProductsSpreadsheet(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	products := url.Values{"products": {"1"}}
	p := b.kbUploadFiles(map[string][]byte{"urunler.csv": []byte("Stok Kodu;Ürün Adı;Fiyat\nK-1;Kaçkar bot;1.299,90 TL\nK-2;Yün çorap;99 TL\n")}, products)
	kbMustStatus(t, "products", p, http.StatusOK)
	mustContain(t, p.Body, "2 products added, 0 updated, 0 unchanged.")
	p = b.kbUploadFiles(map[string][]byte{"urunler.csv": []byte("Stok Kodu;Ürün Adı;Fiyat\nK-1;Kaçkar bot;1.199,90 TL\nK-2;Yün çorap;99 TL\n")}, products)
	mustContain(t, p.Body, "0 products added, 1 updated, 1 unchanged.")
	cards := h.kbDocs(a.ID, store.DocProduct, "Kaçkar bot")
	if len(cards) != 1 || cards[0].Product.Price != "1.199,90 TL" || cards[0].Product.SKU != "K-1" {
		t.Fatalf("card: %+v", cards)
	}
	p = b.kbUploadFiles(map[string][]byte{"bad.csv": []byte("sku,name,price\nA,Lamp,cheap\n")}, products)
	kbMustStatus(t, "bad row", p, http.StatusBadRequest)
	mustContain(t, p.Body, "The file has rows that cannot be imported", `Line 2: price &#34;cheap&#34; is not an amount`)
	for _, r := range h.kbDocs(a.ID, store.DocProduct, "Lamp") {
		t.Fatalf("a refused file stored %+v", r)
	}
}
