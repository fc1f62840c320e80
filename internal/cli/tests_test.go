package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/config"
	"svc/internal/demo"
	"svc/internal/kb"
	"svc/internal/notify/smtptest"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/teststore"
)

// cliTests are tests of the demo KB: the first four pass on it, the last fails.
const cliTests = `{"q":"How much does the Uludag 2 Tent cost?","lang":"en","expect":["$199.00"],"product":"Uludag 2 Tent","answerable":true}
{"q":"Kargo ne kadar sürer?","lang":"tr","expect":["1–3 iş günü"],"answerable":true}
{"q":"Wie lange dauert der Versand?","expect":["5–7 Werktage"],"answerable":true}
{"q":"Do you offer gift wrapping?","answerable":false}
{"q":"Do you deliver on Saturdays?","lang":"en","expect":["Saturday"],"answerable":true}
`

// writeFile writes body to a new file and returns its path.
func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTestsImportRejectsABadLineByNumber(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	bad := cliTests + `{"q":"Returns?","lang":"en"}` + "\n" + `{"q":"Versand?","lang":"fr","answerable":true}` + "\n"
	code, out, errOut := runCLI(t, dir, "", "tests", "import", "--account", "1", writeFile(t, "bad.jsonl", bad))
	if code != 2 || out != "" || !strings.Contains(errOut, `line 6: "answerable" is required`) ||
		!strings.Contains(errOut, `line 7: The language must be tr, en or de, not "fr"`) || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("bad lines: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, dir, "", "tests", "list", "--account", "1")
	if m := decodeOne(t, out); code != 0 || len(m["tests"].([]any)) != 0 {
		t.Fatalf("tests after a refused file: %d %v", code, m)
	}
	code, out, _ = runCLI(t, dir, cliTests, "tests", "import", "--account", "1", "-")
	if m := decodeOne(t, out); code != 0 || m["added"].(float64) != 5 || m["duplicates"].(float64) != 0 || m["total"].(float64) != 5 {
		t.Fatalf("import: %d %v", code, m)
	}
	code, out, _ = runCLI(t, dir, "", "tests", "list", "--account", "1")
	var list testList
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list.Tests) != 5 {
		t.Fatalf("list: %d %v %s", code, err, out)
	}
	if first := list.Tests[2]; first.Q != "Wie lange dauert der Versand?" || first.Lang != "de" || first.Origin != store.TestOriginImport ||
		!first.Answerable || !reflect.DeepEqual(first.Expect, []string{"5–7 Werktage"}) || first.CreatedAt == "" {
		t.Fatalf("listed test %+v", first)
	}
	for _, args := range [][]string{{"tests", "import", "--account", "1"}, {"tests", "run"}, {"tests", "list", "--account", "9"},
		{"tests", "import", "--account", "1", filepath.Join(dir, "missing.jsonl")}, {"tests", "frobnicate"}} {
		if code, _, errOut := runCLI(t, dir, "", args...); code != 2 || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// cliState is what `svc tests run` must leave unchanged.
type cliState struct {
	Balance, Reserved int64
	Events, Ledger    int
	Conversations     int
	Messages          int
}

func stateIn(t *testing.T, dir string, accountID int64) cliState {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.GetAccount(ctx, accountID)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.UsageSummary(ctx, accountID, time.Time{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	l, err := st.Ledger(ctx, accountID)
	if err != nil {
		t.Fatal(err)
	}
	convs, err := st.ListConversations(ctx, accountID, store.ConversationFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	s := cliState{Balance: a.BalanceMicro, Reserved: a.ReservedMicro, Events: u.AllTimeCount, Ledger: len(l), Conversations: len(convs)}
	for _, c := range convs {
		s.Messages += c.Messages
	}
	return s
}

func TestTestsRunPrintsResultsAndWritesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Yolcu Outdoor", "--balance-usd", "5")
	demoKB, err := io.ReadAll(demo.Reader())
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, dir, string(demoKB), "kb", "import", "--account", "1", "-"); code != 0 {
		t.Fatalf("kb import: %s", errOut)
	}
	// A conversation with a charged answer, so that "unchanged" is not only "still empty".
	seedTurn(t, dir, 1)
	if code, _, errOut := runCLI(t, dir, cliTests, "tests", "import", "--account", "1", "-"); code != 0 {
		t.Fatalf("tests import: %s", errOut)
	}
	before := stateIn(t, dir, 1)
	code, out, errOut := runCLI(t, dir, "", "tests", "run", "--account", "1")
	if code != 0 || before.Conversations != 1 || before.Messages != 2 || before.Events != 1 {
		t.Fatalf("tests run: %d %s", code, errOut)
	}
	m := decodeOne(t, out)
	for _, k := range []string{"run_id", "total", "passed", "failed", "results"} {
		if _, ok := m[k]; !ok {
			t.Errorf("the report lacks %q: %v", k, m)
		}
	}
	if m["run_id"].(float64) != 1 || m["total"].(float64) != 5 || m["passed"].(float64) != 4 || m["failed"].(float64) != 1 ||
		m["status"] != store.TestRunDone || m["cost_usd"].(float64) != 0 {
		t.Fatalf("report %v", m)
	}
	results := m["results"].([]any)
	if len(results) != 5 {
		t.Fatalf("results %v", results)
	}
	for i, r := range results {
		res := r.(map[string]any)
		for _, k := range []string{"q", "passed", "reply", "source", "lowConfidence"} {
			if _, ok := res[k]; !ok {
				t.Errorf("result %d lacks %q: %v", i, k, res)
			}
		}
	}
	if last := results[4].(map[string]any); last["passed"] != false || last["lowConfidence"] != true || last["source"] != store.SourceFallback ||
		last["q"] != "Do you deliver on Saturdays?" || last["reason"] != "low_confidence" {
		t.Fatalf("failed result %v", last)
	}
	if first := results[0].(map[string]any); first["passed"] != true || !strings.Contains(first["reply"].(string), "$199.00") {
		t.Fatalf("passed result %v", first)
	}
	if after := stateIn(t, dir, 1); after != before {
		t.Fatalf("tests run changed the account: %+v, was %+v", after, before)
	}
}

// A Q&A edit that breaks a passing test starts a regression run by itself,
// and the owner gets a mail over SMTP naming the broken question, with a link to the tests.
func TestQAEditThatBreaksATestRunsTheSetAndMailsTheOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mb := smtptest.Start(t)
	st := teststore.Open(t, nil)
	accounts := account.New(st, nil)
	name, email, bal := "Yolcu Outdoor", "owner@yolcu.test", int64(5_000_000)
	a, _, err := accounts.Create(ctx, account.Settings{Name: &name, Email: &email, BalanceMicro: &bal})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kb.Import(ctx, st, a.ID, 0, demo.Reader()); err != nil {
		t.Fatal(err)
	}
	finished := make(chan store.TestRun, 4)
	cfg := config.Config{LLMProvider: "builtin", SMTPURL: mb.URL(), SMTPFrom: config.DefaultSMTPFrom, PublicURL: "https://svc.test"}
	app, err := NewApp(st, accounts, cfg, slog.New(slog.DiscardHandler), AppOptions{TestDebounce: time.Millisecond,
		TestRunFinished: func(r store.TestRun) { finished <- r }})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	defer app.TestRunner.Serve(ctx)()
	if _, err := app.Tests.Import(ctx, a.ID, strings.NewReader(cliTests)); err != nil {
		t.Fatal(err)
	}
	base, err := app.Tests.RunNow(ctx, a.ID, store.TestTriggerManual)
	if err != nil || base.Passed != 4 {
		t.Fatalf("baseline %+v %v", base, err)
	}
	// The dashboard's Q&A editor stores an entry so (kbQACreate), through the app's store.
	qa, err := kb.CuratedAnswer("How much does the Uludag 2 Tent cost?", "Please ask in one of our stores.", "en")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.kbStore.ImportDocuments(ctx, a.ID, []store.Document{qa}); err != nil {
		t.Fatal(err)
	}
	run := <-finished
	if run.Trigger != store.TestTriggerQA || run.Status != store.TestRunDone || run.Passed != 3 || run.Broken != 1 || !run.Regressed {
		t.Fatalf("regression run %+v", run)
	}
	reg, ok, err := app.Tests.LatestRegression(ctx, a.ID)
	if err != nil || !ok || reg.Run.ID != run.ID || len(reg.Broken) != 1 || reg.Broken[0].Question != "How much does the Uludag 2 Tent cost?" {
		t.Fatalf("latest regression %+v %v %v", reg, ok, err)
	}
	if sent, err := app.Outbox.Flush(ctx); err != nil || sent != 1 {
		t.Fatalf("outbox: %d %v", sent, err)
	}
	msgs := mb.Messages()
	if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0] != email {
		t.Fatalf("mails %+v", msgs)
	}
	subject, text := readMail(t, msgs[0].Data)
	for _, want := range []string{"How much does the Uludag 2 Tent cost?", "https://svc.test/dashboard/tests", "3 of 5", "4 of 5",
		"The reply lacks: $199.00"} {
		if !strings.Contains(text, want) {
			t.Errorf("the mail lacks %q:\n%s", want, text)
		}
	}
	if subject != "1 test of your assistant broke after an edit of your Q&A entries" {
		t.Errorf("subject %q", subject)
	}
}

// readMail returns a sent mail's subject and its text, decoded.
func readMail(t *testing.T, data string) (subject, text string) {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var body io.Reader = m.Body
	switch strings.ToLower(m.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(m.Body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, m.Body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	subject, err = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	return subject, string(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")))
}

// seedTurn stores one answered question in the account's conversation.
func seedTurn(t *testing.T, dir string, accountID int64) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.OpenConversation(ctx, accountID, "en")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveTurn(ctx, &store.Turn{AccountID: accountID, ConversationID: c.ID, Lang: "en",
		User:   store.Message{Role: store.RoleUser, Body: "Where are your stores?", Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "In Istanbul.", Source: store.SourceAI, Lang: "en"},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 1_000, InputTokens: 10, OutputTokens: 3}}); err != nil {
		t.Fatal(err)
	}
}
