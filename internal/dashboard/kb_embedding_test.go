package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"svc/internal/config"
	"svc/internal/embedding/embedtest"
)

// withEmbedding configures semantic retrieval against the fake provider srv, charging price
// micro-USD per million tokens.
func withEmbedding(srv *embedtest.Server, price int64) harnessOpt {
	return withConfig(func(c *config.Config) {
		c.EmbedProvider, c.EmbedBaseURL, c.EmbedModel, c.EmbedPricePerMTok = "openai", srv.OpenAIBaseURL(), "concepts-test", price
	})
}

// With an embedding provider the KB page says how much of the KB its model covers, and the
// billing page names the embedding usage; without one it says nothing of it.
func TestKBOverviewShowsTheEmbeddingStatus(t *testing.T) {
	t.Parallel()
	srv := embedtest.Start(t, embedtest.Options{})
	h := newHarness(t, withEmbedding(srv, 20_000))
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	st, err := h.st.EmbeddingStatus(t.Context(), a.ID)
	if err != nil || st.Chunks == 0 {
		t.Fatal(st, err)
	}
	p := b.get("/dashboard/kb")
	kbMustStatus(t, "overview", p, http.StatusOK)
	mustContain(t, p.Body, `id="kb-embedding"`,
		fmt.Sprintf("Search by meaning: 0 of %d passages are embedded with concepts-test (0%%).", st.Chunks))

	rep, err := h.app.Embedder.EmbedAccount(t.Context(), a.ID)
	if err != nil || rep.Embedded != st.Chunks {
		t.Fatalf("embedding: %+v, %v", rep, err)
	}
	p = b.get("/dashboard/kb")
	mustContain(t, p.Body, fmt.Sprintf("Search by meaning: all %d passages are embedded with concepts-test.", st.Chunks))
	p = b.get("/dashboard/billing")
	mustContain(t, p.Body, "Knowledge base embedding")

	// In German and Turkish too.
	for lang, want := range map[string]string{"de": "Suche nach Bedeutung: Alle", "tr": "Anlama göre arama:"} {
		if p := b.post("/dashboard/profile/lang", url.Values{"lang": {lang}, "back": {"/dashboard/kb"}}); p.Status != http.StatusSeeOther {
			t.Fatalf("set lang %s: %d", lang, p.Status)
		}
		if p = b.get("/dashboard/kb"); !strings.Contains(p.Body, want) {
			t.Errorf("%s: the status line is not translated", lang)
		}
	}

	plain := newHarness(t)
	_, _, email, pw = plain.tenant("Plain")
	if p := plain.kbOwner(email, pw).get("/dashboard/kb"); strings.Contains(p.Body, "kb-embedding") ||
		strings.Contains(p.Body, "Search by meaning") {
		t.Error("without a provider the KB page speaks of embeddings")
	}
}
