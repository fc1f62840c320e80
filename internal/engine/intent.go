package engine

import (
	"strings"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
	"svc/internal/textindex"
)

// Intent is what a visitor's question asks about products, as a set of flags. It is read
// from the wording alone; whether the account has products that fit is the retrieval's
// business (see shelf), so "do you have a store in Istanbul?" carries IntentList and still
// gets no product card.
type Intent uint8

// The product intents.
const (
	IntentPrice     Intent = 1 << iota // "how much", "fiyatı", "was kostet"
	IntentStock                        // "in stock", "stokta var mı", "lieferbar"
	IntentList                         // "which products", "do you sell", "gibt es"
	IntentCompare                      // "difference between", "fark", "Unterschied"
	IntentRecommend                    // "which … do you recommend", "önerirsiniz", "empfehlen"
)

// Has reports whether every flag of f is set.
func (i Intent) Has(f Intent) bool { return i&f == f && f != 0 }

// Lists reports whether the question wants products set side by side: a listing, a
// comparison or a recommendation. The engine answers those with the products themselves.
func (i Intent) Lists() bool { return i&(IntentList|IntentCompare|IntentRecommend) != 0 }

// ProductIntent reads the product intent of a question in lang (tr, en or de; anything
// else is read as English). Zero means the wording asks nothing about products.
func ProductIntent(question, lang string) Intent {
	in, _, _ := readIntent(question, lang)
	return in
}

// StrongIntent is ProductIntent less a recommendation read only from "best" or a superlative
// ("the best way to back up my wallet", "en iyi yolu"): such wording makes a product question
// only when products match the question better than the pages, which a caller without the
// retrieval (a cached reply) cannot tell, so it reads as no product wording.
func StrongIntent(question, lang string) Intent {
	in, _, weak := readIntent(question, lang)
	if weak {
		return 0
	}
	return in
}

// cue is one way of asking about products. A single word is matched on analyzed terms, so
// inflections and Turkish suffixes come for free ("fiyatı", "fiyatları" → fiyat; "prices" →
// price); a phrase is matched on folded words, where "w*" is any word starting with w and
// "…" skips up to three words ("hangi … var").
type cue struct {
	kind Intent
	text string
	weak bool // asks for the best of something without saying it is a product (see readIntent)
}

// intentCues are the cues per language. Words that only say "product" are in subjectNoise
// instead: "does every product have a warranty?" is no product question.
var intentCues = func() map[string][]cue {
	out := make(map[string][]cue)
	for _, lang := range lexdata.Languages() {
		table := lexdata.Default().Table(lexdata.IntentCues, lang)
		for _, text := range table.Keys() {
			v, _ := table.Get(text)
			name, weak := strings.CutSuffix(v, " weak")
			out[lang] = append(out[lang], cue{kind: intentNamed[name], text: text, weak: weak})
		}
	}
	return out
}()

// intentNamed reads the intents of intent_cues.
var intentNamed = map[string]Intent{
	"price": IntentPrice, "stock": IntentStock, "list": IntentList, "compare": IntentCompare, "recommend": IntentRecommend,
}

// subjectNoise are words that say "product", "model" or name a currency. They are no cue on
// their own, but they say nothing about which products are meant either, so they leave the
// subject of a product question: in "the Pro model phone" or "das Pro-Modell" the variant
// token says which product, and "model" would only match pages that say it otherwise ("trust
// model").
var subjectNoise = func() map[string]string {
	out := make(map[string]string)
	for _, lang := range lexdata.Languages() {
		out[lang] = strings.Join(lexdata.Default().Entries(lexdata.SubjectNoise, lang), " ")
	}
	return out
}()

// compiledCues is intentCues analyzed once: single words as analyzed terms, phrases as
// folded word patterns. Read-only after initialization.
type compiledCues struct {
	words   []wordCue
	phrases []phraseCue
	noise   []textindex.Term
}

type wordCue struct {
	kind Intent
	term textindex.Term
	weak bool
}

type phraseCue struct {
	kind    Intent
	pattern []string
	weak    bool
}

var cueTables = func() map[string]compiledCues {
	out := make(map[string]compiledCues, len(intentCues))
	for lg, cues := range intentCues {
		var c compiledCues
		for _, cu := range cues {
			if !strings.ContainsAny(cu.text, " *…") {
				for _, t := range textindex.QueryTerms(cu.text, lg) {
					c.words = append(c.words, wordCue{kind: cu.kind, term: t, weak: cu.weak})
				}
				continue
			}
			c.phrases = append(c.phrases, phraseCue{kind: cu.kind, pattern: strings.Fields(cu.text), weak: cu.weak})
		}
		c.noise = textindex.QueryTerms(subjectNoise[lg], lg)
		out[lg] = c
	}
	return out
}()

// cuesFor returns the cue table of a language, English for an unknown one.
func cuesFor(lang string) compiledCues {
	if c, ok := cueTables[lang]; ok {
		return c
	}
	return cueTables["en"]
}

// readIntent returns the question's intent and the analyzed terms that only carry it (the
// cue words, the words of its cue phrases and product or currency words): what remains of
// the question without them is its subject, the thing the products must match. weak is set
// when the intent is only a recommendation read from a weak cue or a superlative ("best",
// "en iyi", "am besten", "the lightest"): those words ask for the best of anything ("the
// best way to back up my wallet"), so they make a product question only when the products
// match the question better than the pages do (see pagesAnswer).
func readIntent(question, lang string) (in Intent, strip []textindex.Term, weak bool) {
	c := cuesFor(lang)
	var strong Intent
	for _, t := range textindex.IndexTerms(question, lang) {
		for _, w := range c.words {
			if matchTerm(w.term, t) {
				in |= w.kind
				if !w.weak {
					strong |= w.kind
				}
				strip = append(strip, textindex.Term{Text: t})
			}
		}
	}
	words := textindex.Words(question, lang)
	for _, p := range c.phrases {
		used, ok := matchPattern(words, p.pattern)
		if !ok {
			continue
		}
		in |= p.kind
		if !p.weak {
			strong |= p.kind
		}
		for _, w := range used {
			strip = append(strip, textindex.QueryTerms(w, lang)...)
		}
	}
	if superlative(words, lang) {
		in |= IntentRecommend
	}
	strip = append(strip, c.noise...)
	return in, strip, in != 0 && strong == 0
}

// superlative reports whether a question asks for the lightest, warmest or cheapest of
// something, which is a recommendation among products. Unlike a cue, the adjective stays in
// the subject: the product that is "the lightest" says so, and the others do not.
func superlative(words []string, lang string) bool {
	for i := range words {
		if _, ok := superlativeAt(words, i, lang); ok {
			return true
		}
	}
	return false
}

// superlativeAt reports whether words[i] makes a superlative in lang, and where the word it
// asks the best of may start (-1 for none): English takes long words in -est (short ones are
// "test", "rest", "latest") and "most"; German long words in -ste(n/r/s), and "am …sten",
// which asks how rather than for the best of anything; Turkish "en" before a word ("en
// hafif", whose head follows the adjective). superlative and weakHeads share it.
func superlativeAt(words []string, i int, lang string) (head int, ok bool) {
	w, next := words[i], i+1 < len(words)
	switch lang {
	case "tr":
		if w == "en" && next {
			return i + 2, true
		}
	case "de":
		if w == "am" && next && strings.HasSuffix(words[i+1], "sten") {
			return -1, true
		}
		for _, suf := range []string{"ste", "sten", "ster", "stes"} {
			if len(w) >= 9 && strings.HasSuffix(w, suf) {
				if i > 0 && words[i-1] == "am" {
					return -1, true
				}
				return i + 1, true
			}
		}
	default:
		if w == "most" && next {
			return -1, true
		}
		if len(w) >= 7 && strings.HasSuffix(w, "est") && !notSuperlative.Has(w) {
			return i + 1, true
		}
	}
	return -1, false
}

// weakHeads returns the analyzed terms of what a weak cue or a superlative asks the best of:
// the first word with a term after "best", "beste(r)", a long English word in -est or a
// German one in -ste(n) not after "am", and in Turkish after the word that follows "en" ("the
// best way to …" → way, "der beste Weg" → Weg, "en iyi yolu" → yol, "the lightest tent" →
// tent). "Am besten" asks how, not for the best of anything, and has none. Arbitration reads
// the head as what is asked for: a product kind when a product's name holds it, otherwise a
// way, a time or a place, which a product's advertising copy may share ("the best way to
// carry water") without answering.
func weakHeads(question, lang string) []textindex.Term {
	words := textindex.Words(question, lang)
	var out []textindex.Term
	after := func(from int) {
		for j := from; j < len(words); j++ {
			if ts := textindex.QueryTerms(words[j], lang); len(ts) > 0 {
				out = append(out, ts...)
				return
			}
		}
	}
	for i, w := range words {
		switch {
		case lang == "de" && strings.HasPrefix(w, "beste") && len(w) <= 6 && (i == 0 || words[i-1] != "am"),
			lang != "de" && lang != "tr" && w == "best":
			after(i + 1) // the weak cues, too short to read as superlatives
		default:
			if head, ok := superlativeAt(words, i, lang); ok && head >= 0 {
				after(head)
			}
		}
	}
	return out
}

// notSuperlative are English words in -est of seven letters or more that compare nothing.
var notSuperlative = lexdata.Default().Set(lexdata.NotSuperlatives, "en")

// maxGap is how many words "…" in a cue phrase may skip.
const maxGap = 3

// matchPattern finds the first place where the words of pattern occur in order in words
// and returns the words that matched a pattern word (not those a gap skipped).
func matchPattern(words, pattern []string) ([]string, bool) {
	for i := range words {
		if used, ok := matchAt(words, i, pattern); ok {
			return used, true
		}
	}
	return nil, false
}

func matchAt(words []string, i int, pattern []string) ([]string, bool) {
	if len(pattern) == 0 {
		return nil, true
	}
	p := pattern[0]
	if p == "…" {
		for skip := 0; skip <= maxGap && i+skip <= len(words); skip++ {
			if used, ok := matchAt(words, i+skip, pattern[1:]); ok {
				return used, true
			}
		}
		return nil, false
	}
	if i >= len(words) || !lexdata.MatchWord(p, words[i]) {
		return nil, false
	}
	used, ok := matchAt(words, i+1, pattern[1:])
	if !ok {
		return nil, false
	}
	return append([]string{words[i]}, used...), true
}
