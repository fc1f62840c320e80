package dashboard_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"svc/internal/store"
)

func TestKBImportRejectsAFileWithABadLineWhole(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	mustContain(t, b.get("/dashboard/kb/import").Body, `enctype="multipart/form-data"`, `name="file"`, `<label for="kb-import-file">`)
	before := h.kbCounts(a.ID)

	file := strings.Join([]string{
		`{"type":"qa","question":"Do you sell stoves?","answer":"Yes, three kinds.","lang":"en"}`,
		`{"type":"page","url":"https://shop.example/stoves","title":"Stoves","body":"<p>Our stoves burn gas.</p>","lang":"en"}`,
		`{"type":"qa","question":"Do you sell fuel?"}`,
		``,
		`{"type":"gadget","name":"x"}`,
		`{"type":"product","name":"Stove","price":"49 €","category":"Kitchen"}`,
	}, "\n")
	p := b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(file), nil)
	kbMustStatus(t, "bad file", p, http.StatusBadRequest)
	mustContain(t, p.Body, "Nothing was imported", "so none of it was imported",
		"Line 3: qa needs question and answer", `Line 5: unknown type &#34;gadget&#34;`)
	if strings.Contains(p.Body, "Line 1:") || strings.Contains(p.Body, "Line 6:") {
		t.Error("a good line is listed as bad")
	}
	if after := h.kbCounts(a.ID); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a refused file changed the KB: %v -> %v", before, after)
	}

	// Without its bad lines the file imports, in one go, with a summary by type.
	good := strings.Join([]string{
		`{"type":"qa","question":"Do you sell stoves?","answer":"Yes, three kinds.","lang":"en"}`,
		`{"type":"page","url":"https://shop.example/stoves","title":"Stoves","body":"<p>Our stoves burn gas and are sold with a two year guarantee.</p>","lang":"en"}`,
		`{"type":"product","name":"Stove","price":"49 €","category":"Kitchen"}`,
	}, "\r\n")
	p = b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte("\uFEFF"+good+"\n"), nil)
	kbMustStatus(t, "good file", p, http.StatusOK)
	mustContain(t, p.Body, "Import finished",
		`<th scope="row">Pages</th><td class="num">1</td>`,
		`<th scope="row">Products</th><td class="num">1</td>`,
		`<th scope="row">Q&amp;A entries</th><td class="num">1</td>`)
	after := h.kbCounts(a.ID)
	if after[store.DocQA] != before[store.DocQA]+1 || after[store.DocPage] != before[store.DocPage]+1 ||
		after[store.DocProduct] != before[store.DocProduct]+1 {
		t.Errorf("counts after import: %v -> %v", before, after)
	}
	// The same file again changes nothing.
	p = b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(good), nil)
	mustContain(t, p.Body, `<th scope="row">Unchanged (already up to date)</th><td class="num">3</td>`)
}

func TestKBImportIntoASiteAndItsLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	site := h.kbSite(a.ID, "https://shop.example/")
	b := h.kbOwner(email, pw)
	before := h.kbCounts(a.ID)

	line := `{"type":"qa","question":"Is the shop open on Sundays?","answer":"No, Monday to Saturday.","lang":"en"}`
	p := b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(line), url.Values{"site": {strconv.FormatInt(site.ID, 10)}})
	kbMustStatus(t, "import into a site", p, http.StatusOK)
	if rows := h.kbDocs(a.ID, store.DocQA, "Is the shop open on Sundays?"); len(rows) != 1 || rows[0].SiteID != site.ID {
		t.Fatalf("imported into the site: %+v", rows)
	}

	// Too large: refused with a clear message, nothing imported.
	big := bytes.Repeat([]byte(line+"\n"), 20<<20/len(line)+2)
	p = b.kbUpload("/dashboard/kb/import", "file", "big.jsonl", big, nil)
	kbMustStatus(t, "too large", p, http.StatusRequestEntityTooLarge)
	mustContain(t, p.Body, "The file is too large: at most 20 MiB.")

	// No file, and an empty file.
	p = b.kbUpload("/dashboard/kb/import", "", "", nil, url.Values{"site": {""}})
	kbMustStatus(t, "no file", p, http.StatusBadRequest)
	mustContain(t, p.Body, "Choose a file to import.")
	p = b.kbUpload("/dashboard/kb/import", "file", "empty.jsonl", []byte("\n\n"), nil)
	kbMustStatus(t, "empty file", p, http.StatusBadRequest)
	mustContain(t, p.Body, "The file holds no records.")

	// A file that is wrong throughout lists the first hundred bad lines and counts the rest.
	p = b.kbUpload("/dashboard/kb/import", "file", "bad.jsonl", bytes.Repeat([]byte("not json\n"), 150), nil)
	kbMustStatus(t, "bad throughout", p, http.StatusBadRequest)
	mustContain(t, p.Body, "Line 1: not a JSON object", "Line 100: not a JSON object", "… and 50 more bad lines.")
	if strings.Contains(p.Body, "Line 101:") {
		t.Error("more than a hundred bad lines are listed")
	}

	if after := h.kbCounts(a.ID); after[store.DocQA] != before[store.DocQA]+1 || after[store.DocPage] != before[store.DocPage] {
		t.Errorf("counts: %v -> %v", before, after)
	}
}
