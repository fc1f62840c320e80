package bitcoinsite_test

import (
	"bytes"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"svc/internal/eval"
	"svc/internal/eval/bitcoinsite"
)

func get(t *testing.T, url string) (string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	return string(b), resp.Header.Get("Content-Type")
}

// The site serves every page of the set in its language with the furniture around the
// page's own content, keeps the pages' alternates and links, and lists every page in its
// sitemap.
func TestServe(t *testing.T) {
	t.Parallel()
	site := bitcoinsite.Serve(t)
	count := map[string]int{}
	for _, p := range site.Pages {
		count[p.Lang]++
	}
	// SOURCE.md: en 23, de 21, tr 17.
	if count["en"] != 23 || count["de"] != 21 || count["tr"] != 17 {
		t.Errorf("pages by language %v", count)
	}
	faq, ctype := get(t, site.URL+"/tr/sss")
	if !strings.HasPrefix(ctype, "text/html") {
		t.Errorf("/tr/sss served as %q", ctype)
	}
	for _, want := range []string{`<html lang="tr">`, "<h1>Sıkça Sorulan Sorular</h1>", `aria-label="İçerik haritası"`,
		`<a href="/tr/">Ana sayfa</a>`, "<span>Kaynaklar</span>", `<link rel="alternate" hreflang="de" href="/de/faq">`,
		`<link rel="canonical" href="` + site.URL + `/tr/sss">`, `<a href="/en/faq">English</a>`, `<a href="/tr/baslarken">`,
		`<a href="/en/privacy">Gizlilik</a>`, "MIT lisansı"} {
		if !strings.Contains(faq, want) {
			t.Errorf("/tr/sss lacks %q", want)
		}
	}
	home, _ := get(t, site.URL+"/de/")
	if !strings.Contains(home, `<a href="/de/erste-schritte">`) || !strings.Contains(home, `<a href="/de/rechtliches">Haftungsausschluss</a>`) {
		t.Errorf("German home page lacks its links or footer")
	}
	dev, _ := get(t, site.URL+"/tr/gelistiriciler-icin-bitcoin")
	if strings.Contains(dev, `hreflang="en"`) || !strings.Contains(dev, "<span>Giriş</span>") {
		t.Errorf("a page without an English version: alternates or section wrong")
	}
	sm, _ := get(t, site.URL+"/sitemap.xml")
	robots, _ := get(t, site.URL+"/robots.txt")
	if strings.Count(sm, "<loc>") != len(site.Pages) || !strings.Contains(robots, "Sitemap: "+site.URL+"/sitemap.xml") {
		t.Errorf("sitemap or robots.txt incomplete")
	}
	root, _ := get(t, site.URL+"/")
	for _, l := range []string{"en", "de", "tr"} {
		if !strings.Contains(root, `href="/`+l+`/"`) {
			t.Errorf("language chooser lacks %s", l)
		}
	}
}

var (
	tagOrScript = regexp.MustCompile(`(?is)<script.*?</script>|<style.*?</style>|<[^>]+>`)
	spaces      = regexp.MustCompile(`\s+`)
)

// Every language's question file converts into 25 answerable questions, each with an expect
// that some page of its language matches, and 8 declined ones, on the source's lines.
func TestQuestionFile(t *testing.T) {
	t.Parallel()
	site := bitcoinsite.Serve(t)
	for _, lang := range []string{"en", "de", "tr"} {
		file, err := bitcoinsite.QuestionFile(site.Src, lang)
		if err != nil {
			t.Fatal(err)
		}
		qs, err := eval.ReadQuestions(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		var texts []string
		for _, p := range site.Pages {
			if p.Lang == lang {
				page, _ := get(t, site.URL+p.Path)
				texts = append(texts, spaces.ReplaceAllString(html.UnescapeString(tagOrScript.ReplaceAllString(page, " ")), " "))
			}
		}
		answerable, declined := 0, 0
		for i, q := range qs {
			if q.Line != i+1 || q.Lang != lang {
				t.Errorf("%s: question %d on line %d in %s", lang, i+1, q.Line, q.Lang)
			}
			if q.Decline {
				declined++
				continue
			}
			answerable++
			re := regexp.MustCompile("(?i)" + q.Expect)
			found := false
			for _, text := range texts {
				found = found || re.MatchString(text)
			}
			if !found {
				t.Errorf("%s line %d %q: /%s/ matches no page", lang, q.Line, q.Question, q.Expect)
			}
		}
		if answerable != 25 || declined != 8 {
			t.Errorf("%s: %d answerable, %d declined; want 25 and 8", lang, answerable, declined)
		}
	}
}
