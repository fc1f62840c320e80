package storecopy_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/demo"
	"svc/internal/store"
	"svc/internal/store/postgres"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
	"svc/internal/store/teststore"
	"svc/internal/storecopy"
	"svc/internal/textindex"
)

// pgSchemaURL is teststore.SchemaURL: a URL whose connections work in a fresh schema.
func pgSchemaURL(t *testing.T) string { return teststore.SchemaURL(t) }

func ep(t *testing.T, s string) storecopy.Endpoint {
	t.Helper()
	e, err := storecopy.ParseEndpoint(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// seedDemo fills a data directory as `svc demo` and a busy widget would: the demo account,
// its KB and widget token, then conversations visitors had, each a charged turn with its
// usage event and ledger row, plus a top-up and an open reservation (reserved money).
func seedDemo(t *testing.T, dir string, conversations int) (a store.Account, deletedID int64) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	accounts := account.New(st, time.Now)
	a, _, err = demo.Seed(ctx, st, accounts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := demo.SeedWidget(ctx, st, accounts, a, []string{"shop.example"}); err != nil {
		t.Fatal(err)
	}
	toks, err := st.EmbedTokens(ctx, a.ID)
	if err != nil || len(toks) == 0 {
		t.Fatalf("embed tokens: %v %v", toks, err)
	}
	tok := toks[0].ID
	if _, err := st.AddBalance(ctx, a.ID, 500_000_000, "balance add"); err != nil {
		t.Fatal(err)
	}
	// Concurrent writers, so the store's group commit takes several turns per transaction.
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < conversations; i += 8 {
				visitor := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
				c, err := st.OpenVisitorConversation(ctx, a.ID, tok, visitor, "en")
				if err != nil {
					errc <- err
					return
				}
				err = st.SaveTurn(ctx, &store.Turn{AccountID: a.ID, ConversationID: c.ID, Lang: "en", EmbedTokenID: tok,
					User:   store.Message{Role: store.RoleUser, Body: fmt.Sprintf("Is the Kaçkar boot waterproof? (%d)", i), Lang: "en"},
					Reply:  store.Message{Role: store.RoleAssistant, Body: "Yes, it has a waterproof membrane.", Source: store.SourceAI, Lang: "en"},
					Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 1_000 + int64(i), InputTokens: 40, OutputTokens: 9}})
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if _, err := st.Reserve(ctx, a.ID, 7_000, time.Hour, nil); err != nil {
		t.Fatal(err)
	}
	deletedID = seedEveryTable(t, st, a.ID)
	if a, err = st.GetAccount(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	return a, deletedID
}

// seedEveryTable writes the records the demo and the conversations leave out, so that every
// table of the schema holds a row and goes through the copy: a cached answer with its terms
// and documents, a charge's provider calls, a fallback reply and its rating, a queued
// notice, a site with a crawled page, a dashboard user with a session (BYTEA/BLOB hashes)
// and an invitation, two chunks' vectors, a test with a run and its result, and a deleted
// account with its archived ledger.
func seedEveryTable(t *testing.T, st store.Store, acct int64) (deletedID int64) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	c, err := st.OpenConversation(ctx, acct, "en")
	if err != nil {
		t.Fatal(err)
	}
	docs, _, err := st.ListDocuments(ctx, acct, store.DocQuery{Limit: 1})
	if err != nil || len(docs) == 0 {
		t.Fatalf("documents: %v", err)
	}
	turn := &store.Turn{AccountID: acct, ConversationID: c.ID, Lang: "en",
		User: store.Message{Role: store.RoleUser, Body: "How much is shipping to Germany?", Lang: "en"},
		Reply: store.Message{Role: store.RoleAssistant, Body: "9,90 €.", Source: store.SourceAI, Lang: "en",
			Sources: []store.Source{{Title: "Shipping", URL: "https://shop.test/shipping"}, {Title: "Do you ship abroad?"}}},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 2_000, InputTokens: 50, OutputTokens: 5,
			Calls: []store.CallUsage{{Call: "reply", Model: "builtin", InputTokens: 50, OutputTokens: 5, CostMicro: 2_000}}},
		Cache: &store.CacheEntry{AccountID: acct, Lang: "en", Key: "shipping germany", Question: "How much is shipping to Germany?",
			Answer: "9,90 €.", DocIDs: []int64{docs[0].ID}, Sources: []store.Source{{Title: "Shipping", URL: "https://shop.test/shipping"}},
			Terms: []string{"ship", "germani"}}}
	if err := st.SaveTurn(ctx, turn); err != nil {
		t.Fatal(err)
	}
	fb := &store.Turn{AccountID: acct, ConversationID: c.ID, Lang: "en",
		User:   store.Message{Role: store.RoleUser, Body: "Do you sell kayaks?", Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "I don't know.", Source: store.SourceFallback, Lang: "en"},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 500}}
	if err := st.SaveTurn(ctx, fb); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveFeedback(ctx, &store.Feedback{AccountID: acct, ConversationID: c.ID, MessageID: fb.Reply.ID,
		Rating: store.RatingNotHelpful, Comment: "no answer"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.EnqueueNotice(ctx, &store.Notice{AccountID: acct, Kind: store.NoticeBudgetReached, DedupeKey: "copy-test",
		Payload: "{}", NextAttemptAt: now}); err != nil {
		t.Fatal(err)
	}
	site := &store.Site{AccountID: acct, URL: "https://shop.example/", Host: "shop.example", Name: "Shop"}
	if err := st.CreateSite(ctx, site); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SavePage(ctx, acct, site.ID, store.PageState{URL: "https://shop.example/", Hash: "h", FetchedAt: now,
		Links: []string{"https://shop.example/a"}}, nil); err != nil {
		t.Fatal(err)
	}
	u := &store.User{AccountID: acct, Email: "owner@shop.example", Role: store.UserOwner, PasswordHash: "x", CreatedAt: now}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateSession(ctx, &store.Session{Hash: []byte{0, 1, 2, 0xff}, UserID: u.ID, AccountID: acct,
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateAuthToken(ctx, &store.AuthToken{Hash: []byte{9, 8, 7}, UserID: u.ID, AccountID: acct,
		Kind: store.AuthInvite, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	// Two chunks' vectors (BLOB/BYTEA, every byte value) and their model's row.
	todo, err := st.ChunksToEmbed(ctx, acct, "bge-m3", 0, 2)
	if err != nil || len(todo) != 2 {
		t.Fatalf("chunks to embed: %v %v", todo, err)
	}
	vecs := make([]store.ChunkVector, len(todo))
	for i, c := range todo {
		data := make([]byte, 256)
		for k := range data {
			data[k] = byte(k + i)
		}
		vecs[i] = store.ChunkVector{ChunkID: c.ID, Dim: 64, Encoding: "f32", Data: data}
	}
	if n, err := st.PutChunkVectors(ctx, acct, "bge-m3", vecs); err != nil || n != 2 {
		t.Fatalf("put vectors: %d %v", n, err)
	}
	// A test of the owner's test set, and a finished run of it with its result.
	// A live embedding lease: copied as it is, it lapses on its own.
	if ok, err := st.LeaseEmbedding(ctx, acct, "copied-worker", time.Now().Add(time.Minute)); err != nil || !ok {
		t.Fatalf("lease: %v %v", ok, err)
	}
	tc := []store.TestCase{{Question: "How much is shipping to Germany?", Lang: "en", Key: "how much is shipping to germany",
		Expect: []string{"9,90"}, Answerable: true, Origin: store.TestOriginHand}}
	if _, _, err := st.AddTestCases(ctx, acct, tc, 100); err != nil {
		t.Fatal(err)
	}
	run := &store.TestRun{AccountID: acct, Trigger: store.TestTriggerCLI, Total: 1}
	if err := st.StartTestRun(ctx, run, now.Add(-time.Hour), 50); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveTestResults(ctx, acct, run.ID, []store.TestResult{{TestID: tc[0].ID, Question: tc[0].Question, Lang: "en",
		Reply: "9,90 €.", Source: store.SourceAI, Passed: true, Products: []string{"Kaçkar"}}}, now); err != nil {
		t.Fatal(err)
	}
	run.Status = store.TestRunDone
	if err := st.FinishTestRun(ctx, run, nil); err != nil {
		t.Fatal(err)
	}
	gone, _ := storetest.NewAccount(t, st, "deleted", 0)
	if _, err := st.AddBalance(ctx, gone.ID, 3_000, "balance add"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.DeleteAccount(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	return gone.ID
}

// questions the demo KB answers, in its three languages.
var questions = []struct{ lang, text string }{
	{"en", "How much does shipping to Germany cost?"},
	{"tr", "Kaçkar botunun fiyatı ne kadar?"},
	{"de", "Wie gebe ich Schuhe zurück?"},
	{"en", "Do you have a store in Istanbul?"},
}

// answers is what the API's reads give on a store: the account, its ledger, a visitor's
// conversation and the ranked chunks of the demo questions (ids and order).
type answers struct {
	Account  store.Account
	Ledger   []store.LedgerEntry
	Convs    []store.ConversationRow
	Messages []store.Message
	Search   [][]int64
	Vectors  []store.StoredVector
	Status   store.EmbeddingStatus
}

func read(t *testing.T, st store.Store, acct int64) answers {
	t.Helper()
	ctx := context.Background()
	var a answers
	var err error
	if a.Account, err = st.GetAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	if a.Ledger, err = st.Ledger(ctx, acct); err != nil {
		t.Fatal(err)
	}
	if a.Convs, err = st.ListConversations(ctx, acct, store.ConversationFilter{Limit: 50}); err != nil || len(a.Convs) == 0 {
		t.Fatalf("conversations: %+v %v", a.Convs, err)
	}
	if a.Messages, err = st.Messages(ctx, acct, a.Convs[0].ID, 0, 100); err != nil {
		t.Fatal(err)
	}
	for _, q := range questions {
		var terms []store.SearchTerm
		for _, qt := range textindex.QueryTerms(q.text, q.lang) {
			terms = append(terms, store.SearchTerm{Text: qt.Text, Prefix: qt.Prefix})
		}
		hits, err := st.SearchChunks(ctx, acct, store.SearchQuery{Terms: terms, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatalf("%q: no hit", q.text)
		}
		ids := make([]int64, len(hits))
		for i, h := range hits {
			ids[i] = h.ChunkID
		}
		a.Search = append(a.Search, ids)
	}
	if err := st.ChunkVectors(ctx, acct, "bge-m3", func(v store.StoredVector) error {
		a.Vectors = append(a.Vectors, v)
		return nil
	}); err != nil || len(a.Vectors) != 2 {
		t.Fatalf("vectors: %d %v", len(a.Vectors), err)
	}
	if a.Status, err = st.EmbeddingStatus(ctx, acct); err != nil {
		t.Fatal(err)
	}
	return a
}

// The round trip of issue 16: the demo and 1,000 conversations, SQLite → PostgreSQL →
// SQLite, with the same counts and ledger totals on every side, and the same answers from
// the store's reads; each copy's target then takes new records without an id collision.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	pgURL := pgSchemaURL(t)
	dirA, dirB := t.TempDir(), t.TempDir()+"/b"
	start := time.Now()
	acct, deletedID := seedDemo(t, dirA, 1000)
	t.Logf("seeded the demo and 1,000 conversations in %v", time.Since(start))
	ctx := context.Background()

	start = time.Now()
	toPG, err := storecopy.Copy(ctx, ep(t, dirA), ep(t, pgURL))
	if err != nil {
		t.Fatalf("SQLite → PostgreSQL: %v", err)
	}
	t.Logf("SQLite → PostgreSQL: %v, %v", time.Since(start), toPG.Tables)
	start = time.Now()
	back, err := storecopy.Copy(ctx, ep(t, pgURL), ep(t, dirB))
	if err != nil {
		t.Fatalf("PostgreSQL → SQLite: %v", err)
	}
	t.Logf("PostgreSQL → SQLite: %v", time.Since(start))
	for _, r := range []storecopy.Result{toPG, back} {
		if !r.Verified || len(r.Mismatches) > 0 {
			t.Errorf("%s → %s not verified: %v", r.From, r.To, r.Mismatches)
		}
	}
	if !reflect.DeepEqual(toPG.Tables, back.Tables) || toPG.LedgerTotalMicro != back.LedgerTotalMicro ||
		toPG.BalanceMicro != back.BalanceMicro || toPG.ReservedMicro != back.ReservedMicro {
		t.Errorf("counts differ: %+v\n%+v", toPG, back)
	}
	for table, want := range map[string]int64{"accounts": 1, "conversations": 1001, "messages": 2004,
		"usage_events": 1002, "deleted_accounts": 1, "embed_tokens": 1, "reservations": 1} {
		if toPG.Tables[table] != want {
			t.Errorf("%s: %d rows copied, want %d", table, toPG.Tables[table], want)
		}
	}
	for table, n := range toPG.Tables {
		if n == 0 {
			t.Errorf("table %s: no row went through the copy", table)
		}
	}
	if toPG.ReservedMicro != 7_000 || toPG.BalanceMicro != acct.BalanceMicro {
		t.Errorf("balance %d reserved %d, want %d and 7000", toPG.BalanceMicro, toPG.ReservedMicro, acct.BalanceMicro)
	}

	a, err := sqlite.Open(ctx, dirA, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p, err := postgres.Open(ctx, pgURL, postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	b, err := sqlite.Open(ctx, dirB, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := read(t, a, acct.ID)
	for name, st := range map[string]store.Store{"PostgreSQL": p, "SQLite again": b} {
		got := read(t, st, acct.ID)
		if !reflect.DeepEqual(got.Account, want.Account) {
			t.Errorf("%s: account %+v, want %+v", name, got.Account, want.Account)
		}
		if !reflect.DeepEqual(got.Ledger, want.Ledger) {
			t.Errorf("%s: ledger differs (%d entries, want %d)", name, len(got.Ledger), len(want.Ledger))
		}
		if !reflect.DeepEqual(got.Convs, want.Convs) {
			t.Errorf("%s: conversations differ: %+v, want %+v", name, got.Convs[0], want.Convs[0])
		}
		if !reflect.DeepEqual(got.Messages, want.Messages) {
			t.Errorf("%s: messages %+v, want %+v", name, got.Messages, want.Messages)
		}
		if !reflect.DeepEqual(got.Search, want.Search) {
			t.Errorf("%s: search %v, want %v", name, got.Search, want.Search)
		}
		if !reflect.DeepEqual(got.Vectors, want.Vectors) || !reflect.DeepEqual(got.Status, want.Status) {
			t.Errorf("%s: vectors %+v %+v, want %+v %+v", name, got.Vectors, got.Status, want.Vectors, want.Status)
		}
		// New records take new ids, never a deleted account's: the id counters went along.
		n, _ := storetest.NewAccount(t, st, "after the copy", 0)
		if n.ID <= deletedID || n.ID <= acct.ID {
			t.Errorf("%s: a new account got id %d, at or below the deleted account's %d", name, n.ID, deletedID)
		}
		if _, err := st.AddBalance(ctx, acct.ID, 1, "after the copy"); err != nil {
			t.Errorf("%s: a top-up after the copy: %v", name, err)
		}
	}
}

// A copy refuses a target that holds any record, the source itself as target, and a data
// directory without a database, each before writing anything.
func TestRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	full := t.TempDir()
	st, err := sqlite.Open(ctx, full, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewAccount(t, st, "someone", 5)
	st.Close()
	other := t.TempDir()
	st, err = sqlite.Open(ctx, other, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewAccount(t, st, "someone else", 5)
	st.Close()

	if _, err := storecopy.Copy(ctx, ep(t, full), ep(t, other)); !errors.Is(err, storecopy.ErrNotEmpty) ||
		!strings.Contains(err.Error(), "accounts") {
		t.Errorf("into a non-empty directory: %v, want ErrNotEmpty naming accounts", err)
	}
	if _, err := storecopy.Copy(ctx, ep(t, full), ep(t, full+"/.")); !errors.Is(err, storecopy.ErrSame) {
		t.Errorf("into itself: %v, want ErrSame", err)
	}
	empty := t.TempDir()
	if _, err := storecopy.Copy(ctx, ep(t, empty), ep(t, t.TempDir())); !errors.Is(err, storecopy.ErrNoSource) {
		t.Errorf("from an empty directory: %v, want ErrNoSource", err)
	}
	missing := t.TempDir() + "/missing"
	if _, err := storecopy.Copy(ctx, ep(t, missing), ep(t, t.TempDir())); !errors.Is(err, storecopy.ErrNoSource) {
		t.Errorf("from a missing directory: %v, want ErrNoSource", err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the missing source was created: %v", err)
	}
	if _, err := storecopy.ParseEndpoint("mysql://x/y"); !errors.Is(err, storecopy.ErrEndpoint) {
		t.Errorf("mysql URL: %v", err)
	}

	pg := pgSchemaURL(t)
	if _, err := storecopy.Copy(ctx, ep(t, full), ep(t, pg)); err != nil {
		t.Fatalf("into an empty PostgreSQL schema: %v", err)
	}
	if _, err := storecopy.Copy(ctx, ep(t, other), ep(t, pg)); !errors.Is(err, storecopy.ErrNotEmpty) {
		t.Errorf("into a non-empty PostgreSQL schema: %v, want ErrNotEmpty", err)
	}
	if _, err := storecopy.Copy(ctx, ep(t, pg), ep(t, pg)); !errors.Is(err, storecopy.ErrSame) {
		t.Errorf("PostgreSQL into itself: %v, want ErrSame", err)
	}
	// Between two PostgreSQL schemas (two databases, in production) as well.
	if res, err := storecopy.Copy(ctx, ep(t, pg), ep(t, pgSchemaURL(t))); err != nil || !res.Verified || res.Tables["accounts"] != 1 {
		t.Errorf("PostgreSQL into PostgreSQL: %+v %v", res, err)
	}
}

// Output and errors never carry a database password.
func TestRedactURL(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"postgres://svc:s3cret@db.example:5432/svc?sslmode=require",
		"postgres://svc@db.example/svc?password=s3cret",
	} {
		e := ep(t, raw)
		if s := e.String(); strings.Contains(s, "s3cret") || !strings.Contains(s, "db.example") {
			t.Errorf("%s shown as %q", raw, s)
		}
	}
	// An unreachable server with a password in the URL: the error does not quote it.
	src := t.TempDir()
	st, err := sqlite.Open(context.Background(), src, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	_, err = storecopy.Copy(context.Background(), ep(t, src),
		ep(t, "postgres://svc:s3cret@127.0.0.1:1/svc?connect_timeout=1"))
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %v", err)
	}
}

// A copy that fails halfway leaves the target empty, so the same command can run again.
func TestFailedCopyLeavesTargetEmpty(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, dst := t.TempDir(), t.TempDir()
	st, err := sqlite.Open(ctx, src, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := storetest.NewAccount(t, st, "Shop", 1_000)
	storetest.NewAccount(t, st, "Other", 2_000)
	st.Close()
	// SQLite keeps text in an INTEGER column; the copy cannot convert it, in the ledger,
	// after the accounts' rows went in.
	db, err := sql.Open("sqlite", "file:"+filepath.Join(src, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id, amount int64
	if err := db.QueryRow(`SELECT id, amount_micro FROM ledger WHERE account_id = ?`, a.ID).Scan(&id, &amount); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE ledger SET amount_micro = 'many' WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := storecopy.Copy(ctx, ep(t, src), ep(t, dst)); err == nil || !strings.Contains(err.Error(), "ledger.amount_micro") {
		t.Fatalf("copy of a bad value: %v", err)
	}
	if _, err := db.Exec(`UPDATE ledger SET amount_micro = ? WHERE id = ?`, amount, id); err != nil {
		t.Fatal(err)
	}
	res, err := storecopy.Copy(ctx, ep(t, src), ep(t, dst))
	if err != nil || !res.Verified || res.Tables["accounts"] != 2 {
		t.Fatalf("the second try: %+v %v", res, err)
	}
}
