package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// kbVersion names what a KB directory holds: the generator's pages and the account's
// settings. Change it whenever either changes, so that KB directories built the old way are
// rebuilt rather than reused. 2: the account's send rate is the highest the binary accepts.
const kbVersion = 2

// synthSeed fixes the synthesized pages.
const synthSeed = 0x5eed14

// Sentence and body limits of a synthesized page, in characters. A body stays under the
// chunker's 700-character target (internal/kb), so every synthesized page is exactly one
// chunk and the KB's chunk count is predictable.
const (
	minSentence  = 20
	maxSentence  = 300
	maxSynthBody = 650
)

// page is one line of the import file.
type page struct {
	Type  string `json:"type"`
	URL   string `json:"url"`
	Title string `json:"title"`
	Body  string `json:"body"`
	Lang  string `json:"lang"`
}

// sentence is a sentence of an XQuAD paragraph and the article it comes from.
type sentence struct {
	text, article string
}

// generator makes the synthesized pages of a corpus.
type generator struct {
	byLang map[string][]sentence
}

func newGenerator(c corpus) (*generator, error) {
	g := &generator{byLang: map[string][]sentence{}}
	for _, p := range c.paragraphs {
		for _, s := range splitSentences(p.text) {
			if n := utf8.RuneCountInString(s); n >= minSentence && n <= maxSentence {
				g.byLang[p.lang] = append(g.byLang[p.lang], sentence{text: s, article: p.article})
			}
		}
	}
	for _, lg := range langs {
		if len(g.byLang[lg]) == 0 {
			return nil, fmt.Errorf("no %s sentences of %d to %d characters to synthesize pages from", lg, minSentence, maxSentence)
		}
	}
	return g, nil
}

// KB shapes. A mixed KB is one account holding the three languages' pages, a third each:
// its 10,000-chunk KB holds about 3,300 chunks in a question's language. A business's KB is
// in one language (or one account per language), so its 10,000 chunks are all in the
// question's language, and a question's common words are in three times as many chunks:
// the languages shape is one account per language, each holding the size in its own.
const (
	ShapeMixed     = "mixed"
	ShapeLanguages = "languages"
)

// Shapes lists the KB shapes.
var Shapes = []string{ShapeMixed, ShapeLanguages}

// noteWord names a synthesized page in its language: "<article>, notes 17".
var noteWord = map[string]string{"en": "notes", "de": "Notizen", "tr": "notlar"}

// synth returns synthesized page i. It depends on i alone (its own random stream), so a KB
// that needs more pages only appends to the pages it already has: the language cycles en,
// de, tr; the body is three to five random sentences of that language's paragraphs, kept
// under maxSynthBody; the title names the first sentence's article and the page number, so
// every title is distinct.
func (g *generator) synth(i int) page {
	lg := langs[i%len(langs)]
	p := g.compose(lg, rand.New(rand.NewPCG(synthSeed, uint64(i))))
	p.URL, p.Title = fmt.Sprintf("https://bench.test/%s/%d", lg, i), fmt.Sprintf("%s, %s %d", p.Title, noteWord[lg], i+1)
	return p
}

// synthIn returns synthesized page i of a KB in language lg alone (the languages shape): the
// same making as synth's, on a random stream of its own for each language and page.
func (g *generator) synthIn(lg string, i int) page {
	p := g.compose(lg, rand.New(rand.NewPCG(synthSeed^langSeed(lg), uint64(i))))
	p.URL, p.Title = fmt.Sprintf("https://bench.test/%s/only/%d", lg, i), fmt.Sprintf("%s, %s %d", p.Title, noteWord[lg], i+1)
	return p
}

// langSeed tells the languages' streams apart.
func langSeed(lg string) uint64 {
	var n uint64
	for _, b := range []byte(lg) {
		n = n<<8 | uint64(b)
	}
	return n << 32
}

// compose draws a page body of lg from r: three to five random sentences of that language's
// paragraphs, kept under maxSynthBody. Its Title is the first sentence's article.
func (g *generator) compose(lg string, r *rand.Rand) page {
	pool := g.byLang[lg]
	want := 3 + r.IntN(3)
	var parts []string
	size, article := 0, ""
	for tries := 0; len(parts) < want && tries < 4*want; tries++ {
		s := pool[r.IntN(len(pool))]
		n := utf8.RuneCountInString(s.text)
		if size > 0 && size+1+n > maxSynthBody {
			continue
		}
		if article == "" {
			article = s.article
		}
		parts = append(parts, s.text)
		size += n + 1
	}
	return page{Type: "page", Title: article, Body: strings.Join(parts, " "), Lang: lg}
}

// originals are the XQuAD paragraphs as pages: of every language when only is "", else of
// that language.
func originals(c corpus, only string) []page {
	var out []page
	for _, p := range c.paragraphs {
		if only == "" || p.lang == only {
			out = append(out, page{Type: "page", URL: p.url, Title: p.title, Body: p.text, Lang: p.lang})
		}
	}
	return out
}

// writePages writes pages as the JSON Lines `svc kb import` reads.
func writePages(w io.Writer, pages []page) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, p := range pages {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// splitSentences cuts a paragraph after '.', '!' or '?' followed by a space and an upper-case
// letter or a digit. Abbreviations ("St. Louis") cut a sentence short now and then, which is
// harmless here: the pieces are still real text of the language.
func splitSentences(text string) []string {
	var out []string
	rs := []rune(text)
	start := 0
	for i := 0; i+2 < len(rs); i++ {
		if (rs[i] == '.' || rs[i] == '!' || rs[i] == '?') && rs[i+1] == ' ' &&
			(unicode.IsUpper(rs[i+2]) || unicode.IsDigit(rs[i+2])) {
			if s := strings.TrimSpace(string(rs[start : i+1])); s != "" {
				out = append(out, s)
			}
			start = i + 2
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}
