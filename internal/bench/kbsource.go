package bench

import (
	"fmt"
	"io"

	"svc/internal/i18n"
)

// KBSource gives measurements outside `svc bench` (the test sets' benchmark in
// internal/testsets) the KBs it builds, written as `svc kb import` reads them: a language's
// XQuAD pages, and synthesized pages of that language (one chunk each) to fill a KB to a
// size, as a KB of the languages shape holds them.
type KBSource struct {
	corpus corpus
	gen    *generator
}

// NewKBSource reads the XQuAD dev files of xquadDir.
func NewKBSource(xquadDir string) (*KBSource, error) {
	c, err := loadCorpus(xquadDir)
	if err != nil {
		return nil, err
	}
	g, err := newGenerator(c)
	if err != nil {
		return nil, err
	}
	return &KBSource{corpus: c, gen: g}, nil
}

// WriteOriginals writes lang's XQuAD pages and reports how many.
func (s *KBSource) WriteOriginals(w io.Writer, lang string) (int, error) {
	if !i18n.Supported(lang) {
		return 0, fmt.Errorf("no language %q", lang)
	}
	pages := originals(s.corpus, lang)
	return len(pages), writePages(w, pages)
}

// WriteSynthesized writes lang's synthesized pages from to from+n-1 (the same pages for the
// same numbers, every time).
func (s *KBSource) WriteSynthesized(w io.Writer, lang string, from, n int) error {
	if !i18n.Supported(lang) {
		return fmt.Errorf("no language %q", lang)
	}
	pages := make([]page, n)
	for i := range pages {
		pages[i] = s.gen.synthIn(lang, from+i)
	}
	return writePages(w, pages)
}
