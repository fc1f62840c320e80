package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"svc/internal/store"
)

func listConversations(t *testing.T, s store.Store, accountID int64, f store.ConversationFilter) []store.ConversationRow {
	t.Helper()
	rows, err := s.ListConversations(ctx(), accountID, f)
	if err != nil {
		t.Fatalf("list conversations %+v: %v", f, err)
	}
	return rows
}

func conversationIDs(rows []store.ConversationRow) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

// convFixture is an account with its API conversation and three visitor conversations on
// two tokens, each conversation's last turn a minute after the one before, so the list's
// order is api, v1, v2, v3 from the oldest; and a fourth visitor who never asked anything.
type convFixture struct {
	a, b          store.Account
	shop, blog    store.EmbedToken
	api, v1, v2   store.Conversation
	v3, silent    store.Conversation
	last          map[int64]time.Time // each conversation's last message time
	bConversation store.Conversation
}

func newConvFixture(t *testing.T, s store.Store, clock *Clock) convFixture {
	t.Helper()
	f := convFixture{last: map[int64]time.Time{}}
	f.a, _ = NewAccount(t, s, "Dashboard", 10_000_000)
	f.b, _ = NewAccount(t, s, "Elsewhere", 10_000_000)
	f.shop = newEmbedToken(t, s, f.a.ID, "shop", 1_000_000)
	f.blog = newEmbedToken(t, s, f.a.ID, "blog", 1_000_000)
	var err error
	if f.api, err = s.OpenConversation(ctx(), f.a.ID, "en"); err != nil {
		t.Fatal(err)
	}
	f.v1 = openVisitor(t, s, f.a.ID, f.shop.ID, "visitor-1")
	f.v2 = openVisitor(t, s, f.a.ID, f.shop.ID, "visitor-2")
	f.v3 = openVisitor(t, s, f.a.ID, f.blog.ID, "visitor-3")
	f.silent = openVisitor(t, s, f.a.ID, f.blog.ID, "visitor-4")
	if f.bConversation, err = s.OpenConversation(ctx(), f.b.ID, "en"); err != nil {
		t.Fatal(err)
	}
	step := func(c store.Conversation, lang, q string, r replySpec) *store.Turn {
		clock.Advance(time.Minute)
		tr := ask(t, s, c, lang, q, r)
		f.last[c.ID] = tr.Reply.CreatedAt
		return tr
	}
	step(f.api, "en", "How much is shipping?", aiReply.costing(4_000).summarized(500))
	step(f.bConversation, "en", "Another tenant's question", aiReply)
	step(f.api, "en", "Do you ship to Norway?", fallbackReply)
	bestellung := step(f.v1, "de", "Wo ist meine Bestellung?", aiReply.costing(3_000))
	rate(t, s, f.a.ID, bestellung.Reply.ID, store.RatingHelpful, "")
	step(f.v2, "en", "hello", smallTalkReply)
	refund := step(f.v2, "en", "What is your refund policy for "+strings.Repeat("very ", 40)+"old boots?", aiReply.costing(2_000))
	rate(t, s, f.a.ID, refund.Reply.ID, store.RatingNotHelpful, "too vague")
	step(f.v3, "en", "Is there a blog feed?", fallbackReply)
	step(f.v3, "en", "What about RSS?", curatedReply)
	return f
}

func testDashboardConversationList(t *testing.T, s store.Store, clock *Clock) {
	f := newConvFixture(t, s, clock)
	all := listConversations(t, s, f.a.ID, store.ConversationFilter{})
	if got, want := conversationIDs(all), []int64{f.v3.ID, f.v2.ID, f.v1.ID, f.api.ID}; !slices.Equal(got, want) {
		t.Fatalf("list: %v, want %v (newest last message first, the silent visitor left out)", got, want)
	}
	rows := map[int64]store.ConversationRow{}
	for _, r := range all {
		rows[r.ID] = r
		if !r.LastMessageAt.Equal(micro(f.last[r.ID])) || r.LastMessageAt.Location() != time.UTC {
			t.Fatalf("conversation %d last message at %v, want %v", r.ID, r.LastMessageAt, micro(f.last[r.ID]))
		}
		if r.AccountID != f.a.ID {
			t.Fatalf("row of account %d", r.AccountID)
		}
	}
	api := rows[f.api.ID]
	if api.Messages != 4 || api.Fallbacks != 1 || api.CostMicro != 4_500 || api.Helpful != 0 || api.NotHelpful != 0 ||
		api.Preview != "Do you ship to Norway?" || api.TokenLabel != "" || api.EmbedTokenID != 0 || api.Visitor != "" {
		t.Fatalf("api row (the summary's cost counts): %+v", api)
	}
	v1 := rows[f.v1.ID]
	if v1.Messages != 2 || v1.Helpful != 1 || v1.CostMicro != 3_000 || v1.TokenLabel != "shop" || v1.Lang != "de" ||
		v1.EmbedTokenID != f.shop.ID || v1.Visitor != "visitor-1" {
		t.Fatalf("v1 row: %+v", v1)
	}
	v2 := rows[f.v2.ID]
	if v2.Messages != 4 || v2.NotHelpful != 1 || v2.Helpful != 0 || v2.CostMicro != 2_000 || v2.Fallbacks != 0 {
		t.Fatalf("v2 row: %+v", v2)
	}
	if n := utf8.RuneCountInString(v2.Preview); n > 160 || !strings.HasPrefix(v2.Preview, "What is your refund policy") ||
		!strings.HasSuffix(v2.Preview, "…") {
		t.Fatalf("v2 preview (%d characters): %q", n, v2.Preview)
	}
	v3 := rows[f.v3.ID]
	if v3.Messages != 4 || v3.Fallbacks != 1 || v3.CostMicro != 0 || v3.TokenLabel != "blog" || v3.Preview != "What about RSS?" {
		t.Fatalf("v3 row: %+v", v3)
	}

	for _, tc := range []struct {
		name   string
		filter store.ConversationFilter
		want   []int64
	}{
		{"api channel", store.ConversationFilter{Channel: store.ChannelAPI}, []int64{f.api.ID}},
		{"widget channel", store.ConversationFilter{Channel: store.ChannelWidget}, []int64{f.v3.ID, f.v2.ID, f.v1.ID}},
		{"one token", store.ConversationFilter{EmbedTokenID: f.shop.ID}, []int64{f.v2.ID, f.v1.ID}},
		{"token and api channel", store.ConversationFilter{EmbedTokenID: f.shop.ID, Channel: store.ChannelAPI}, []int64{}},
		{"another account's token", store.ConversationFilter{EmbedTokenID: f.shop.ID + 100}, []int64{}},
		{"language", store.ConversationFilter{Lang: "de"}, []int64{f.v1.ID}},
		{"helpful", store.ConversationFilter{Rating: store.RatingHelpful}, []int64{f.v1.ID}},
		{"not helpful", store.ConversationFilter{Rating: store.RatingNotHelpful}, []int64{f.v2.ID}},
		{"had a fallback", store.ConversationFilter{HadFallback: true}, []int64{f.v3.ID, f.api.ID}},
		{"fallback on a token", store.ConversationFilter{HadFallback: true, EmbedTokenID: f.blog.ID}, []int64{f.v3.ID}},
		{"since (inclusive)", store.ConversationFilter{Since: f.last[f.v1.ID]}, []int64{f.v3.ID, f.v2.ID, f.v1.ID}},
		{"until (exclusive)", store.ConversationFilter{Until: f.last[f.v1.ID]}, []int64{f.api.ID}},
		{"since and until", store.ConversationFilter{Since: f.last[f.v1.ID], Until: f.last[f.v3.ID]}, []int64{f.v2.ID, f.v1.ID}},
		{"limit", store.ConversationFilter{Limit: 2}, []int64{f.v3.ID, f.v2.ID}},
	} {
		if got := conversationIDs(listConversations(t, s, f.a.ID, tc.filter)); !slices.Equal(got, tc.want) {
			t.Fatalf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := s.ListConversations(ctx(), f.a.ID, store.ConversationFilter{Channel: "email"}); err == nil {
		t.Fatal("an unknown channel was accepted")
	}

	// The other account sees its own conversation only.
	if got := conversationIDs(listConversations(t, s, f.b.ID, store.ConversationFilter{})); !slices.Equal(got, []int64{f.bConversation.ID}) {
		t.Fatalf("the other account's list: %v", got)
	}
	if got := listConversations(t, s, f.b.ID, store.ConversationFilter{EmbedTokenID: f.shop.ID}); len(got) != 0 {
		t.Fatalf("the other account lists by this account's token: %+v", got)
	}

	// GetConversation reads any of the account's conversations, listed or not.
	for _, c := range []store.Conversation{f.api, f.silent} {
		got, err := s.GetConversation(ctx(), f.a.ID, c.ID)
		if err != nil || got.ID != c.ID || got.EmbedTokenID != c.EmbedTokenID || got.Visitor != c.Visitor ||
			!got.CreatedAt.Equal(micro(c.CreatedAt)) {
			t.Fatalf("get conversation %d: %v %+v", c.ID, err, got)
		}
	}
	_, err := s.GetConversation(ctx(), f.b.ID, f.api.ID)
	wantNotFound(t, "another account's conversation", err)
	_, err = s.GetConversation(ctx(), f.a.ID, f.bConversation.ID)
	wantNotFound(t, "the other account's conversation by this account", err)

	// A new turn moves a conversation to the top.
	clock.Advance(time.Minute)
	ask(t, s, f.api, "en", "And to Sweden?", aiReply)
	if got := conversationIDs(listConversations(t, s, f.a.ID, store.ConversationFilter{Limit: 2})); !slices.Equal(got, []int64{f.api.ID, f.v3.ID}) {
		t.Fatalf("after a new turn: %v", got)
	}
}

// Keyset paging walks the whole list without a duplicate or a gap, with and without a filter.
func testDashboardConversationPaging(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Pager", 10_000_000)
	tok := newEmbedToken(t, s, a.ID, "pages", 1_000_000)
	api, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	ask(t, s, api, "en", "first", aiReply)
	for i := range 11 {
		c := openVisitor(t, s, a.ID, tok.ID, fmt.Sprintf("visitor-%02d", i))
		r := aiReply
		if i%3 == 0 {
			r = fallbackReply
		}
		ask(t, s, c, "en", fmt.Sprintf("question %d", i), r)
		if i%4 == 0 {
			clock.Advance(time.Second)
		}
	}
	walk := func(f store.ConversationFilter) []int64 {
		t.Helper()
		var ids []int64
		f.Limit = 3
		for range 20 {
			page := listConversations(t, s, a.ID, f)
			if len(page) == 0 {
				return ids
			}
			ids = append(ids, conversationIDs(page)...)
			last := page[len(page)-1]
			f.BeforeAt, f.BeforeID = last.LastMessageAt, last.ID
		}
		t.Fatalf("paging did not end: %v", ids)
		return nil
	}
	for _, f := range []store.ConversationFilter{{}, {Channel: store.ChannelWidget}, {HadFallback: true}} {
		want := conversationIDs(listConversations(t, s, a.ID, store.ConversationFilter{Channel: f.Channel,
			HadFallback: f.HadFallback, Limit: 100}))
		if got := walk(f); !slices.Equal(got, want) {
			t.Fatalf("paged %+v: %v, want %v", f, got, want)
		}
	}
	if n := len(listConversations(t, s, a.ID, store.ConversationFilter{Limit: 100})); n != 12 {
		t.Fatalf("%d conversations listed, want 12", n)
	}
	if n := len(listConversations(t, s, a.ID, store.ConversationFilter{HadFallback: true, Limit: 100})); n != 4 {
		t.Fatalf("%d conversations with a fallback, want 4", n)
	}
}

func testDashboardTranscript(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Transcribed", 10_000_000)
	b, _ := NewAccount(t, s, "Outsider", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	answered := &store.Turn{AccountID: a.ID, ConversationID: c.ID, Lang: "en",
		User: store.Message{Role: store.RoleUser, Body: "Which boots?", Source: store.SourceAI, Lang: "en"},
		Reply: store.Message{Role: store.RoleAssistant, Body: "The Trail Boot.", Source: store.SourceAI, Lang: "en",
			Products: []store.Product{{Name: "Trail Boot", Price: "119,90 €"}}, DocIDs: []int64{4, 5}},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 4_000},
		Extra:  []store.Charge{{EventType: store.EventSummary, AmountMicro: 600}}}
	saveTurn(t, s, answered)
	curated := ask(t, s, c, "en", "Do you ship to Norway?", curatedReply)
	reused := ask(t, s, c, "en", "Shipping to Norway?", reusedReply)
	fell := ask(t, s, c, "en", "Mars?", fallbackReply)
	rate(t, s, a.ID, fell.Reply.ID, store.RatingNotHelpful, "no answer")
	rate(t, s, a.ID, answered.Reply.ID, store.RatingHelpful, "")
	noEvent := ask(t, s, c, "en", "Thanks", replySpec{source: store.SourceCacheShared})

	all, err := s.Transcript(ctx(), a.ID, c.ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	turns := []*store.Turn{answered, curated, reused, fell, noEvent}
	if len(all) != 2*len(turns) {
		t.Fatalf("transcript has %d messages, want %d", len(all), 2*len(turns))
	}
	for i, tr := range turns {
		q, r := all[2*i], all[2*i+1]
		if q.ID != tr.User.ID || q.Role != store.RoleUser || q.EventType != "" || q.CostMicro != 0 || q.Rating != "" {
			t.Fatalf("question %d: %+v", i, q)
		}
		if r.ID != tr.Reply.ID || r.Body != tr.Reply.Body || r.Source != tr.Reply.Source || r.Via != tr.Reply.Via ||
			!r.CreatedAt.Equal(micro(tr.Reply.CreatedAt)) {
			t.Fatalf("reply %d: %+v", i, r)
		}
	}
	if r := all[1]; r.EventType != store.EventAnswer || r.CostMicro != 4_600 || r.Rating != store.RatingHelpful ||
		len(r.Products) != 1 || r.Products[0].Price != "119,90 €" || !slices.Equal(r.DocIDs, []int64{4, 5}) {
		t.Fatalf("answered reply (its cost includes the summary): %+v", r)
	}
	if r := all[3]; r.Via != store.ViaCurated || r.EventType != store.EventCacheTenant || r.CostMicro != 0 {
		t.Fatalf("curated reply: %+v", r)
	}
	if r := all[5]; r.Via != store.ViaCache {
		t.Fatalf("reused reply: %+v", r)
	}
	if r := all[7]; r.EventType != store.EventFallback || r.Rating != store.RatingNotHelpful || r.Comment != "no answer" ||
		!r.LowConfidence {
		t.Fatalf("fallback reply: %+v", r)
	}
	if r := all[9]; r.EventType != "" || r.CostMicro != 0 || r.Via != "" {
		t.Fatalf("reply without an event: %+v", r)
	}

	// Messages and LastMessages return Via too.
	msgs, _ := s.Messages(ctx(), a.ID, c.ID, 0, 100)
	last, _ := s.LastMessages(ctx(), a.ID, c.ID, 6)
	if len(msgs) != 10 || msgs[3].Via != store.ViaCurated || msgs[5].Via != store.ViaCache || msgs[2].Via != "" ||
		len(last) != 6 || last[1].Via != store.ViaCache {
		t.Fatalf("via through Messages: %+v / LastMessages: %+v", msgs, last)
	}

	// Pages run backwards from the newest, each oldest first.
	var paged []int64
	before := int64(0)
	for range 10 {
		page, err := s.Transcript(ctx(), a.ID, c.ID, before, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		ids := make([]int64, len(page))
		for i, m := range page {
			ids[i] = m.ID
		}
		if !slices.IsSorted(ids) {
			t.Fatalf("page not oldest first: %v", ids)
		}
		paged = append(ids, paged...)
		before = page[0].ID
	}
	want := make([]int64, len(all))
	for i, m := range all {
		want[i] = m.ID
	}
	if !slices.Equal(paged, want) {
		t.Fatalf("paged transcript %v, want %v", paged, want)
	}

	_, err = s.Transcript(ctx(), b.ID, c.ID, 0, 10)
	wantNotFound(t, "another account's transcript", err)
	_, err = s.Transcript(ctx(), a.ID, c.ID+100, 0, 10)
	wantNotFound(t, "no such conversation", err)
	empty, err := s.Transcript(ctx(), a.ID, c.ID, all[0].ID, 10)
	if err != nil || len(empty) != 0 {
		t.Fatalf("before the first message: %v %+v", err, empty)
	}
}
