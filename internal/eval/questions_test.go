package eval

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"svc/internal/demo"
	"svc/internal/eval/sitetest"
	"svc/internal/kb"
)

var (
	tagOrScript = regexp.MustCompile(`(?is)<script.*?</script>|<style.*?</style>|<[^>]+>`)
	spaces      = regexp.MustCompile(`\s+`)
)

// plain is a page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed.
func plain(page string) string {
	return spaces.ReplaceAllString(html.UnescapeString(tagOrScript.ReplaceAllString(page, " ")), " ")
}

func readQuestionFile(t *testing.T, name string) []SiteQuestion {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := ReadQuestions(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return qs
}

// answerable checks that every question's expect matches some text of its language, so that a
// miss is always the engine's and never an answer the source does not hold.
func answerable(t *testing.T, file string, qs []SiteQuestion, texts map[string][]string) {
	t.Helper()
	for _, q := range qs {
		if q.re == nil {
			continue
		}
		found := false
		for _, text := range texts[q.Lang] {
			if q.re.MatchString(text) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s line %d [%s] %q: /%s/ matches no %s text of the site", file, q.Line, q.Lang, q.Question, q.Expect, q.Lang)
		}
	}
}

// Every expectation of monero.jsonl is found in the rendered site's pages of its language,
// and every expected product is one of the shop's products in that language.
func TestMoneroQuestionsAnswerable(t *testing.T) {
	t.Parallel()
	qs := readQuestionFile(t, "monero.jsonl")
	out := t.TempDir()
	pages, err := sitetest.Render(sitetest.Dir(t), out)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string][]string{}
	products := map[string]map[string]bool{}
	for _, p := range pages {
		file := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(p.Path, "/")))
		if strings.HasSuffix(p.Path, "/") {
			file = filepath.Join(file, "index.html")
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		texts[p.Lang] = append(texts[p.Lang], plain(string(b)))
		if p.Kind == "product" {
			if products[p.Lang] == nil {
				products[p.Lang] = map[string]bool{}
			}
			products[p.Lang][strings.ToLower(p.Title)] = true
		}
	}
	answerable(t, "monero.jsonl", qs, texts)
	for _, q := range qs {
		if q.Product != "" && !products[q.Lang][strings.ToLower(q.Product)] {
			t.Errorf("monero.jsonl line %d: no %s product %q in the shop", q.Line, q.Lang, q.Product)
		}
	}
}

// The same for demo.jsonl against the demo's KB.
func TestDemoQuestionsAnswerable(t *testing.T) {
	t.Parallel()
	qs := readQuestionFile(t, "demo.jsonl")
	recs, err := kb.ParseJSONL(demo.Reader())
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string][]string{}
	products := map[string]bool{}
	for _, r := range recs {
		text := plain(strings.Join([]string{r.Title, r.Question, r.Answer, r.Body, r.Name, r.Price, r.Description}, " "))
		for _, lang := range []string{"tr", "en", "de"} {
			if r.Lang == lang || r.Lang == "" {
				texts[lang] = append(texts[lang], text)
			}
		}
		if r.Name != "" {
			products[strings.ToLower(r.Name)] = true
		}
	}
	answerable(t, "demo.jsonl", qs, texts)
	for _, q := range qs {
		if q.Product != "" && !products[strings.ToLower(q.Product)] {
			t.Errorf("demo.jsonl line %d: no product %q in the demo KB", q.Line, q.Product)
		}
	}
}
