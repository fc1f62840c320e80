package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runOn runs one command on the SQLite data directory dir, or, with dbURL set, on that
// PostgreSQL database.
func runOn(t *testing.T, dir, dbURL, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := testEnv(dir, stdin, &out, &errb)
	env.Getenv = func(k string) string {
		switch k {
		case "SVC_DATA":
			return dir
		case "SVC_DATABASE_URL":
			return dbURL
		}
		return ""
	}
	code := Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

// A NUL (a JSON "\u0000") in an import line is refused with the line's number and the
// field, exit 2, nothing imported, on both stores; PostgreSQL's import exited 1 with the
// database's raw error. A password holding one is refused too (no control character).
func TestNULInCommandInputIsRefused(t *testing.T) {
	t.Parallel()
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			dir, dbURL := t.TempDir(), ""
			if store == "postgres" {
				dbURL = pgSchemaURL(t)
			}
			if code, _, errOut := runOn(t, dir, dbURL, "", "account", "create", "--name", "Acme"); code != 0 {
				t.Fatalf("account create: %s", errOut)
			}
			file := `{"type":"qa","question":"Do you ship abroad?","answer":"Yes.","lang":"en"}` + "\n" +
				`{"type":"page","url":"https://acme.test/a","title":"A\u0000","body":"Text.","lang":"en"}` + "\n"
			code, out, errOut := runOn(t, dir, dbURL, file, "kb", "import", "--account", "1", "-")
			if code != 2 || out != "" || !strings.Contains(errOut, "line 2: title contains a NUL character") ||
				strings.Count(errOut, "\n") != 1 {
				t.Fatalf("import: exit %d, stdout %q, stderr %q; want exit 2 and one line naming line 2's title", code, out, errOut)
			}
			code, out, _ = runOn(t, dir, dbURL, file[:strings.Index(file, "\n")+1], "kb", "import", "--account", "1", "-")
			if code != 0 || !strings.Contains(out, `"qa":1`) {
				t.Fatalf("the good line alone: exit %d %s (the refused file imported something?)", code, out)
			}
			code, out, errOut = runOn(t, dir, dbURL, "pass\x00word long enough\n",
				"user", "add", "--account", "1", "--email", "ada@shop.example", "--password-stdin")
			if code != 2 || out != "" || !strings.Contains(errOut, "password") {
				t.Fatalf("user add: exit %d %q %q; want exit 2 about the password", code, out, errOut)
			}
		})
	}
}
