package storetest

import (
	"testing"

	"svc/internal/store"
)

// testFlaggedAnswerLeavesCache: a not_helpful rating of a reply that the cache served (its
// message is not the entry's) withdraws the entry that served it and every entry drawn from
// the same evidence, and an entry cached later from that evidence is served neither under
// its key nor as a similar question, while the rating stands (resolved or not). A helpful
// rating of the same message lifts it.
func testFlaggedAnswerLeavesCache(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Flagged", 1_000_000)
	b, _ := NewAccount(t, s, "Bystander", 0)
	orig := saveCached(t, s, a, "en", "tent weigh", []string{"tent", "weigh"}, []int64{7})
	// The same evidence cached for a reworded question, and an unrelated entry.
	twin := cachedWith(t, s, a, "tent heavi", "ev:tent weigh", []string{"tent", "heavi"})
	other := saveCached(t, s, a, "en", "tent price", []string{"tent", "price"}, []int64{7})
	stranger := cachedWith(t, s, b, "tent weigh", "ev:tent weigh", []string{"tent", "weigh"})

	// The reply served from the cache repeats the entry's answer; it is the one rated.
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	hit := turn(a, c, "What does the tent weigh?", orig.Answer, store.Charge{EventType: store.EventCacheTenant})
	hit.Reply.Source, hit.CacheHitID = store.SourceCacheTenant, orig.ID
	if err := s.SaveTurn(ctx(), hit); err != nil {
		t.Fatal(err)
	}
	flag := store.Feedback{AccountID: a.ID, MessageID: hit.Reply.ID, Rating: "not_helpful", Comment: "wrong"}
	if err := s.SaveFeedback(ctx(), &flag); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{orig.Key: false, twin.Key: false, other.Key: true})
	if _, err := s.CachedAnswer(ctx(), b.ID, "en", stranger.Key); err != nil {
		t.Fatalf("another account's entry withdrawn: %v", err)
	}

	// The visitor rates the same reply not_helpful a second time: its entries are gone by
	// then, and the evidence the first rating kept stays. Composed again from the same
	// sentences and cached: still not served.
	flag.Comment = "still wrong"
	if err := s.SaveFeedback(ctx(), &flag); err != nil {
		t.Fatal(err)
	}
	again := saveCached(t, s, a, "en", "tent weigh", []string{"tent", "weigh"}, []int64{7})
	assertCached(t, s, a.ID, map[string]bool{again.Key: false})
	if got, _ := s.SimilarCached(ctx(), a.ID, "en", []string{"tent", "weigh"}, 10); len(got) != 1 || got[0].ID != other.ID {
		t.Fatalf("similar entries after the flag: %v", cacheKeys(got))
	}
	doc := &store.Document{Type: store.DocQA, Title: "How much does the tent weigh?", Body: "2.1 kg.", Lang: "en",
		Hash: "fl1", Chunks: []store.Chunk{{Text: "How much does the tent weigh?\n2.1 kg.", Terms: "tent weigh"}}}
	if err := s.ResolveReview(ctx(), a.ID, flag.ID, doc); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{again.Key: false, other.Key: true})

	// The visitor takes the rating back: the answer may be served again.
	flag.Rating = "helpful"
	if err := s.SaveFeedback(ctx(), &flag); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{again.Key: true})

	// An owner who dismisses a flag (closes it without an answer) judged the answer fine.
	flag.Rating = "not_helpful"
	if err := s.SaveFeedback(ctx(), &flag); err != nil {
		t.Fatal(err)
	}
	again = saveCached(t, s, a, "en", "tent weigh", []string{"tent", "weigh"}, []int64{7})
	assertCached(t, s, a.ID, map[string]bool{again.Key: false})
	if err := s.DismissReview(ctx(), a.ID, store.ReviewNotHelpful, flag.ID); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{again.Key: true})
}

// testFlaggedListLeavesCache: an answer without evidence (a product list) that a visitor
// rated not_helpful leaves the cache, and composed again it is not cached again while the
// rating stands; another answer under the same key, or the same one in another account, is.
// Rated helpful after all, it is cached again.
func testFlaggedListLeavesCache(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Lister", 1_000_000)
	b, _ := NewAccount(t, s, "Other lister", 0)
	list := cachedWith(t, s, a, "tents", "", []string{"tent"})
	flag := store.Feedback{AccountID: a.ID, MessageID: list.MessageID, Rating: "not_helpful"}
	if err := s.SaveFeedback(ctx(), &flag); err != nil {
		t.Fatal(err)
	}
	assertCached(t, s, a.ID, map[string]bool{list.Key: false})
	if again := cachedWith(t, s, a, "tents", "", []string{"tent"}); again.ID != 0 {
		t.Fatalf("the flagged list was cached again as entry %d", again.ID)
	}
	assertCached(t, s, a.ID, map[string]bool{list.Key: false})
	if theirs := cachedWith(t, s, b, "tents", "", []string{"tent"}); theirs.ID == 0 {
		t.Fatal("another account's list was refused")
	}
	other := cachedAnswer(t, s, a, "tents", "another list", []string{"tent"})
	if other.ID == 0 {
		t.Fatal("another answer under the key was refused")
	}
	flag.Rating = "helpful"
	if err := s.SaveFeedback(ctx(), &flag); err != nil {
		t.Fatal(err)
	}
	if again := cachedWith(t, s, a, "tents", "", []string{"tent"}); again.ID == 0 {
		t.Fatal("the list was refused after the rating was lifted")
	}
}

// cachedWith caches an answer under key with the given evidence.
func cachedWith(t *testing.T, s store.Store, a store.Account, key, evidence string, terms []string) store.CacheEntry {
	t.Helper()
	e := saveEntry(t, s, a, key, "answer to "+key, evidence, terms)
	if evidence != "" && e.ID == 0 {
		t.Fatal("cache entry id not set")
	}
	return e
}

// cachedAnswer caches answer under key, without evidence.
func cachedAnswer(t *testing.T, s store.Store, a store.Account, key, answer string, terms []string) store.CacheEntry {
	t.Helper()
	return saveEntry(t, s, a, key, answer, "", terms)
}

// saveEntry saves a turn answering key? with answer, to be cached with evidence; the entry
// comes back with its message's id, and ID 0 if the store did not cache it.
func saveEntry(t *testing.T, s store.Store, a store.Account, key, answer, evidence string, terms []string) store.CacheEntry {
	t.Helper()
	c, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	tr := turn(a, c, key+"?", answer, store.Charge{EventType: store.EventCacheShared})
	tr.Cache = &store.CacheEntry{Lang: "en", Key: key, Question: key + "?", Answer: answer, Terms: terms,
		Evidence: evidence}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatalf("save cached %q: %v", key, err)
	}
	e := *tr.Cache
	e.MessageID = tr.Reply.ID
	return e
}
