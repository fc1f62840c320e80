package sqlite

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// planCase is one dashboard query with representative arguments, the indexes its plan must
// use and, when set, the part of it ("top" or a subquery's name) whose ORDER BY an index must
// give, so that its LIMIT stops the walk instead of sorting every row.
type planCase struct {
	name    string
	query   string
	args    []any
	uses    []string
	ordered string
}

func dashboardPlanCases(t *testing.T, f dashFixture) []planCase {
	t.Helper()
	at := sqlstore.TS(f.now.Add(-24 * time.Hour))
	var cases []planCase
	for _, c := range []struct {
		name   string
		filter store.ConversationFilter
	}{
		{"first page", store.ConversationFilter{}},
		{"next page", store.ConversationFilter{BeforeAt: f.now, BeforeID: 99}},
		{"token", store.ConversationFilter{EmbedTokenID: f.tokens[0]}},
		{"channel", store.ConversationFilter{Channel: store.ChannelWidget}},
		{"lang", store.ConversationFilter{Lang: "tr"}},
		{"since and until", store.ConversationFilter{Since: f.now.Add(-time.Hour), Until: f.now}},
		{"rating", store.ConversationFilter{Rating: store.RatingNotHelpful}},
		{"fallback", store.ConversationFilter{HadFallback: true}},
	} {
		q, args, err := sqlstore.ConversationPage(f.account, c.filter)
		if err != nil {
			t.Fatal(err)
		}
		uses := []string{"conversations_last_message", "messages_conversation", "usage_events_message"}
		if c.filter.HadFallback {
			uses = append(uses, "messages_conversation_fallbacks")
		}
		cases = append(cases, planCase{"ListConversations " + c.name, q, args, uses, "page"})
	}
	open, args, err := sqlstore.OpenReviewItems(f.account, "")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases,
		planCase{"Transcript", sqlstore.TranscriptQuery, []any{f.account, f.convs[1], int64(math.MaxInt64), 50},
			[]string{"messages_conversation", "usage_events_message"}, "top"},
		planCase{"DailyUsage days", sqlstore.UsageDaysQuery, []any{f.account, "2025-01-01"}, nil, "top"},
		planCase{"DailyUsage part", sqlstore.UsagePartQuery, []any{f.account, at, sqlstore.TS(f.now)}, []string{"usage_events_account"}, ""},
		planCase{"replies days", sqlstore.RepliesDaysQuery, []any{f.account, "2025-01-01"}, nil, ""},
		planCase{"replies part", sqlstore.RepliesPartQuery, []any{f.account, at, sqlstore.TS(f.now), f.account, at, sqlstore.TS(f.now)},
			[]string{"messages_account_replies", "usage_events_account"}, ""},
		planCase{"Unanswered", sqlstore.UnansweredQuery, []any{f.account, at, 10}, []string{"fallback_questions_created"}, ""},
		planCase{"AskedQuestions", sqlstore.AskedQuestionsQuery, []any{f.account, at, 1000},
			[]string{"messages_account_replies", "messages_conversation", "sqlite_autoindex_feedback_1"}, "r"},
		planCase{"ReviewQueue count", `SELECT COUNT(*) FROM (` + open + `) AS items`, args,
			[]string{"fallback_questions_status", "feedback_account"}, ""},
		planCase{"ReviewQueue page", sqlstore.ReviewPage(open), append(args, 20, 0),
			[]string{"fallback_questions_status", "feedback_account"}, ""},
		planCase{"ResolveFallback close", sqlstore.CloseQuestionQuery,
			[]any{sqlstore.FallbackResolved, at, 1, f.account, "kargo 1 ne kadar surer?", sqlstore.FallbackOpen},
			[]string{"fallback_questions_key"}, ""},
		planCase{"LedgerPage", sqlstore.LedgerPageQuery, []any{f.account, int64(math.MaxInt64), 50}, []string{"ledger_account"}, "top"},
	)
	for _, q := range []store.DocQuery{{}, {Type: store.DocQA, Query: "ship"}} {
		where, args := sqlstore.DocumentsWhere(f.account, q)
		cases = append(cases, planCase{fmt.Sprintf("ListDocuments %+v", q), sqlstore.DocumentsPage(where), append(args, 20, 0),
			[]string{"documents_updated"}, "top"})
	}
	return cases
}

// baseScan is a plan step reading a whole table or index: "SCAN m" or "SCAN m USING INDEX
// x", but not a subquery's rows (page, items, g, r) or a constant row.
var baseScan = regexp.MustCompile(`^SCAN (\w+)`)

// Every dashboard query reaches its rows through an index bounded by the account (or a
// conversation, message or day): none reads a whole table or index.
func TestDashboardQueryPlans(t *testing.T) {
	f := dashData(t, t.TempDir(), dashSize{conversations: 100, turnsPer: 4, neighbourConversations: 20, days: 3})
	ctx := context.Background()
	for _, c := range dashboardPlanCases(t, f) {
		rows, err := f.s.r.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.query, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		type step struct {
			id, parent int
			detail     string
		}
		var plan []step
		for rows.Next() {
			var st step
			var unused int
			if err := rows.Scan(&st.id, &st.parent, &unused, &st.detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, st)
		}
		rows.Close()
		var lines []string
		for _, st := range plan {
			lines = append(lines, st.detail)
		}
		text := strings.Join(lines, "\n")
		if testing.Verbose() {
			t.Logf("%s:\n%s", c.name, text)
		}
		scope := -1
		if c.ordered == "top" {
			scope = 0
		}
		for _, st := range plan {
			if m := baseScan.FindStringSubmatch(st.detail); m != nil && m[1] != "CONSTANT" && m[1] != "page" &&
				m[1] != "items" && m[1] != "g" && m[1] != "r" {
				t.Errorf("%s scans %s:\n%s", c.name, m[1], text)
			}
			if c.ordered != "" && st.detail == "CO-ROUTINE "+c.ordered {
				scope = st.id
			}
		}
		if c.ordered != "" && scope < 0 {
			t.Errorf("%s has no subquery %s:\n%s", c.name, c.ordered, text)
		}
		// A subquery run per row that walks everything of the account is a scan in disguise.
		correlated := map[int]bool{}
		for _, st := range plan {
			if strings.HasPrefix(st.detail, "CORRELATED") || correlated[st.parent] {
				correlated[st.id] = true
			}
			if correlated[st.parent] && strings.HasSuffix(st.detail, "(account_id=?)") {
				t.Errorf("%s walks the account's rows for every row:\n%s", c.name, text)
			}
		}
		for _, st := range plan {
			if c.ordered != "" && st.parent == scope && strings.Contains(st.detail, "TEMP B-TREE FOR ORDER BY") {
				t.Errorf("%s sorts instead of walking an index in order:\n%s", c.name, text)
			}
		}
		for _, index := range c.uses {
			if !strings.Contains(text, index) {
				t.Errorf("%s does not use %s:\n%s", c.name, index, text)
			}
		}
	}
}
