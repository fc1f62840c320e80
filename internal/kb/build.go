package kb

import (
	"strings"
	"sync"
	"unicode/utf8"

	"svc/internal/lang"
	"svc/internal/nultext"
	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/tokencount"
)

// Build turns a validated record into a store document with its chunks analyzed. The
// document's AccountID and SiteID are left for the caller.
//
// Text taken from a page or a file (a crawl's records, which are not validated) may hold
// NULs; they are dropped here (nultext.Strip), since nobody can be asked to send it again.
func Build(rec Record) (store.Document, error) {
	for _, f := range rec.textFields() {
		*f.v = nultext.Strip(*f.v)
	}
	var (
		doc store.Document
		err error
	)
	switch rec.Type {
	case TypePage:
		doc, err = buildPage(rec)
	case TypeQA:
		doc, err = buildQA(rec)
	case TypeProduct:
		doc, err = buildProduct(rec)
	case TypeArticle:
		doc, err = buildArticle(rec)
	default:
		err = because("err.kb.type_invalid", "unknown type %q", rec.Type)
	}
	if err != nil {
		return store.Document{}, lineErrOf(rec.Line, err)
	}
	return doc, nil
}

func buildPage(rec Record) (store.Document, error) {
	blocks, htmlTitle := toBlocks(rec.Body)
	if len(blocks) == 0 {
		return store.Document{}, because("err.kb.page_body_empty", "page body has no text after cleaning")
	}
	title := firstNonEmpty(rec.Title, htmlTitle, firstHeading(blocks), rec.URL)
	text := blocksText(blocks)
	lg := resolveLang(rec, title+"\n"+text)
	return store.Document{
		Type:   store.DocPage,
		URL:    rec.URL,
		Title:  title,
		Body:   text,
		Lang:   lg,
		Hash:   contentHash(rec.Type, lg, rec.URL, rec.Title, rec.Body),
		Chunks: analyze(chunkBlocks(title, blocks), title, lg, ""),
	}, nil
}

func buildArticle(rec Record) (store.Document, error) {
	blocks, htmlTitle := toBlocks(rec.Body)
	if len(blocks) == 0 {
		return store.Document{}, because("err.kb.article_body_empty", "article body has no text after cleaning")
	}
	// An imported article always has a title; a crawled one takes its page's.
	title := firstNonEmpty(rec.Title, htmlTitle, firstHeading(blocks), rec.Slug)
	text := blocksText(blocks)
	lg := resolveLang(rec, title+"\n"+text)
	return store.Document{
		Type:  store.DocArticle,
		URL:   rec.URL,
		Title: title,
		Body:  text,
		Lang:  lg,
		Hash: contentHash(rec.Type, lg, rec.Slug, rec.URL, rec.Title, rec.Body, rec.CategorySlug,
			rec.CategoryName),
		Chunks: analyze(chunkBlocks(title, blocks), title, lg, ""),
		Article: &store.ArticleMeta{
			Slug:         rec.Slug,
			Excerpt:      excerpt(blocks, excerptLen),
			CategorySlug: rec.CategorySlug,
			CategoryName: rec.CategoryName,
		},
	}, nil
}

// buildQA makes a curated answer one chunk of question and answer, so that a match on
// either side brings both. Only an answer too long for one chunk is split, and then every
// part repeats the question.
func buildQA(rec Record) (store.Document, error) {
	blocks, _ := toBlocks(rec.Answer)
	if len(blocks) == 0 {
		return store.Document{}, because("err.kb.qa_answer_empty", "qa answer has no text after cleaning")
	}
	answer := blocksText(blocks)
	lg := resolveLang(rec, rec.Question+"\n"+answer)
	var pieces []piece
	if utf8.RuneCountInString(rec.Question)+1+utf8.RuneCountInString(answer) <= chunkMax {
		pieces = []piece{{heading: rec.Question, text: rec.Question + "\n" + answer}}
	} else {
		for _, p := range chunkBlocks(rec.Question, blocks) {
			pieces = append(pieces, piece{heading: rec.Question, text: rec.Question + "\n" + p.text})
		}
	}
	return store.Document{
		Type:   store.DocQA,
		Title:  rec.Question,
		Body:   answer,
		Lang:   lg,
		Hash:   contentHash(rec.Type, lg, rec.Question, rec.Answer),
		Chunks: analyze(pieces, "", lg, ""),
	}, nil
}

// buildProduct folds the name, category and price into every chunk of the product, so that
// "what does the Kaçkar boot cost" finds the chunk that states the price, and adds the
// language's price words to the index terms when a price is known.
func buildProduct(rec Record) (store.Document, error) {
	blocks, _ := toBlocks(rec.Description)
	desc := blocksText(blocks)
	lg := resolveLang(rec, strings.Join([]string{rec.Name, rec.Category, desc}, "\n"))
	facts := productFacts(rec, lg)
	var pieces []piece
	for _, p := range chunkBlocks(rec.Name, blocks) {
		pieces = append(pieces, piece{heading: rec.Name, text: facts + "\n" + p.text})
	}
	if len(pieces) == 0 {
		pieces = []piece{{heading: rec.Name, text: facts}}
	}
	extra := ""
	if rec.Price != "" {
		extra = priceWords[lg]
	}
	hashed := []string{rec.Name, rec.URL, rec.Price, rec.Category, rec.Image, rec.Description}
	if rec.SKU != "" {
		// Only when set, so the products of every earlier import keep their hashes.
		hashed = append(hashed, "sku", rec.SKU)
	}
	return store.Document{
		Type:   store.DocProduct,
		URL:    rec.URL,
		Title:  rec.Name,
		Body:   desc,
		Lang:   lg,
		Hash:   contentHash(rec.Type, append([]string{lg}, hashed...)...),
		Chunks: analyze(pieces, "", lg, extra),
		Product: &store.Product{
			Name:     rec.Name,
			URL:      rec.URL,
			Price:    rec.Price,
			Category: rec.Category,
			Image:    rec.Image,
			SKU:      rec.SKU,
		},
	}, nil
}

// Labels of the product facts line, in the product's language, because the chunk text is
// shown to the answer writer and quoted to the visitor.
var factLabels = map[string][2]string{
	"tr": {"Kategori", "Fiyat"},
	"en": {"Category", "Price"},
	"de": {"Kategorie", "Preis"},
}

// IsFactLine reports whether a chunk line is one of the facts lines buildProduct writes
// ("Price: 119,90 €"), which a product card already shows.
func IsFactLine(line string) bool {
	for _, labels := range factLabels {
		for _, l := range labels {
			if strings.HasPrefix(line, l+": ") {
				return true
			}
		}
	}
	return false
}

// priceWords are how visitors ask for a price; indexed with priced products only.
var priceWords = map[string]string{
	"tr": "fiyat ücret tutar para",
	"en": "price cost",
	"de": "Preis kostet Kosten",
}

func productFacts(rec Record, lg string) string {
	labels := factLabels[lg]
	lines := []string{rec.Name}
	if rec.Category != "" {
		lines = append(lines, labels[0]+": "+rec.Category)
	}
	if rec.Price != "" {
		lines = append(lines, labels[1]+": "+rec.Price)
	}
	return strings.Join(lines, "\n")
}

// analyze numbers the pieces and computes their index terms from the title, the heading and
// the text, so that the subject of a page matches in every one of its chunks. A title or
// heading the text already starts with (a Q&A's question, a product's name) is not added
// again, which would only inflate its term counts. extra is indexed too but not shown.
func analyze(pieces []piece, title, lg, extra string) []store.Chunk {
	chunks := make([]store.Chunk, 0, len(pieces))
	counter := counters.Get().(*tokencount.Counter)
	defer counters.Put(counter)
	for i, p := range pieces {
		var parts []string
		if !strings.HasPrefix(p.text, title) {
			parts = append(parts, title)
		}
		if p.heading != title && !strings.HasPrefix(p.text, p.heading) {
			parts = append(parts, p.heading)
		}
		parts = append(parts, p.text, extra)
		terms := textindex.IndexTerms(strings.TrimSpace(strings.Join(parts, " ")), lg)
		chunks = append(chunks, store.Chunk{
			Ord:     i,
			Heading: firstNonEmpty(p.heading, title),
			Text:    p.text,
			Terms:   strings.Join(terms, " "),
			Tokens:  countTokens(counter, p.text),
		})
	}
	return chunks
}

// counters keeps token counters for reuse: making one compiles its splitting pattern, which
// cost a fifth of the time of a 50,000-row spreadsheet's 8,000 chunks when made per chunk,
// and most of the time of 50,000 products. A nil counter (the vocabulary failed to load)
// counts nothing.
var counters = sync.Pool{New: func() any {
	c, _ := tokencount.O200kBase()
	return c
}}

// countTokens counts text's o200k_base tokens as the engine bills them when it reads the
// chunk (engine.CountTokens). 0, the store's "not counted", when the counter cannot load:
// the engine then counts the text itself.
func countTokens(c *tokencount.Counter, text string) int {
	if c == nil {
		return 0
	}
	n, err := c.Count(text)
	if err != nil {
		return 0
	}
	return n
}

// detectSample bounds the text given to language detection: a few paragraphs decide it.
const detectSample = 4000

// overruleHint is the detector confidence at which the text's language beats a declared
// one. Whole pages give confidences near 1 when they are clearly in one language, so a wrong
// <html lang> is overruled while a page mixing languages keeps its declaration.
const overruleHint = 0.5

// resolveLang keeps the record's language, or weighs its declared language against the text,
// or detects it, falling back to English.
func resolveLang(rec Record, text string) string {
	if rec.Lang != "" {
		return rec.Lang
	}
	if len(text) > detectSample {
		cut := detectSample
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	if supportedLang(rec.LangHint) {
		if got, conf := lang.Detect(text); got != rec.LangHint && conf >= overruleHint {
			return got
		}
		return rec.LangHint
	}
	return lang.DetectOr(text, "en")
}

func supportedLang(l string) bool { return l == "tr" || l == "en" || l == "de" }

func firstHeading(blocks []block) string {
	for _, b := range blocks {
		if b.heading {
			return b.text
		}
	}
	return ""
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
