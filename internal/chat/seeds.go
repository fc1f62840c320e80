package chat

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/lang"
	"svc/internal/lang/lexicon"
	"svc/internal/store"
)

// Starter questions from a site's headings. A heading is offered only when it already is a
// question in the conversation's language ("How do I restore a wallet?", "Wie installiere
// ich …?", "Etiket nasıl eklenir"), with its question mark added when the site left it off;
// English "How to …" headings become "How do I …?", the one rewrite that reads naturally in
// every case. Other headings ("Installing on macOS", "Sistem gereksinimleri") are skipped:
// turning a noun phrase into a question needs grammar the three languages do not share.

// questionStarts are the words that open a question in each language.
var questionStarts = func() map[string]map[string]bool {
	out := make(map[string]map[string]bool)
	for _, lg := range lexicon.Languages() {
		out[lg] = set(lexicon.Default().Entries(lexicon.QuestionStarts, lg)...)
	}
	return out
}()

// turkishQuestionWords mark a Turkish question anywhere in the sentence: question words and
// the question particle with its personal endings, written apart as the spelling rules want.
var turkishQuestionWords = set(lexicon.Default().Entries(lexicon.TurkishQuestionWords, lang.TR)...)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Bounds of a starter question: long enough to be a question, short enough to be a chip.
const (
	seedMinWords = 2
	seedMaxRunes = 100
)

// headingSeed returns heading as a starter question in lg, or false.
func headingSeed(heading, lg string) (string, bool) {
	if i := strings.LastIndex(heading, " › "); i >= 0 {
		heading = heading[i+len(" › "):] // the deepest heading of a path
	}
	h := strings.Join(strings.Fields(heading), " ")
	h = strings.TrimRight(h, ":;.,… ")
	words := strings.Fields(h)
	if len(words) < seedMinWords || utf8.RuneCountInString(h) > seedMaxRunes || strings.ContainsAny(h, "[]{}<>|") {
		return "", false // a template's placeholder ("the meaning of [word]") is no question to ask
	}
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLowerSpecial(caseOf(lg), strings.Trim(w, "?¿!\"'“”„«»()"))
	}
	switch {
	case strings.HasSuffix(h, "?"):
	case lg == "en" && lower[0] == "how" && lower[1] == "to" && len(words) > 2:
		h = "How do I " + strings.Join(words[2:], " ") + "?"
	case lg == "de" && lower[0] == "wie" && lower[1] == "man":
		return "", false // "Wie man … installiert" is no question with a mark added
	case questionStarts[lg][lower[0]]:
		h += "?"
	case lg == "tr" && anyWord(lower, turkishQuestionWords):
		h += "?"
	default:
		return "", false
	}
	if r, n := utf8.DecodeRuneInString(h); unicode.IsLower(r) {
		h = strings.ToUpperSpecial(caseOf(lg), string(r)) + h[n:]
	}
	// A heading the site left untranslated is not a question in the visitor's language.
	if got, conf := lang.Detect(h); got != lg && conf >= seedLangConfidence {
		return "", false
	}
	return h, true
}

// seedLangConfidence is the detector confidence at which a heading counts as written in
// another language than its page's.
const seedLangConfidence = 0.5

func caseOf(lg string) unicode.SpecialCase {
	if lg == "tr" {
		return unicode.TurkishCase
	}
	return nil
}

func anyWord(words []string, in map[string]bool) bool {
	for _, w := range words[1:] { // a particle never opens the sentence
		if in[w] {
			return true
		}
	}
	return in[words[0]] && words[0] != "mi" && words[0] != "mı" && words[0] != "mu" && words[0] != "mü"
}

// headingSeeds makes starter questions of a site's headings (in document order): first the
// questions of its FAQ pages, which are pages whose headings are mostly questions (a FAQ
// without FAQPage markup, whose entries are not Q&A entries), then one question of each other
// page in turn, so that the seeds cover the site rather than its first guide.
func headingSeeds(heads []store.Heading, lg string) []string {
	type page struct {
		qs    []string
		total int
	}
	var order []int64
	pages := map[int64]*page{}
	for _, h := range heads {
		p := pages[h.DocID]
		if p == nil {
			p = &page{}
			pages[h.DocID] = p
			order = append(order, h.DocID)
		}
		p.total++
		if q, ok := headingSeed(h.Text, lg); ok {
			p.qs = append(p.qs, q)
		}
	}
	isFAQ := func(p *page) bool { return len(p.qs) >= 2 && 2*len(p.qs) >= p.total }
	var out []string
	for _, id := range order {
		if p := pages[id]; isFAQ(p) {
			out = append(out, p.qs...)
		}
	}
	for round := 0; ; round++ {
		more := false
		for _, id := range order {
			if p := pages[id]; !isFAQ(p) && round < len(p.qs) {
				out = append(out, p.qs[round])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}
