package dashboard_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"svc/internal/kb"
	"svc/internal/store"
)

func TestKBCuratedQAIsServedFreeByTheChatAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	question := "Can I pay with a gift card in the shop?"
	answer := "Yes: gift cards work in the shop and online, and they never expire."

	kbMustStatus(t, "new form", b.get("/dashboard/kb/qa/new"), http.StatusOK)
	p := b.post("/dashboard/kb/qa", url.Values{"question": {question}, "answer": {answer}, "lang": {"en"}})
	list := b.kbFollow(p)
	mustContain(t, list.Body, "Q&amp;A entry created.", question, `<a href="/dashboard/kb/qa" aria-current="page">Curated Q&amp;A</a>`)
	rows := h.kbDocs(a.ID, store.DocQA, question)
	if len(rows) != 1 || rows[0].Lang != "en" || rows[0].SiteID != 0 {
		t.Fatalf("entries: %+v", rows)
	}
	// Built like an imported line: the same document, chunks and hash.
	want, err := kb.Build(kb.Record{Type: kb.TypeQA, Question: question, Answer: answer, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := h.st.GetDocument(t.Context(), a.ID, rows[0].ID)
	if err != nil || got.Hash != want.Hash || got.Body != want.Body || len(got.Chunks) != len(want.Chunks) {
		t.Fatalf("stored entry differs from kb.Build's: %v %+v", err, got)
	}

	status, body := h.api(http.MethodPost, "/api/v1/chat/send", key, url.Values{"message": {question}})
	if status != http.StatusOK || !strings.Contains(body, `"source":"cache_tenant"`) || !strings.Contains(body, "never expire") {
		t.Fatalf("chat: %d %s", status, body)
	}

	// The Q&A tab lists it with an edit link, and searches.
	p = b.get("/dashboard/kb/qa?q=gift+card")
	mustContain(t, p.Body, "1 document matches.", `href="/dashboard/kb/qa/`+strconv.FormatInt(rows[0].ID, 10)+`/edit"`)
}

func TestKBCuratedQAEditKeepsOrReplacesTheEntry(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	p := b.post("/dashboard/kb/qa", url.Values{"question": {"Do you repair tents?"}, "answer": {"Yes, in Bristol."}, "lang": {"detect"}})
	b.kbFollow(p)
	rows := h.kbDocs(a.ID, store.DocQA, "Do you repair tents?")
	if len(rows) != 1 || rows[0].Lang != "en" {
		t.Fatalf("detected entry: %+v", rows)
	}
	id := rows[0].ID
	edit := "/dashboard/kb/qa/" + strconv.FormatInt(id, 10)
	p = b.get(edit + "/edit")
	mustContain(t, p.Body, `value="Do you repair tents?"`, ">Yes, in Bristol.</textarea>", `<option value="en" selected>`,
		`action="`+edit+`/delete"`, `data-confirm="Delete this Q&amp;A entry for good?"`)

	// Same question and language: the entry is updated in place.
	p = b.post(edit, url.Values{"question": {"Do you repair tents?"}, "answer": {"Yes, in Bristol and Leeds."}, "lang": {"en"}})
	mustContain(t, b.kbFollow(p).Body, "Q&amp;A entry saved.")
	got, err := h.st.GetDocument(t.Context(), a.ID, id)
	if err != nil || got.Body != "Yes, in Bristol and Leeds." {
		t.Fatalf("updated in place: %v %q", err, got.Body)
	}

	// A new question: the old entry is replaced by a new one.
	p = b.post(edit, url.Values{"question": {"Do you mend tents?"}, "answer": {"Yes, in Bristol and Leeds."}, "lang": {"en"}})
	mustContain(t, b.kbFollow(p).Body, "Q&amp;A entry saved.", "Do you mend tents?")
	if _, err := h.st.GetDocument(t.Context(), a.ID, id); err == nil {
		t.Error("the old entry is still there")
	}
	rows = h.kbDocs(a.ID, store.DocQA, "Do you mend tents?")
	if len(rows) != 1 || rows[0].ID == id {
		t.Fatalf("replaced entry: %+v", rows)
	}
	if p := b.get(edit + "/edit"); p.Status != http.StatusNotFound {
		t.Errorf("edit the replaced entry: %d", p.Status)
	}
	newEdit := "/dashboard/kb/qa/" + strconv.FormatInt(rows[0].ID, 10)
	// Another language is another key too.
	p = b.post(newEdit, url.Values{"question": {"Do you mend tents?"}, "answer": {"Ja, in Bristol."}, "lang": {"de"}})
	b.kbFollow(p)
	rows = h.kbDocs(a.ID, store.DocQA, "Do you mend tents?")
	if len(rows) != 1 || rows[0].Lang != "de" {
		t.Fatalf("language change: %+v", rows)
	}

	// Delete.
	p = b.post("/dashboard/kb/qa/"+strconv.FormatInt(rows[0].ID, 10)+"/delete", url.Values{})
	mustContain(t, b.kbFollow(p).Body, "Q&amp;A entry deleted.")
	if len(h.kbDocs(a.ID, store.DocQA, "Do you mend tents?")) != 0 {
		t.Error("deleted entry still there")
	}
}

func TestKBCuratedQAValidation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	before := h.kbCounts(a.ID)[store.DocQA]
	existing := h.kbDocs(a.ID, store.DocQA, "How long does delivery take?")[0]
	for name, tc := range map[string]struct {
		form url.Values
		want string
	}{
		"no question":   {url.Values{"question": {"  "}, "answer": {"A."}, "lang": {"en"}}, "Enter the question."},
		"no answer":     {url.Values{"question": {"Q?"}, "answer": {""}, "lang": {"en"}}, "Enter the answer."},
		"long question": {url.Values{"question": {strings.Repeat("q", kb.MaxQuestionLen+1)}, "answer": {"A."}, "lang": {"en"}}, "The question can be at most 2000 characters long."},
		"long answer":   {url.Values{"question": {"Q?"}, "answer": {strings.Repeat("a", kb.MaxAnswerLen+1)}, "lang": {"en"}}, "The answer can be at most 50000 characters long."},
		"bad language":  {url.Values{"question": {"Q?"}, "answer": {"A."}, "lang": {"fr"}}, "Choose Turkish, English, German or automatic detection."},
		"markup only":   {url.Values{"question": {"Q?"}, "answer": {"<p> </p>"}, "lang": {"en"}}, "The answer has no text once markup is removed."},
		"taken":         {url.Values{"question": {"how long does delivery take?"}, "answer": {"Soon."}, "lang": {"en"}}, "An entry with this question in this language exists already."},
	} {
		p := b.post("/dashboard/kb/qa", tc.form)
		if p.Status != http.StatusBadRequest {
			t.Errorf("%s: %d", name, p.Status)
			continue
		}
		mustContain(t, p.Body, tc.want, `role="alert"`)
		// The form comes back with what was sent.
		if q := tc.form.Get("question"); len(q) < 100 && strings.TrimSpace(q) != "" && !strings.Contains(p.Body, `value="`+q+`"`) {
			t.Errorf("%s: the question is not kept", name)
		}
	}
	// Editing an entry into another's question is refused too, and leaves both alone.
	other := h.kbDocs(a.ID, store.DocQA, "How much does shipping cost?")[0]
	p := b.post("/dashboard/kb/qa/"+strconv.FormatInt(other.ID, 10), url.Values{"question": {existing.Title}, "answer": {"x"}, "lang": {"en"}})
	kbMustStatus(t, "edit into a taken question", p, http.StatusBadRequest)
	if after := h.kbCounts(a.ID)[store.DocQA]; after != before {
		t.Errorf("Q&A entries %d -> %d", before, after)
	}
	if d, _ := h.st.GetDocument(t.Context(), a.ID, existing.ID); d.Body == "x" || d.Body == "Soon." {
		t.Error("the existing entry was overwritten")
	}
}
