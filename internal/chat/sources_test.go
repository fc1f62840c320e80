package chat

import (
	"context"
	"slices"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/storetest"
	"svc/internal/store/teststore"
)

// An answer cached before sources were kept names its documents as the KB has them now; one
// cached with sources keeps its own; a removed document is left out.
func TestCachedSourcesOfAnOlderEntry(t *testing.T) {
	t.Parallel()
	st := teststore.Open(t, time.Now)
	a, _ := storetest.NewAccount(t, st, "Legacy", 1_000_000)
	docs := []store.Document{
		{Type: store.DocPage, URL: "https://shop.test/returns", Title: "Returns", Body: "b", Lang: "en", Hash: "h1",
			Chunks: []store.Chunk{{Text: "b", Terms: "b"}}},
		{Type: store.DocQA, Title: "Do you ship abroad?", Body: "Yes.", Lang: "en", Hash: "h2",
			Chunks: []store.Chunk{{Text: "Yes.", Terms: "ye"}}},
	}
	if _, err := st.ImportDocuments(context.Background(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	p := &pending{svc: &Service{st: st}, acct: a}
	got, err := p.cachedSources(context.Background(), store.CacheEntry{DocIDs: []int64{docs[0].ID, docs[1].ID, docs[1].ID + 100}})
	want := []store.Source{{Title: "Returns", URL: "https://shop.test/returns"}, {Title: "Do you ship abroad?"}}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("older entry: %v %+v, want %+v", err, got, want)
	}
	own := []store.Source{{Title: "Kept", URL: "https://shop.test/kept"}}
	if got, err := p.cachedSources(context.Background(), store.CacheEntry{DocIDs: []int64{docs[0].ID}, Sources: own}); err != nil ||
		!slices.Equal(got, own) {
		t.Fatalf("entry with sources: %v %+v", err, got)
	}
}

// Cards attached to a reply from the cache add their pages after its own sources.
func TestCardSourcesFollowTheReplysOwn(t *testing.T) {
	t.Parallel()
	m := store.Message{Sources: []store.Source{{Title: "Returns", URL: "https://shop.test/returns"}},
		Products: []store.Product{{Name: "Boot", URL: "https://shop.test/p/boot"}, {Name: "Returns", URL: "https://shop.test/returns"}}}
	addCardSources(&m)
	want := []store.Source{{Title: "Returns", URL: "https://shop.test/returns"}, {Title: "Boot", URL: "https://shop.test/p/boot"}}
	if !slices.Equal(m.Sources, want) {
		t.Fatalf("sources %+v, want %+v", m.Sources, want)
	}
}
