package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"

	"svc/internal/eval"
	"svc/internal/eval/bitcoinsite"
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

// halfFloor is what one half of one language's questions must keep: answerable questions
// answered right, and unanswerable ones declined (the fallback).
type halfFloor struct{ answered, declined int }

// halfFloors are keyed "<lang> <half>" ("de tune"): like siteFloors, what the engine reached
// when they were set, a little under.
type halfFloors map[string]halfFloor

// logHalves logs one row per language and half of the reports: answerable questions answered
// right, those answered wrongly (not with the fallback), and unanswerable questions declined.
func logHalves(t *testing.T, name string, reps ...eval.SiteReport) {
	t.Helper()
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "lang\thalf\tanswered\twrong\tdeclined\t")
	for _, rep := range reps {
		for _, h := range rep.Halves {
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%d\t%d/%d\t\n", h.Lang, h.Half, h.AnswerableHits, h.Answerable, h.AnsweredWrong, h.Declines, h.Unanswerable)
		}
	}
	tw.Flush()
	t.Logf("%s by language and half:\n%s", name, b.String())
}

func checkHalfFloors(t *testing.T, floors halfFloors, reps ...eval.SiteReport) {
	t.Helper()
	got := map[string]eval.SiteLangReport{}
	for _, rep := range reps {
		for _, h := range rep.Halves {
			got[h.Lang+" "+h.Half] = h
		}
	}
	for key, f := range floors {
		h, ok := got[key]
		if !ok {
			t.Errorf("%s: no questions in the report", key)
			continue
		}
		if h.AnswerableHits < f.answered {
			t.Errorf("%s: %d/%d answerable questions answered right, below the floor %d", key, h.AnswerableHits, h.Answerable, f.answered)
		}
		if h.Declines < f.declined {
			t.Errorf("%s: %d/%d unanswerable questions declined, below the floor %d", key, h.Declines, h.Unanswerable, f.declined)
		}
	}
}

// newAccount creates an account with 5 USD of balance and returns its id.
func newAccount(t *testing.T, dir, name string) string {
	t.Helper()
	args := []string{"account", "create", "--name", name, "--balance-usd", "5"}
	code, out, errOut := runCLI(t, dir, "", args...)
	if code != 0 {
		t.Fatal(errOut)
	}
	return fmt.Sprint(decodeOne(t, out)["account_id"])
}

// crawlLoopback crawls the loopback site at url into the account with the real crawler and
// returns the crawl's summary; rendered is how many pages the site has, for the log.
func crawlLoopback(t *testing.T, dir, id, url string, rendered int) map[string]any {
	t.Helper()
	args := []string{"crawl", "--account", id, "--allow-private", "--max-pages", "1000", url}
	code, out, errOut := runCLI(t, dir, "", args...)
	if code != 0 {
		t.Fatalf("crawl: %s", errOut)
	}
	t.Logf("crawl of %d rendered pages: %s", rendered, strings.TrimSpace(out))
	return decodeOne(t, out)
}

// The Monero documentation site and its shop, crawled by the real crawler into an account
// with Sales Mode on, then measured with `svc eval site` on internal/eval/testdata/monero.jsonl.
func TestEvalSiteMonero(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls and asks about 70 questions; skipped in -short mode")
	}
	site := sitetest.Serve(t)
	dir := t.TempDir()
	id := newAccount(t, dir, "Monero docs")
	if code, _, errOut := runCLI(t, dir, "", "account", "update", "--account", id, "--sales-mode", "on"); code != 0 {
		t.Fatal(errOut)
	}
	crawled := crawlLoopback(t, dir, id, site.URL+"/", len(site.Pages))
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
	logHalves(t, "monero.jsonl", rep)
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
	if rep.Questions != 78 {
		t.Errorf("%d questions, want 78", rep.Questions)
	}
	// Measured 2026-11-27 before issue 15's engine work: tr 7/16, en 8/15, de 12/16; with
	// every part of issue 15 merged: tr 14/16, en 15/15, de 15/16; with Turkish ability verbs
	// searched by their root and two-part questions answered from two sections: tr 16/16.
	//
	// Issue 23 added 24 questions the demo does not answer (8 a language, decline) and 7
	// answerable ones it found failing. Measured 2026-11-27, answered right / declined by half
	// (tune = odd lines, confirm = even lines): tr 8/8 3/4 and 8/8 3/4; en 8/9 4/4 and 7/9 3/4;
	// de 8/10 4/4 and 8/10 4/4. Still failing: "How much does the Kaçkar Pro hiking boot
	// cost?" (boot care, no card), "Can I return a tent I already used on one trip?" and "Do
	// you accept PayPal?" (fallback), "Wie lange habe ich Zeit, etwas zurückzuschicken?"
	// (delivery time), "Wie viel kostet der Versand nach Österreich?" (Germany's 9,90 €; "Was
	// kostet …" passes), "Wie lange ist die Garantie auf eine Regenjacke?" (fallback) and, as
	// before, "Kann ich mit PayPal zahlen?" (fallback); answered though the KB does not
	// answer them: a tent to rent and a student discount (tr), guided hiking tours (en). The
	// floors leave one question of slack in each half.
	logHalves(t, "demo.jsonl", rep)
	// With the answerability model: tr 8/8 3/4 and 8/8 3/4; en 8/9 4/4 and 7/9 4/4; de 8/10
	// 4/4 and 8/10 4/4. With a product named in a word of the visitor's own, places, German
	// infinitives with zu, a product vouching for the page before it, Turkish prefixes and
	// verb roots, lists as answers and duration nouns (2026-11-27): tr 8/8 4/4 and 8/8 4/4;
	// en 8/9 4/4 and 9/9 4/4; de 9/10 4/4 and 10/10 4/4. Still failing: "Can I return a tent
	// I already used on one trip?" (three words the KB never uses, and "unused" is no match
	// for "used") and "Kann ich mit PayPal zahlen?" (the KB writes "bezahlen" and
	// "Zahlungsarten"; see the engine's ARCHITECTURE notes). With the synonym groups, the
	// long-stem prefixes and the two-part window removed (the ablation): tr 7/8 4/4 (the
	// two-part "Kargo ücreti ne kadar, kaç günde gelir?" now quotes the price only), de 8/10
	// 4/4 and 10/10 4/4, the rest unchanged.
	checkHalfFloors(t, halfFloors{
		"tr tune": {6, 3}, "tr confirm": {7, 3},
		"en tune": {7, 3}, "en confirm": {8, 3},
		"de tune": {7, 3}, "de confirm": {9, 3},
	}, rep)
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

// bitcoin.org's help pages in en, de and tr (internal/eval/bitcoinsite), crawled by the real
// crawler, measured on each language's 33 questions of ../shared/eval/bitcoin-org: 25 the
// site answers and 8 it does not, which must get the fallback. Each language is its own
// question file, so that its lines, and so its halves (odd lines tune, even lines confirm),
// are the shared file's.
func TestEvalSiteBitcoin(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls about 60 pages and asks about 100 questions; skipped in -short mode")
	}
	site := bitcoinsite.Serve(t)
	dir := t.TempDir()
	id := newAccount(t, dir, "Bitcoin.org")
	crawled := crawlLoopback(t, dir, id, site.URL+"/", len(site.Pages))
	// Every rendered page is stored, or read as a list of links (the home pages, the language
	// chooser at / beside them).
	listings, _ := crawled["skipped_by"].(map[string]any)["listing"].(float64)
	if n := int(crawled["pages"].(float64) + listings); n < len(site.Pages)+1 {
		t.Errorf("crawl stored %v pages and skipped %v listings of the %d rendered and the chooser", crawled["pages"], listings, len(site.Pages))
	}
	var reps []eval.SiteReport
	for _, lang := range []string{"en", "de", "tr"} {
		file, err := bitcoinsite.QuestionFile(site.Src, lang)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(t.TempDir(), "bitcoin-org."+lang+".jsonl")
		if err := os.WriteFile(name, file, 0o644); err != nil {
			t.Fatal(err)
		}
		rep := runEvalSite(t, dir, id, name)
		if len(rep.Langs) != 1 || rep.Langs[0].Answerable != 25 || rep.Langs[0].Unanswerable != 8 {
			t.Fatalf("%s: report %+v", lang, rep.Langs)
		}
		reps = append(reps, rep)
	}
	// Measured 2026-11-27, answered right (of 13 tune, 12 confirm) and declined (of 4 and 4):
	// en 9/13 1/4 and 7/12 1/4; de 10/13 0/4 and 7/12 2/4; tr 10/13 1/4 and 9/12 0/4. Most
	// unanswerable questions get a passage that shares a word with them (a password, a fee,
	// a place), and several answerable ones a neighbouring passage. The floors leave one
	// question of slack in each half.
	//
	// With the answerability model (main at 6dfac91): en 9/13 4/4 and 7/12
	// 2/4; de 10/13 4/4 and 6/12 3/4; tr 8/13 4/4 and 9/12 3/4. With an FAQ answer read as
	// one section, headings kept as paths under their parents, repeated text dropped and
	// in-page contents lists left out: en 9/13 and 7/12; de 11/13 and 8/12; tr 9/13 and
	// 9/12, declines unchanged.
	logHalves(t, "bitcoin-org", reps...)
	checkHalfFloors(t, halfFloors{
		"en tune": {8, 3}, "en confirm": {6, 1},
		"de tune": {10, 3}, "de confirm": {7, 2},
		"tr tune": {8, 3}, "tr confirm": {8, 2},
	}, reps...)
}
