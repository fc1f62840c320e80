package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"svc/internal/eval"
	"svc/internal/eval/sitetest"
)

// siteFloors are the hit rates a run must keep, per language: what the engine reached when
// the test was written, a little under, so that a change that costs answers fails here. Raise
// them as the engine improves.
type siteFloors map[string]float64

// runEvalSite runs `svc eval site` and returns its report, logging the table and misses.
func runEvalSite(t *testing.T, dir, id, questions string) eval.SiteReport {
	t.Helper()
	code, out, errOut := runCLI(t, dir, "", "eval", "site", "--account", id, "--questions", questions)
	if code != 0 {
		t.Fatalf("eval site: exit %d: %s", code, errOut)
	}
	decodeOne(t, out)
	var rep eval.SiteReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("eval site output: %v", err)
	}
	// stderr holds the table and the misses (and any log lines before them).
	if i := strings.Index(errOut, "lang  "); i >= 0 {
		errOut = errOut[i:]
	}
	t.Logf("eval site %s:\n%s", filepath.Base(questions), errOut)
	return rep
}

func checkFloors(t *testing.T, rep eval.SiteReport, floors siteFloors) {
	t.Helper()
	for lang, f := range floors {
		i := slices.IndexFunc(rep.Langs, func(l eval.SiteLangReport) bool { return l.Lang == lang })
		if i < 0 {
			t.Errorf("%s: no questions in the report, floor %.2f", lang, f)
			continue
		}
		if l := rep.Langs[i]; l.HitRate < f {
			t.Errorf("%s: hit rate %.2f (%d/%d), below the floor %.2f", l.Lang, l.HitRate, l.Hits, l.Questions, f)
		}
	}
}

// The Monero documentation site and its shop, crawled by the real crawler into an account
// with Sales Mode on, then measured with `svc eval site` on internal/eval/testdata/monero.jsonl.
func TestEvalSiteMonero(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls and asks about 70 questions; skipped in -short mode")
	}
	site := sitetest.Serve(t)
	dir := t.TempDir()
	code, out, errOut := runCLI(t, dir, "", "account", "create", "--name", "Monero docs", "--balance-usd", "5")
	if code != 0 {
		t.Fatal(errOut)
	}
	id := fmt.Sprint(decodeOne(t, out)["account_id"])
	if code, _, errOut = runCLI(t, dir, "", "account", "update", "--account", id, "--sales-mode", "on"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut = runCLI(t, dir, "", "crawl", "--account", id, "--allow-private", "--max-pages", "1000", site.URL+"/")
	if code != 0 {
		t.Fatalf("crawl: %s", errOut)
	}
	crawled := decodeOne(t, out)
	t.Logf("crawl of %d rendered pages: %s", len(site.Pages), strings.TrimSpace(out))
	if crawled["products"].(float64) != 27 {
		t.Errorf("crawl found %v products, want 27 (9 in each language)", crawled["products"])
	}
	rep := runEvalSite(t, dir, id, filepath.Join("..", "eval", "testdata", "monero.jsonl"))
	if !rep.SalesMode || rep.Questions != 81 {
		t.Errorf("report: sales mode %v, %d questions", rep.SalesMode, rep.Questions)
	}
	// Measured 2026-11-27 before issue 15's engine work: en 13/31, de 10/25, tr 8/25 (most
	// price questions show the sibling variant's card beside the right one; how-to questions
	// get cards). After issue 15's retrieval work (FAQ entries, glossary titles, contents
	// lists; BENCHMARKS.md): en 27/31, de 19/25, tr 20/25. With every part of issue 15 merged
	// (windows, arbitration, variants, retrieval): en 29/31, de 22/25, tr 23/25. The floors
	// leave one question of slack.
	checkFloors(t, rep, siteFloors{"en": 0.90, "de": 0.84, "tr": 0.88})
}

// The bundled demo's KB, seeded by `svc demo`, measured on internal/eval/testdata/demo.jsonl,
// which holds the failures issue 15 listed for the demo among ordinary questions.
func TestEvalSiteDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds the demo and asks about 50 questions; skipped in -short mode")
	}
	dir := t.TempDir()
	srv := startServer(t, dir, "demo")
	srv.stop(t)
	code, out, errOut := runCLI(t, dir, "", "account", "show", "--account", "1")
	if code != 0 || !strings.Contains(out, "demo") {
		t.Fatalf("demo account: %d %s %s", code, out, errOut)
	}
	rep := runEvalSite(t, dir, "1", filepath.Join("..", "eval", "testdata", "demo.jsonl"))
	if rep.Questions != 47 {
		t.Errorf("%d questions, want 47", rep.Questions)
	}
	// Measured 2026-11-27 before issue 15's engine work: tr 7/16, en 8/15, de 12/16; with
	// every part of issue 15 merged: tr 14/16, en 15/15, de 15/16; with Turkish ability verbs
	// searched by their root and two-part questions answered from two sections: tr 16/16.
	// The floors leave one question of slack.
	checkFloors(t, rep, siteFloors{"tr": 0.93, "en": 0.93, "de": 0.87})
}

// Bad arguments exit 2 with a one-line reason; a bad question file names its line.
func TestEvalSiteArguments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := runCLI(t, dir, "", "account", "create", "--name", "Eval", "--balance-usd", "1")
	if code != 0 {
		t.Fatal(errOut)
	}
	id := fmt.Sprint(decodeOne(t, out)["account_id"])
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	good := filepath.Join(t.TempDir(), "good.jsonl")
	if err := os.WriteFile(bad, []byte(`{"question":"a","lang":"en","expect":"x"}`+"\n"+`{"question":"b","lang":"en","expect":"(x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, []byte(`{"question":"Hello","lang":"en","expect":"."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--questions", good}, "--account ID is required"},
		{[]string{"--account", id}, "--questions FILE is required"},
		{[]string{"--account", id, "--questions", filepath.Join(dir, "missing.jsonl")}, "no such file"},
		{[]string{"--account", id, "--questions", bad}, "bad.jsonl: line 2: \"expect\" is not a regular expression"},
		{[]string{"--account", id, "--questions", good, "--lang", "fr"}, "--lang takes tr, en and de"},
		{[]string{"--account", id, "--questions", good, "--lang", "de"}, "has no questions in de"},
		{[]string{"--account", "999", "--questions", good}, "999"},
	} {
		code, out, errOut := runCLI(t, dir, "", append([]string{"eval", "site"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	code, out, errOut = runCLI(t, dir, "", "eval", "site", "--account", id, "--questions", good)
	if code != 0 {
		t.Fatalf("good file: %d %s", code, errOut)
	}
	if got := decodeOne(t, out); got["questions"].(float64) != 1 || got["langs"] == nil || got["misses"] == nil || got["replies"] != nil {
		t.Errorf("report %s", out)
	}
	code, out, errOut = runCLI(t, dir, "", "eval", "site", "--account", id, "--questions", good, "--replies")
	if code != 0 {
		t.Fatalf("--replies: %d %s", code, errOut)
	}
	if got, _ := decodeOne(t, out)["replies"].([]any); len(got) != 1 {
		t.Errorf("--replies: %s", out)
	}
}
