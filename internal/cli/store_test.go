package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// `svc store copy` prints one JSON object with the counts and "verified":true, and refuses a
// missing flag, a non-empty target and a source without a database with exit 2 and one line.
func TestStoreCopyCommand(t *testing.T) {
	t.Parallel()
	src, dst := t.TempDir(), t.TempDir()+"/copy"
	st, err := sqlite.Open(context.Background(), src, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewAccount(t, st, "Shop", 2_500_000)
	st.Close()
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, testEnv(t.TempDir(), "", &out, &errb))
		return code, out.String(), errb.String()
	}

	code, out, errs := run("store", "copy", "--from", src, "--to", dst)
	if code != 0 {
		t.Fatalf("copy: exit %d: %s", code, errs)
	}
	var res struct {
		From, To string
		Tables   map[string]int64
		Ledger   int64 `json:"ledger_total_micro"`
		Verified bool
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("output %q: %v", out, err)
	}
	if !res.Verified || res.Tables["accounts"] != 1 || res.Ledger != 2_500_000 || res.From != src || res.To != dst {
		t.Errorf("output %s", out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"store", "copy", "--from", src}, "--to"},
		{[]string{"store", "copy", "--from", src, "--to", dst}, "table accounts holds 1 rows"},
		{[]string{"store", "copy", "--from", src, "--to", src}, "same store"},
		{[]string{"store", "copy", "--from", t.TempDir(), "--to", t.TempDir()}, "no svc database"},
		{[]string{"store", "copy", "--from", "mysql://db/svc", "--to", dst}, "postgres://"},
	} {
		code, out, errs := run(tc.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}

	// Into PostgreSQL, and the URL printed as given (this one has no password to hide).
	pg := pgSchemaURL(t)
	code, out, errs = run("store", "copy", "--from", dst, "--to", pg)
	res.To, res.Verified = "", false
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || !res.Verified || res.To != pg ||
		res.Tables["accounts"] != 1 {
		t.Errorf("copy into PostgreSQL: exit %d, %s %s", code, out, errs)
	}
}
