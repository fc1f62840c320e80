package sqlite_test

import (
	"context"
	"testing"

	"svc/internal/store"
	"svc/internal/store/storetest"
)

// A server remembers term counts by the version of the account's chunks; an import by another
// process on the same file (`svc kb import` while `svc serve` runs) moves that version, so
// the server's very next count sees it.
func TestTermStatsSeeAnotherProcessImport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server, cli := open(t, dir), open(t, dir)
	defer server.Close()
	defer cli.Close()
	ctx := context.Background()
	a, _ := storetest.NewAccount(t, server, "Shared file", 0)
	page := func(url string) []store.Document {
		return []store.Document{{Type: store.DocPage, URL: url, Title: url, Body: "boot", Lang: "en", Hash: url,
			Chunks: []store.Chunk{{Text: "boot", Terms: "boot"}}}}
	}
	boot := []store.SearchTerm{{Text: "boot"}}
	for i, url := range []string{"https://a.test/1", "https://a.test/2", "https://a.test/3"} {
		if _, err := cli.ImportDocuments(ctx, a.ID, page(url)); err != nil {
			t.Fatal(err)
		}
		if st, err := server.TermStats(ctx, a.ID, boot); err != nil || st.DocFreq["boot"] != i+1 || st.Chunks != i+1 {
			t.Fatalf("after import %d the server counts %+v (%v)", i+1, st, err)
		}
	}
}
