package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlite"
)

// Migration 10 rebuilds accounts without the CHECK that kept balances at zero or more. The
// rebuild must keep every row, every foreign key that points at accounts, the AUTOINCREMENT
// counter (a deleted account's id is never handed out again) and foreign keys switched on.
func TestUpgradeToOverdraft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	migrationsAt(t, dir, 9)
	const at = "2025-01-02T08:00:00.000000Z"
	rawExec(t, dir,
		`INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min, daily_answers,
			input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro)
			VALUES (1, 'Kept', 'starter', 'en', 100000, 'professional', 15, 200, 3000000, 25000000, '`+at+`', '`+at+`', 0),
			       (7, 'Gone', 'starter', 'en', 0, 'professional', 15, 200, 3000000, 25000000, '`+at+`', '`+at+`', 0)`,
		`INSERT INTO api_keys (account_id, prefix, hash, status, created_at) VALUES (1, 'svc_pk_00000000', x'01', 'active', '`+at+`')`,
		`INSERT INTO ledger (account_id, kind, amount_micro, balance_after, note, created_at)
			VALUES (1, 'topup', 100000, 100000, 'first', '`+at+`')`,
		`DELETE FROM accounts WHERE id = 7`,
	)
	s := open(t, dir)
	defer s.Close()
	ctx := context.Background()
	a, err := s.GetAccount(ctx, 1)
	if err != nil || a.Name != "Kept" || a.BalanceMicro != 100_000 {
		t.Fatalf("account after the rebuild: %v %+v", err, a)
	}
	if keys, err := s.ActiveKeysByPrefix(ctx, "svc_pk_00000000"); err != nil || len(keys) != 1 || keys[0].AccountID != 1 {
		t.Fatalf("key after the rebuild: %v %+v", err, keys)
	}
	fresh := store.Account{Name: "Next", Plan: store.PlanStarter, Lang: "en", TonePreset: store.ToneProfessional,
		SendRatePerMin: 15, DailyAnswers: 200, InputRate: 1, OutputRate: 1}
	key := store.APIKey{Prefix: "svc_pk_11111111", Hash: []byte{2}}
	if err := s.CreateAccount(ctx, &fresh, &key); err != nil || fresh.ID != 8 {
		t.Fatalf("new account id %d (%v), want 8: the counter must survive the rebuild", fresh.ID, err)
	}
	// A settle may now overdraw by its allowance.
	r, err := s.Reserve(ctx, 1, 100_000, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.OpenConversation(ctx, 1, "en")
	tr := &store.Turn{AccountID: 1, ConversationID: c.ID, Lang: "en", ReservationID: r.ID, OverdraftMicro: 50_000,
		User:   store.Message{Role: store.RoleUser, Body: "Q?", Lang: "en"},
		Reply:  store.Message{Role: store.RoleAssistant, Body: "A.", Source: store.SourceAI, Lang: "en"},
		Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 130_000}}
	if err := s.SaveTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.GetAccount(ctx, 1); a.BalanceMicro != -30_000 {
		t.Fatalf("balance %d, want -30000", a.BalanceMicro)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var bad int
	if err := db.QueryRow(`SELECT COUNT(*) FROM pragma_foreign_key_check`).Scan(&bad); err != nil || bad != 0 {
		t.Fatalf("foreign key check: %d rows (%v)", bad, err)
	}
	// The migration switched foreign keys off for the rebuild: the writer has them on again.
	if on, err := s.ForeignKeys(); err != nil || on != 1 {
		t.Fatalf("foreign_keys = %d (%v) on the writer after migrating", on, err)
	}
}
