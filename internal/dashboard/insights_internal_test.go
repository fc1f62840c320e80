package dashboard

import (
	"fmt"
	"testing"
	"time"

	"svc/internal/store"
)

// Past overviewQuestions the newest are grouped and the view says so; up to it, all are.
func TestOverviewInsightsCap(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	asked := make([]store.AskedQuestion, overviewQuestions+1)
	for i := range asked {
		source := store.SourceAI
		if i%4 == 0 {
			source = store.SourceFallback
		}
		asked[i] = store.AskedQuestion{MessageID: int64(len(asked) - i), Question: fmt.Sprintf("Where is order %d?", i),
			Lang: "en", Source: source, AskedAt: now.Add(-time.Duration(i) * time.Minute)}
	}
	topics, declined := overviewInsights(asked, now.AddDate(0, 0, -6), nil)
	if !topics.Capped || topics.Read != overviewQuestions || !declined.Capped || declined.Read != overviewQuestions/4 {
		t.Errorf("capped: topics %v %d, declined %v %d", topics.Capped, topics.Read, declined.Capped, declined.Read)
	}
	if tp := topics.Langs[0].Topics[0]; tp.Name != "order" || tp.Asked != overviewQuestions || tp.Declined != overviewQuestions/4 {
		t.Errorf("the topic: %s %+v", tp.Name, tp.Figures)
	}
	topics, _ = overviewInsights(asked[:overviewQuestions], now, nil)
	if topics.Capped || topics.Read != overviewQuestions {
		t.Errorf("not capped: %v %d", topics.Capped, topics.Read)
	}
}

// A declined question's "answer this": its open review item, nothing once answered in the
// review, else a new curated entry filled in; "add as a test" the tests page's form.
func TestDeclinedActions(t *testing.T) {
	t.Parallel()
	asked := []store.AskedQuestion{
		{MessageID: 3, Question: "Do you ship to Mars?", Lang: "en", Source: store.SourceFallback, Review: store.QuestionReviewOpen},
		{MessageID: 2, Question: "Kargo Mars'a gider mi?", Lang: "tr", Source: store.SourceFallback, Review: store.QuestionReviewDismissed},
		{MessageID: 1, Question: "Versand zum Mars?", Lang: "de", Source: store.SourceFallback, Review: store.QuestionReviewResolved},
	}
	_, declined := overviewInsights(asked, time.Time{}, nil)
	got := map[string]exampleView{}
	for _, l := range declined.Langs {
		for _, tp := range l.Topics {
			for _, e := range tp.Examples {
				got[e.Lang] = e
			}
		}
	}
	for lang, want := range map[string]struct {
		answer   string
		answered bool
		test     string
	}{
		"en": {"/dashboard/review/fallback/3", false, "/dashboard/tests/new?lang=en&q=Do+you+ship+to+Mars%3F"},
		"tr": {"/dashboard/kb/qa/new?lang=tr&question=Kargo+Mars%27a+gider+mi%3F", false, "/dashboard/tests/new?lang=tr&q=Kargo+Mars%27a+gider+mi%3F"},
		"de": {"", true, "/dashboard/tests/new?lang=de&q=Versand+zum+Mars%3F"},
	} {
		e := got[lang]
		if e.AnswerURL != want.answer || e.Answered != want.answered || e.TestURL != want.test {
			t.Errorf("%s: %+v, want %+v", lang, e, want)
		}
	}
}
