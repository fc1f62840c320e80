package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"

	"svc/internal/account"
	"svc/internal/cli"
	"svc/internal/config"
	"svc/internal/crawl"
	"svc/internal/crawl/crawltest"
	"svc/internal/openapi/validate"
	"svc/internal/store"
	"svc/internal/store/teststore"
)

// The KB API's tests: a real server (cli.NewApp, as serve wires it) on a real store, an
// SQLite file or, with SVC_TEST_STORE=postgres, a PostgreSQL schema; every response is
// checked against the OpenAPI document.

// newKBHarness is newHarnessWith with the app's options (a crawl's end reported), its
// on-demand crawls stopped before the store closes.
func newKBHarness(t *testing.T, cfg config.Config, opts cli.AppOptions) (*harness, *cli.App) {
	t.Helper()
	validatorOnce.Do(func() { validator, validatorErr = validate.NewValidator() })
	if validatorErr != nil {
		t.Fatal(validatorErr)
	}
	cfg.LLMProvider = "builtin"
	if cfg.SMTPFrom == "" {
		cfg.SMTPFrom = config.DefaultSMTPFrom
	}
	st := teststore.Open(t, nil)
	accounts := account.New(st, nil)
	app, err := cli.NewApp(st, accounts, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app.Handler)
	t.Cleanup(func() {
		srv.Close()
		_ = app.Crawls.Stop(context.Background())
		app.TestRunner.Close()
	})
	return &harness{t: t, srv: srv, st: st, accounts: accounts, v: validator}, app
}

// kbTenant is an account with an empty KB, money and room to ask, so that an answer can
// only come from what a test put in.
func (h *harness) kbTenant(name string) (int64, string) {
	h.t.Helper()
	a, key, err := h.accounts.Create(context.Background(), account.Settings{Name: ptr(name),
		BalanceMicro: ptr(int64(10_000_000)), SendRatePerMin: ptr(1000), DailyAnswers: ptr(0)})
	if err != nil {
		h.t.Fatal(err)
	}
	return a.ID, key
}

// kbUpload posts one file (and fields) as multipart/form-data to a KB action.
func (h *harness) kbUpload(action, key, name string, content []byte, fields map[string]string) response {
	h.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		h.t.Fatal(err)
	}
	_, _ = fw.Write(content)
	_ = mw.Close()
	return h.do(http.MethodPost, "/api/v1/kb/"+action, key, &buf, mw.FormDataContentType())
}

// kbDocCount is how many documents the account has, of every type.
func (h *harness) kbDocCount(accountID int64) int {
	h.t.Helper()
	counts, err := h.st.CountDocuments(context.Background(), accountID)
	if err != nil {
		h.t.Fatal(err)
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// ask sends a question and returns the assistant's reply and the send's lowConfidence.
func (h *harness) ask(key, q string) (message, bool) {
	h.t.Helper()
	d, r := h.send(key, q)
	if r.Status != http.StatusOK {
		h.t.Fatalf("send %q: %d %s", q, r.Status, r.raw)
	}
	return d.Messages[1], d.LowConfidence
}

func mustStatus(t *testing.T, what string, r response, status int, code string) {
	t.Helper()
	if r.Status != status || (code != "" && r.Error != code) {
		t.Fatalf("%s: %d %s, want %d %s", what, r.Status, r.raw, status, code)
	}
}

// The test files are made here, each the smallest file of its format a real program writes.

func kbZip(t testing.TB, members ...[2]string) []byte {
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
		_, _ = w.Write([]byte(m[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func kbDOCX(t testing.TB, heading, text string) []byte {
	const ns = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	styles := `<?xml version="1.0" encoding="UTF-8"?><w:styles ` + ns + `><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`
	doc := `<?xml version="1.0" encoding="UTF-8"?><w:document ` + ns + `><w:body>` +
		`<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>` + heading + `</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p></w:body></w:document>`
	return kbZip(t, [2]string{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		[2]string{"word/styles.xml", styles}, [2]string{"word/document.xml", doc})
}

const kbODFNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"`

func kbODF(t testing.TB, mime, inner string) []byte {
	content := `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + kbODFNS + ` office:version="1.3"><office:body>` + inner + `</office:body></office:document-content>`
	return kbZip(t, [2]string{"mimetype", mime},
		[2]string{"META-INF/manifest.xml", `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`},
		[2]string{"content.xml", content})
}

func kbODT(t testing.TB, heading, text string) []byte {
	return kbODF(t, "application/vnd.oasis.opendocument.text",
		`<office:text><text:h text:outline-level="1">`+heading+`</text:h><text:p>`+text+`</text:p></office:text>`)
}

func kbODS(t testing.TB, sheet string, rows ...[]string) []byte {
	var sb strings.Builder
	sb.WriteString(`<office:spreadsheet><table:table table:name="` + sheet + `">`)
	for _, r := range rows {
		sb.WriteString(`<table:table-row>`)
		for _, c := range r {
			sb.WriteString(`<table:table-cell office:value-type="string"><text:p>` + c + `</text:p></table:table-cell>`)
		}
		sb.WriteString(`</table:table-row>`)
	}
	sb.WriteString(`</table:table></office:spreadsheet>`)
	return kbODF(t, "application/vnd.oasis.opendocument.spreadsheet", sb.String())
}

func kbXLSX(t testing.TB, sheet string, rows ...[]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func kbPDF(t testing.TB, heading, text string) []byte {
	t.Helper()
	p := fpdf.New("P", "mm", "A4", "")
	p.AddPage()
	p.SetFont("Helvetica", "B", 18)
	p.MultiCell(0, 9, heading, "", "", false)
	p.Ln(3)
	p.SetFont("Helvetica", "", 11)
	p.MultiCell(0, 5, text, "", "", false)
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// kbFile is an uploaded file with the question only it answers and what the answer holds.
type kbFile struct {
	name     string
	content  []byte
	format   string
	question string
	answer   string
}

func kbFiles(t testing.TB) []kbFile {
	return []kbFile{
		{"kettle-warranty.pdf", kbPDF(t, "Kettle warranty",
			"The Zephyr kettle carries a warranty of 47 months from the day of purchase. Keep the receipt to claim it."),
			"pdf", "How long is the warranty of the Zephyr kettle?", "47 months"},
		{"headphone-returns.docx", kbDOCX(t, "Headphone returns",
			"Opened Quillon headphones can be returned within 19 days if every accessory is in the box."),
			"docx", "Within how many days can opened Quillon headphones be returned?", "19 days"},
		{"marlowe-shop.odt", kbODT(t, "Marlowe Street shop",
			"Our Marlowe Street shop opens at 8:15 on Sundays and closes at noon."),
			"odt", "When does the Marlowe Street shop open on Sundays?", "8:15"},
		{"size-chart.xlsx", kbXLSX(t, "Size chart", []any{"Size", "Chest", "Waist"}, []any{"S", "88–95 cm", "73–80 cm"},
			[]any{"M", "96–101 cm", "81–86 cm"}, []any{"L", "102–107 cm", "87–92 cm"}),
			"xlsx", "What is the chest measurement for size M in the size chart?", "96–101 cm"},
		{"delivery-zones.ods", kbODS(t, "Delivery zones", []string{"Zone", "Delivery time"},
			[]string{"Orkney", "6 working days"}, []string{"Shetland", "8 working days"}),
			"ods", "How long is the delivery time to Orkney?", "6 working days"},
		{"plant-care.csv", []byte("Plant,Watering\nFicus lyrata,every 9 days\nMonstera deliciosa,every 6 days\n"),
			"csv", "How often should I water a Ficus lyrata?", "every 9 days"},
		{"gift-wrapping.md", []byte("# Gift wrapping\n\nGift wrapping with the Tinsel ribbon costs 3.40 euros per parcel.\n"),
			"md", "How much does gift wrapping with the Tinsel ribbon cost?", "3.40 euros"},
		{"loyalty.txt", []byte("Loyalty points\n\nEvery 250 euros spent earns one Copperleaf voucher worth ten euros.\n"),
			"txt", "How much must I spend to earn a Copperleaf voucher?", "250 euros"},
		{"repairs.html", []byte(`<!doctype html><html lang="en"><head><title>Repairs</title></head><body><main><h1>Repairs</h1>
<p>Wheel truing at the Halvorsen workshop takes two hours and costs 18 euros.</p></main></body></html>`),
			"html", "How long does wheel truing at the Halvorsen workshop take?", "two hours"},
	}
}

// One file of each format through the API, each answering the question only it holds (a
// table row of the spreadsheet among them); a changed file under the same name replaces the
// document in place; delete makes its fact unanswerable, cached answer or not.
func TestKBUploadEveryFormatAnswersAndDeleteForgets(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, key := h.kbTenant("Uploads")
	files := kbFiles(t)
	docs := map[string]int64{}
	for _, f := range files {
		r := h.kbUpload("documentUpload", key, f.name, f.content, map[string]string{"lang": "en"})
		mustStatus(t, "upload "+f.name, r, http.StatusOK, "")
		var d struct {
			Documents []int64 `json:"documents"`
			Chunks    int     `json:"chunks"`
			Format    string  `json:"format"`
		}
		r.decode(t, &d)
		if len(d.Documents) != 1 || d.Chunks < 1 || d.Format != f.format {
			t.Fatalf("upload %s: %s", f.name, r.raw)
		}
		docs[f.name] = d.Documents[0]
	}
	for _, f := range files {
		reply, low := h.ask(key, f.question)
		if low || !strings.Contains(reply.Body, f.answer) {
			t.Errorf("%s: %q answered %q (low confidence %v), want %q", f.format, f.question, reply.Body, low, f.answer)
		}
	}

	// The list: every upload, as the API's.
	r := h.get("/api/v1/kb/documents?limit=100", key)
	mustStatus(t, "documents", r, http.StatusOK, "")
	var list struct {
		Documents []struct {
			ID     int64  `json:"id"`
			Type   string `json:"type"`
			Title  string `json:"title"`
			Lang   string `json:"lang"`
			Origin string `json:"origin"`
		} `json:"documents"`
		Total int `json:"total"`
	}
	r.decode(t, &list)
	if list.Total != len(files) || len(list.Documents) != len(files) {
		t.Fatalf("documents: %s", r.raw)
	}
	for _, d := range list.Documents {
		if d.Type != "page" || d.Origin != "api" || d.Lang != "en" {
			t.Errorf("document %+v", d)
		}
	}
	r = h.get("/api/v1/kb/documents?q=Zephyr&limit=1&page=1&type=page", key)
	r.decode(t, &list)
	if list.Total != 1 || len(list.Documents) != 1 || list.Documents[0].ID != docs["kettle-warranty.pdf"] {
		t.Errorf("search: %s", r.raw)
	}
	for _, bad := range []string{"type=faq", "limit=101", "limit=0", "page=0", "page=x", "q=" + strings.Repeat("a", 201)} {
		mustStatus(t, "documents?"+bad, h.get("/api/v1/kb/documents?"+bad, key), http.StatusBadRequest, "bad_request")
	}

	// Asked twice, so that the answer is cached; then the file changes under the same
	// name: the same document, and the next question has the new fact.
	gift := files[6]
	h.ask(key, gift.question)
	if reply, _ := h.ask(key, gift.question); !strings.Contains(reply.Body, gift.answer) {
		t.Fatalf("asked again: %q", reply.Body)
	}
	r = h.kbUpload("documentUpload", key, gift.name, []byte("# Gift wrapping\n\nGift wrapping with the Tinsel ribbon costs 4.10 euros per parcel.\n"), nil)
	mustStatus(t, "upload the changed file", r, http.StatusOK, "")
	var again struct {
		Documents []int64 `json:"documents"`
	}
	r.decode(t, &again)
	if len(again.Documents) != 1 || again.Documents[0] != docs[gift.name] {
		t.Errorf("a changed file under its name is document %v, want %d", again.Documents, docs[gift.name])
	}
	if reply, _ := h.ask(key, gift.question); !strings.Contains(reply.Body, "4.10 euros") || strings.Contains(reply.Body, "3.40") {
		t.Errorf("after the change: %q (%s)", reply.Body, reply.Source)
	}

	// Delete: the fact is gone from the next answer, though it was cached.
	pdf := files[0]
	h.ask(key, pdf.question)
	r = h.postForm("/api/v1/kb/documentDelete", key, url.Values{"id": {strconv.FormatInt(docs[pdf.name], 10)}})
	mustStatus(t, "delete", r, http.StatusOK, "")
	if string(r.Data) != `{"deleted":true}` {
		t.Errorf("delete: %s", r.raw)
	}
	if reply, low := h.ask(key, pdf.question); strings.Contains(reply.Body, pdf.answer) || !low {
		t.Errorf("after delete: %q (low confidence %v, %s)", reply.Body, low, reply.Source)
	}
	if n := h.kbDocCount(id); n != len(files)-1 {
		t.Errorf("documents after delete: %d", n)
	}
	mustStatus(t, "delete again", h.postJSON("/api/v1/kb/documentDelete", key, map[string]any{"id": docs[pdf.name]}),
		http.StatusNotFound, "not_found")
}

// An unknown file, a damaged one, an oversize one, a bad field: refused with the reason,
// the accepted formats named, and nothing stored.
func TestKBUploadRefusalsStoreNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, key := h.kbTenant("Refusals")
	before := h.kbDocCount(id)
	cases := []struct {
		name    string
		content []byte
		fields  map[string]string
		status  int
		want    []string
	}{
		{"photo.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), nil, http.StatusBadRequest,
			[]string{"photo.png: this kind of file cannot be read", "Accepted formats: PDF, DOCX, ODT, XLSX, ODS, CSV, Markdown, plain text and HTML"}},
		{"broken.pdf", []byte("%PDF-1.4 this is no pdf"), nil, http.StatusBadRequest,
			[]string{"broken.pdf is damaged or is not a valid PDF file.", "Accepted formats: PDF, DOCX"}},
		{"empty.md", []byte("   \n"), nil, http.StatusBadRequest, []string{"empty.md holds no text", "Accepted formats:"}},
		{"big.txt", bytes.Repeat([]byte("a"), 20<<20+1), nil, http.StatusRequestEntityTooLarge, []string{"larger than 20 MiB"}},
		{"notes.md", []byte("# Notes\n\nSome text.\n"), map[string]string{"lang": "fr"}, http.StatusBadRequest, []string{"lang must be tr, en or de"}},
		{"notes.md", []byte("# Notes\n\nSome text.\n"), map[string]string{"url": "ftp://x.test/a"}, http.StatusBadRequest, []string{"url"}},
		{"notes.md", []byte("# Notes\n\nSome text.\n"), map[string]string{"site_id": "999999"}, http.StatusNotFound, []string{"No site with id 999999"}},
	}
	for _, c := range cases {
		r := h.kbUpload("documentUpload", key, c.name, c.content, c.fields)
		if r.Status != c.status || r.Success {
			t.Errorf("%s %v: %d %s", c.name, c.fields, r.Status, r.raw)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r.Message, w) {
				t.Errorf("%s: message %q lacks %q", c.name, r.Message, w)
			}
		}
	}
	// No file at all, or not multipart.
	mustStatus(t, "no file", h.postMultipart("/api/v1/kb/documentUpload", key, map[string]string{"lang": "en"}), http.StatusBadRequest, "bad_request")
	mustStatus(t, "a form", h.postForm("/api/v1/kb/documentUpload", key, url.Values{"file": {"text"}}), http.StatusBadRequest, "bad_request")
	// A body over the upload bound.
	big := bytes.Repeat([]byte("b"), 21<<20)
	mustStatus(t, "a huge body", h.kbUpload("documentUpload", key, "huge.txt", big, nil), http.StatusRequestEntityTooLarge, "bad_request")
	if n := h.kbDocCount(id); n != before {
		t.Errorf("refused uploads stored %d documents", n-before)
	}
	// Other actions keep the 64 KiB bound.
	mustStatus(t, "a large form", h.postForm("/api/v1/kb/qaCreate", key, url.Values{"question": {"Q?"}, "answer": {strings.Repeat("a", 70<<10)}}),
		http.StatusRequestEntityTooLarge, "bad_request")
}

// Q&A entries through the API: created, answered, changed in place and by question, refused
// when the question exists, deleted; another account's ids are 404.
func TestKBQAThroughTheAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.kbTenant("Q&A")
	_, other := h.kbTenant("Other")

	r := h.postJSON("/api/v1/kb/qaCreate", key, map[string]any{"question": "Do you deliver to Svalbard?",
		"answer": "Yes, every second Tuesday with the Polar Line ferry.", "lang": "en"})
	mustStatus(t, "create", r, http.StatusOK, "")
	var created struct {
		ID int64 `json:"id"`
	}
	r.decode(t, &created)
	if reply, low := h.ask(key, "Do you deliver to Svalbard?"); low || !strings.Contains(reply.Body, "Polar Line ferry") {
		t.Fatalf("asked: %q %v", reply.Body, low)
	}
	mustStatus(t, "create it again", h.postForm("/api/v1/kb/qaCreate", key, url.Values{"question": {"Do you deliver to Svalbard?"},
		"answer": {"No."}, "lang": {"en"}}), http.StatusBadRequest, "bad_request")
	for _, bad := range []url.Values{{"question": {"Q?"}}, {"answer": {"A."}}, {"question": {"Q?"}, "answer": {"A."}, "lang": {"fr"}},
		{"question": {strings.Repeat("q", 2001)}, "answer": {"A."}}} {
		mustStatus(t, fmt.Sprint("create ", bad), h.postForm("/api/v1/kb/qaCreate", key, bad), http.StatusBadRequest, "bad_request")
	}

	idStr := strconv.FormatInt(created.ID, 10)
	// Another account sees none of it.
	mustStatus(t, "another account updates", h.postForm("/api/v1/kb/qaUpdate", other, url.Values{"id": {idStr}, "answer": {"No."}}),
		http.StatusNotFound, "not_found")
	mustStatus(t, "another account deletes", h.postForm("/api/v1/kb/qaDelete", other, url.Values{"id": {idStr}}), http.StatusNotFound, "not_found")
	mustStatus(t, "another account deletes the document", h.postForm("/api/v1/kb/documentDelete", other, url.Values{"id": {idStr}}),
		http.StatusNotFound, "not_found")

	// A new answer: in place, same id, and the next question has it.
	r = h.postForm("/api/v1/kb/qaUpdate", key, url.Values{"id": {idStr}, "answer": {"Yes, every Friday with the Aurora cargo plane."}})
	mustStatus(t, "update the answer", r, http.StatusOK, "")
	var upd struct {
		Updated bool  `json:"updated"`
		ID      int64 `json:"id"`
	}
	r.decode(t, &upd)
	if !upd.Updated || upd.ID != created.ID {
		t.Errorf("update in place: %s", r.raw)
	}
	if reply, _ := h.ask(key, "Do you deliver to Svalbard?"); !strings.Contains(reply.Body, "Aurora cargo plane") || strings.Contains(reply.Body, "Polar") {
		t.Errorf("after the update: %q", reply.Body)
	}
	mustStatus(t, "update nothing", h.postForm("/api/v1/kb/qaUpdate", key, url.Values{"id": {idStr}}), http.StatusBadRequest, "bad_request")
	// A new question: a new id.
	r = h.postJSON("/api/v1/kb/qaUpdate", key, map[string]any{"id": created.ID, "question": "Do you ship to Svalbard?"})
	mustStatus(t, "update the question", r, http.StatusOK, "")
	r.decode(t, &upd)
	if upd.ID == created.ID {
		t.Errorf("a new question kept the id: %s", r.raw)
	}
	mustStatus(t, "the old id", h.postForm("/api/v1/kb/qaDelete", key, url.Values{"id": {idStr}}), http.StatusNotFound, "not_found")
	mustStatus(t, "delete", h.postForm("/api/v1/kb/qaDelete", key, url.Values{"id": {strconv.FormatInt(upd.ID, 10)}}), http.StatusOK, "")
	if reply, _ := h.ask(key, "Do you ship to Svalbard?"); strings.Contains(reply.Body, "Aurora") {
		t.Errorf("after delete: %q", reply.Body)
	}
	mustStatus(t, "id missing", h.postForm("/api/v1/kb/qaDelete", key, url.Values{}), http.StatusBadRequest, "bad_request")
	mustStatus(t, "id not a number", h.postForm("/api/v1/kb/qaDelete", key, url.Values{"id": {"x"}}), http.StatusBadRequest, "bad_request")
}

// Products through the API: JSON, then a CSV with a new price by SKU that the next card
// shows; bad rows listed by number with nothing stored.
func TestKBProductsThroughTheAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, key := h.kbTenant("Tents")
	r := h.postJSON("/api/v1/kb/productsUpsert", key, map[string]any{"lang": "en", "products": []map[string]any{
		{"sku": "TENT-7", "name": "Alpenglow 3 Tent", "price": "349.00 EUR", "category": "Tents",
			"url": "https://shop.example/tents/alpenglow-3", "description": "A three-person tunnel tent, 3.2 kg."},
		{"sku": 4711, "name": "Fjellstove Burner", "price": 59.5, "category": "Stoves"},
	}})
	mustStatus(t, "upsert", r, http.StatusOK, "")
	if string(r.Data) != `{"created":2,"updated":0,"unchanged":0}` {
		t.Fatalf("upsert: %s", r.raw)
	}
	card := func() string {
		t.Helper()
		reply, _ := h.ask(key, "How much does the Alpenglow 3 Tent cost?")
		for _, p := range reply.Products {
			if p.Name == "Alpenglow 3 Tent" {
				return p.Price
			}
		}
		t.Fatalf("no card of the tent: %+v %q", reply.Products, reply.Body)
		return ""
	}
	if p := card(); p != "349.00 EUR" {
		t.Errorf("card price %q", p)
	}
	r = h.kbUpload("productsUpsert", key, "export.csv",
		[]byte("SKU;Name;Price;Category\nTENT-7;Alpenglow 3 Tent;299.00 EUR;Tents\n4711;Fjellstove Burner;59.5;Stoves\n"),
		map[string]string{"lang": "en"})
	mustStatus(t, "csv", r, http.StatusOK, "")
	var counts struct{ Created, Updated, Unchanged int }
	r.decode(t, &counts)
	if counts.Created != 0 || counts.Updated < 1 || counts.Updated+counts.Unchanged != 2 {
		t.Errorf("csv: %s", r.raw)
	}
	if p := card(); p != "299.00 EUR" {
		t.Errorf("card price after the update %q", p)
	}
	xlsx := kbXLSX(t, "Catalogue", []any{"name", "sku", "price"}, []any{"Alpenglow 3 Tent", "TENT-7", "279.00 EUR"})
	mustStatus(t, "xlsx", h.kbUpload("productsUpsert", key, "export.xlsx", xlsx, nil), http.StatusOK, "")
	if p := card(); p != "279.00 EUR" {
		t.Errorf("card price after the workbook %q", p)
	}

	before := h.kbDocCount(id)
	r = h.postJSON("/api/v1/kb/productsUpsert", key, map[string]any{"products": []map[string]any{
		{"name": "Good Mug", "price": "9 EUR"}, {"name": "Cheap Mug", "price": "cheap"}, {"name": "Odd Mug", "url": "ftp://x.test/mug"}}})
	mustStatus(t, "bad rows", r, http.StatusBadRequest, "bad_request")
	if !strings.Contains(r.Message, "row 2") || !strings.Contains(r.Message, "row 3") || strings.Contains(r.Message, "row 1:") {
		t.Errorf("bad rows: %q", r.Message)
	}
	r = h.kbUpload("productsUpsert", key, "bad.csv", []byte("name,price\nGood Mug,9 EUR\nCheap Mug,cheap\n"), nil)
	mustStatus(t, "bad csv row", r, http.StatusBadRequest, "bad_request")
	if !strings.Contains(r.Message, "row 3") {
		t.Errorf("bad csv row: %q", r.Message)
	}
	for what, r := range map[string]response{
		"unknown field":  h.postJSON("/api/v1/kb/productsUpsert", key, map[string]any{"products": []map[string]any{{"name": "Mug", "prize": "1"}}}),
		"no products":    h.postJSON("/api/v1/kb/productsUpsert", key, map[string]any{"lang": "en"}),
		"empty list":     h.postJSON("/api/v1/kb/productsUpsert", key, map[string]any{"products": []any{}}),
		"not a list":     h.postJSON("/api/v1/kb/productsUpsert", key, map[string]any{"products": "Mug"}),
		"a PDF":          h.kbUpload("productsUpsert", key, "cat.pdf", kbPDF(t, "Catalogue", "Mugs."), nil),
		"no header":      h.kbUpload("productsUpsert", key, "notes.csv", []byte("colour,size\nred,M\n"), nil),
		"a form":         h.postForm("/api/v1/kb/productsUpsert", key, url.Values{"name": {"Mug"}}),
		"malformed JSON": h.do(http.MethodPost, "/api/v1/kb/productsUpsert", key, strings.NewReader(`{"products": [`), "application/json"),
	} {
		if r.Status != http.StatusBadRequest || r.Error != "bad_request" {
			t.Errorf("%s: %d %s", what, r.Status, r.raw)
		}
	}
	if n := h.kbDocCount(id); n != before {
		t.Errorf("refused products stored %d documents", n-before)
	}
}

// JSON Lines through the API, as a body of each type and as a file; a bad line is refused
// by its number with nothing imported.
func TestKBImportJSONLines(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, key := h.kbTenant("Import")
	lines := `{"type":"qa","question":"Do you sell gift cards?","answer":"Yes, from 10 euros.","lang":"en"}
{"type":"page","url":"https://shop.example/delivery","title":"Delivery","body":"Orders leave our warehouse within one working day.","lang":"en"}
`
	r := h.do(http.MethodPost, "/api/v1/kb/import", key, strings.NewReader(lines), "application/x-ndjson")
	mustStatus(t, "ndjson", r, http.StatusOK, "")
	if string(r.Data) != `{"pages":1,"qa":1,"products":0,"articles":0,"unchanged":0}` {
		t.Errorf("ndjson: %s", r.raw)
	}
	r = h.do(http.MethodPost, "/api/v1/kb/import", key, strings.NewReader(lines), "text/plain; charset=utf-8")
	if string(r.Data) != `{"pages":0,"qa":0,"products":0,"articles":0,"unchanged":2}` {
		t.Errorf("text/plain again: %d %s", r.Status, r.raw)
	}
	more := `{"type":"article","slug":"returns","title":"Returns","body":"Return any item within 30 days.","lang":"en"}` + "\n"
	r = h.kbUpload("import", key, "more.jsonl", []byte(more), nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Data), `"articles":1`) {
		t.Errorf("multipart: %d %s", r.Status, r.raw)
	}
	r = h.do(http.MethodPost, "/api/v1/kb/import", key, strings.NewReader(`{"type":"qa","question":"Q?","answer":"A.","lang":"de"}`), "application/jsonl")
	mustStatus(t, "jsonl", r, http.StatusOK, "")

	before := h.kbDocCount(id)
	bad := `{"type":"qa","question":"Do you sell vouchers?","answer":"Yes.","lang":"en"}
{"type":"qa","question":"Broken
{"type":"page","title":"T","body":"B"}
`
	r = h.do(http.MethodPost, "/api/v1/kb/import", key, strings.NewReader(bad), "application/x-ndjson")
	mustStatus(t, "a bad line", r, http.StatusBadRequest, "bad_request")
	if !strings.HasPrefix(r.Message, "Line 2: ") || !strings.Contains(r.Message, "Nothing was imported.") {
		t.Errorf("a bad line: %q", r.Message)
	}
	r = h.kbUpload("import", key, "bad.jsonl", []byte(`{"type":"qa","question":"Q2?","answer":"A."}`+"\n"+`{"type":"recipe"}`+"\n"), nil)
	if r.Status != http.StatusBadRequest || !strings.HasPrefix(r.Message, "Line 2: ") {
		t.Errorf("a bad line in a file: %d %s", r.Status, r.raw)
	}
	for what, r := range map[string]response{
		"empty":        h.do(http.MethodPost, "/api/v1/kb/import", key, strings.NewReader("\n\n"), "application/x-ndjson"),
		"json":         h.do(http.MethodPost, "/api/v1/kb/import", key, strings.NewReader(lines), "application/json"),
		"no file":      h.postMultipart("/api/v1/kb/import", key, map[string]string{"site_id": "1"}),
		"unknown site": h.do(http.MethodPost, "/api/v1/kb/import?site_id=999999", key, strings.NewReader(lines), "application/x-ndjson"),
	} {
		if r.Status != http.StatusBadRequest && !(what == "unknown site" && r.Status == http.StatusNotFound) {
			t.Errorf("%s: %d %s", what, r.Status, r.raw)
		}
	}
	if n := h.kbDocCount(id); n != before {
		t.Errorf("refused imports stored %d documents", n-before)
	}
}

// The KB API is the chat API's: the key, the unknown action and the wrong method, the
// account's rate, request ids and metrics by action.
func TestKBSurface(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, config.Config{MetricsToken: metricsToken})
	_, key := h.kbTenant("Surface")
	mustStatus(t, "no key", h.get("/api/v1/kb/documents", ""), http.StatusUnauthorized, "unauthorized")
	mustStatus(t, "a bad key", h.get("/api/v1/kb/documents", "svc_pk_00000000000000000000000000000000"), http.StatusUnauthorized, "unauthorized")
	mustStatus(t, "unknown action", h.get("/api/v1/kb/bogus", key), http.StatusNotFound, "unknown_action")
	mustStatus(t, "unknown action (POST)", h.postForm("/api/v1/kb/bogus", key, nil), http.StatusNotFound, "unknown_action")
	r := h.postForm("/api/v1/kb/documents", key, nil)
	mustStatus(t, "POST documents", r, http.StatusMethodNotAllowed, "method_not_allowed")
	if r.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("Allow %q", r.Header.Get("Allow"))
	}
	mustStatus(t, "GET qaCreate", h.get("/api/v1/kb/qaCreate", key), http.StatusMethodNotAllowed, "method_not_allowed")
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/api/v1/kb/documents", nil)
	req.Header.Set("X-SVC-Key", key)
	req.Header.Set("X-Request-Id", "kb-req-1")
	if r := h.doReq(req); r.Status != http.StatusOK || r.Header.Get("X-Request-Id") != "kb-req-1" {
		t.Errorf("X-SVC-Key and request id: %d %q", r.Status, r.Header.Get("X-Request-Id"))
	}

	// The account's rate of heavy calls: uploads count, and past the bound a 429 with
	// Retry-After; the small calls go on until their own bound.
	var last response
	for i := 0; i <= 30; i++ {
		last = h.do(http.MethodPost, "/api/v1/kb/import", key, strings.NewReader("\n"), "application/x-ndjson")
	}
	mustStatus(t, "the 31st heavy call", last, http.StatusTooManyRequests, "rate_limited")
	if last.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	mustStatus(t, "a small call", h.get("/api/v1/kb/documents", key), http.StatusOK, "")

	f := h.scrape()
	const dur = "svc_http_request_duration_seconds"
	want(t, f, dur, map[string]string{"route": "/api/v1/kb/documents", "code": "200"}, 2)
	want(t, f, dur, map[string]string{"route": "/api/v1/kb/import", "code": "429"}, 1)
	want(t, f, dur, map[string]string{"route": "/api/v1/kb/{action}", "code": "404"}, 2)
	want(t, f, "svc_ratelimit_refusals_total", map[string]string{"class": "kbfile:acct"}, 1)
}

// crawlStart: a private address refused before anything is stored; the test site crawled
// to done in the background; the status of another account's crawl is 404.
func TestKBCrawlStartAndStatus(t *testing.T) {
	t.Parallel()
	web := crawltest.Serve(t, filepath.Join("..", "crawl", "testdata", "sites", "shop"))

	// Private addresses not allowed: refused with the reason, and no site added.
	h, _ := newKBHarness(t, config.Config{}, cli.AppOptions{})
	id, key := h.kbTenant("Guarded")
	r := h.postForm("/api/v1/kb/crawlStart", key, url.Values{"url": {web.URL + "/"}})
	mustStatus(t, "a private URL", r, http.StatusBadRequest, "bad_request")
	if !strings.Contains(r.Message, "is refused") {
		t.Errorf("private refusal: %q", r.Message)
	}
	if sites, _ := h.st.ListSites(context.Background(), id); len(sites) != 0 {
		t.Errorf("a refused crawl stored a site: %+v", sites)
	}
	for what, v := range map[string]url.Values{"nothing": {}, "not a URL": {"url": {"shop.example"}},
		"a metadata address": {"url": {"http://169.254.169.254/latest/"}}, "site_id not a number": {"site_id": {"x"}}} {
		mustStatus(t, what, h.postForm("/api/v1/kb/crawlStart", key, v), http.StatusBadRequest, "bad_request")
	}

	// Allowed (as tests and intranets do): crawled to done.
	finished := make(chan crawl.Job, 4)
	h, _ = newKBHarness(t, config.Config{CrawlAllowPrivate: true}, cli.AppOptions{CrawlFinished: func(j crawl.Job) { finished <- j }})
	id, key = h.kbTenant("Crawler")
	_, other := h.kbTenant("Other")
	r = h.postJSON("/api/v1/kb/crawlStart", key, map[string]any{"url": web.URL + "/"})
	mustStatus(t, "crawlStart", r, http.StatusOK, "")
	var started struct {
		CrawlID int64 `json:"crawl_id"`
		SiteID  int64 `json:"site_id"`
	}
	r.decode(t, &started)
	status := func(key string, crawlID int64) response {
		return h.get("/api/v1/kb/crawlStatus?crawl_id="+strconv.FormatInt(crawlID, 10), key)
	}
	var st struct {
		State    string `json:"state"`
		SiteID   int64  `json:"site_id"`
		Pages    int    `json:"pages"`
		Products int    `json:"products"`
		Articles int    `json:"articles"`
		Skipped  int    `json:"skipped"`
	}
	r = status(key, started.CrawlID)
	mustStatus(t, "status at once", r, http.StatusOK, "")
	r.decode(t, &st)
	if st.State != "queued" && st.State != "running" && st.State != "done" {
		t.Errorf("state at once: %s", r.raw)
	}
	mustStatus(t, "another account's crawl", status(other, started.CrawlID), http.StatusNotFound, "not_found")
	mustStatus(t, "another account's site", h.postForm("/api/v1/kb/crawlStart", other, url.Values{"site_id": {strconv.FormatInt(started.SiteID, 10)}}),
		http.StatusNotFound, "not_found")
	if job := <-finished; job.ID != started.CrawlID {
		t.Fatalf("finished %+v", job)
	}
	r = status(key, started.CrawlID)
	r.decode(t, &st)
	if st.State != "done" || st.SiteID != started.SiteID || st.Products == 0 || st.Pages+st.Products+st.Articles == 0 {
		t.Fatalf("status when done: %s", r.raw)
	}
	if n := h.kbDocCount(id); n == 0 {
		t.Error("the crawl stored nothing")
	}
	// Again by site id: a new crawl of the same site.
	r = h.postForm("/api/v1/kb/crawlStart", key, url.Values{"site_id": {strconv.FormatInt(started.SiteID, 10)}})
	mustStatus(t, "crawlStart by site", r, http.StatusOK, "")
	var again struct {
		CrawlID int64 `json:"crawl_id"`
		SiteID  int64 `json:"site_id"`
	}
	r.decode(t, &again)
	if again.SiteID != started.SiteID || again.CrawlID == started.CrawlID {
		t.Errorf("by site: %s", r.raw)
	}
	<-finished
	mustStatus(t, "an unknown crawl", status(key, 12345), http.StatusNotFound, "not_found")
	mustStatus(t, "no crawl id", h.get("/api/v1/kb/crawlStatus", key), http.StatusBadRequest, "bad_request")
	mustStatus(t, "a URL off the site", h.postForm("/api/v1/kb/crawlStart", key, url.Values{"site_id": {strconv.FormatInt(started.SiteID, 10)},
		"url": {"http://192.0.2.1/"}}), http.StatusBadRequest, "bad_request")
}

// Another account's document, site and crawl ids are 404, exactly as ids that never existed.
func TestKBOtherAccountsIDsAre404(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, keyA := h.kbTenant("A")
	_, keyB := h.kbTenant("B")
	r := h.kbUpload("documentUpload", keyA, "returns.md", []byte("# Returns\n\nReturns are free within 30 days.\n"), nil)
	mustStatus(t, "upload", r, http.StatusOK, "")
	var d struct {
		Documents []int64 `json:"documents"`
	}
	r.decode(t, &d)
	docID := strconv.FormatInt(d.Documents[0], 10)
	site := store.Site{AccountID: a, URL: "https://a.example/", Host: "a.example", Name: "A"}
	if err := h.st.CreateSite(context.Background(), &site); err != nil {
		t.Fatal(err)
	}
	siteID := strconv.FormatInt(site.ID, 10)
	mustStatus(t, "B uploads into A's site", h.kbUpload("documentUpload", keyB, "x.md", []byte("# X\n\nText.\n"), map[string]string{"site_id": siteID}),
		http.StatusNotFound, "not_found")
	mustStatus(t, "B imports into A's site", h.do(http.MethodPost, "/api/v1/kb/import?site_id="+siteID, keyB,
		strings.NewReader(`{"type":"qa","question":"Q?","answer":"A."}`), "application/x-ndjson"), http.StatusNotFound, "not_found")
	mustStatus(t, "B upserts products into A's site", h.postJSON("/api/v1/kb/productsUpsert", keyB,
		map[string]any{"site_id": site.ID, "products": []map[string]any{{"name": "Mug"}}}), http.StatusNotFound, "not_found")
	mustStatus(t, "B crawls A's site", h.postForm("/api/v1/kb/crawlStart", keyB, url.Values{"site_id": {siteID}}), http.StatusNotFound, "not_found")
	mustStatus(t, "B deletes A's document", h.postForm("/api/v1/kb/documentDelete", keyB, url.Values{"id": {docID}}), http.StatusNotFound, "not_found")
	mustStatus(t, "B updates it as Q&A", h.postForm("/api/v1/kb/qaUpdate", keyB, url.Values{"id": {docID}, "answer": {"x"}}), http.StatusNotFound, "not_found")
	// A's own page is no Q&A entry either.
	mustStatus(t, "A updates a page as Q&A", h.postForm("/api/v1/kb/qaUpdate", keyA, url.Values{"id": {docID}, "answer": {"x"}}), http.StatusNotFound, "not_found")
	r = h.get("/api/v1/kb/documents", keyB)
	if !strings.Contains(string(r.Data), `"total":0`) {
		t.Errorf("B lists A's documents: %s", r.raw)
	}
	if n := h.kbDocCount(a); n != 1 {
		t.Errorf("A's documents: %d", n)
	}
}

// The KB API writes through the app's watched store: an upload and a Q&A entry made through
// it start the owner's regression runs (testsets.WatchKB, which wraps the store after
// semantic.NotifyKBWrites), and the runs see what was written.
func TestKBWritesReachTheStoreWatchers(t *testing.T) {
	t.Parallel()
	runs := make(chan store.TestRun, 4)
	h, app := newKBHarness(t, config.Config{}, cli.AppOptions{TestDebounce: time.Millisecond,
		TestRunFinished: func(r store.TestRun) { runs <- r }})
	t.Cleanup(app.TestRunner.Serve(context.Background()))
	id, key := h.kbTenant("Watched")
	if _, err := app.Tests.Import(context.Background(), id, strings.NewReader(
		`{"q":"How long is the warranty of the Zephyr kettle?","lang":"en","expect":["47 months"],"answerable":true}`+"\n"+
			`{"q":"Do you deliver to Svalbard?","lang":"en","expect":["Polar Line"],"answerable":true}`+"\n")); err != nil {
		t.Fatal(err)
	}
	f := kbFiles(t)[0]
	mustStatus(t, "upload", h.kbUpload("documentUpload", key, f.name, f.content, nil), http.StatusOK, "")
	run := <-runs
	if run.AccountID != id || run.Trigger != store.TestTriggerUpload || run.Passed != 1 || run.Failed != 1 {
		t.Fatalf("run after the upload: %+v", run)
	}
	mustStatus(t, "qaCreate", h.postForm("/api/v1/kb/qaCreate", key, url.Values{"question": {"Do you deliver to Svalbard?"},
		"answer": {"Yes, with the Polar Line ferry."}, "lang": {"en"}}), http.StatusOK, "")
	run = <-runs
	if run.Trigger != store.TestTriggerQA || run.Passed != 2 {
		t.Fatalf("run after the Q&A entry: %+v", run)
	}
}
