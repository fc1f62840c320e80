package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

func open(t *testing.T, dir string) *sqlite.Store {
	t.Helper()
	return openAt(t, dir, nil)
}

func openAt(t *testing.T, dir string, now func() time.Time) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), dir, sqlite.Options{Now: now})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store { return openAt(t, t.TempDir(), now) })
}

// Two stores on one data directory stand for `svc serve` and an operator command running at
// the same time: both write, neither fails, and each sees the other's writes.
func TestTwoProcessesShareTheFile(t *testing.T) {
	dir := t.TempDir()
	serve, cli := open(t, dir), open(t, dir)
	defer serve.Close()
	defer cli.Close()
	a, _ := storetest.NewAccount(t, serve, "Shared", 0)
	c, err := serve.OpenConversation(context.Background(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			errs <- serve.SaveTurn(context.Background(), &store.Turn{AccountID: a.ID, ConversationID: c.ID, Lang: "en",
				User:   store.Message{Role: store.RoleUser, Body: fmt.Sprint(i)},
				Reply:  store.Message{Role: store.RoleAssistant, Body: "ok", Source: store.SourceCacheShared},
				Charge: store.Charge{EventType: store.EventCacheShared}})
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			_, err := cli.AddBalance(context.Background(), a.ID, 1, "cli")
			errs <- err
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := serve.GetAccount(context.Background(), a.ID)
	if err != nil || got.BalanceMicro != 100 {
		t.Fatalf("serve sees balance %d (%v), want 100", got.BalanceMicro, err)
	}
	msgs, _ := cli.Messages(context.Background(), a.ID, c.ID, 0, 1000)
	if len(msgs) != 200 {
		t.Fatalf("cli sees %d messages, want 200", len(msgs))
	}
}

func TestReopenKeepsDataAndMigrationsAreIdempotent(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	a, _ := storetest.NewAccount(t, s, "Persisted", 5)
	s.Close()
	s2 := open(t, dir)
	defer s2.Close()
	got, err := s2.GetAccount(context.Background(), a.ID)
	if err != nil || got.BalanceMicro != 5 {
		t.Fatalf("after reopen: %v %+v", err, got)
	}
	if err := s2.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// migrationsAt brings the database in dir to exactly version with goose, from the same files
// the store embeds, bypassing the store (which always migrates to the newest version).
func migrationsAt(t *testing.T, dir string, version int64) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, db, os.DirFS("migrations"), goose.WithGoMigrations(sqlite.GoMigrations...))
	if err != nil {
		t.Fatal(err)
	}
	current, err := p.GetDBVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if current <= version {
		_, err = p.UpTo(context.Background(), version)
	} else {
		_, err = p.DownTo(context.Background(), version)
	}
	if err != nil {
		t.Fatalf("migrate to %d: %v", version, err)
	}
}

func rawExec(t *testing.T, dir string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func columns(t *testing.T, dir, table string) map[string]bool {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		out[name] = true
	}
	return out
}

// A database written by a release at migration 2 opens, gains migration 3 and keeps its data;
// its cached answers, which name no documents, are withdrawn by the next KB change. Migration
// 3's Down step takes the schema back to 2 with the data still there.
func TestUpgradeFromMigration2(t *testing.T) {
	dir := t.TempDir()
	migrationsAt(t, dir, 2)
	const at = "2025-01-02T03:04:05.000000Z"
	rawExec(t, dir,
		`INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min, daily_answers,
			input_rate_micro, output_rate_micro, created_at, updated_at)
			VALUES (1, 'Old', 'starter', 'en', 7000, 'professional', 15, 200, 3000000, 25000000, '`+at+`', '`+at+`')`,
		`INSERT INTO ledger (account_id, kind, amount_micro, balance_after, note, created_at)
			VALUES (1, 'topup', 7000, 7000, 'opening balance', '`+at+`')`,
		`INSERT INTO conversations (id, account_id, lang, summary, created_at, updated_at)
			VALUES (1, 1, 'en', 'an old summary', '`+at+`', '`+at+`')`,
		`INSERT INTO messages (id, conversation_id, account_id, role, body, created_at) VALUES
			(1, 1, 1, 'user', 'Where is my order?', '`+at+`'),
			(2, 1, 1, 'assistant', 'Under Orders.', '`+at+`')`,
		`INSERT INTO usage_events (account_id, event_type, cost_micro, message_id, created_at)
			VALUES (1, 'answer', 0, 2, '`+at+`')`,
		`INSERT INTO documents (id, account_id, type, natural_key, url, title, body, lang, hash, created_at, updated_at)
			VALUES (1, 1, 'page', 'https://old.test/orders', 'https://old.test/orders', 'Orders', 'Under Orders.', 'en',
			'o1', '`+at+`', '`+at+`')`,
		`INSERT INTO chunks (id, account_id, document_id, ord, text, terms, term_count)
			VALUES (1, 1, 1, 0, 'Under Orders.', 'order', 1)`,
		`INSERT INTO chunks_fts (rowid, terms, tenant) VALUES (1, 'order', 'a1')`,
		`INSERT INTO answer_cache (account_id, lang, qkey, question, answer, doc_ids, message_id, created_at)
			VALUES (1, 'en', 'order', 'Where is my order?', 'Under Orders.', '1', 2, '`+at+`')`,
	)

	s := open(t, dir)
	ctx := context.Background()
	a, err := s.GetAccount(ctx, 1)
	if err != nil || a.Name != "Old" || a.BalanceMicro != 7000 || a.ReservedMicro != 0 {
		t.Fatalf("account after upgrade: %v %+v", err, a)
	}
	c, err := s.OpenConversation(ctx, 1, "de")
	if err != nil || c.ID != 1 || c.Summary != "an old summary" || c.SummarizedThrough != 0 {
		t.Fatalf("conversation after upgrade: %v %+v", err, c)
	}
	if msgs, _ := s.Messages(ctx, 1, 1, 0, 10); len(msgs) != 2 {
		t.Fatalf("messages after upgrade: %+v", msgs)
	}
	if hits, _ := s.SearchChunks(ctx, 1, store.SearchQuery{Terms: []store.SearchTerm{{Text: "order"}}}); len(hits) != 1 {
		t.Fatalf("index after upgrade: %+v", hits)
	}
	if e, err := s.CachedAnswer(ctx, 1, "en", "order"); err != nil || len(e.DocIDs) != 1 || len(e.Terms) != 0 {
		t.Fatalf("cache after upgrade: %v %+v", err, e)
	}

	// The new columns and tables work on the upgraded file.
	r, err := s.Reserve(ctx, 1, 5000, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := &store.Turn{AccountID: 1, ConversationID: 1, Lang: "en", ReservationID: r.ID,
		User:    store.Message{Role: store.RoleUser, Body: "And my invoice?"},
		Reply:   store.Message{Role: store.RoleAssistant, Body: "Under Invoices.", Source: store.SourceAI},
		Charge:  store.Charge{EventType: store.EventAnswer, AmountMicro: 4000, Calls: []store.CallUsage{{Call: "reply", CostMicro: 4000}}},
		Summary: &store.SummaryUpdate{Text: "a new summary", Through: 2}}
	if err := s.SaveTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if calls, _ := s.UsageCalls(ctx, 1, tr.Charge.EventID); len(calls) != 1 {
		t.Fatalf("calls: %+v", calls)
	}
	if a, _ := s.GetAccount(ctx, 1); a.BalanceMicro != 3000 || a.ReservedMicro != 0 {
		t.Fatalf("after a reserved turn: %+v", a)
	}

	// The pre-upgrade entry names no documents: a new document, which withdraws nothing
	// recorded, still withdraws it.
	if _, err := s.ImportDocuments(ctx, 1, []store.Document{{Type: store.DocPage, URL: "https://old.test/new", Title: "New",
		Lang: "en", Hash: "n1", Chunks: []store.Chunk{{Text: "New.", Terms: "new"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CachedAnswer(ctx, 1, "en", "order"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a pre-upgrade cache entry survived a KB change: %v", err)
	}
	s.Close()

	migrationsAt(t, dir, 2)
	if cols := columns(t, dir, "accounts"); cols["reserved_micro"] || !cols["balance_micro"] {
		t.Fatalf("accounts after down: %v", cols)
	}
	if cols := columns(t, dir, "conversations"); cols["summarized_through"] || !cols["summary"] {
		t.Fatalf("conversations after down: %v", cols)
	}
	for _, table := range []string{"reservations", "usage_calls", "answer_cache_terms", "answer_cache_docs"} {
		if cols := columns(t, dir, table); len(cols) != 0 {
			t.Fatalf("%s still exists after down: %v", table, cols)
		}
	}
	s = open(t, dir) // and up again
	defer s.Close()
	if a, err := s.GetAccount(ctx, 1); err != nil || a.BalanceMicro != 3000 || a.ReservedMicro != 0 {
		t.Fatalf("account after down and up: %v %+v", err, a)
	}
	if c, _ := s.OpenConversation(ctx, 1, "en"); c.Summary != "a new summary" || c.SummarizedThrough != 0 {
		t.Fatalf("conversation after down and up: %+v", c)
	}
}

// A database written by a release at migration 3 opens, gains migration 4 and keeps its data:
// the API conversation stays the account's one API conversation, its old usage events and
// reservations count against no embed token, and the widget's tables and columns work.
// Migration 4's Down step takes the schema back to 3 with the data still there.
func TestUpgradeFromMigration3(t *testing.T) {
	dir := t.TempDir()
	migrationsAt(t, dir, 3)
	const at = "2025-01-02T03:04:05.000000Z"
	rawExec(t, dir,
		`INSERT INTO accounts (id, name, plan, lang, balance_micro, reserved_micro, tone_preset, send_rate_per_min,
			daily_answers, input_rate_micro, output_rate_micro, created_at, updated_at)
			VALUES (1, 'Old', 'starter', 'en', 100000, 1000, 'professional', 15, 200, 3000000, 25000000, '`+at+`', '`+at+`')`,
		`INSERT INTO ledger (account_id, kind, amount_micro, balance_after, note, created_at)
			VALUES (1, 'topup', 100000, 100000, 'opening balance', '`+at+`')`,
		`INSERT INTO conversations (id, account_id, lang, summary, summarized_through, created_at, updated_at)
			VALUES (1, 1, 'en', 'an old summary', 1, '`+at+`', '`+at+`')`,
		`INSERT INTO messages (id, conversation_id, account_id, role, body, created_at) VALUES
			(1, 1, 1, 'user', 'Where is my order?', '`+at+`'),
			(2, 1, 1, 'assistant', 'Under Orders.', '`+at+`')`,
		`INSERT INTO usage_events (account_id, event_type, cost_micro, message_id, created_at)
			VALUES (1, 'answer', 0, 2, '`+at+`')`,
		`INSERT INTO reservations (id, account_id, amount_micro, created_at, expires_at)
			VALUES (1, 1, 1000, '`+at+`', '2999-01-01T00:00:00.000000Z')`,
	)

	s := open(t, dir)
	ctx := context.Background()
	a, err := s.GetAccount(ctx, 1)
	if err != nil || a.Name != "Old" || a.BalanceMicro != 100000 || a.ReservedMicro != 1000 {
		t.Fatalf("account after upgrade: %v %+v", err, a)
	}
	c, err := s.OpenConversation(ctx, 1, "de")
	if err != nil || c.ID != 1 || c.Summary != "an old summary" || c.SummarizedThrough != 1 || c.EmbedTokenID != 0 || c.Visitor != "" {
		t.Fatalf("conversation after upgrade: %v %+v", err, c)
	}

	// The new tables and columns work on the upgraded file.
	tok := store.EmbedToken{AccountID: 1, Prefix: "svc_emb_0123abcd", Hash: []byte("hash"), Domains: []string{"old.test"},
		DailyBudgetMicro: 3000}
	if err := s.CreateEmbedToken(ctx, &tok, 5); err != nil {
		t.Fatal(err)
	}
	vc, err := s.OpenVisitorConversation(ctx, 1, tok.ID, "visitor", "en")
	if err != nil || vc.ID == 1 || vc.EmbedTokenID != tok.ID {
		t.Fatalf("visitor conversation: %v %+v", err, vc)
	}
	since := time.Now().UTC().Truncate(24 * time.Hour)
	budget := &store.TokenBudget{TokenID: tok.ID, LimitMicro: 3000, Since: since}
	r, err := s.Reserve(ctx, 1, 2000, time.Minute, budget)
	if err != nil || r.EmbedTokenID != tok.ID {
		t.Fatalf("reserve with a budget: %v %+v", err, r)
	}
	tr := &store.Turn{AccountID: 1, ConversationID: vc.ID, Lang: "en", ReservationID: r.ID, EmbedTokenID: tok.ID, Budget: budget,
		User:   store.Message{Role: store.RoleUser, Body: "And my invoice?"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "Under Invoices.", Source: store.SourceAI},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 4000}}
	if err := s.SaveTurn(ctx, tr); err != nil || !tr.NoticeQueued {
		t.Fatalf("turn over the budget: %v, notice queued %v", err, tr.NoticeQueued)
	}
	if u, err := s.EmbedUsage(ctx, 1, time.Time{}); err != nil || len(u) != 1 ||
		u[tok.ID] != (store.EmbedUsage{SpendMicro: 4000, Conversations: 1, Visitors: 1}) {
		t.Fatalf("usage (the old event and reservation count against no token): %v %+v", err, u)
	}
	if err := s.SaveFeedback(ctx, &store.Feedback{AccountID: 1, ConversationID: 1, MessageID: 2, Rating: "helpful"}); err != nil {
		t.Fatalf("feedback on an old message: %v", err)
	}
	if a, _ := s.GetAccount(ctx, 1); a.BalanceMicro != 96000 || a.ReservedMicro != 1000 {
		t.Fatalf("after a widget turn: %+v", a)
	}
	s.Close()

	migrationsAt(t, dir, 3)
	for table, gone := range map[string]string{"conversations": "embed_token_id", "usage_events": "embed_token_id",
		"reservations": "embed_token_id"} {
		if cols := columns(t, dir, table); cols[gone] || !cols["account_id"] {
			t.Fatalf("%s after down: %v", table, cols)
		}
	}
	if cols := columns(t, dir, "conversations"); cols["visitor"] || cols["last_seen_at"] {
		t.Fatalf("conversations after down: %v", cols)
	}
	for _, table := range []string{"embed_tokens", "notices"} {
		if cols := columns(t, dir, table); len(cols) != 0 {
			t.Fatalf("%s still exists after down: %v", table, cols)
		}
	}
	s = open(t, dir) // and up again
	defer s.Close()
	if a, err := s.GetAccount(ctx, 1); err != nil || a.BalanceMicro != 96000 || a.ReservedMicro != 1000 {
		t.Fatalf("account after down and up: %v %+v", err, a)
	}
	if c, err := s.OpenConversation(ctx, 1, "en"); err != nil || c.ID != 1 || c.Summary != "an old summary" {
		t.Fatalf("conversation after down and up: %v %+v", err, c)
	}
	if msgs, _ := s.Messages(ctx, 1, vc.ID, 0, 10); len(msgs) != 2 {
		t.Fatalf("the visitor's messages after down and up: %+v", msgs)
	}
	if toks, err := s.EmbedTokens(ctx, 1); err != nil || len(toks) != 0 {
		t.Fatalf("tokens after down and up: %v %+v", err, toks)
	}
}

// A database written by a release at migration 6 opens, gains the dashboard's migrations 8
// and 9 and keeps its data: conversations get their last message time, earlier fallbacks
// become open review items (their questions keyed in Go by migration 9), and the daily counts
// hold the earlier replies and usage. The Down steps take the schema back with the data still
// there.
func TestUpgradeFromMigration6(t *testing.T) {
	dir := t.TempDir()
	migrationsAt(t, dir, 6)
	const dayA, dayB = "2025-01-02", "2025-01-03"
	at := func(day, clock string) string { return day + "T" + clock + ".000000Z" }
	rawExec(t, dir,
		`INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min, daily_answers,
			input_rate_micro, output_rate_micro, created_at, updated_at)
			VALUES (1, 'Old', 'starter', 'en', 100000, 'professional', 15, 200, 3000000, 25000000,
			'`+at(dayA, "08:00:00")+`', '`+at(dayA, "08:00:00")+`')`,
		`INSERT INTO embed_tokens (id, account_id, prefix, hash, label, domains, daily_budget_micro, created_at, updated_at)
			VALUES (1, 1, 'svc_emb_0123abcd', x'01', 'shop', 'old.test', 3000, '`+at(dayA, "08:00:00")+`',
			'`+at(dayA, "08:00:00")+`')`,
		`INSERT INTO conversations (id, account_id, scope, embed_token_id, visitor, lang, created_at, updated_at) VALUES
			(1, 1, 'api', NULL, '', 'tr', '`+at(dayA, "09:00:00")+`', '`+at(dayA, "11:00:00")+`'),
			(2, 1, 'embed:1:v', 1, 'v', 'tr', '`+at(dayB, "09:00:00")+`', '`+at(dayB, "10:00:00")+`'),
			(3, 1, 'embed:1:w', 1, 'w', 'en', '`+at(dayB, "09:30:00")+`', '`+at(dayB, "09:30:00")+`')`,
		`INSERT INTO messages (id, conversation_id, account_id, role, body, source, lang, low_confidence, created_at) VALUES
			(1, 1, 1, 'user', 'İade var mı?', 'fallback', 'tr', 0, '`+at(dayA, "10:00:00")+`'),
			(2, 1, 1, 'assistant', 'Bilmiyorum.', 'fallback', 'tr', 1, '`+at(dayA, "10:00:00")+`'),
			(3, 1, 1, 'user', 'Kargo?', 'ai', 'tr', 0, '`+at(dayA, "11:00:00")+`'),
			(4, 1, 1, 'assistant', 'İki gün.', 'ai', 'tr', 0, '`+at(dayA, "11:00:00")+`'),
			(5, 2, 1, 'user', 'IADE VAR MI?', 'fallback', 'tr', 0, '`+at(dayB, "09:00:00")+`'),
			(6, 2, 1, 'assistant', 'Bilmiyorum.', 'fallback', 'tr', 1, '`+at(dayB, "09:00:00")+`'),
			(7, 2, 1, 'user', 'Hediye?', 'cache_tenant', 'tr', 0, '`+at(dayB, "10:00:00")+`'),
			(8, 2, 1, 'assistant', 'Var.', 'cache_tenant', 'tr', 0, '`+at(dayB, "10:00:00")+`')`,
		`INSERT INTO usage_events (account_id, event_type, cost_micro, message_id, embed_token_id, created_at) VALUES
			(1, 'fallback', 0, 2, NULL, '`+at(dayA, "10:00:00")+`'),
			(1, 'answer', 3000, 4, NULL, '`+at(dayA, "11:00:00")+`'),
			(1, 'summary', 500, 4, NULL, '`+at(dayA, "11:00:00")+`'),
			(1, 'fallback', 0, 6, 1, '`+at(dayB, "09:00:00")+`'),
			(1, 'cache_tenant', 0, 8, 1, '`+at(dayB, "10:00:00")+`'),
			(1, 'intel', 100, NULL, NULL, '`+at(dayB, "12:00:00")+`')`,
		`INSERT INTO feedback (id, account_id, message_id, rating, comment, created_at)
			VALUES (1, 1, 4, 'not_helpful', 'Üç gün sürdü.', '`+at(dayA, "12:00:00")+`')`,
	)

	s := open(t, dir)
	ctx := context.Background()
	rows, err := s.ListConversations(ctx, 1, store.ConversationFilter{})
	if err != nil || len(rows) != 2 || rows[0].ID != 2 || rows[1].ID != 1 {
		t.Fatalf("conversations after upgrade (the one without messages unlisted): %v %+v", err, rows)
	}
	if r := rows[0]; r.TokenLabel != "shop" || r.Fallbacks != 1 || r.Messages != 4 || r.Preview != "Hediye?" ||
		r.LastMessageAt.Format(time.RFC3339) != dayB+"T10:00:00Z" {
		t.Fatalf("visitor row: %+v", r)
	}
	if r := rows[1]; r.CostMicro != 3500 || r.NotHelpful != 1 || r.Fallbacks != 1 ||
		r.LastMessageAt.Format(time.RFC3339) != dayA+"T11:00:00Z" {
		t.Fatalf("api row: %+v", r)
	}
	items, total, err := s.ReviewQueue(ctx, 1, "", 0, 10)
	if err != nil || total != 3 || len(items) != 3 || items[0].ID != 5 || items[1].Kind != store.ReviewNotHelpful ||
		items[2].ID != 1 || items[2].Answer != "Bilmiyorum." || items[2].Question != "İade var mı?" {
		t.Fatalf("review queue after upgrade: %v %d %+v", err, total, items)
	}
	un, err := s.Unanswered(ctx, 1, time.Time{}, 10)
	if err != nil || len(un) != 1 || un[0].Count != 2 || un[0].MessageID != 5 || un[0].Question != "IADE VAR MI?" {
		t.Fatalf("unanswered after the upgrade (migration 9 keyed both spellings alike): %v %+v", err, un)
	}
	usage, err := s.DailyUsage(ctx, 1, time.Time{})
	if err != nil || len(usage) != 6 || usage[0].EventType != store.EventAnswer || usage[0].CostMicro != 3000 ||
		usage[5].EventType != "intel" || usage[5].CostMicro != 100 || usage[5].Day.Format(time.DateOnly) != dayB {
		t.Fatalf("daily usage after upgrade: %v %+v", err, usage)
	}
	sources, err := s.DailySources(ctx, 1, time.Time{})
	if err != nil || len(sources) != 4 || sources[0].Source != store.DaySourceAI || sources[2].Source != store.DaySourceCache {
		t.Fatalf("daily sources after upgrade (old cache_tenant replies count as reused): %v %+v", err, sources)
	}
	if st, err := s.ReplyStats(ctx, 1, time.Time{}); err != nil || st != (store.ReplyStats{Replies: 4, Free: 3, LowConfidence: 2}) {
		t.Fatalf("reply stats after upgrade: %v %+v", err, st)
	}
	if tr, err := s.Transcript(ctx, 1, 1, 0, 10); err != nil || len(tr) != 4 || tr[3].CostMicro != 3500 ||
		tr[3].EventType != store.EventAnswer || tr[3].Rating != store.RatingNotHelpful {
		t.Fatalf("transcript after upgrade: %v %+v", err, tr)
	}

	// A resolution closes both spellings of the question.
	doc := &store.Document{Type: store.DocQA, Title: "İade var mı?", Body: "Evet, 14 gün.", Lang: "tr", Hash: "i1",
		Chunks: []store.Chunk{{Text: "İade var mı? Evet.", Terms: "iade evet"}}}
	if err := s.ResolveFallback(ctx, 1, 1, doc); err != nil {
		t.Fatal(err)
	}
	if items, total, _ := s.ReviewQueue(ctx, 1, store.ReviewFallback, 0, 10); total != 0 {
		t.Fatalf("fallback items after the resolution: %+v", items)
	}
	if un, _ := s.Unanswered(ctx, 1, time.Time{}, 10); len(un) != 1 || un[0].Count != 2 || un[0].MessageID != 5 {
		t.Fatalf("unanswered after the resolution: %+v", un)
	}
	if err := s.DismissReview(ctx, 1, store.ReviewNotHelpful, 1); err != nil {
		t.Fatal(err)
	}
	tr := &store.Turn{AccountID: 1, ConversationID: 1, Lang: "tr",
		User:   store.Message{Role: store.RoleUser, Body: "Hediye?", Source: store.SourceCacheTenant},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "Var.", Source: store.SourceCacheTenant, Via: store.ViaCurated},
		Charge: store.Charge{EventType: store.EventCacheTenant}}
	if err := s.SaveTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if rows, _ := s.ListConversations(ctx, 1, store.ConversationFilter{Limit: 1}); len(rows) != 1 || rows[0].ID != 1 {
		t.Fatalf("a new turn did not move its conversation up: %+v", rows)
	}
	s.Close()

	migrationsAt(t, dir, 6)
	if cols := columns(t, dir, "messages"); cols["via"] || !cols["source"] {
		t.Fatalf("messages after down: %v", cols)
	}
	if cols := columns(t, dir, "conversations"); cols["last_message_at"] || !cols["visitor"] {
		t.Fatalf("conversations after down: %v", cols)
	}
	for _, table := range []string{"fallback_questions", "daily_replies", "daily_usage"} {
		if cols := columns(t, dir, table); len(cols) != 0 {
			t.Fatalf("%s still exists after down: %v", table, cols)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var resolved int
	err = db.QueryRow(`SELECT resolved FROM feedback WHERE id = 1`).Scan(&resolved)
	db.Close()
	if err != nil || resolved != 1 {
		t.Fatalf("a dismissed rating after down: %v resolved=%d, want 1", err, resolved)
	}

	s = open(t, dir) // and up again
	defer s.Close()
	if rows, err := s.ListConversations(ctx, 1, store.ConversationFilter{}); err != nil || len(rows) != 2 || rows[0].ID != 1 ||
		rows[0].Messages != 6 {
		t.Fatalf("conversations after down and up: %v %+v", err, rows)
	}
	if st, err := s.ReplyStats(ctx, 1, time.Time{}); err != nil || st.Replies != 5 {
		t.Fatalf("reply stats after down and up: %v %+v", err, st)
	}
	if msgs, _ := s.Messages(ctx, 1, 1, 0, 10); len(msgs) != 6 || msgs[5].Via != "" {
		t.Fatalf("messages after down and up (via is gone with the column): %+v", msgs)
	}
}
