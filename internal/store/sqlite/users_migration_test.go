package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"svc/internal/store"
	"svc/internal/store/sqlite"
)

// Migration 21 rebuilds users with the e-mail unique per account instead of across all
// accounts. The rebuild keeps every user, the sessions and links that point at them, the
// AUTOINCREMENT counter (a removed user's id is never handed out again) and foreign keys on.
func TestUpgradeToUsersPerAccount(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	migrationsAt(t, dir, 20)
	const at = "2025-01-02T08:00:00.000000Z"
	rawExec(t, dir,
		`INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min, daily_answers,
			input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro)
			VALUES (1, 'Agency', 'starter', 'en', 0, 'professional', 15, 200, 1, 1, '`+at+`', '`+at+`', 0),
			       (2, 'Client', 'starter', 'en', 0, 'professional', 15, 200, 1, 1, '`+at+`', '`+at+`', 0)`,
		`INSERT INTO users (id, account_id, email, role, password_hash, created_at) VALUES
			(1, 1, 'ada@agency.example', 'owner', 'phc', '`+at+`'),
			(5, 1, 'gone@agency.example', 'agent', '', '`+at+`')`,
		`INSERT INTO sessions (hash, user_id, account_id, created_at, last_seen_at, expires_at)
			VALUES (x'0a', 1, 1, '`+at+`', '`+at+`', '2099-01-01T00:00:00.000000Z')`,
		`DELETE FROM users WHERE id = 5`,
	)
	s := open(t, dir)
	defer s.Close()
	ctx := context.Background()
	if x, err := s.SessionByHash(ctx, []byte{0x0a}); err != nil || x.UserID != 1 {
		t.Fatalf("session after the rebuild: %v %+v", err, x)
	}
	// The same person joins the client's account; the counter survived (6, not 2).
	u := store.User{AccountID: 2, Email: "ada@agency.example", Role: store.UserAgent}
	if err := s.CreateUser(ctx, &u); err != nil || u.ID != 6 {
		t.Fatalf("the agency's owner as the client's agent: id %d (%v), want 6", u.ID, err)
	}
	if us, err := s.UsersByEmail(ctx, "ada@agency.example"); err != nil || len(us) != 2 {
		t.Fatalf("users by e-mail: %v %+v", err, us)
	}
	dup := store.User{AccountID: 2, Email: "ada@agency.example", Role: store.UserOwner}
	if err := s.CreateUser(ctx, &dup); err == nil {
		t.Fatal("a second user with the e-mail in one account was stored")
	}
	if err := s.RemoveUser(ctx, 1, 1); err != nil {
		t.Fatalf("remove the user with a session: %v", err)
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
	if on, err := s.ForeignKeys(); err != nil || on != 1 {
		t.Fatalf("foreign_keys = %d (%v) on the writer after migrating", on, err)
	}
}

// Migration 21 goes down again while no e-mail has users in two accounts.
func TestUsersPerAccountMigratesDown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	migrationsAt(t, dir, 21)
	const at = "2025-01-02T08:00:00.000000Z"
	rawExec(t, dir,
		`INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min, daily_answers,
			input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro)
			VALUES (1, 'Agency', 'starter', 'en', 0, 'professional', 15, 200, 1, 1, '`+at+`', '`+at+`', 0)`,
		`INSERT INTO users (account_id, email, role, created_at) VALUES (1, 'ada@agency.example', 'owner', '`+at+`')`)
	migrationsAt(t, dir, 20)
	migrationsAt(t, dir, 21)
	if cols := columns(t, dir, "users"); !cols["email"] || !cols["password_changed_at"] {
		t.Fatalf("users columns after down and up: %v", cols)
	}
}
