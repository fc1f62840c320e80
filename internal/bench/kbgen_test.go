package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// tinyCorpus is a corpus of a few paragraphs per language, enough to synthesize from.
func tinyCorpus() corpus {
	text := map[string]string{
		"en": "The stadium opened in 1990. It holds 60,000 people. The roof can be closed in ten minutes! Was it expensive? Yes, it cost 300 million dollars.",
		"de": "Das Stadion wurde 1990 eröffnet. Es fasst 60.000 Menschen. Das Dach lässt sich in zehn Minuten schließen. War es teuer? Ja, es kostete 300 Millionen.",
		"tr": "Stadyum 1990 yılında açıldı. Altmış bin kişi alıyor. Çatısı on dakikada kapanabiliyor. Pahalı mıydı? Evet, üç yüz milyon dolara mal oldu.",
	}
	var c corpus
	for _, lg := range langs {
		for i := range 3 {
			c.paragraphs = append(c.paragraphs, paragraph{lang: lg, url: "https://xquad.test/" + lg + "/" + string(rune('a'+i)),
				title: "Stadium (1)", article: "Stadium", text: text[lg]})
			c.questions = append(c.questions, question{lang: lg, text: lg + " question " + string(rune('a'+i)) + "?"})
		}
	}
	c.fingerprint = "tiny"
	return c
}

func TestSynthIsDeterministicAndOneChunkEach(t *testing.T) {
	t.Parallel()
	g1, err := newGenerator(tinyCorpus())
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := newGenerator(tinyCorpus())
	titles := map[string]bool{}
	for i := range 3000 {
		p := g1.synth(i)
		if q := g2.synth(i); q != p {
			t.Fatalf("synth(%d) differs between two generators:\n%+v\n%+v", i, p, q)
		}
		if p.Lang != langs[i%3] {
			t.Errorf("page %d is %s, want %s", i, p.Lang, langs[i%3])
		}
		if n := utf8.RuneCountInString(p.Body); n == 0 || n > maxSynthBody {
			t.Errorf("page %d body has %d characters, want 1 to %d", i, n, maxSynthBody)
		}
		if titles[p.Title] {
			t.Errorf("page %d repeats the title %q", i, p.Title)
		}
		titles[p.Title] = true
	}
	// A page does not depend on how many pages were made before it: a KB that needs more
	// pages appends to the ones it has.
	if a, b := g1.synth(2999), g2.synth(2999); a != b {
		t.Errorf("page 2999 depends on the order of generation")
	}
}

// A KB of the languages shape draws each language's pages from that language alone,
// deterministically, and never repeats a mixed KB's page.
func TestSynthInOneLanguage(t *testing.T) {
	t.Parallel()
	g, err := newGenerator(tinyCorpus())
	if err != nil {
		t.Fatal(err)
	}
	mixed := map[string]bool{}
	for i := range 300 {
		mixed[g.synth(i).URL] = true
	}
	seen := map[string]bool{}
	for _, lg := range langs {
		for i := range 300 {
			p := g.synthIn(lg, i)
			if p != g.synthIn(lg, i) {
				t.Fatalf("synthIn(%s, %d) is not deterministic", lg, i)
			}
			if p.Lang != lg || p.Body == "" || utf8.RuneCountInString(p.Body) > maxSynthBody {
				t.Errorf("synthIn(%s, %d) = %+v", lg, i, p)
			}
			if seen[p.URL] || seen[p.Title] || mixed[p.URL] {
				t.Errorf("synthIn(%s, %d) repeats a URL or title: %+v", lg, i, p)
			}
			seen[p.URL], seen[p.Title] = true, true
		}
	}
	// The streams of the languages differ: the same page number draws other sentences.
	if a, b := g.synthIn("en", 7), g.synth(7*3); a.Body == b.Body && a.Title == b.Title {
		t.Errorf("synthIn(en, 7) repeats synth(21): %+v", a)
	}
	for _, p := range originals(tinyCorpus(), "de") {
		if p.Lang != "de" {
			t.Errorf("originals of de hold %+v", p)
		}
	}
	if n := len(originals(tinyCorpus(), "tr")); n != 3 {
		t.Errorf("%d Turkish originals, want 3", n)
	}
}

func TestSplitSentences(t *testing.T) {
	t.Parallel()
	got := splitSentences("It opened in 1990. It holds 60,000 people! Was it? 3 times. e.g. this stays. End")
	want := []string{"It opened in 1990.", "It holds 60,000 people!", "Was it?", "3 times. e.g. this stays.", "End"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("splitSentences = %q, want %q", got, want)
	}
}

func TestWritePagesIsImportFormat(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	pages := originals(tinyCorpus(), "")
	if err := writePages(&buf, pages); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != len(pages) {
		t.Fatalf("%d lines for %d pages", len(lines), len(pages))
	}
	var rec map[string]string
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"type", "url", "title", "body", "lang"} {
		if rec[k] == "" {
			t.Errorf("line 1 has no %s: %s", k, lines[0])
		}
	}
	if rec["type"] != "page" {
		t.Errorf("type = %q, want page", rec["type"])
	}
}
