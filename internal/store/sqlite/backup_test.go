package sqlite_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"svc/internal/ledger"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// A backup taken while writers top up and charge is one consistent snapshot: restored, its
// balances equal its ledgers and the reservations match their column, and it holds a number
// of writes between what existed before and after the backup.
func TestBackupUnderWriteLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	defer s.Close()
	var ids []int64
	for _, name := range []string{"A", "B", "C"} {
		a, _ := storetest.NewAccount(t, s, name, 1_000_000)
		ids = append(ids, a.ID)
	}
	// Back up while writers run.
	stop := storetest.WriteLoad(t, s, ids)
	before := ledgerRows(t, s)
	dest := filepath.Join(t.TempDir(), "svc-backup.db")
	info, err := sqlite.Backup(ctx, dir, dest)
	after := ledgerRows(t, s)
	stop()
	if err != nil {
		t.Fatalf("backup: %v", err)
	}
	st, err := os.Stat(dest)
	if err != nil || info.Path != dest || info.Bytes != st.Size() || info.Accounts != 3 || info.SchemaVersion == 0 {
		t.Fatalf("backup info %+v (stat %v)", info, err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600", st.Mode().Perm())
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), "*partial*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}

	restored := filepath.Join(t.TempDir(), "data")
	ri, err := sqlite.Restore(ctx, dest, restored)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	if ri.Dir != restored || ri.FromVersion != info.SchemaVersion || ri.SchemaVersion != info.SchemaVersion || ri.Accounts != 3 {
		t.Fatalf("restore info %+v", ri)
	}
	r := open(t, restored)
	defer r.Close()
	rep, err := r.CheckLedger(ctx, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if res := ledger.Check(rep); !res.OK || res.Accounts != 3 {
		t.Fatalf("restored ledger: %+v", res)
	}
	if got := ledgerRows(t, r); got < before || got > after {
		t.Fatalf("restored copy has %d ledger rows, not between %d and %d", got, before, after)
	}
}

// ledgerRows counts every account's ledger rows.
func ledgerRows(t *testing.T, s *sqlite.Store) int {
	t.Helper()
	n := 0
	for id := int64(1); id <= 3; id++ {
		rows, err := s.Ledger(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		n += len(rows)
	}
	return n
}

func TestBackupRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, dir)
	s.Close()
	existing := filepath.Join(t.TempDir(), "taken.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.Backup(ctx, dir, existing); !errors.Is(err, sqlite.ErrExists) {
		t.Fatalf("existing destination: %v", err)
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Fatalf("the existing file was changed: %q", b)
	}
	if _, err := sqlite.Backup(ctx, t.TempDir(), filepath.Join(t.TempDir(), "b.db")); !errors.Is(err, sqlite.ErrNoDatabase) {
		t.Fatalf("empty data directory: %v", err)
	}
}

func TestRestoreRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := t.TempDir()
	s := open(t, src)
	storetest.NewAccount(t, s, "Acme", 10)
	s.Close()
	backup := filepath.Join(t.TempDir(), "b.db")
	if _, err := sqlite.Backup(ctx, src, backup); err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, _ := os.ReadFile(backup)

	// Not SQLite at all.
	text := write("notes.txt", []byte("hello, this is not a database"))
	// SQLite, but another application's.
	foreignDir := t.TempDir()
	rawExec(t, foreignDir, `CREATE TABLE things (id INTEGER PRIMARY KEY)`)
	foreign := filepath.Join(foreignDir, sqlite.FileName)
	// Damaged: the file ends halfway.
	truncated := write("truncated.db", good[:len(good)/2])
	// Written by a newer release.
	newerDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(newerDir, sqlite.FileName), good, 0o600); err != nil {
		t.Fatal(err)
	}
	rawExec(t, newerDir, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)`)
	newer := filepath.Join(newerDir, sqlite.FileName)

	for _, tc := range []struct {
		name, from string
		want       string
	}{
		{"missing file", filepath.Join(t.TempDir(), "nope.db"), "no such file"},
		{"a directory", t.TempDir(), "not a regular file"},
		{"not SQLite", text, "not an SQLite database"},
		{"not svc", foreign, "not a svc database"},
		{"damaged", truncated, ""},
		{"newer schema", newer, "newer than this binary's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "data")
			_, err := sqlite.Restore(ctx, tc.from, target)
			if !errors.Is(err, sqlite.ErrNotBackup) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("restore: %v", err)
			}
			if _, serr := os.Stat(target); !errors.Is(serr, os.ErrNotExist) {
				t.Fatalf("a failed restore left %s behind (%v)", target, serr)
			}
		})
	}

	notEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(notEmpty, "README"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.Restore(ctx, backup, notEmpty); !errors.Is(err, sqlite.ErrNotEmpty) {
		t.Fatalf("non-empty directory: %v", err)
	}
	if _, err := sqlite.Restore(ctx, backup, src); !errors.Is(err, sqlite.ErrNotEmpty) {
		t.Fatalf("a live data directory: %v", err)
	}
	if _, err := sqlite.Restore(ctx, backup, backup); !errors.Is(err, sqlite.ErrNotEmpty) || !strings.Contains(err.Error(), "it is a file") {
		t.Fatalf("a file as the data directory: %v", err)
	}
	// An empty existing directory (a fresh volume with its lost+found) is fine.
	empty := t.TempDir()
	if err := os.Mkdir(filepath.Join(empty, "lost+found"), 0o700); err != nil {
		t.Fatal(err)
	}
	if ri, err := sqlite.Restore(ctx, backup, empty); err != nil || ri.Accounts != 1 {
		t.Fatalf("empty directory: %v %+v", err, ri)
	}
}

// A backup of an older release is migrated to this binary's schema on restore.
func TestRestoreMigratesOlderBackup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	old := t.TempDir()
	migrationsAt(t, old, 3)
	rawExec(t, old, `INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min,
		daily_answers, input_rate_micro, output_rate_micro, created_at, updated_at)
		VALUES (1, 'Old', 'starter', 'en', 5, 'professional', 15, 200, 1, 1, '2025-01-02T03:04:05.000000Z',
		'2025-01-02T03:04:05.000000Z')`,
		`INSERT INTO ledger (account_id, kind, amount_micro, balance_after, note, created_at)
		VALUES (1, 'topup', 5, 5, 'opening balance', '2025-01-02T03:04:05.000000Z')`)
	backup := filepath.Join(t.TempDir(), "old.db")
	if _, err := sqlite.Backup(ctx, old, backup); err != nil {
		t.Fatal(err)
	}
	latest, err := sqlite.LatestSchemaVersion()
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "data")
	ri, err := sqlite.Restore(ctx, backup, target)
	if err != nil || ri.FromVersion != 3 || ri.SchemaVersion != latest || latest <= 3 {
		t.Fatalf("restore: %v %+v (latest %d)", err, ri, latest)
	}
	s := open(t, target)
	defer s.Close()
	a, err := s.GetAccount(ctx, 1)
	if err != nil || a.Name != "Old" || a.BalanceMicro != 5 {
		t.Fatalf("restored account: %v %+v", err, a)
	}
}
