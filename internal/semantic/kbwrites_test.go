package semantic

import (
	"context"
	"slices"
	"sync"
	"testing"

	"svc/internal/demo/demotest"
	"svc/internal/store"
)

// Every committed write of KB chunks through the wrapper reports its account; a failed one
// and every read do not.
func TestNotifyKBWritesReportsCommittedWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	var got []int64
	base := openSQLite(t)
	st := NotifyKBWrites(base, func(id int64) {
		mu.Lock()
		got = append(got, id)
		mu.Unlock()
	})
	notified := func() []int64 {
		mu.Lock()
		defer mu.Unlock()
		out := got
		got = nil
		return out
	}
	a := newAccount(t, base, "Shop", 0)
	docs := demotest.Docs(t)
	if _, err := st.ImportDocuments(ctx, a.ID, docs[:3]); err != nil {
		t.Fatal(err)
	}
	if n := notified(); !slices.Equal(n, []int64{a.ID}) {
		t.Fatalf("import: %v", n)
	}
	seq := func(yield func(store.Document, error) bool) { yield(docs[3], nil) }
	if _, err := st.ImportDocumentSeq(ctx, a.ID, seq); err != nil {
		t.Fatal(err)
	}
	rows, _, err := st.ListDocuments(ctx, a.ID, store.DocQuery{Limit: 10})
	if err != nil || len(rows) == 0 {
		t.Fatal(rows, err)
	}
	if err := st.DeleteDocument(ctx, a.ID, rows[0].ID); err != nil {
		t.Fatal(err)
	}
	if n := notified(); !slices.Equal(n, []int64{a.ID, a.ID}) {
		t.Fatalf("import of a sequence and a deletion: %v", n)
	}
	// Failures and reads say nothing.
	if err := st.DeleteDocument(ctx, a.ID, 1<<40); err == nil {
		t.Fatal("deleting a missing document succeeded")
	}
	if _, err := st.SearchChunks(ctx, a.ID, store.SearchQuery{Limit: 3}); err != nil {
		t.Fatal(err)
	}
	if n, err := st.RemovePages(ctx, a.ID, 1, []string{"https://nowhere.example/"}); err == nil && n == 0 {
		if got := notified(); len(got) != 0 {
			t.Fatalf("a removal that removed nothing notified %v", got)
		}
	}
	if n := notified(); len(n) != 0 {
		t.Fatalf("failed writes and reads notified %v", n)
	}
}
