package cli

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

const cliVisitor = "6f1c2a3e-1111-4a4a-8b8b-000000000001"

// seedVisitor gives the account an embed token and a visitor conversation with one charged
// turn and a rating, written at the store's clock now.
func seedVisitor(t *testing.T, dir string, accountID int64, visitor string, now func() time.Time) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dir, sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tok := store.EmbedToken{AccountID: accountID, Prefix: "svc_emb_" + visitor[:8], Hash: []byte(visitor),
		Label: "Shop", Domains: []string{"shop.test"}, DailyBudgetMicro: 1_000_000}
	if err := st.CreateEmbedToken(ctx, &tok, 5); err != nil {
		t.Fatal(err)
	}
	c, err := st.OpenVisitorConversation(ctx, accountID, tok.ID, visitor, "en")
	if err != nil {
		t.Fatal(err)
	}
	tr := &store.Turn{AccountID: accountID, ConversationID: c.ID, Lang: "en", EmbedTokenID: tok.ID,
		User:   store.Message{Role: store.RoleUser, Body: "Is my parcel 4711 late?", Source: store.SourceAI, Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "It ships today.", Source: store.SourceAI, Lang: "en"},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 3_000}}
	if err := st.SaveTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveFeedback(ctx, &store.Feedback{AccountID: accountID, MessageID: tr.Reply.ID, Rating: "helpful"}); err != nil {
		t.Fatal(err)
	}
}

// wantExit2 checks a refused command: exit 2, nothing on stdout, a one-line reason
// containing want.
func wantExit2(t *testing.T, code int, out, errOut, want string) {
	t.Helper()
	if code != 2 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, want)
	}
}

// createAccounts creates one account per name, each with balanceUSD.
func createAccounts(t *testing.T, dir, balanceUSD string, names ...string) {
	t.Helper()
	for _, name := range names {
		if code, _, errOut := runCLI(t, dir, "", "account", "create", "--name", name, "--balance-usd", balanceUSD); code != 0 {
			t.Fatalf("create %s: %s", name, errOut)
		}
	}
}

func TestVisitorExportAndDelete(t *testing.T) {
	dir := t.TempDir()
	createAccounts(t, dir, "1", "Acme", "Other")
	seedVisitor(t, dir, 1, cliVisitor, nil)

	code, out, errOut := runCLI(t, dir, "", "visitor", "export", "--account", "1", "--visitor", strings.ToUpper(cliVisitor))
	if code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	m := decodeOne(t, out)
	convs, _ := m["conversations"].([]any)
	if m["visitor"] != cliVisitor || m["account_id"].(float64) != 1 || len(convs) != 1 {
		t.Fatalf("export: %v", m)
	}
	conv := convs[0].(map[string]any)
	msgs, _ := conv["messages"].([]any)
	if conv["token_label"] != "Shop" || len(msgs) != 2 {
		t.Fatalf("conversation: %v", conv)
	}
	reply := msgs[1].(map[string]any)
	if msgs[0].(map[string]any)["body"] != "Is my parcel 4711 late?" || reply["source"] != "ai" ||
		reply["feedback"].(map[string]any)["rating"] != "helpful" || !strings.HasSuffix(reply["created_at"].(string), "Z") {
		t.Fatalf("messages: %v", msgs)
	}

	// Refusals: exit 2 with one line, and nothing deleted.
	code, out, errOut = runCLI(t, dir, "", "visitor", "export", "--account", "2", "--visitor", cliVisitor)
	wantExit2(t, code, out, errOut, "account 2 has no data of visitor "+cliVisitor)
	code, out, errOut = runCLI(t, dir, "", "visitor", "delete", "--account", "2", "--visitor", cliVisitor)
	wantExit2(t, code, out, errOut, "account 2 has no data of visitor")
	code, out, errOut = runCLI(t, dir, "", "visitor", "export", "--account", "1", "--visitor", "not-a-uuid")
	wantExit2(t, code, out, errOut, "is not a visitor id")
	code, out, errOut = runCLI(t, dir, "", "visitor", "delete", "--account", "1")
	wantExit2(t, code, out, errOut, "--visitor UUID is required")
	code, out, errOut = runCLI(t, dir, "", "visitor", "export", "--account", "9", "--visitor", cliVisitor)
	wantExit2(t, code, out, errOut, "account 9 does not exist")

	code, out, errOut = runCLI(t, dir, "", "visitor", "delete", "--account", "1", "--visitor", cliVisitor)
	if code != 0 {
		t.Fatalf("delete: %d %s", code, errOut)
	}
	m = decodeOne(t, out)
	if m["deleted"] != true || m["conversations"].(float64) != 1 || m["messages"].(float64) != 2 || m["feedback"].(float64) != 1 {
		t.Fatalf("delete: %v", m)
	}
	code, out, errOut = runCLI(t, dir, "", "visitor", "export", "--account", "1", "--visitor", cliVisitor)
	wantExit2(t, code, out, errOut, "has no data of visitor")
	// The visitor's charge stays in the balance.
	code, out, _ = runCLI(t, dir, "", "account", "show", "--account", "1")
	if m = decodeOne(t, out); code != 0 || m["balance"].(float64) != 0.997 {
		t.Fatalf("balance after delete: %v", m)
	}
}

func TestAccountDelete(t *testing.T) {
	dir := t.TempDir()
	createAccounts(t, dir, "2.5", "Acme Shoes", "Other")
	seedVisitor(t, dir, 1, cliVisitor, nil)
	if code, _, errOut := runCLI(t, dir, "", "user", "add", "--account", "1", "--email", "owner@acme.test"); code != 0 {
		t.Fatalf("user add: %s", errOut)
	}

	code, out, errOut := runCLI(t, dir, "", "account", "delete", "--account", "1")
	wantExit2(t, code, out, errOut, "--confirm NAME is required")
	code, out, errOut = runCLI(t, dir, "", "account", "delete", "--account", "1", "--confirm", "Acme")
	wantExit2(t, code, out, errOut, `account 1 is named "Acme Shoes"`)
	code, out, errOut = runCLI(t, dir, "", "account", "delete", "--account", "7", "--confirm", "Acme Shoes")
	wantExit2(t, code, out, errOut, "account 7 does not exist")
	if code, _, _ := runCLI(t, dir, "", "account", "show", "--account", "1"); code != 0 {
		t.Fatal("a refused delete deleted the account")
	}

	code, out, errOut = runCLI(t, dir, "", "account", "delete", "--account", "1", "--confirm", "Acme Shoes")
	if code != 0 {
		t.Fatalf("delete: %d %s", code, errOut)
	}
	m := decodeOne(t, out)
	if m["deleted"] != true || m["account_id"].(float64) != 1 || m["name"] != "Acme Shoes" || m["final_balance"].(float64) != 2.497 ||
		m["ledger_rows_kept"].(float64) != 2 || m["conversations"].(float64) != 1 || m["messages"].(float64) != 2 ||
		m["users"].(float64) != 1 || m["keys"].(float64) != 1 || m["embed_tokens"].(float64) != 1 {
		t.Fatalf("delete output: %v", m)
	}
	if !strings.Contains(errOut, "final balance of 2.497 USD") {
		t.Fatalf("stderr: %q", errOut)
	}
	code, out, errOut = runCLI(t, dir, "", "account", "show", "--account", "1")
	wantExit2(t, code, out, errOut, "account 1 does not exist")
	code, out, errOut = runCLI(t, dir, "", "account", "delete", "--account", "1", "--confirm", "Acme Shoes")
	wantExit2(t, code, out, errOut, "account 1 does not exist")
	if code, _, _ := runCLI(t, dir, "", "account", "show", "--account", "2"); code != 0 {
		t.Fatal("the other account went too")
	}
	// A new account never takes the deleted one's id, so its archived ledger stays its own.
	code, out, _ = runCLI(t, dir, "", "account", "create", "--name", "Acme Shoes")
	if m = decodeOne(t, out); code != 0 || m["account_id"].(float64) != 3 {
		t.Fatalf("create after delete: %v", m)
	}
	st, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rec, err := st.DeletedAccount(context.Background(), 1); err != nil || rec.FinalBalanceMicro != 2_497_000 {
		t.Fatalf("deleted account record: %+v %v", rec, err)
	}
}

// serve with SVC_RETENTION_DAYS deletes a conversation idle longer than that at start-up.
func TestServeSweepsIdleVisitorConversations(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := storetest.NewAccount(t, st, "Retained", 1_000_000)
	st.Close()
	const recent = "6f1c2a3e-2222-4a4a-8b8b-000000000002"
	seedVisitor(t, dir, a.ID, cliVisitor, func() time.Time { return time.Now().Add(-3 * 24 * time.Hour) })
	seedVisitor(t, dir, a.ID, recent, nil)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		return map[string]string{"SVC_DATA": dir, "SVC_RETENTION_DAYS": "2"}[k]
	}}
	done := make(chan int, 1)
	go func() { done <- Run(ctx, []string{"serve", "--addr", addr}, env) }()

	check, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, err := check.VisitorData(context.Background(), a.ID, cliVisitor)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle conversation is still there: %v", err)
		}
	}
	if _, err := check.VisitorData(context.Background(), a.ID, recent); err != nil {
		t.Fatalf("the recent conversation went too: %v", err)
	}
	// serve is up and answering while it sweeps.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never became healthy: %s", errb.String())
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d: %s", code, errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not shut down")
	}
	if !strings.Contains(errb.String(), "retention") {
		t.Fatalf("serve did not log the retention sweep: %s", errb.String())
	}
}
