package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"svc/internal/store"
)

// dashboardTests are the conformance tests of store.Dashboard.
func dashboardTests() []suiteTest {
	return []suiteTest{
		{"DashboardTranscript", testDashboardTranscript},
		{"DashboardTenantIsolation", testDashboardTenantIsolation},
		{"DashboardConcurrentReviewCloses", testDashboardConcurrentReviewCloses},
		{"DashboardConcurrentDeletes", testDashboardConcurrentDeletes},
		{"DashboardDeleteDocument", testDashboardDeleteDocument},
		{"DashboardReplaceDocument", testDashboardReplaceDocument},
		{"DashboardLedgerAndKey", testDashboardLedgerAndKey},
	}
}

// dashboardClockedTests are the conformance tests of store.Dashboard that move the clock.
func dashboardClockedTests() []clockedTest {
	return []clockedTest{
		{"DashboardConversationList", testDashboardConversationList},
		{"DashboardConversationPaging", testDashboardConversationPaging},
		{"DashboardDailyCharts", testDashboardDailyCharts},
		{"DashboardUnanswered", testDashboardUnanswered},
		{"DashboardAskedQuestions", testDashboardAskedQuestions},
		{"DashboardReviewQueue", testDashboardReviewQueue},
		{"DashboardResolveFallback", testDashboardResolveFallback},
		{"DashboardListDocuments", testDashboardListDocuments},
	}
}

// replySpec describes the reply of a dashboard test turn: its source, how it was served, whether
// it is low-confidence, and its charge.
type replySpec struct {
	source string
	via    string
	low    bool
	charge store.Charge
	extra  []store.Charge // the turn's context summary, say
}

var (
	aiReply       = replySpec{source: store.SourceAI, charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 4_000}}
	fallbackReply = replySpec{source: store.SourceFallback, low: true, charge: store.Charge{EventType: store.EventFallback}}
	curatedReply  = replySpec{source: store.SourceCacheTenant, via: store.ViaCurated,
		charge: store.Charge{EventType: store.EventCacheTenant}}
	reusedReply = replySpec{source: store.SourceCacheTenant, via: store.ViaCache,
		charge: store.Charge{EventType: store.EventCacheTenant}}
	smallTalkReply = replySpec{source: store.SourceCacheShared, charge: store.Charge{EventType: store.EventCacheShared}}
	systemReply    = replySpec{source: store.SourceSystem, low: true, charge: store.Charge{EventType: store.EventSystem}}
)

// costing is r charging amount micro-USD.
func (r replySpec) costing(amount int64) replySpec {
	r.charge.AmountMicro = amount
	return r
}

// summarized is r with a context summary charged amount micro-USD beside it.
func (r replySpec) summarized(amount int64) replySpec {
	r.extra = []store.Charge{{EventType: store.EventSummary, AmountMicro: amount}}
	return r
}

// ask saves a turn of conversation c as chat makes one (the question carries the reply's
// source; a widget turn counts against its token) in lang, or fails the test.
func ask(t *testing.T, s store.Store, c store.Conversation, lang, question string, r replySpec) *store.Turn {
	t.Helper()
	tr := &store.Turn{AccountID: c.AccountID, ConversationID: c.ID, Lang: lang, EmbedTokenID: c.EmbedTokenID,
		User: store.Message{Role: store.RoleUser, Body: question, Source: r.source, Lang: lang},
		Reply: store.Message{Role: store.RoleAssistant, Body: "re: " + question, Source: r.source, Via: r.via, Lang: lang,
			LowConfidence: r.low},
		Charge: r.charge, Extra: slices.Clone(r.extra)}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatalf("save turn %q: %v", question, err)
	}
	return tr
}

// rate saves a rating of a reply or fails the test.
func rate(t *testing.T, s store.Store, accountID, messageID int64, rating, comment string) store.Feedback {
	t.Helper()
	f := store.Feedback{AccountID: accountID, MessageID: messageID, Rating: rating, Comment: comment}
	if err := s.SaveFeedback(ctx(), &f); err != nil {
		t.Fatalf("rate message %d: %v", messageID, err)
	}
	return f
}

// qaEntry is a curated Q&A entry as the dashboard builds one for a review item.
func qaEntry(question, answer, hash string) *store.Document {
	return &store.Document{Type: store.DocQA, Title: question, Body: answer, Lang: "en", Hash: hash,
		Chunks: []store.Chunk{{Text: question + "\n" + answer, Terms: "curated " + hash}}}
}

// micro is t as the store keeps it: to the microsecond.
func micro(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func wantNotFound(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("%s: got %v, want ErrNotFound", what, err)
	}
}
