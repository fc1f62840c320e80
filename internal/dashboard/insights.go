package dashboard

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"svc/internal/insights"
	"svc/internal/store"
)

// overviewQuestions is how many of the window's newest questions the overview's insights
// read: enough for a month of a busy shop, and a bounded read (about 7 ms from the index at
// 100,000 messages) and grouping (about 7 ms for 1,000 distinct questions, 2 ms once read).
const overviewQuestions = 1000

// overviewMemo is how many question texts the overview remembers the reading of: a few
// accounts' windows, about a megabyte (insights.Memo keeps short texts only). Read again,
// 1,000 distinct questions group in about 2 ms instead of 7.
const overviewMemo = 4 * overviewQuestions

// overviewRecentDays is the short window of a topic's counts, in UTC days, today included.
const overviewRecentDays = 7

var pageInsights = page{name: "insights", title: "overview.topics_title", nav: "overview"}

// insightsData is what customers asked about (Topics) and the questions the assistant
// declined (Declined), grouped the same way.
type insightsData struct {
	Topics, Declined insightsView
}

// insightsPage groups the month's questions: the fragment the overview loads once it is
// shown (its figures do not wait for the grouping), or a page of its own without htmx.
func (s *Server) insightsPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	today := s.now().UTC().Truncate(24 * time.Hour)
	since := today.AddDate(0, 0, -(overviewDays - 1))
	// One more than is grouped, to tell a window that holds more.
	asked, err := s.st.AskedQuestions(r.Context(), c.Account.ID, since, overviewQuestions+1)
	if err != nil {
		return err
	}
	var d insightsData
	d.Topics, d.Declined = overviewInsights(asked, today.AddDate(0, 0, -(overviewRecentDays-1)), s.questions)
	s.renderPart(w, r, c, pageInsights, "insights-fragment", 0, d)
	return nil
}

// insightsView is one of the overview's insight sections: the topics of each language.
type insightsView struct {
	Langs []langTopics
	// Read is how many questions the section grouped; Capped says that the window held
	// more than overviewQuestions, of which the newest were read.
	Read   int
	Capped bool
}

// langTopics is one language's topics.
type langTopics struct {
	Lang      string
	Questions int
	Topics    []topicView
}

// topicView is a topic as the overview shows it.
type topicView struct {
	insights.Topic
	Name     string // the label's words, joined
	Examples []exampleView
}

// exampleView is one of a topic's questions with its actions.
type exampleView struct {
	insights.Example
	// AnswerURL answers it: its open review item, or a new Q&A entry with the question
	// filled in. Empty when the question was answered in the review already (Answered).
	AnswerURL string
	Answered  bool
	// TestURL adds it to the assistant's tests (the tests page's form, filled in).
	TestURL string
}

// overviewInsights groups the questions read (newest first; past overviewQuestions they
// are left out and the view says so) into topics, and the declined ones apart (with what
// all the questions say of their words); recentSince starts a topic's short count.
func overviewInsights(asked []store.AskedQuestion, recentSince time.Time, memo *insights.Memo) (topics, declined insightsView) {
	capped := len(asked) > overviewQuestions
	if capped {
		asked = asked[:overviewQuestions]
	}
	all := make([]insights.Question, 0, len(asked))
	review := map[int64]string{} // a declined question's id → its review item's state
	refused := 0
	for _, a := range asked {
		q := insights.Question{ID: a.MessageID, Text: a.Question, Lang: a.Lang, At: a.AskedAt, Outcome: outcomeOf(a.Source)}
		switch a.Rating {
		case store.RatingHelpful:
			q.Rating = insights.Helpful
		case store.RatingNotHelpful:
			q.Rating = insights.NotHelpful
		}
		all = append(all, q)
		if q.Outcome == insights.Declined {
			review[a.MessageID] = a.Review
			refused++
		}
	}
	opt := insights.Options{RecentSince: recentSince}
	corpus := insights.NewCorpus(all, memo)
	topics = insightsView{Langs: topicViews(corpus.Group(nil, opt), nil), Read: len(all), Capped: capped}
	isDeclined := func(q *insights.Question) bool { return q.Outcome == insights.Declined }
	declined = insightsView{Langs: topicViews(corpus.Group(isDeclined, opt), review), Read: refused, Capped: capped}
	return topics, declined
}

// outcomeOf is what the reply of source made of its question.
func outcomeOf(source string) insights.Outcome {
	switch source {
	case store.SourceAI, store.SourceCacheTenant:
		return insights.Answered
	case store.SourceFallback:
		return insights.Declined
	}
	return insights.Unserved
}

// topicViews shapes the grouping for the page; with review (the declined section) each
// example gets its actions.
func topicViews(langs []insights.Language, review map[int64]string) []langTopics {
	out := make([]langTopics, 0, len(langs))
	for _, l := range langs {
		lt := langTopics{Lang: l.Lang, Questions: l.Questions}
		for _, tp := range l.Topics {
			tv := topicView{Topic: tp, Name: strings.Join(tp.Label, " · ")}
			for _, e := range tp.Examples {
				ev := exampleView{Example: e}
				if review != nil {
					ev.AnswerURL, ev.Answered = answerURL(e, review[e.ID])
					ev.TestURL = newTestURL(e)
				}
				tv.Examples = append(tv.Examples, ev)
			}
			lt.Topics = append(lt.Topics, tv)
		}
		out = append(out, lt)
	}
	return out
}

// answerURL is where a declined question is answered: its open review item (answering it
// there closes every open item asking the same), else a new curated Q&A entry with the
// question filled in. A question answered in the review has a curated answer already.
func answerURL(e insights.Example, state string) (string, bool) {
	switch state {
	case store.QuestionReviewOpen:
		return reviewItemURL(store.ReviewFallback, e.ID), false
	case store.QuestionReviewResolved:
		return "", true
	}
	return "/dashboard/kb/qa/new?" + url.Values{"question": {e.Text}, "lang": {e.Lang}}.Encode(), false
}

// newTestURL is the tests page's form for a new test of the question.
func newTestURL(e insights.Example) string {
	return "/dashboard/tests/new?" + url.Values{"q": {e.Text}, "lang": {e.Lang}}.Encode()
}
