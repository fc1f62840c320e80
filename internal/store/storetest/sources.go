package storetest

import (
	"slices"
	"testing"

	"svc/internal/store"
)

// sourcesTests cover a reply's sources: kept with the message, with its cached answer (so
// a reply served from the cache names them too) and in the visitor's data, and the embed
// token's setting that hides them in the widget.
var sourcesTests = []suiteTest{
	{"MessageSources", testMessageSources},
	{"CacheEntrySources", testCacheEntrySources},
	{"EmbedTokenHideSources", testEmbedTokenHideSources},
}

var testSources = []store.Source{
	{Title: "Returns & refunds", URL: "https://shop.test/returns?x=1&y=\"2\""},
	{Title: "Kann ich mit PayPal bezahlen?", URL: ""},
}

func testMessageSources(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Sourced", 1_000_000)
	tok := newEmbedToken(t, s, a.ID, "sources", 1_000_000, "shop.test")
	c := openVisitor(t, s, a.ID, tok.ID, "visitor-sources")
	tr := turn(a, c, "How do returns work?", "Send it back.\nSource: Returns", store.Charge{EventType: store.EventAnswer, AmountMicro: 5})
	tr.EmbedTokenID = tok.ID
	tr.Reply.Sources = testSources
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	bare := turn(a, c, "hello", "hi", store.Charge{EventType: store.EventCacheShared})
	bare.EmbedTokenID = tok.ID
	if err := s.SaveTurn(ctx(), bare); err != nil {
		t.Fatal(err)
	}
	all, err := s.Messages(ctx(), a.ID, c.ID, 0, 10)
	if err != nil || len(all) != 4 {
		t.Fatalf("messages: %v %d", err, len(all))
	}
	if !slices.Equal(all[1].Sources, testSources) {
		t.Fatalf("reply sources: %+v, want %+v", all[1].Sources, testSources)
	}
	for _, i := range []int{0, 2, 3} {
		if all[i].Sources == nil || len(all[i].Sources) != 0 {
			t.Fatalf("message %d: sources %#v, want an empty list", i, all[i].Sources)
		}
	}
	last, _ := s.LastMessages(ctx(), a.ID, c.ID, 4)
	if len(last) != 4 || !slices.Equal(last[1].Sources, testSources) {
		t.Fatalf("last messages lost the sources: %+v", last)
	}
	d, err := s.VisitorData(ctx(), a.ID, "visitor-sources")
	if err != nil || len(d.Conversations) != 1 || len(d.Conversations[0].Messages) != 4 ||
		!slices.Equal(d.Conversations[0].Messages[1].Sources, testSources) {
		t.Fatalf("visitor data lost the sources: %v %+v", err, d)
	}
}

func testCacheEntrySources(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "SourceCache", 1_000_000)
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	tr := turn(a, c, "How do returns work?", "Send it back.", store.Charge{EventType: store.EventAnswer, AmountMicro: 5})
	tr.Reply.Sources = testSources
	tr.Cache = &store.CacheEntry{Lang: "en", Key: "return work", Question: "How do returns work?", Answer: "Send it back.",
		DocIDs: []int64{4}, Sources: testSources, Terms: []string{"return", "work"}}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	e, err := s.CachedAnswer(ctx(), a.ID, "en", "return work")
	if err != nil || !slices.Equal(e.Sources, testSources) {
		t.Fatalf("cached sources: %v %+v", err, e.Sources)
	}
	similar, err := s.SimilarCached(ctx(), a.ID, "en", []string{"return", "work"}, 5)
	if err != nil || len(similar) != 1 || !slices.Equal(similar[0].Sources, testSources) {
		t.Fatalf("similar cached sources: %v %+v", err, similar)
	}
	// A replaced entry takes the new reply's sources, none included.
	again := turn(a, c, "How do returns work?", "Send it back now.", store.Charge{EventType: store.EventAnswer, AmountMicro: 5})
	again.Cache = &store.CacheEntry{Lang: "en", Key: "return work", Question: "How do returns work?", Answer: "Send it back now.",
		DocIDs: []int64{4}, Terms: []string{"return", "work"}}
	if err := s.SaveTurn(ctx(), again); err != nil {
		t.Fatal(err)
	}
	if e, err := s.CachedAnswer(ctx(), a.ID, "en", "return work"); err != nil || e.Sources == nil || len(e.Sources) != 0 {
		t.Fatalf("replaced entry's sources: %v %#v", err, e.Sources)
	}
}

func testEmbedTokenHideSources(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "SourceToken", 0)
	shown := newEmbedToken(t, s, a.ID, "shown", 1_000_000, "shop.test")
	hidden := embedToken(a.ID, "hidden", 1_000_000, "shop.test")
	hidden.HideSources = true
	if err := s.CreateEmbedToken(ctx(), &hidden, 5); err != nil {
		t.Fatal(err)
	}
	for _, want := range []store.EmbedToken{shown, hidden} {
		got, err := s.GetEmbedToken(ctx(), a.ID, want.ID)
		if err != nil || got.HideSources != want.HideSources {
			t.Fatalf("token %s: hide %v, want %v (%v)", want.Label, got.HideSources, want.HideSources, err)
		}
	}
	hidden.HideSources = false
	if err := s.UpdateEmbedToken(ctx(), &hidden); err != nil || hidden.HideSources {
		t.Fatalf("update to show: %v %+v", err, hidden)
	}
	shown.HideSources = true
	if err := s.UpdateEmbedToken(ctx(), &shown); err != nil || !shown.HideSources {
		t.Fatalf("update to hide: %v %+v", err, shown)
	}
	byPrefix, err := s.ActiveEmbedTokensByPrefix(ctx(), shown.Prefix)
	if err != nil || len(byPrefix) != 1 || !byPrefix[0].HideSources {
		t.Fatalf("the widget's lookup lost the setting: %v %+v", err, byPrefix)
	}
}
