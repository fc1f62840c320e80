package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"svc/internal/eval"
)

// langs are the XQuAD languages the service answers, in the order pages and questions are
// interleaved.
var langs = []string{"en", "de", "tr"}

// paragraph is one XQuAD context: one original KB page.
type paragraph struct {
	lang, url, title, text string
	article                string // the article title, for synthesized page titles
}

// question is one XQuAD question and the page it was asked about.
type question struct {
	lang, text, url string
}

// corpus is the XQuAD dev split of the three languages.
type corpus struct {
	paragraphs []paragraph
	questions  []question
	// fingerprint identifies the files' content, so that a KB built from other files is not
	// reused.
	fingerprint string
}

// loadCorpus reads dir/xquad.<lang>.dev.json of every language through internal/eval, so a
// page here is the page `svc eval xquad` measures (same URL and title).
func loadCorpus(dir string) (corpus, error) {
	var c corpus
	h := sha256.New()
	for _, lg := range langs {
		pages, qs, err := eval.LoadXQuAD(dir, lg)
		if err != nil {
			return c, fmt.Errorf("%w (pass --xquad DIR)", err)
		}
		for _, p := range pages {
			fmt.Fprintf(h, "%s\x00%s\x00%s\x00", p.URL, p.Title, p.Text)
			c.paragraphs = append(c.paragraphs, paragraph{lang: lg, url: p.URL, article: p.Article, title: p.Title,
				text: p.Text})
		}
		for _, q := range qs {
			if t := strings.TrimSpace(q.Text); t != "" {
				fmt.Fprintf(h, "%s\x00%s\x00", q.URL, t)
				c.questions = append(c.questions, question{lang: lg, text: t, url: q.URL})
			}
		}
	}
	if len(c.paragraphs) == 0 || len(c.questions) == 0 {
		return c, fmt.Errorf("%s: no XQuAD paragraphs or questions", dir)
	}
	c.fingerprint = hex.EncodeToString(h.Sum(nil))[:16]
	return c, nil
}

// questionSeed fixes the order questions are asked in.
const questionSeed = 14

// questionPool returns every distinct question once, in a fixed order that interleaves the
// languages (en, de, tr, en, ...) and shuffles each language on its own: XQuAD is parallel
// across languages, and this keeps a question's three translations far apart.
func (c corpus) questionPool() []question {
	byLang := map[string][]question{}
	seen := map[question]bool{}
	for _, q := range c.questions {
		k := question{lang: q.lang, text: q.text}
		if seen[k] {
			continue
		}
		seen[k] = true
		byLang[q.lang] = append(byLang[q.lang], q)
	}
	r := rand.New(rand.NewPCG(questionSeed, 0))
	for _, lg := range langs {
		qs := byLang[lg]
		r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	}
	var out []question
	for i := 0; ; i++ {
		added := false
		for _, lg := range langs {
			if i < len(byLang[lg]) {
				out = append(out, byLang[lg][i])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

// questionFeed hands out distinct questions in pool order. Past the end of the pool it makes
// new ones: the pool's question with " (n)" appended, n = 2, 3, ... for each further pass. The
// number becomes a term of the cache key, and the answer cache never serves a question for
// one with other numbers, so every such question is a distinct cache miss; the engine still
// answers it from the same paragraph.
type questionFeed struct {
	mu   sync.Mutex
	pool []question
	next int
	// synthesized counts the questions made past the end of the pool.
	synthesized int
}

func (f *questionFeed) take() question {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.next
	f.next++
	q := f.pool[i%len(f.pool)]
	if pass := i / len(f.pool); pass > 0 {
		q.text = fmt.Sprintf("%s (%d)", q.text, pass+1)
		f.synthesized++
	}
	return q
}

func (f *questionFeed) takeN(n int) []question {
	out := make([]question, n)
	for i := range out {
		out[i] = f.take()
	}
	return out
}
