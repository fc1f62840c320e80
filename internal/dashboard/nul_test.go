package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A NUL (U+0000) in any field or search of the dashboard is refused with the field named,
// on SQLite and PostgreSQL alike, and nothing is stored; an import file's line holding one
// is refused with its number. PostgreSQL answered these with a 500 (SQLSTATE 22021), before
// any sign-in for the login and forgot forms; SQLite stored the NUL.
func TestNULInFormsIsRefusedOnEveryStore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []harnessOpt
	}{{"sqlite", nil}, {"postgres", []harnessOpt{onPostgres()}}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tc.opts...)
			a, _, email, password := h.tenant("Nul Shop")
			before := h.kbCounts(a.ID)

			refused := func(what string, p page, field string) {
				t.Helper()
				if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "“"+field+"”") || !strings.Contains(p.Body, "NUL") {
					t.Errorf("%s: %d, want 400 naming %q; body:\n%.600s", what, p.Status, field, p.Body)
				}
			}
			anon := h.browser()
			anon.lang = "en"
			refused("login", anon.post("/dashboard/login", url.Values{"email": {"pg\x00@x.example"}, "password": {"whatever it is"}}), "email")
			refused("login password", anon.post("/dashboard/login", url.Values{"email": {email}, "password": {password + "\x00"}}), "password")
			refused("forgot", anon.post("/dashboard/forgot", url.Values{"email": {"pg\x00@x.example"}}), "email")

			b := h.kbOwner(email, password)
			b.lang = "en"
			refused("Q&A create", b.post("/dashboard/kb/qa", url.Values{"question": {"Do you ship\x00?"}, "answer": {"Yes."}, "lang": {"en"}}), "question")
			refused("site name", b.post("/dashboard/kb/sites", url.Values{"url": {"https://shop.example/"}, "name": {"Sh\x00op"}}), "name")
			refused("document search", b.get("/dashboard/kb/documents?q=a%00b"), "q")
			refused("Q&A search", b.get("/dashboard/kb/qa?q=a%00b"), "q")
			refused("team invite", b.post("/dashboard/team/users", url.Values{"email": {"new\x00@x.example"}, "role": {"agent"}}), "email")

			up := b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl",
				[]byte(`{"type":"qa","question":"Fine?","answer":"Yes."}`+"\n"+`{"type":"qa","question":"Bad?","answer":"a\u0000b"}`+"\n"), nil)
			if up.Status != http.StatusBadRequest || !strings.Contains(up.Body, "answer contains a NUL character") {
				t.Errorf("JSONL upload: %d, want 400 naming the line's field; body:\n%.600s", up.Status, up.Body)
			}

			if sites := len(mustSites(t, h, a.ID)); sites != 0 {
				t.Errorf("%d sites stored", sites)
			}
			after := h.kbCounts(a.ID)
			for k, n := range after {
				if before[k] != n {
					t.Errorf("documents of type %s: %d, were %d", k, n, before[k])
				}
			}
			if us, err := h.st.UsersByEmail(t.Context(), "new@x.example"); err != nil || len(us) != 0 {
				t.Errorf("the invite stored a user: %v %+v", err, us)
			}
		})
	}
}

func mustSites(t *testing.T, h *harness, accountID int64) []string {
	t.Helper()
	sites, err := h.st.ListSites(t.Context(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range sites {
		out = append(out, s.URL)
	}
	return out
}
