package dashboard_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"svc/internal/store"
)

// A page is replaced by a file in place: the same id, title and address, the new file's
// text, and nothing of the old text left to find; a file that cannot be read changes
// nothing; crawled pages and other accounts' documents cannot be replaced.
func TestKBReplaceDocumentWithAFile(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	p := b.kbUploadFiles(map[string][]byte{"returns.md": []byte("# Returns\n\nReturns of Zorbel lamps are free within 30 days.\n")}, nil)
	kbMustStatus(t, "upload", p, http.StatusOK)
	docs := h.kbDocs(a.ID, store.DocPage, "Zorbel lamps are free within 30")
	if len(docs) != 1 {
		t.Fatalf("uploaded: %+v", docs)
	}
	id := strconv.FormatInt(docs[0].ID, 10)
	docPage := b.get("/dashboard/kb/documents/" + id)
	mustContain(t, docPage.Body, `action="/dashboard/kb/documents/`+id+`/replace"`, `enctype="multipart/form-data"`, "Replace with a file",
		`action="/dashboard/kb/documents/`+id+`/delete"`)

	pages := h.kbCounts(a.ID)[store.DocPage]
	p = b.kbUpload("/dashboard/kb/documents/"+id+"/replace", "file", "returns-2027.html",
		[]byte("<h1>Returns 2027</h1><p>Returns of Zorbel lamps are free within 60 days, labels included.</p>"), nil)
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/kb/documents/"+id {
		t.Fatalf("replace: %d %q\n%s", p.Status, p.Header.Get("Location"), kbClip(p.Body))
	}
	mustContain(t, b.kbFollow(p).Body, "Document replaced.", "Zorbel lamps are free within 60 days")
	doc, err := h.st.GetDocument(t.Context(), a.ID, docs[0].ID)
	if err != nil || doc.Title != docs[0].Title || doc.Origin != store.OriginUpload || !strings.Contains(doc.Body, "60 days") ||
		strings.Contains(doc.Body, "30 days") {
		t.Fatalf("replaced: %v %+v", err, doc)
	}
	if got := h.kbDocs(a.ID, "", "Zorbel lamps are free within 30"); len(got) != 0 {
		t.Errorf("the old text is still there: %+v", got)
	}
	if n := h.kbCounts(a.ID)[store.DocPage]; n != pages {
		t.Errorf("pages after the replacement: %d, before %d", n, pages)
	}

	// A file that cannot be read: the page again with the reason, the document as it was.
	p = b.kbUpload("/dashboard/kb/documents/"+id+"/replace", "file", "photo.png", []byte("\x89PNG\r\n\x1a\n\x00\x00"), nil)
	kbMustStatus(t, "an unknown file", p, http.StatusBadRequest)
	mustContain(t, p.Body, `id="replace-error"`, "photo.png: this kind of file cannot be read", `aria-invalid="true"`)
	p = b.kbUpload("/dashboard/kb/documents/"+id+"/replace", "", "", nil, nil)
	kbMustStatus(t, "no file", p, http.StatusBadRequest)
	if again, _ := h.st.GetDocument(t.Context(), a.ID, docs[0].ID); again.Body != doc.Body {
		t.Errorf("a refused file changed the document: %q", again.Body)
	}

	// A crawled page is its site's: no form, and a 404 for the address.
	site := h.kbSite(a.ID, "https://shop.test/")
	crawled := store.Document{SiteID: site.ID, Type: store.DocPage, URL: "https://shop.test/about", Title: "About us",
		Body: "About the shop.", Lang: "en", Hash: "c1", SourceURL: "https://shop.test/about",
		Chunks: []store.Chunk{{Text: "About the shop.", Terms: "about shop"}}}
	if _, err := h.st.ImportDocuments(t.Context(), a.ID, []store.Document{crawled}); err != nil {
		t.Fatal(err)
	}
	cid := strconv.FormatInt(h.kbDocs(a.ID, store.DocPage, "About the shop")[0].ID, 10)
	if strings.Contains(b.get("/dashboard/kb/documents/"+cid).Body, "/replace") {
		t.Error("a crawled page offers to be replaced")
	}
	p = b.kbUpload("/dashboard/kb/documents/"+cid+"/replace", "file", "about.md", []byte("# About\n\nText.\n"), nil)
	kbMustStatus(t, "replace a crawled page", p, http.StatusNotFound)

	// Another account's document, and an agent of this one.
	_, _, email2, pw2 := h.tenant("Other")
	other := h.kbOwner(email2, pw2)
	p = other.kbUpload("/dashboard/kb/documents/"+id+"/replace", "file", "x.md", []byte("# X\n\nText.\n"), nil)
	kbMustStatus(t, "another account", p, http.StatusNotFound)
	agentEmail, agentPw := h.user(a.ID, store.UserAgent)
	agent := h.kbOwner(agentEmail, agentPw)
	p = agent.kbUpload("/dashboard/kb/documents/"+id+"/replace", "file", "x.md", []byte("# X\n\nText.\n"), nil)
	kbMustStatus(t, "an agent", p, http.StatusForbidden)
	if strings.Contains(agent.get("/dashboard/kb/documents/"+id).Body, "/replace") {
		t.Error("an agent is offered the replace form")
	}
}

// The page's script sends one file a request marked HX-Request: the answer is that file's
// result alone, stored or refused, never a whole page.
func TestKBImportOneFileAnswersItsResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	send := func(name string, content []byte) page {
		t.Helper()
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(content)
		_ = mw.Close()
		req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/dashboard/kb/import", &buf)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Origin", h.srv.URL)
		return b.do(htmx(req))
	}
	p := send("care.md", []byte("# Care\n\nWash the Merino socks at 30 degrees.\n"))
	kbMustStatus(t, "one file", p, http.StatusOK)
	if strings.Contains(p.Body, "<html") || !strings.Contains(p.Body, `data-kb-file-result data-state="ok"`) {
		t.Fatalf("one file: %s", p.Body)
	}
	docs := h.kbDocs(a.ID, store.DocPage, "Merino socks")
	if len(docs) != 1 {
		t.Fatalf("stored: %+v", docs)
	}
	mustContain(t, p.Body, "1 passage", `href="/dashboard/kb/documents/`+strconv.FormatInt(docs[0].ID, 10)+`"`)
	p = send("broken.docx", []byte("PK\x03\x04 no zip"))
	kbMustStatus(t, "a bad file", p, http.StatusOK)
	mustContain(t, p.Body, `data-state="failed"`, "broken.docx")
	p = send("lines.jsonl", []byte(`{"type":"qa","question":"Q?"}`+"\n"))
	mustContain(t, p.Body, `data-state="failed"`, "Line 1")
}
