package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

// vectorTests cover store.Vectors: chunk vectors, the embedder's queue and their lifetime
// with the chunks, documents and accounts they belong to.
var vectorTests = []suiteTest{
	{"VectorsRoundTrip", testVectorsRoundTrip},
	{"VectorsQueue", testVectorsQueue},
	{"VectorsFollowChunks", testVectorsFollowChunks},
	{"VectorsFollowCrawls", testVectorsFollowCrawls},
	{"VectorsGoWithAccount", testVectorsGoWithAccount},
	{"VectorsModelChange", testVectorsModelChange},
	{"VectorsStreaming", testVectorsStreaming},
	{"VectorsTenantIsolation", testVectorsTenantIsolation},
	{"VectorsPutRacingDelete", testVectorsPutRacingDelete},
	{"ChunksByID", testChunksByID},
	{"EmbeddingLease", testEmbeddingLease},
}

const (
	modelA = "bge-m3"
	modelB = "nomic-embed-text"
)

// testVector is a vector of chunk id whose bytes run through every byte value (NUL and 0xff
// included), offset by seed, so two vectors of one chunk differ.
func testVector(chunkID int64, seed byte) store.ChunkVector {
	data := make([]byte, 256)
	for i := range data {
		data[i] = byte(i) + seed
	}
	return store.ChunkVector{ChunkID: chunkID, Dim: 64, Encoding: "f32", Data: data}
}

// putAll embeds every chunk the queue lists for model, and returns their ids.
func putAll(t *testing.T, s store.Store, accountID int64, model string, seed byte) []int64 {
	t.Helper()
	todo, err := s.ChunksToEmbed(ctx(), accountID, model, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	vecs := make([]store.ChunkVector, 0, len(todo))
	ids := make([]int64, 0, len(todo))
	for _, c := range todo {
		vecs = append(vecs, testVector(c.ID, seed))
		ids = append(ids, c.ID)
	}
	n, err := s.PutChunkVectors(ctx(), accountID, model, vecs)
	if err != nil || n != len(vecs) {
		t.Fatalf("put %d vectors: stored %d, %v", len(vecs), n, err)
	}
	return ids
}

// storedVectors reads every vector of the account and model.
func storedVectors(t *testing.T, s store.Store, accountID int64, model string) []store.StoredVector {
	t.Helper()
	var out []store.StoredVector
	if err := s.ChunkVectors(ctx(), accountID, model, func(v store.StoredVector) error {
		out = append(out, v)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func vectorIDs(vs []store.StoredVector) []int64 {
	ids := make([]int64, len(vs))
	for i, v := range vs {
		ids[i] = v.ChunkID
	}
	return ids
}

// todoIDs lists the ids of the account's chunks without a vector of model.
func todoIDs(t *testing.T, s store.Store, accountID int64, model string) []int64 {
	t.Helper()
	todo, err := s.ChunksToEmbed(ctx(), accountID, model, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(todo))
	for i, c := range todo {
		ids[i] = c.ID
	}
	return ids
}

func status(t *testing.T, s store.Store, accountID int64) store.EmbeddingStatus {
	t.Helper()
	st, err := s.EmbeddingStatus(ctx(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func vectorVersion(t *testing.T, s store.Store, accountID int64, model string) int64 {
	t.Helper()
	v, err := s.VectorVersion(ctx(), accountID, model)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Vectors come back byte for byte with what an index filters by; a second put replaces.
func testVectorsRoundTrip(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Vectors", 0)
	site := newSite(t, s, a.ID, "https://shop.test/")
	docs := kbDocs()
	docs[0].SiteID = site.ID
	docs[0].Chunks = append(docs[0].Chunks, store.Chunk{Heading: "Returns › Abroad", Text: "Abroad too.",
		Terms: "abroad", Tokens: 3})
	if _, err := s.ImportDocuments(ctx(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	if st := status(t, s, a.ID); st.Chunks != 6 || len(st.Models) != 0 {
		t.Fatalf("status before any vector: %+v", st)
	}
	if v := vectorVersion(t, s, a.ID, modelA); v <= 0 {
		t.Fatalf("vector version of an imported KB: %d", v)
	}

	todo, err := s.ChunksToEmbed(ctx(), a.ID, modelA, 0, 100)
	if err != nil || len(todo) != 6 {
		t.Fatalf("chunks to embed: %v %+v", err, todo)
	}
	if !slices.IsSortedFunc(todo, func(x, y store.ChunkText) int { return int(x.ID - y.ID) }) {
		t.Fatalf("not in id order: %+v", todo)
	}
	first, second := todo[0], todo[1]
	if first.DocID != docs[0].ID || first.DocType != store.DocPage || first.Lang != "en" || first.Title != "Returns" ||
		first.Heading != "Returns" || first.Text != "Shoes can be returned in 30 days." {
		t.Fatalf("first chunk: %+v", first)
	}
	if second.Heading != "Returns › Abroad" || second.Text != "Abroad too." || second.Tokens != 3 {
		t.Fatalf("second chunk: %+v", second)
	}
	if todo[5].Lang != "tr" || todo[5].Text != "Ayakkabıların iadesi ücretsiz." {
		t.Fatalf("Turkish chunk: %+v", todo[5])
	}

	before := vectorVersion(t, s, a.ID, modelA)
	putAll(t, s, a.ID, modelA, 0)
	if after := vectorVersion(t, s, a.ID, modelA); after <= before {
		t.Fatalf("vector version did not move with a put: %d → %d", before, after)
	}
	got := storedVectors(t, s, a.ID, modelA)
	if !slices.Equal(vectorIDs(got), todoIDsOf(todo)) {
		t.Fatalf("stored ids %v, want %v", vectorIDs(got), todoIDsOf(todo))
	}
	for i, v := range got {
		want := testVector(todo[i].ID, 0)
		if v.Dim != want.Dim || v.Encoding != want.Encoding || !bytes.Equal(v.Data, want.Data) {
			t.Fatalf("vector %d not as stored: dim %d encoding %q data %x", v.ChunkID, v.Dim, v.Encoding, v.Data[:8])
		}
		if v.DocID != todo[i].DocID || v.DocType != todo[i].DocType || v.Lang != todo[i].Lang {
			t.Fatalf("vector %d's chunk: %+v, want %+v", v.ChunkID, v, todo[i])
		}
	}
	if got[0].SiteID != site.ID || got[2].SiteID != 0 {
		t.Fatalf("sites: %d %d, want %d 0", got[0].SiteID, got[2].SiteID, site.ID)
	}
	if left := todoIDs(t, s, a.ID, modelA); len(left) != 0 {
		t.Fatalf("still to embed: %v", left)
	}

	// A second put replaces the vector, in another encoding.
	replaced := store.ChunkVector{ChunkID: first.ID, Dim: 3, Encoding: "i8", Data: []byte{0, 0xff, 0x80}}
	if n, err := s.PutChunkVectors(ctx(), a.ID, modelA, []store.ChunkVector{replaced}); err != nil || n != 1 {
		t.Fatalf("replace: %d %v", n, err)
	}
	got = storedVectors(t, s, a.ID, modelA)
	if len(got) != 6 || got[0].Dim != 3 || got[0].Encoding != "i8" || !bytes.Equal(got[0].Data, replaced.Data) {
		t.Fatalf("replaced vector: %+v", got[0])
	}
	st := status(t, s, a.ID)
	if st.Chunks != 6 || len(st.Models) != 1 || st.Models[0].Model != modelA || st.Models[0].Vectors != 6 ||
		st.Models[0].Dim != 3 || st.Models[0].Encoding != "i8" || st.Models[0].UpdatedAt.IsZero() {
		t.Fatalf("status: %+v", st)
	}

	// A bad vector stores nothing of its batch; so does a put without a model.
	for _, bad := range []store.ChunkVector{
		{ChunkID: first.ID, Dim: 0, Encoding: "f32", Data: []byte{1}},
		{ChunkID: first.ID, Dim: 1, Encoding: "", Data: []byte{1}},
		{ChunkID: first.ID, Dim: 1, Encoding: "f32"},
		{ChunkID: 0, Dim: 1, Encoding: "f32", Data: []byte{1}},
	} {
		batch := []store.ChunkVector{testVector(second.ID, 9), bad}
		if n, err := s.PutChunkVectors(ctx(), a.ID, modelA, batch); err == nil || n != 0 {
			t.Fatalf("bad vector %+v stored: %d %v", bad, n, err)
		}
	}
	if got := storedVectors(t, s, a.ID, modelA); !bytes.Equal(got[1].Data, testVector(second.ID, 0).Data) {
		t.Fatalf("a refused batch changed a vector: %x", got[1].Data[:4])
	}
	if _, err := s.PutChunkVectors(ctx(), a.ID, "", []store.ChunkVector{testVector(first.ID, 1)}); !errors.Is(err, store.ErrNoModel) {
		t.Fatalf("put without a model: %v", err)
	}
	if _, err := s.ChunksToEmbed(ctx(), a.ID, "", 0, 10); !errors.Is(err, store.ErrNoModel) {
		t.Fatalf("queue without a model: %v", err)
	}
	if n, err := s.PutChunkVectors(ctx(), a.ID, modelA, nil); err != nil || n != 0 {
		t.Fatalf("empty put: %d %v", n, err)
	}
}

func todoIDsOf(todo []store.ChunkText) []int64 {
	ids := make([]int64, len(todo))
	for i, c := range todo {
		ids[i] = c.ID
	}
	return ids
}

// The queue pages by id and limit, and lists the accounts with work.
func testVectorsQueue(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Queued", 0)
	b, _ := NewAccount(t, s, "Embedded", 0)
	c, _ := NewAccount(t, s, "Empty", 0)
	d, _ := NewAccount(t, s, "Later", 0)
	for _, acct := range []int64{a.ID, b.ID, d.ID} {
		if _, err := s.ImportDocuments(ctx(), acct, kbDocs()); err != nil {
			t.Fatal(err)
		}
	}
	putAll(t, s, b.ID, modelA, 0)

	all := todoIDs(t, s, a.ID, modelA)
	if len(all) != 5 {
		t.Fatalf("to embed: %v", all)
	}
	page, err := s.ChunksToEmbed(ctx(), a.ID, modelA, 0, 2)
	if err != nil || !slices.Equal(todoIDsOf(page), all[:2]) {
		t.Fatalf("first page: %v %v, want %v", err, todoIDsOf(page), all[:2])
	}
	page, err = s.ChunksToEmbed(ctx(), a.ID, modelA, page[1].ID, 2)
	if err != nil || !slices.Equal(todoIDsOf(page), all[2:4]) {
		t.Fatalf("second page: %v %v, want %v", err, todoIDsOf(page), all[2:4])
	}
	if page, err := s.ChunksToEmbed(ctx(), a.ID, modelA, all[4], 2); err != nil || len(page) != 0 {
		t.Fatalf("past the end: %v %v", err, page)
	}
	if page, err := s.ChunksToEmbed(ctx(), a.ID, modelA, 0, 0); err != nil || len(page) != 0 {
		t.Fatalf("limit 0: %v %v", err, page)
	}

	// Embedding the middle leaves the rest, in order.
	if n, err := s.PutChunkVectors(ctx(), a.ID, modelA, []store.ChunkVector{testVector(all[1], 0),
		testVector(all[3], 0)}); err != nil || n != 2 {
		t.Fatalf("put: %d %v", n, err)
	}
	if left := todoIDs(t, s, a.ID, modelA); !slices.Equal(left, []int64{all[0], all[2], all[4]}) {
		t.Fatalf("left: %v", left)
	}

	accounts, err := s.AccountsToEmbed(ctx(), modelA, 0, 10)
	if err != nil || !slices.Equal(accounts, []int64{a.ID, d.ID}) {
		t.Fatalf("accounts to embed: %v %v, want %d %d (not %d embedded, nor %d empty)", err, accounts, a.ID, d.ID, b.ID, c.ID)
	}
	if accounts, _ := s.AccountsToEmbed(ctx(), modelA, 0, 1); !slices.Equal(accounts, []int64{a.ID}) {
		t.Fatalf("limit 1: %v", accounts)
	}
	if accounts, _ := s.AccountsToEmbed(ctx(), modelA, a.ID, 10); !slices.Equal(accounts, []int64{d.ID}) {
		t.Fatalf("after %d: %v", a.ID, accounts)
	}
	if accounts, _ := s.AccountsToEmbed(ctx(), modelB, 0, 10); !slices.Equal(accounts, []int64{a.ID, b.ID, d.ID}) {
		t.Fatalf("another model: %v", accounts)
	}
	putAll(t, s, a.ID, modelA, 0)
	putAll(t, s, d.ID, modelA, 0)
	if accounts, err := s.AccountsToEmbed(ctx(), modelA, 0, 10); err != nil || len(accounts) != 0 {
		t.Fatalf("all embedded: %v %v", err, accounts)
	}
	// A new document is work again.
	if _, err := s.ImportDocuments(ctx(), b.ID, []store.Document{{Type: store.DocPage, URL: "https://shop.test/new",
		Title: "New", Body: "New page.", Lang: "en", Hash: "n1", Chunks: []store.Chunk{{Text: "New page.", Terms: "new page"}}}}); err != nil {
		t.Fatal(err)
	}
	if accounts, _ := s.AccountsToEmbed(ctx(), modelA, 0, 10); !slices.Equal(accounts, []int64{b.ID}) {
		t.Fatalf("after an import: %v", accounts)
	}
	if todo, _ := s.ChunksToEmbed(ctx(), b.ID, modelA, 0, 10); len(todo) != 1 || todo[0].Text != "New page." {
		t.Fatalf("the new chunk: %+v", todo)
	}
}

// A chunk's vector goes with the chunk: a document changed, deleted or edited takes its
// vectors with it, and its new chunks are work again; an unchanged re-import keeps them.
func testVectorsFollowChunks(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Follow", 0)
	docs := kbDocs()
	if _, err := s.ImportDocuments(ctx(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	ids := putAll(t, s, a.ID, modelA, 0)
	putAll(t, s, a.ID, modelB, 0)

	// The same documents again: unchanged, vectors kept.
	v0 := vectorVersion(t, s, a.ID, modelA)
	if _, err := s.ImportDocuments(ctx(), a.ID, kbDocs()); err != nil {
		t.Fatal(err)
	}
	if got := vectorIDs(storedVectors(t, s, a.ID, modelA)); !slices.Equal(got, ids) {
		t.Fatalf("unchanged re-import lost vectors: %v, want %v", got, ids)
	}

	// The returns page's text changes: its old vector no longer counts, under any model.
	changed := kbDocs()[:1]
	changed[0].Hash, changed[0].Chunks[0].Text = "r2", "Shoes can be returned in 60 days."
	if _, err := s.ImportDocuments(ctx(), a.ID, changed); err != nil {
		t.Fatal(err)
	}
	if v := vectorVersion(t, s, a.ID, modelA); v <= v0 {
		t.Fatalf("vector version did not move with a changed chunk: %d → %d", v0, v)
	}
	for _, model := range []string{modelA, modelB} {
		got := vectorIDs(storedVectors(t, s, a.ID, model))
		if slices.Contains(got, ids[0]) || len(got) != 4 {
			t.Fatalf("%s: the changed chunk's vector still counts: %v", model, got)
		}
		todo, _ := s.ChunksToEmbed(ctx(), a.ID, model, 0, 10)
		if len(todo) != 1 || todo[0].Text != "Shoes can be returned in 60 days." {
			t.Fatalf("%s: to embed after the change: %+v", model, todo)
		}
	}
	if st := status(t, s, a.ID); st.Chunks != 5 || st.Models[0].Vectors != 4 || st.Models[1].Vectors != 4 {
		t.Fatalf("status after the change: %+v", st)
	}
	// The stale vector of the old chunk, put late, is skipped.
	if n, err := s.PutChunkVectors(ctx(), a.ID, modelA, []store.ChunkVector{testVector(ids[0], 1)}); err != nil || n != 0 {
		t.Fatalf("vector of a replaced chunk: stored %d, %v", n, err)
	}

	// Deleting a document deletes its vectors.
	if err := s.DeleteDocument(ctx(), a.ID, docs[4].ID); err != nil {
		t.Fatal(err)
	}
	if got := vectorIDs(storedVectors(t, s, a.ID, modelA)); slices.Contains(got, ids[4]) || len(got) != 3 {
		t.Fatalf("deleted document's vector kept: %v", got)
	}

	// Editing a curated Q&A entry (the dashboard replaces it) leaves its new chunk to embed.
	edited := store.Document{Type: store.DocQA, Title: "How much is shipping?", Body: "Shipping is free over 40 EUR.",
		Lang: "en", Hash: "q2", Chunks: []store.Chunk{{Text: "How much is shipping?\nShipping is free over 40 EUR.",
			Terms: "much ship ship free 40 eur"}}}
	if err := s.ReplaceDocument(ctx(), a.ID, docs[1].ID, &edited); err != nil {
		t.Fatal(err)
	}
	if got := vectorIDs(storedVectors(t, s, a.ID, modelA)); slices.Contains(got, ids[1]) || len(got) != 2 {
		t.Fatalf("edited entry's vector kept: %v", got)
	}
	todo, _ := s.ChunksToEmbed(ctx(), a.ID, modelA, 0, 10)
	if len(todo) != 2 || todo[1].DocID != edited.ID || todo[1].Text != edited.Chunks[0].Text {
		t.Fatalf("to embed after the edit: %+v", todo)
	}
	if st := status(t, s, a.ID); st.Chunks != 4 || st.Models[0].Vectors != 2 || st.Models[1].Vectors != 2 {
		t.Fatalf("status after deletes: %+v", st)
	}
}

// A re-crawled page that changed, and a page gone from the site, take their vectors along.
func testVectorsFollowCrawls(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Crawled", 0)
	site := newSite(t, s, a.ID, "https://shop.test/")
	page := store.PageState{URL: "https://shop.test/p/boot", Hash: "h1"}
	if _, err := s.SavePage(ctx(), a.ID, site.ID, page, crawledDocs("119,90 €")); err != nil {
		t.Fatal(err)
	}
	ids := putAll(t, s, a.ID, modelA, 0)
	if len(ids) != 2 {
		t.Fatalf("crawled chunks: %v", ids)
	}
	page.Hash = "h2"
	if _, err := s.SavePage(ctx(), a.ID, site.ID, page, crawledDocs("99,90 €")); err != nil {
		t.Fatal(err)
	}
	got := vectorIDs(storedVectors(t, s, a.ID, modelA))
	if !slices.Equal(got, ids[1:]) {
		t.Fatalf("after the product changed: vectors of %v, want only the unchanged %v", got, ids[1:])
	}
	todo, _ := s.ChunksToEmbed(ctx(), a.ID, modelA, 0, 10)
	if len(todo) != 1 || todo[0].Text != "Trail Boot 99,90 €" {
		t.Fatalf("to embed after the re-crawl: %+v", todo)
	}
	if n, err := s.RemovePages(ctx(), a.ID, site.ID, []string{page.URL}); err != nil || n == 0 {
		t.Fatalf("remove page: %d %v", n, err)
	}
	if got := storedVectors(t, s, a.ID, modelA); len(got) != 0 {
		t.Fatalf("vectors of a removed page: %v", vectorIDs(got))
	}
	if st := status(t, s, a.ID); st.Chunks != 0 || len(st.Models) != 0 {
		t.Fatalf("status of an empty KB: %+v", st)
	}
}

// Deleting an account deletes its vectors and nobody else's.
func testVectorsGoWithAccount(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Leaving", 0)
	b, _ := NewAccount(t, s, "Staying", 0)
	for _, acct := range []int64{a.ID, b.ID} {
		if _, err := s.ImportDocuments(ctx(), acct, kbDocs()); err != nil {
			t.Fatal(err)
		}
		putAll(t, s, acct, modelA, 0)
		putAll(t, s, acct, modelB, 0)
		if ok, err := s.LeaseEmbedding(ctx(), acct, "worker", time.Now().Add(time.Hour)); err != nil || !ok {
			t.Fatalf("lease: %v %v", ok, err)
		}
	}
	if _, err := s.DeleteAccount(ctx(), a.ID); err != nil {
		t.Fatal(err)
	}
	if st := status(t, s, a.ID); st.Chunks != 0 || len(st.Models) != 0 {
		t.Fatalf("deleted account's vectors: %+v", st)
	}
	if got := storedVectors(t, s, a.ID, modelA); len(got) != 0 {
		t.Fatalf("deleted account's vectors read: %v", vectorIDs(got))
	}
	if st := status(t, s, b.ID); st.Chunks != 5 || len(st.Models) != 2 || st.Models[0].Vectors != 5 {
		t.Fatalf("the other account's vectors: %+v", st)
	}
	if accounts, _ := s.AccountsToEmbed(ctx(), modelA, 0, 10); len(accounts) != 0 {
		t.Fatalf("accounts to embed after the deletion: %v", accounts)
	}
}

// A new model finds every chunk to embed while the old model's vectors stay usable by
// their own model; once the new one covers the KB, the old ones are deleted.
func testVectorsModelChange(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Switch", 0)
	if _, err := s.ImportDocuments(ctx(), a.ID, kbDocs()); err != nil {
		t.Fatal(err)
	}
	ids := putAll(t, s, a.ID, modelA, 0)
	if todo := todoIDs(t, s, a.ID, modelB); !slices.Equal(todo, ids) {
		t.Fatalf("new model's queue: %v, want every chunk %v", todo, ids)
	}
	if accounts, _ := s.AccountsToEmbed(ctx(), modelB, 0, 10); !slices.Equal(accounts, []int64{a.ID}) {
		t.Fatalf("accounts for the new model: %v", accounts)
	}
	half := []store.ChunkVector{testVector(ids[0], 7), testVector(ids[1], 7)}
	if _, err := s.PutChunkVectors(ctx(), a.ID, modelB, half); err != nil {
		t.Fatal(err)
	}
	st := status(t, s, a.ID)
	if st.Chunks != 5 || len(st.Models) != 2 || st.Models[0].Model != modelA || st.Models[0].Vectors != 5 ||
		st.Models[1].Model != modelB || st.Models[1].Vectors != 2 {
		t.Fatalf("status mid-change: %+v", st)
	}
	// Each model reads its own vectors.
	if got := storedVectors(t, s, a.ID, modelB); len(got) != 2 || !bytes.Equal(got[0].Data, testVector(ids[0], 7).Data) {
		t.Fatalf("new model's vectors: %v", vectorIDs(got))
	}
	if got := storedVectors(t, s, a.ID, modelA); len(got) != 5 || !bytes.Equal(got[0].Data, testVector(ids[0], 0).Data) {
		t.Fatalf("old model's vectors: %v", vectorIDs(got))
	}
	putAll(t, s, a.ID, modelB, 7)

	oldVersion, newVersion := vectorVersion(t, s, a.ID, modelA), vectorVersion(t, s, a.ID, modelB)
	n, err := s.DeleteOtherModels(ctx(), a.ID, modelB)
	if err != nil || n != 5 {
		t.Fatalf("delete other models: %d %v", n, err)
	}
	if got := storedVectors(t, s, a.ID, modelA); len(got) != 0 {
		t.Fatalf("old model's vectors kept: %v", vectorIDs(got))
	}
	if got := storedVectors(t, s, a.ID, modelB); len(got) != 5 {
		t.Fatalf("kept model's vectors: %v", vectorIDs(got))
	}
	if v := vectorVersion(t, s, a.ID, modelA); v <= oldVersion {
		t.Fatalf("old model's version did not move with its deletion: %d → %d", oldVersion, v)
	}
	if v := vectorVersion(t, s, a.ID, modelB); v != newVersion {
		t.Fatalf("kept model's version moved: %d → %d", newVersion, v)
	}
	if st := status(t, s, a.ID); len(st.Models) != 1 || st.Models[0].Model != modelB || st.Models[0].Vectors != 5 {
		t.Fatalf("status after the change: %+v", st)
	}
	if n, err := s.DeleteOtherModels(ctx(), a.ID, modelB); err != nil || n != 0 {
		t.Fatalf("second delete: %d %v", n, err)
	}
	if _, err := s.DeleteOtherModels(ctx(), a.ID, ""); !errors.Is(err, store.ErrNoModel) {
		t.Fatalf("delete keeping no model: %v", err)
	}
	// Back to the old model: everything is work again.
	if todo := todoIDs(t, s, a.ID, modelA); !slices.Equal(todo, ids) {
		t.Fatalf("old model's queue after its deletion: %v", todo)
	}
}

// ChunkVectors walks every vector in chunk order, and an error from the callback stops it.
func testVectorsStreaming(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Stream", 0)
	const n = 300
	doc := store.Document{Type: store.DocPage, URL: "https://shop.test/long", Title: "Long", Body: "Long.", Lang: "de",
		Hash: "l1"}
	for i := range n {
		text := fmt.Sprintf("Absatz %d.", i)
		doc.Chunks = append(doc.Chunks, store.Chunk{Text: text, Terms: fmt.Sprintf("absatz n%d", i)})
	}
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{doc}); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for after := int64(0); ; {
		todo, err := s.ChunksToEmbed(ctx(), a.ID, modelA, after, 64)
		if err != nil {
			t.Fatal(err)
		}
		if len(todo) == 0 {
			break
		}
		vecs := make([]store.ChunkVector, len(todo))
		for i, c := range todo {
			vecs[i] = testVector(c.ID, byte(c.ID))
			ids = append(ids, c.ID)
		}
		if stored, err := s.PutChunkVectors(ctx(), a.ID, modelA, vecs); err != nil || stored != len(vecs) {
			t.Fatalf("put: %d %v", stored, err)
		}
		after = todo[len(todo)-1].ID
	}
	if len(ids) != n {
		t.Fatalf("walked %d chunks, want %d", len(ids), n)
	}
	seen := 0
	err := s.ChunkVectors(ctx(), a.ID, modelA, func(v store.StoredVector) error {
		if v.ChunkID != ids[seen] || v.Lang != "de" || !bytes.Equal(v.Data, testVector(v.ChunkID, byte(v.ChunkID)).Data) {
			return fmt.Errorf("vector %d: chunk %d lang %q", seen, v.ChunkID, v.Lang)
		}
		seen++
		return nil
	})
	if err != nil || seen != n {
		t.Fatalf("walk: %d of %d, %v", seen, n, err)
	}
	stop := errors.New("enough")
	calls := 0
	err = s.ChunkVectors(ctx(), a.ID, modelA, func(store.StoredVector) error {
		calls++
		if calls == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 10 {
		t.Fatalf("stopped walk: %d calls, %v", calls, err)
	}
	// The walk gave its connection back: the store still answers.
	if st := status(t, s, a.ID); st.Chunks != n || st.Models[0].Vectors != n {
		t.Fatalf("status: %+v", st)
	}
}

// An account's vectors are its own: another account's chunk is skipped, never stored.
func testVectorsTenantIsolation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Mine", 0)
	b, _ := NewAccount(t, s, "Theirs", 0)
	for _, acct := range []int64{a.ID, b.ID} {
		if _, err := s.ImportDocuments(ctx(), acct, kbDocs()); err != nil {
			t.Fatal(err)
		}
	}
	theirs := todoIDs(t, s, b.ID, modelA)
	n, err := s.PutChunkVectors(ctx(), a.ID, modelA, []store.ChunkVector{testVector(theirs[0], 0)})
	if err != nil || n != 0 {
		t.Fatalf("put of another account's chunk: stored %d, %v", n, err)
	}
	if st := status(t, s, b.ID); len(st.Models) != 0 {
		t.Fatalf("the other account got a vector: %+v", st)
	}
	if st := status(t, s, a.ID); len(st.Models) != 0 {
		t.Fatalf("the account got another's vector: %+v", st)
	}
	putAll(t, s, b.ID, modelA, 0)
	if got := storedVectors(t, s, a.ID, modelA); len(got) != 0 {
		t.Fatalf("another account's vectors read: %v", vectorIDs(got))
	}
	if n, err := s.DeleteOtherModels(ctx(), a.ID, modelB); err != nil || n != 0 {
		t.Fatalf("delete of another account's vectors: %d %v", n, err)
	}
	if got := storedVectors(t, s, b.ID, modelA); len(got) != 5 {
		t.Fatalf("the other account's vectors: %v", vectorIDs(got))
	}
}

// Vectors put while their documents are deleted: no error, and no vector outlives its
// chunk. Each document's vectors are put again and again until a put finds its chunks gone,
// so puts run all through the delete's transaction. On PostgreSQL a put that does not wait
// for the delete fails the foreign key once the delete commits.
func testVectorsPutRacingDelete(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Racing", 0)
	const docs, chunks = 24, 4
	batch := make([]store.Document, docs)
	for i := range batch {
		batch[i] = store.Document{Type: store.DocPage, URL: fmt.Sprintf("https://shop.test/%d", i), Title: "Page",
			Body: "Body.", Lang: "en", Hash: fmt.Sprintf("h%d", i)}
		for j := range chunks {
			batch[i].Chunks = append(batch[i].Chunks, store.Chunk{Text: fmt.Sprintf("Page %d part %d.", i, j),
				Terms: "page part"})
		}
	}
	if _, err := s.ImportDocuments(ctx(), a.ID, batch); err != nil {
		t.Fatal(err)
	}
	todo, err := s.ChunksToEmbed(ctx(), a.ID, modelA, 0, docs*chunks)
	if err != nil || len(todo) != docs*chunks {
		t.Fatalf("to embed: %d %v", len(todo), err)
	}
	byDoc := map[int64][]store.ChunkVector{}
	for _, c := range todo {
		byDoc[c.DocID] = append(byDoc[c.DocID], testVector(c.ID, 0))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*docs)
	for i := range batch {
		id := batch[i].ID
		putting := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			for first := true; ; first = false {
				n, err := s.PutChunkVectors(ctx(), a.ID, modelA, byDoc[id])
				switch {
				case err != nil:
					errs <- err
					return
				case n != 0 && n != chunks:
					errs <- fmt.Errorf("a put stored %d of a document's %d vectors: some before the delete, some after", n, chunks)
					return
				}
				if first {
					close(putting)
				}
				if n == 0 {
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			<-putting
			errs <- s.DeleteDocument(ctx(), a.ID, id)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("put racing a delete: %v", err)
		}
	}
	if st := status(t, s, a.ID); st.Chunks != 0 || len(st.Models) != 0 {
		t.Fatalf("vectors outlived their chunks: %+v", st)
	}
	if accounts, _ := s.AccountsToEmbed(ctx(), modelA, 0, 10); len(accounts) != 0 {
		t.Fatalf("accounts to embed: %v", accounts)
	}
}

// ChunksByID turns ids into hits, in the order given, the account's only.
func testChunksByID(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Hits", 0)
	b, _ := NewAccount(t, s, "Other", 0)
	docs := kbDocs()
	if _, err := s.ImportDocuments(ctx(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDocuments(ctx(), b.ID, kbDocs()); err != nil {
		t.Fatal(err)
	}
	mine, theirs := todoIDs(t, s, a.ID, modelA), todoIDs(t, s, b.ID, modelA)
	ask := []int64{mine[2], mine[0], theirs[1], mine[2], mine[4] + 1_000_000}
	hits, err := s.ChunksByID(ctx(), a.ID, ask)
	if err != nil || len(hits) != 2 || hits[0].ChunkID != mine[2] || hits[1].ChunkID != mine[0] {
		t.Fatalf("hits: %v %+v", err, hits)
	}
	p := hits[0]
	if p.DocType != store.DocProduct || p.DocID != docs[2].ID || p.Title != "Trail Boot" || p.URL != "https://shop.test/p/boot" ||
		p.Lang != "en" || p.Text != "Trail Boot. Waterproof boot. 119,90 €" || p.Terms == "" || p.Product == nil ||
		p.Product.Price != "119,90 €" || p.Rank != 0 {
		t.Fatalf("product hit: %+v", p)
	}
	if r := hits[1]; r.Heading != "Returns" || r.Product != nil || r.DocType != store.DocPage {
		t.Fatalf("page hit: %+v", r)
	}
	if hits, err := s.ChunksByID(ctx(), a.ID, nil); err != nil || len(hits) != 0 {
		t.Fatalf("no ids: %v %+v", err, hits)
	}
	// More ids than one query binds.
	many := make([]int64, 0, 1200)
	for i := range 1200 {
		many = append(many, mine[i%len(mine)]+int64(i/len(mine))*1_000_000)
	}
	if hits, err := s.ChunksByID(ctx(), a.ID, many); err != nil || len(hits) != len(mine) {
		t.Fatalf("many ids: %v %d hits", err, len(hits))
	}
}

// One holder at a time has an account's embedding lease: racing holders get it once, the
// holder renews it, others get it once it is released or has expired, and one account's
// lease says nothing of another's.
func testEmbeddingLease(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Leased", 0)
	b, _ := NewAccount(t, s, "Other", 0)
	later := time.Now().Add(time.Hour)
	var wg sync.WaitGroup
	won := make([]bool, 8)
	for i := range won {
		wg.Go(func() {
			ok, err := s.LeaseEmbedding(ctx(), a.ID, fmt.Sprintf("worker-%d", i), later)
			if err != nil {
				t.Error(err)
			}
			won[i] = ok
		})
	}
	wg.Wait()
	holder := slices.Index(won, true)
	if holder < 0 || slices.Index(won[holder+1:], true) >= 0 {
		t.Fatalf("racing holders won %v, want exactly one", won)
	}
	first := fmt.Sprintf("worker-%d", holder)
	lease := func(acct int64, who string, until time.Time) bool {
		t.Helper()
		ok, err := s.LeaseEmbedding(ctx(), acct, who, until)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !lease(a.ID, first, later) {
		t.Fatal("the holder could not renew its lease")
	}
	if lease(a.ID, "late", later) {
		t.Fatal("another holder took a live lease")
	}
	if !lease(b.ID, "late", later) {
		t.Fatal("a lease of one account held another's")
	}
	if err := s.ReleaseEmbedding(ctx(), a.ID, "late"); err != nil {
		t.Fatal(err)
	}
	if lease(a.ID, "late", later) {
		t.Fatal("a release by who does not hold the lease ended it")
	}
	if err := s.ReleaseEmbedding(ctx(), a.ID, first); err != nil {
		t.Fatal(err)
	}
	if !lease(a.ID, "late", time.Now().Add(-time.Second)) {
		t.Fatal("a released lease was not free")
	}
	if !lease(a.ID, first, later) {
		t.Fatal("an expired lease was not free")
	}
	if _, err := s.LeaseEmbedding(ctx(), a.ID, "", later); err == nil {
		t.Fatal("a lease without a holder was taken")
	}
}
