package dashboard_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"svc/internal/store"
)

// TestKBDragAndDropUploadInTheBrowser drives the import page in Chromium, under the real
// CSP: two files dropped on the file field are sent one at a time, each with a progress bar
// and then its result (one stored, one refused with its reason), without the page being left;
// files chosen in the field and sent go the same way; the page with its results, and a
// document's page with its replace form, are clean for axe-core. It skips where Chromium or
// axe-core is missing.
func TestKBDragAndDropUploadInTheBrowser(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	src := uiAxeSource(t)
	h := newHarness(t)
	a, _, email, pw := h.tenant("Drop Shop")
	u := uiOpen(t, bctx, h.srv.URL)
	u.signIn(email, pw)
	if st := u.open("/dashboard/kb/import"); st != http.StatusOK {
		t.Fatalf("import page: HTTP %d", st)
	}
	u.wait("the drop hint", `!document.querySelector('[data-kb-drop-hint]').hidden`)
	// Every line the script adds, with its progress bar's name, is recorded as it appears.
	u.js(`window.__kbSamePage = true; window.__kbBars = [];
		new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {
			const bar = n.querySelector && n.querySelector('progress');
			if (bar) window.__kbBars.push(bar.getAttribute('aria-label'));
		}))).observe(document.querySelector('.kb-upload-list'), {childList: true})`)

	// A drop as the browser makes one: a DataTransfer holding the files.
	u.js(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(['# Lamp care\n\nDust the Zorbel lamp with a dry cloth once a week.\n'], 'lamp-care.md', {type: 'text/markdown'}));
		dt.items.add(new File(['this is no pdf'], 'broken.pdf', {type: 'application/pdf'}));
		const zone = document.querySelector('[data-kb-drop]');
		zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
		if (!zone.classList.contains('kb-drop-over')) throw new Error('no drop highlight');
		zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`)
	const done = `.kb-upload-item[data-state="ok"], .kb-upload-item[data-state="failed"]`
	u.wait("both files' results", `document.querySelectorAll('`+done+`').length === 2`)
	items := uiMust[[]string](u, `[...document.querySelectorAll('.kb-upload-item')].map(li => li.dataset.state + ': ' + li.innerText)`)
	if len(items) != 2 || !strings.HasPrefix(items[0], "ok: lamp-care.md") || !strings.Contains(items[0], "1 passage") ||
		!strings.HasPrefix(items[1], "failed: broken.pdf") || !strings.Contains(items[1], "broken.pdf is damaged or is not a valid PDF file") {
		t.Fatalf("results: %q", items)
	}
	if bars := uiMust[[]string](u, `window.__kbBars`); len(bars) != 2 || bars[0] != "Uploading lamp-care.md" || bars[1] != "Uploading broken.pdf" {
		t.Errorf("progress bars: %q", bars)
	}
	if uiMust[int](u, `document.querySelectorAll('.kb-upload-item progress').length`) != 0 {
		t.Error("a finished file still shows its progress bar")
	}
	if !uiMust[bool](u, `window.__kbSamePage === true`) {
		t.Error("the page was left")
	}
	docs := h.kbDocs(a.ID, store.DocPage, "Zorbel lamp")
	if len(docs) != 1 || docs[0].Origin != store.OriginUpload {
		t.Fatalf("stored: %+v", docs)
	}
	if link := uiMust[string](u, `document.querySelector('.kb-upload-item[data-state="ok"] a').getAttribute('href')`); link != "/dashboard/kb/documents/"+strconv.FormatInt(docs[0].ID, 10) {
		t.Errorf("link to the document: %q", link)
	}

	// Chosen in the field and sent: the same way, the page kept.
	u.js(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(['Plant,Watering\nFicus lyrata,every 9 days\n'], 'plants.csv', {type: 'text/csv'}));
		document.querySelector('#kb-import-file').files = dt.files;
	})()`)
	u.click("import", `form[data-kb-upload] button[type="submit"]`)
	u.wait("the third result", `document.querySelectorAll('`+done+`').length === 3`)
	if last := uiMust[string](u, `document.querySelectorAll('.kb-upload-item')[2].dataset.state`); last != "ok" {
		t.Errorf("chosen file: %s", last)
	}
	if !uiMust[bool](u, `window.__kbSamePage === true && document.querySelector('#kb-import-file').value === ''`) {
		t.Error("the page was left, or the field still holds the sent files")
	}
	if len(h.kbDocs(a.ID, store.DocPage, "Ficus lyrata")) != 1 {
		t.Error("the chosen file was not stored")
	}

	check := func(where string) {
		t.Helper()
		vs, err := u.axe(src)
		if err != nil {
			t.Fatalf("%s: axe: %v", where, err)
		}
		for _, v := range vs {
			if v.serious() {
				t.Errorf("%s: %s", where, v)
			} else {
				t.Logf("%s: minor: %s", where, v)
			}
		}
	}
	check("the import page with its results")
	if st := u.open("/dashboard/kb/documents/" + strconv.FormatInt(docs[0].ID, 10)); st != http.StatusOK {
		t.Fatalf("document page: HTTP %d", st)
	}
	if n := uiMust[int](u, `document.querySelectorAll('form[action$="/replace"] input[type="file"]').length`); n != 1 {
		t.Fatalf("replace form: %d file fields", n)
	}
	check("a document's page with its replace form")
}
