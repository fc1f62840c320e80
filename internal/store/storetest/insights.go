package storetest

import (
	"fmt"
	"testing"
	"time"

	"svc/internal/store"
)

// testDashboardAskedQuestions: the overview's insights read the window's questions newest
// first, each with its reply's source and rating and its review item's state; small talk,
// questions before the window and another account's are left out, and limit keeps the
// newest.
func testDashboardAskedQuestions(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Insightful", 10_000_000)
	b, _ := NewAccount(t, s, "Neighbour", 10_000_000)
	c, err := s.OpenConversation(ctx(), a.ID, "tr")
	if err != nil {
		t.Fatal(err)
	}
	tok := newEmbedToken(t, s, a.ID, "widget", 1_000_000)
	v := openVisitor(t, s, a.ID, tok.ID, "visitor")
	bc, _ := s.OpenConversation(ctx(), b.ID, "en")

	ask(t, s, c, "tr", "Eski soru", aiReply)
	clock.Advance(time.Hour)
	since := clock.Now()
	clock.Advance(time.Minute)
	step := func() { clock.Advance(time.Second) }
	answered := ask(t, s, c, "tr", "Siparişim nerede?", aiReply)
	step()
	ask(t, s, c, "tr", "Merhaba!", smallTalkReply)
	step()
	declined := ask(t, s, v, "tr", "İadeyi <b>nasıl</b> yaparım?", fallbackReply)
	step()
	resolved := ask(t, s, v, "de", "Wo ist der Laden?", fallbackReply)
	step()
	dismissed := ask(t, s, c, "en", "Do you ship to Mars?", fallbackReply)
	step()
	curated := ask(t, s, v, "en", "Gift wrapping?", curatedReply)
	step()
	system := ask(t, s, c, "en", "Are you there?", systemReply)
	step()
	ask(t, s, bc, "en", "The neighbour's question", aiReply)
	for _, f := range []store.Feedback{
		{AccountID: a.ID, MessageID: answered.Reply.ID, Rating: store.RatingHelpful},
		{AccountID: a.ID, MessageID: curated.Reply.ID, Rating: store.RatingNotHelpful, Comment: "no"},
		{AccountID: a.ID, MessageID: declined.Reply.ID, Rating: store.RatingNotHelpful},
	} {
		if err := s.SaveFeedback(ctx(), &f); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.ResolveFallback(ctx(), a.ID, resolved.User.ID, qaEntry("Wo ist der Laden?", "Berlin.", "laden")); err != nil {
		t.Fatal(err)
	}
	if err := s.DismissReview(ctx(), a.ID, store.ReviewFallback, dismissed.User.ID); err != nil {
		t.Fatal(err)
	}

	got, err := s.AskedQuestions(ctx(), a.ID, since, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.AskedQuestion{
		asked(system, "en", store.SourceSystem, "", ""),
		asked(curated, "en", store.SourceCacheTenant, store.RatingNotHelpful, ""),
		asked(dismissed, "en", store.SourceFallback, "", store.QuestionReviewDismissed),
		asked(resolved, "de", store.SourceFallback, "", store.QuestionReviewResolved),
		asked(declined, "tr", store.SourceFallback, store.RatingNotHelpful, store.QuestionReviewOpen),
		asked(answered, "tr", store.SourceAI, store.RatingHelpful, ""),
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("asked questions:\n got %+v\nwant %+v", got, want)
	}
	for _, q := range got {
		if q.AskedAt.Location() != time.UTC {
			t.Fatalf("asked at %v, not UTC", q.AskedAt)
		}
	}
	// The limit keeps the newest; a window after the last question holds none.
	if top, _ := s.AskedQuestions(ctx(), a.ID, since, 2); fmt.Sprint(top) != fmt.Sprint(want[:2]) {
		t.Fatalf("limit 2: %+v", top)
	}
	if none, err := s.AskedQuestions(ctx(), a.ID, clock.Now().Add(time.Second), 100); err != nil || len(none) != 0 {
		t.Fatalf("an empty window: %v %+v", err, none)
	}
	if none, err := s.AskedQuestions(ctx(), a.ID, since, 0); err != nil || len(none) != 0 {
		t.Fatalf("limit 0: %v %+v", err, none)
	}
	if all, _ := s.AskedQuestions(ctx(), a.ID, time.Time{}, 100); len(all) != 7 || all[6].Question != "Eski soru" {
		t.Fatalf("all time: %+v", all)
	}
	if other, _ := s.AskedQuestions(ctx(), b.ID, time.Time{}, 100); len(other) != 1 || other[0].Question != "The neighbour's question" {
		t.Fatalf("the other account: %+v", other)
	}
}

// asked is what AskedQuestions returns for the turn tr.
func asked(tr *store.Turn, lang, source, rating, review string) store.AskedQuestion {
	return store.AskedQuestion{MessageID: tr.User.ID, ReplyID: tr.Reply.ID, Question: tr.User.Body, Lang: lang, Source: source,
		Rating: rating, Review: review, AskedAt: micro(tr.Reply.CreatedAt)}
}
