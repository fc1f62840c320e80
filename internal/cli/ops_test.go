package cli

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, t.TempDir(), "", "version")
	m := decodeOne(t, out)
	if code != 0 || errOut != "" || m["go"] != runtime.Version() || m["version"] == "" || m["version"] == nil ||
		m["platform"] != runtime.GOOS+"/"+runtime.GOARCH {
		t.Fatalf("version: %d %v %q", code, m, errOut)
	}
	args := []string{"version", "extra"}
	code, out, errOut = runCLI(t, t.TempDir(), "", args...)
	wantOneLine(t, args, code, out, errOut, "unexpected argument")
}

// serve logs the build once, first thing.
func TestServeLogsBuildAtStart(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir(), "serve")
	srv.stop(t)
	logs := srv.stderr.String()
	if strings.Count(logs, `msg="svc starting"`) != 1 || !strings.Contains(logs, "go="+runtime.Version()) ||
		!strings.Contains(logs, "version=") {
		t.Fatalf("start-up log: %s", logs)
	}
}

// countRows counts a table's rows in the database of dir.
func countRows(t *testing.T, dir, table string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The round trip an operator relies on: `svc backup` while the data is being written, then
// `svc restore` into a new directory, whose copy passes `svc ledger check` and holds a
// snapshot between what existed before and after the backup.
func TestBackupRestoreRoundTripUnderLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var ids []int64
	for _, name := range []string{"Acme", "Globex", "Initech"} {
		code, out, errOut := runCLI(t, dir, "", "account", "create", "--name", name, "--balance-usd", "5")
		if code != 0 {
			t.Fatal(errOut)
		}
		ids = append(ids, int64(decodeOne(t, out)["account_id"].(float64)))
	}
	live, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	stop := storetest.WriteLoad(t, live, ids)
	before := countRows(t, dir, "ledger")
	backup := filepath.Join(t.TempDir(), "svc-backup.db")
	code, out, errOut := runCLI(t, dir, "", "backup", "--out", backup)
	after := countRows(t, dir, "ledger")
	stop()
	if code != 0 {
		t.Fatalf("backup: %d %s", code, errOut)
	}
	b := decodeOne(t, out)
	st, err := os.Stat(backup)
	if err != nil || b["backup"] != backup || b["bytes"] != float64(st.Size()) || b["accounts"] != 3.0 || b["schema_version"] == nil {
		t.Fatalf("backup output %v (stat %v)", b, err)
	}

	restored := filepath.Join(t.TempDir(), "restored")
	code, out, errOut = runCLI(t, restored, "", "restore", "--from", backup)
	if code != 0 {
		t.Fatalf("restore: %d %s", code, errOut)
	}
	r := decodeOne(t, out)
	if r["data"] != restored || r["database"] != filepath.Join(restored, sqlite.FileName) || r["accounts"] != 3.0 ||
		r["schema_version"] != b["schema_version"] || r["from_schema_version"] != b["schema_version"] {
		t.Fatalf("restore output %v", r)
	}
	code, out, errOut = runCLI(t, restored, "", "ledger", "check")
	if c := decodeOne(t, out); code != 0 || c["ok"] != true || c["accounts"] != 3.0 || len(c["problems"].([]any)) != 0 {
		t.Fatalf("ledger check of the restored copy: %d %v %s", code, c, errOut)
	}
	if got := countRows(t, restored, "ledger"); got < before || got > after {
		t.Fatalf("restored ledger has %d rows, not between %d and %d", got, before, after)
	}
	// Every answer in the copy has its messages: the turn was copied whole or not at all.
	if ev, msgs := countRows(t, restored, "usage_events WHERE message_id IS NOT NULL"), countRows(t, restored, "messages"); msgs != 2*ev {
		t.Fatalf("restored copy: %d answer events but %d messages", ev, msgs)
	}
	// The live data passes too, after all that writing.
	if code, out, errOut := runCLI(t, dir, "", "ledger", "check"); code != 0 || decodeOne(t, out)["ok"] != true {
		t.Fatalf("ledger check of the live data: %d %s %s", code, out, errOut)
	}

	// What the two commands refuse, each with one line and exit 2.
	postgres := func(dir string) Env {
		env := testEnv(dir, "", nil, nil)
		env.Getenv = func(k string) string {
			switch k {
			case "SVC_DATA":
				return dir
			case "SVC_DATABASE_URL":
				return "postgres://svc@db/svc"
			}
			return ""
		}
		return env
	}
	for _, tc := range []struct {
		dir   string
		args  []string
		wants []string
	}{
		{dir, []string{"backup", "--out", backup}, []string{"already exists"}},
		{dir, []string{"backup"}, []string{"--out FILE is required"}},
		{t.TempDir(), []string{"backup", "--out", filepath.Join(t.TempDir(), "x.db")}, []string{"no svc database"}},
		{dir, []string{"backup", "--out", "x.db", "--database-url", "postgres://svc@db/svc"}, []string{"embedded SQLite store only", "pg_dump"}},
		{restored, []string{"restore", "--from", backup}, []string{"not an empty directory", "it holds"}},
		{filepath.Join(t.TempDir(), "new"), []string{"restore"}, []string{"--from FILE is required"}},
		{filepath.Join(t.TempDir(), "new"), []string{"restore", "--from", filepath.Join(dir, "nope.db")}, []string{"no such file"}},
	} {
		code, out, errOut := runCLI(t, tc.dir, "", tc.args...)
		wantOneLine(t, tc.args, code, out, errOut, tc.wants...)
	}
	for _, args := range [][]string{{"backup", "--out", filepath.Join(t.TempDir(), "x.db")}, {"restore", "--from", backup}} {
		var outb, errb strings.Builder
		env := postgres(filepath.Join(t.TempDir(), "pg"))
		env.Stdout, env.Stderr = &outb, &errb
		code := Run(context.Background(), args, env)
		wantOneLine(t, args, code, outb.String(), errb.String(), "embedded SQLite store only", "pg_dump")
	}
}

// ledger check exits 0 on consistent data, 1 with the problems listed when a balance was
// changed behind the ledger's back, and 2 for an account that does not exist.
func TestLedgerCheckCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"Acme", "Globex"} {
		if code, _, errOut := runCLI(t, dir, "", "account", "create", "--name", name, "--balance-usd", "3"); code != 0 {
			t.Fatal(errOut)
		}
	}
	code, out, errOut := runCLI(t, dir, "", "ledger", "check")
	if m := decodeOne(t, out); code != 0 || m["ok"] != true || m["accounts"] != 2.0 || errOut != "" {
		t.Fatalf("consistent: %d %v %q", code, m, errOut)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE accounts SET balance_micro = balance_micro + 250000 WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, out, errOut = runCLI(t, dir, "", "ledger", "check")
	m := decodeOne(t, out)
	problems, _ := m["problems"].([]any)
	if code != 1 || m["ok"] != false || len(problems) != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "1 problem(s)") {
		t.Fatalf("corrupted: %d %v %q", code, m, errOut)
	}
	p := problems[0].(map[string]any)
	if p["account_id"] != 2.0 || p["kind"] != "balance_mismatch" || !strings.Contains(p["detail"].(string), "off by 0.25 USD") {
		t.Fatalf("problem: %v", p)
	}
	code, out, _ = runCLI(t, dir, "", "ledger", "check", "--account", "1")
	if m := decodeOne(t, out); code != 0 || m["ok"] != true || m["accounts"] != 1.0 {
		t.Fatalf("the other account alone: %d %v", code, m)
	}
	for _, args := range [][]string{{"ledger", "check", "--account", "9"}, {"ledger", "check", "--account", "-1"}, {"ledger", "check", "x"}} {
		code, out, errOut := runCLI(t, dir, "", args...)
		wantOneLine(t, args, code, out, errOut)
	}
}
