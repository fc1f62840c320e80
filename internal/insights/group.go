package insights

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
)

// The grouping's parameters, chosen on the questions of group_test.go.
const (
	// keyTerms is how many key terms a question has at most: its terms shared with another
	// question, rarest first. Customer questions hold one to three content terms, so the cap
	// matters only for long ones, whose most common words (the shop's own subject) then give
	// way to what sets them apart.
	keyTerms = 3
	// minSupport is the fewest questions a topic holds.
	minSupport = 2
	// nearMinLen is the shortest term another term may extend and still be the same word
	// (textindex.Extends: "iade" and "iadesi", "deliv" and "delivery"); shorter stems ("car",
	// "pay") are other words' beginnings too often.
	nearMinLen = 4
	// nearMaxExtra is how many letters an extension may add outside German: an ending
	// ("deliv" → "deliveri"), not another word ("card" → "cardigan"). A German term that
	// extends another is a compound of it ("liefer" → "lieferzeit"), which is its topic.
	nearMaxExtra = 3
	// prefixRootLen is the length of a Turkish query word the analyzer matches as a prefix
	// ("öde" of "ödeyebilir", the ability form's root) that is too short for nearMinLen: it
	// joins the most asked term it begins, and only that one, so it never chains two words
	// that merely share their first letters.
	prefixRootLen = 3
)

// Group groups questions into topics per language.
//
// The method, for each language's questions on their own:
//
//  1. Terms. Each question is analyzed word by word by textindex.QueryWords (stop words
//     out, stems, Turkish prefixes and ability roots, German compound parts, folding);
//     numbers, one-letter terms and the words questions wrap themselves in (the lexicon's
//     weak_question_words: "take", "dauert", "yapılır") are left out.
//  2. Near forms. Terms that are one word in other forms become one term, the shortest
//     root: a term that extends another of at least nearMinLen letters (textindex.Extends:
//     "iade" and "iades" of "iadesi", "deliv" and "deliveri"), by at most nearMaxExtra
//     letters outside German; a German term behind a verb prefix (textindex.PrefixVariant:
//     "bezahl" and "zahl"). A short Turkish prefix word ("öde") or a German verb's stem
//     behind its prefix ("zahl" of "bezahl") that is no term of its own joins the most
//     asked term it begins ("ödeme", "zahlung"), one way, so two words that merely share
//     their first letters never join through it.
//  3. Key terms. A question's key terms are its terms that another wording shares (a
//     question asked again in the same words shares nothing by that), rarest first, at
//     most keyTerms; a question that shares none keeps its own, so a question asked again
//     and again is a topic of its own.
//  4. Topics. A term's weight is its inverse document frequency among the language's
//     questions (bm25.IDF). The topics are the first key terms of at least minSupport
//     questions, ranked by the count of those questions times the weight (ties to the
//     larger count, then alphabetically), the first MaxTopics. A question joins its first
//     key term's topic, else the best ranked topic among its other key terms, else Other.
//     Since the first key term is the rarest shared one, a question on returning shoes is
//     a return question though "shoes" is in most questions, and the weight ranks such a
//     word below what is asked of it.
//  5. Names. A topic is named by its key term and, when at least half of its questions
//     share another term in at least two wordings, by that one too, each written as the
//     word that gave it most often.
func Group(questions []Question, opt Options) []Language {
	return NewCorpus(questions, nil).Group(nil, opt)
}

// Corpus is questions analyzed once, per language, to be grouped whole or in part: the
// near forms of a word (step 2 of Group) and how people write a term are learned from all
// of them, so a part (the declined questions) is grouped with the whole vocabulary of the
// account's questions ("iadesi" and "iadeyi" are one word because "iade" was asked too).
// It holds the questions it was made of; they must not change.
type Corpus struct {
	langs []*analyzed // by language code
}

// NewCorpus analyzes questions, reading their texts through memo (nil: none).
func NewCorpus(questions []Question, memo *Memo) *Corpus {
	byLang := map[string][]*Question{}
	for i := range questions {
		q := &questions[i]
		l := normLang(q.Lang)
		byLang[l] = append(byLang[l], q)
	}
	c := &Corpus{}
	for l, qs := range byLang {
		// Newest first: examples name a question as it was last asked, and the order of the
		// input changes nothing.
		slices.SortFunc(qs, func(a, b *Question) int {
			return cmp.Or(b.At.Compare(a.At), cmp.Compare(b.ID, a.ID))
		})
		c.langs = append(c.langs, analyze(l, qs, memo))
	}
	slices.SortFunc(c.langs, func(a, b *analyzed) int { return cmp.Compare(a.lang, b.lang) })
	return c
}

// Group groups the questions keep keeps (every question when keep is nil) as the package's
// Group does, and returns the languages that have any, the most asked first.
func (c *Corpus) Group(keep func(*Question) bool, opt Options) []Language {
	if opt.MaxTopics <= 0 {
		opt.MaxTopics = defaultMaxTopics
	}
	if opt.MaxExamples <= 0 {
		opt.MaxExamples = defaultMaxExamples
	}
	out := []Language{}
	for _, a := range c.langs {
		var kept []int
		for i, q := range a.qs {
			if keep == nil || keep(q) {
				kept = append(kept, i)
			}
		}
		if len(kept) > 0 {
			out = append(out, a.group(kept, opt))
		}
	}
	slices.SortFunc(out, func(a, b Language) int {
		return cmp.Or(cmp.Compare(b.Questions, a.Questions), cmp.Compare(a.Lang, b.Lang))
	})
	return out
}

// normLang is the language a question is analyzed in: textindex's three, anything else as
// English (as textindex reads it).
func normLang(l string) string {
	switch l {
	case "tr", "de":
		return l
	}
	return "en"
}

// weakTerms are the analyzed forms of the lexicon's weak_question_words per language: the
// verbs and fillers a question wraps itself in, which say nothing of its subject. Built once,
// read-only afterwards.
var weakTerms = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, l := range lexicon.Languages() {
		set := map[string]bool{}
		for _, t := range textindex.QueryTerms(strings.Join(lexicon.Default().Entries(lexicon.WeakQuestionWords, l), " "), l) {
			set[t.Text] = true
		}
		out[l] = set
	}
	return out
}()

// germanVerbPrefixes are the German verb prefixes textindex.PrefixVariant reads, from the
// same data file: the candidates a prefixed term's root is looked up by.
var germanVerbPrefixes = lexicon.Default().Entries(lexicon.VerbPrefixes, "de")

// analyzed is one language's questions with their terms.
type analyzed struct {
	lang string
	qs   []*Question
	// raw are each question's usable terms as analyzed, before near forms are joined.
	raw [][]string
	// texts are what two questions must share to be the same question: their words,
	// lower-cased and ASCII-folded as the index folds them, so case, spacing, punctuation
	// and typing without diacritics make no other question.
	texts []string
	// rawDF counts the questions holding each raw term; prefix marks the raw terms the
	// analyzer made of a short Turkish word (matched as a prefix).
	rawDF  map[string]int
	prefix map[string]bool
	// written counts, per raw term, its written forms and, of those, how often each was
	// written with a capital letter.
	written  map[string]map[string]int
	capitals map[string]map[string]int
	// root maps each raw term to the term its near forms share; terms are each question's
	// roots, sorted.
	root  map[string]string
	terms [][]string
	// byRoot lists the raw terms of each root.
	byRoot map[string][]string
}

func analyze(lang string, qs []*Question, memo *Memo) *analyzed {
	a := &analyzed{lang: lang, qs: qs, raw: make([][]string, len(qs)), texts: make([]string, len(qs)),
		terms: make([][]string, len(qs)), rawDF: map[string]int{}, prefix: map[string]bool{},
		written: map[string]map[string]int{}, capitals: map[string]map[string]int{}}
	// Visitors ask the same words again (the widget's suggested questions): each text is
	// read once and counted as often as it was asked.
	type text struct {
		r     *reading
		asked int
		terms []string // the reading's terms mapped to their roots, sorted
	}
	byText := map[string]*text{}
	of := make([]*text, len(qs))
	for i, q := range qs {
		t := byText[q.Text]
		if t == nil {
			t = &text{r: memo.read(lang, q.Text)}
			byText[q.Text] = t
		}
		t.asked++
		of[i] = t
	}
	for _, t := range byText {
		for _, term := range t.r.terms {
			a.rawDF[term] += t.asked
		}
		for _, f := range t.r.forms {
			if f.prefix {
				a.prefix[f.term] = true
			}
			if a.written[f.term] == nil {
				a.written[f.term], a.capitals[f.term] = map[string]int{}, map[string]int{}
			}
			a.written[f.term][f.word] += t.asked
			if f.capital {
				a.capitals[f.term][f.word] += t.asked
			}
		}
	}
	a.root = a.roots()
	a.byRoot = map[string][]string{}
	for raw, r := range a.root {
		a.byRoot[r] = append(a.byRoot[r], raw)
	}
	for _, t := range byText {
		for _, raw := range t.r.terms {
			if r := a.root[raw]; !slices.Contains(t.terms, r) {
				t.terms = append(t.terms, r)
			}
		}
		slices.Sort(t.terms)
	}
	for i, t := range of {
		a.raw[i], a.texts[i], a.terms[i] = t.r.terms, t.r.folded, t.terms
	}
	return a
}

// usable reports whether a term may name a subject: not a number (an order number, a
// price, a year) and longer than one letter.
func usable(term string) bool {
	if utf8.RuneCountInString(term) < 2 {
		return false
	}
	return !strings.ContainsFunc(term, unicode.IsDigit)
}

// roots maps every raw term to the term its near forms share (step 2 of Group).
func (a *analyzed) roots() map[string]string {
	terms := make([]string, 0, len(a.rawDF))
	for t := range a.rawDF {
		terms = append(terms, t)
	}
	// Shorter first, so a root is settled before the forms that extend it.
	slices.SortFunc(terms, func(x, y string) int { return cmp.Or(cmp.Compare(len(x), len(y)), cmp.Compare(x, y)) })
	root := make(map[string]string, len(terms))
	for _, u := range terms {
		best := ""
		consider := func(t string) {
			r, ok := root[t]
			if !ok || t == u || !a.near(t, u) {
				return
			}
			if best == "" || a.rawDF[r] > a.rawDF[best] || (a.rawDF[r] == a.rawDF[best] && r < best) {
				best = r
			}
		}
		// A root is a beginning of u, or for German what follows a verb prefix (or its
		// beginning).
		for n := nearMinLen; n < len(u); n++ {
			consider(u[:n])
		}
		if a.lang == "de" {
			for _, p := range germanVerbPrefixes {
				if rest, ok := strings.CutPrefix(u, p); ok {
					for n := nearMinLen; n <= len(rest); n++ {
						consider(rest[:n])
					}
				}
			}
		}
		if best == "" {
			best = u
		}
		root[u] = best
	}
	// A root too short or too late for the rule above joins the most asked term it begins,
	// and no other term joins it, so two words sharing their beginning stay apart: a short
	// Turkish prefix word ("öde" of "ödeyebilir" joins "ödeme"), and a German verb whose
	// stem behind its prefix begins a longer term ("bezahl": "zahl" joins "zahlung").
	for _, t := range terms {
		if root[t] != t {
			continue
		}
		var stem string
		switch {
		case a.prefix[t] && len(t) == prefixRootLen:
			stem = t
		case a.lang == "de":
			for _, p := range germanVerbPrefixes {
				if rest, ok := strings.CutPrefix(t, p); ok && len(rest) >= nearMinLen {
					stem = rest
					break
				}
			}
		}
		if stem == "" {
			continue
		}
		best := ""
		for _, u := range terms {
			r := root[u]
			if u == t || r == t || !strings.HasPrefix(u, stem) || (stem != t && len(u)-len(stem) > nearMaxExtra) {
				continue
			}
			if best == "" || a.rawDF[r] > a.rawDF[best] || (a.rawDF[r] == a.rawDF[best] && r < best) {
				best = r
			}
		}
		if best != "" {
			root[t] = best
		}
	}
	return root
}

// near reports whether u is a form of the shorter term t (step 2 of Group). Terms are
// ASCII-folded, so letters are bytes.
func (a *analyzed) near(t, u string) bool {
	if textindex.Extends(t, u, nearMinLen) && (a.lang == "de" || len(u)-len(t) <= nearMaxExtra) {
		return true
	}
	return textindex.PrefixVariant(t, u, a.lang, nearMinLen)
}

// group groups the questions kept (indices into a.qs, newest first) as Group describes.
func (a *analyzed) group(kept []int, opt Options) Language {
	n := len(kept)
	df := map[string]int{}       // questions holding a term, repeats of a question included
	distinct := map[string]int{} // distinct questions (folded texts) holding it
	seen := map[string]bool{}    // folded texts already counted in distinct
	for _, i := range kept {
		for _, t := range a.terms[i] {
			df[t]++
			if !seen[a.texts[i]] {
				distinct[t]++
			}
		}
		seen[a.texts[i]] = true
	}
	// Key terms: the terms another question shares, rarest among distinct questions first
	// (a question asked again in the same words shares nothing by that); a question that
	// shares none keeps its own, so a question asked again and again is a topic too.
	keys := make([][]string, n) // of kept[j]
	for j, i := range kept {
		ts := a.terms[i]
		var ks []string
		for _, t := range ts {
			if distinct[t] >= minSupport {
				ks = append(ks, t)
			}
		}
		if len(ks) == 0 {
			ks = slices.Clone(ts)
		}
		slices.SortFunc(ks, func(x, y string) int {
			return cmp.Or(cmp.Compare(distinct[x], distinct[y]), cmp.Compare(df[x], df[y]), cmp.Compare(x, y))
		})
		if len(ks) > keyTerms {
			ks = ks[:keyTerms]
		}
		keys[j] = ks
	}
	// Topics: the first key terms of the most questions, weighted by inverse frequency.
	top := map[string]int{} // questions whose first key term a term is
	for _, ks := range keys {
		if len(ks) > 0 {
			top[ks[0]]++
		}
	}
	weight := map[string]float64{}
	var seeds []string
	for t, c := range top {
		if c >= minSupport {
			seeds = append(seeds, t)
			weight[t] = float64(c) * bm25.IDF(float64(n), float64(df[t]))
		}
	}
	slices.SortFunc(seeds, func(x, y string) int {
		return cmp.Or(cmp.Compare(weight[y], weight[x]), cmp.Compare(top[y], top[x]), cmp.Compare(x, y))
	})
	if len(seeds) > opt.MaxTopics {
		seeds = seeds[:opt.MaxTopics]
	}
	rank := make(map[string]int, len(seeds))
	for r, t := range seeds {
		rank[t] = r
	}
	// Each question joins its first key term's topic, else the best ranked topic of its
	// other key terms, else none.
	members := make([][]int, len(seeds))
	var rest []int
	for j, ks := range keys {
		i := kept[j]
		best := -1
		for j, k := range ks {
			if r, ok := rank[k]; ok && (j == 0 || best < 0 || r < best) {
				best = r
				if j == 0 {
					break
				}
			}
		}
		if best < 0 {
			rest = append(rest, i)
			continue
		}
		members[best] = append(members[best], i)
	}
	lg := Language{Lang: a.lang, Questions: n}
	for r, t := range seeds {
		lg.Topics = append(lg.Topics, a.topic(t, members[r], opt))
	}
	slices.SortStableFunc(lg.Topics, func(x, y Topic) int {
		return cmp.Or(cmp.Compare(y.Asked, x.Asked), cmp.Compare(y.Recent, x.Recent))
	})
	if len(rest) > 0 {
		other := a.topic("", rest, opt)
		other.Other = true
		lg.Topics = append(lg.Topics, other)
	}
	return lg
}

// topic makes the topic of seed (none for Other) of the members, which are indices into the
// language's questions, newest first.
func (a *analyzed) topic(seed string, members []int, opt Options) Topic {
	tp := Topic{Lang: a.lang}
	if seed != "" {
		tp.Terms = []string{seed}
		// A second name: the term most of the topic's questions share besides the seed, in
		// at least two different wordings (one question asked again names nothing).
		shared, texts := map[string]int{}, map[string]map[string]bool{}
		for _, i := range members {
			text := a.texts[i]
			for _, t := range a.terms[i] {
				if t == seed {
					continue
				}
				shared[t]++
				if texts[t] == nil {
					texts[t] = map[string]bool{}
				}
				texts[t][text] = true
			}
		}
		second, most := "", 0
		for t, c := range shared {
			if len(texts[t]) < minSupport {
				continue
			}
			if c > most || (c == most && t < second) {
				second, most = t, c
			}
		}
		if second != "" && 2*most >= len(members) {
			tp.Terms = append(tp.Terms, second)
		}
		for _, t := range tp.Terms {
			tp.Label = append(tp.Label, a.label(t))
		}
	}
	byText := map[string]int{} // folded text → index in tp.Examples
	for _, i := range members {
		q := a.qs[i]
		tp.add(q, opt.RecentSince)
		key := a.texts[i]
		e, ok := byText[key]
		if !ok {
			// Members are newest first: the first of a text is its latest asking.
			e = len(tp.Examples)
			byText[key] = e
			tp.Examples = append(tp.Examples, Example{Text: q.Text, Lang: a.lang, ID: q.ID, LastAt: q.At})
		}
		tp.Examples[e].Asked++
		if q.Outcome == Declined {
			tp.Examples[e].Declined++
		}
	}
	slices.SortStableFunc(tp.Examples, func(x, y Example) int { return cmp.Compare(y.Asked, x.Asked) })
	if len(tp.Examples) > opt.MaxExamples {
		tp.Examples = tp.Examples[:opt.MaxExamples]
	}
	return tp
}

// label is how people read the term t: of the written words whose raw term has t for its
// root, the most frequent; among equals one that analyzes to t itself ("Lieferung" rather
// than "geliefert" for "liefer"), then the shorter, then alphabetically. German writes nouns
// with a capital letter, so a German word written so most of the time keeps it.
func (a *analyzed) label(t string) string {
	forms, capitals := map[string]int{}, map[string]int{}
	exact := map[string]bool{}
	for _, raw := range a.byRoot[t] {
		ws := a.written[raw]
		for w, c := range ws {
			forms[w] += c
			capitals[w] += a.capitals[raw][w]
			if raw == t {
				exact[w] = true
			}
		}
	}
	word := ""
	better := func(w string) bool {
		if word == "" {
			return true
		}
		if forms[w] != forms[word] {
			return forms[w] > forms[word]
		}
		if exact[w] != exact[word] {
			return exact[w]
		}
		if len(w) != len(word) {
			return len(w) < len(word)
		}
		return w < word
	}
	for w := range forms {
		if better(w) {
			word = w
		}
	}
	if a.lang == "de" && 2*capitals[word] > forms[word] {
		r, size := utf8.DecodeRuneInString(word)
		word = string(unicode.ToUpper(r)) + word[size:]
	}
	return word
}
