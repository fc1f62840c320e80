package engine

import (
	"math"
	"sort"
	"strings"
	"unicode"

	lexdata "svc/internal/lang/lexicon" // engine has a lexicon type of its own
	"svc/internal/textindex"
)

// window is a run of adjacent sentences of one candidate chunk, lo to hi inclusive: one
// contiguous passage of a reply.
type window struct {
	cand, lo, hi int
	anchor       int // the sentence the window grew from
	// clip is the length the window's only sentence is cut to when it alone is longer than
	// the reply may be (0: not cut).
	clip int
}

// neighbourForced is the value that puts a neighbour ahead of every sentence chosen on
// its score: the sentence after one that only leads on to it, or the one before a sentence
// that cannot stand without it.
const neighbourForced = 100

// growWindows chooses the passage to quote. The best sentence of the read chunks anchors a
// window; the window then grows one neighbour at a time within its chunk, which is one
// section of one document, until the next neighbour on either side no longer fits in
// maxChars. A neighbour is never cut: one that does not fit closes its side, and only a
// best sentence that alone is longer than maxChars is clipped (see clipAround). Each step
// takes the neighbour of highest extraction score, so the window extends toward the
// sentences that hold more of the question and its answer type. (Biases toward the sentence
// after or before, or toward the nearer one, measured no better on the tuning half of the
// XQuAD dev articles.) Some neighbours come first whatever their score:
//
//   - the sentence after one that only leads on to it: a sentence ending in ":" (then every
//     list item on its own line under it), a question, or a condition ("If the wallet does
//     not sync, …") whose consequence, the cause and the fix, is in the next sentence;
//   - the sentence before one that opens with a pronoun ("It is open …"), which names what
//     it is about, and the lead ending in ":" above a list item.
//
// A sentence of another chunk of the document that scores within Margin of the best may
// open a second window, when it is worth more than the next neighbour; the two stores of a
// page that each answer "when are you open on Sunday?" are then both quoted.
//
// lang is the question's, for chunks without a language of their own.
func (r *Ranking) growWindows(cands []candidate, read []int, scores map[int][]float64, lang string, maxChars int) []window {
	bestC, bestS := -1, -1
	for _, ci := range read {
		for si, v := range scores[ci] {
			if !math.IsInf(v, -1) && (bestC < 0 || v > scores[bestC][bestS]) {
				bestC, bestS = ci, si
			}
		}
	}
	if bestC < 0 {
		return nil
	}
	anchor := &cands[bestC].sents[bestS]
	if anchor.chars > maxChars {
		return []window{{cand: bestC, lo: bestS, hi: bestS, anchor: bestS, clip: maxChars}}
	}
	budget := maxChars - anchor.chars
	ws := []window{{cand: bestC, lo: bestS, hi: bestS, anchor: bestS}}

	// The second anchor: the best sentence of another chunk within Margin of the best.
	secC, secS := -1, -1
	for _, ci := range read {
		if ci == bestC {
			continue
		}
		for si, v := range scores[ci] {
			if !math.IsInf(v, -1) && v >= scores[bestC][bestS]-r.Margin && (secC < 0 || v > scores[secC][secS]) {
				secC, secS = ci, si
			}
		}
	}

	secForced := 0.0

	type option struct {
		w     int  // window index, or -1 for the second anchor
		after bool // the neighbour after the window (else before)
		value float64
		chars int
	}
	closed := map[[2]int]bool{} // {window, side}: side 0 before, 1 after, 2 second anchor
	for {
		var opts []option
		for wi := range ws {
			w := &ws[wi]
			c := &cands[w.cand]
			sc := scores[w.cand]
			lang := lang
			if c.hit.Lang != "" {
				lang = c.hit.Lang // the chunk's own language decides its pronouns and conditions
			}
			if p := w.lo - 1; !closed[[2]int{wi, 0}] && p >= 0 && !math.IsInf(sc[p], -1) {
				v := sc[p]
				if needsBefore(c.sents, w.lo, lang) {
					v += neighbourForced
				}
				opts = append(opts, option{w: wi, value: v, chars: c.sents[p].chars})
			}
			if n := w.hi + 1; !closed[[2]int{wi, 1}] && n < len(c.sents) && !math.IsInf(sc[n], -1) {
				v := sc[n]
				if leadsOn(c.sents, w.lo, w.hi, lang) {
					v += neighbourForced
				}
				opts = append(opts, option{w: wi, after: true, value: v, chars: c.sents[n].chars})
			}
		}
		if len(ws) == 1 && secC >= 0 && !closed[[2]int{-1, 2}] {
			opts = append(opts, option{w: -1, value: scores[secC][secS] + secForced, chars: cands[secC].sents[secS].chars})
		}
		if len(opts) == 0 {
			break
		}
		best := 0
		for i, o := range opts {
			if o.value > opts[best].value {
				best = i
			}
		}
		o := opts[best]
		if o.chars+1 > budget {
			side := 0
			switch {
			case o.w < 0:
				side = 2
			case o.after:
				side = 1
			}
			closed[[2]int{o.w, side}] = true
			continue
		}
		budget -= o.chars + 1
		switch {
		case o.w < 0:
			ws = append(ws, window{cand: secC, lo: secS, hi: secS, anchor: secS})
		case o.after:
			ws[o.w].hi++
		default:
			ws[o.w].lo--
		}
	}
	return ws
}

// leadsOn reports whether the window lo..hi of sents ends in a sentence that only leads on
// to the next one: it ends in ":", or it ends in "?" or opens with a condition and the next
// sentence is no question, or the window holds a lead ending in ":" followed by list items,
// one a line, and the next sentence is on a line of its own too.
func leadsOn(sents []sentence, lo, hi int, lang string) bool {
	last := strings.TrimSpace(sents[hi].text)
	if strings.HasSuffix(last, ":") {
		return true
	}
	if (strings.HasSuffix(last, "?") || conditional(last, lang)) && hi+1 < len(sents) &&
		!strings.HasSuffix(strings.TrimSpace(sents[hi+1].text), "?") {
		return true // not when a question follows a question: a list of them, as in a contents
	}
	if hi+1 >= len(sents) || sents[hi+1].line == sents[hi].line {
		return false
	}
	for k := hi; k >= lo; k-- {
		if strings.HasSuffix(strings.TrimSpace(sents[k].text), ":") {
			return true
		}
		if k > lo && sents[k-1].line == sents[k].line {
			return false // a paragraph, not a list item
		}
	}
	return false
}

// needsBefore reports whether the sentence lo cannot stand without the one before it: it
// opens with a pronoun that refers back, or the one before ends in ":" and introduces it.
func needsBefore(sents []sentence, lo int, lang string) bool {
	if lo == 0 {
		return false
	}
	if strings.HasSuffix(strings.TrimSpace(sents[lo-1].text), ":") {
		return true
	}
	words := rawWords(sents[lo].text)
	return len(words) > 0 && anaphors[lang][lowerWord(words[0], lang)]
}

// conditional reports whether a sentence opens with a condition: a conditional conjunction
// (en, de) or, in Turkish, a verb with the conditional suffix among its first words
// ("gelmezse", "olmuyorsa", "isterseniz").
func conditional(s, lang string) bool {
	words := rawWords(s)
	if len(words) == 0 {
		return false
	}
	if conditionals[lang][lowerWord(words[0], lang)] {
		return true
	}
	if lang != "tr" {
		return false
	}
	for i, w := range words {
		if i >= 6 {
			break
		}
		if turkishConditional(lowerWord(w, lang)) {
			return true
		}
	}
	return false
}

// turkishConditional reports a verb form with the conditional suffix -sa/-se after the
// aorist, negative aorist or progressive ("gelirse", "gelmezse", "geliyorsa"), with an
// optional person ending ("gelirseniz", "gelirsek").
func turkishConditional(w string) bool {
	for _, end := range []string{"nız", "niz", "k", "m", "n"} {
		if t, ok := strings.CutSuffix(w, end); ok && hasConditionalStem(t) {
			return true
		}
	}
	return hasConditionalStem(w)
}

func hasConditionalStem(w string) bool {
	rs := []rune(w)
	if len(rs) < 5 {
		return false
	}
	a, s, v := rs[len(rs)-3], rs[len(rs)-2], rs[len(rs)-1]
	return s == 's' && (v == 'a' || v == 'e') && (a == 'r' || a == 'z' || a == 'y')
}

var conditionals = langFlags(lexdata.ConditionalWords)

// anaphors are the words that, opening a sentence, refer back to the one before.
var anaphors = langFlags(lexdata.AnaphorWords)

// windowText writes the windows in document order: sentences of one line joined by a space,
// lines and windows by a line break. When two sections are quoted, a window that does not
// name its section's heading starts with it ("Ankara – Çankaya: …"), so that each fact
// keeps the name it belongs to.
func windowText(cands []candidate, ws []window, q *query, soft float64) string {
	sort.Slice(ws, func(i, j int) bool {
		a, b := &cands[ws[i].cand], &cands[ws[j].cand]
		if a.hit.ChunkID != b.hit.ChunkID {
			return a.hit.ChunkID < b.hit.ChunkID
		}
		return ws[i].lo < ws[j].lo
	})
	var b strings.Builder
	for i, w := range ws {
		c := &cands[w.cand]
		if i > 0 {
			b.WriteByte('\n')
		}
		var part strings.Builder
		for si := w.lo; si <= w.hi; si++ {
			if si > w.lo {
				if c.sents[si].line == c.sents[si-1].line {
					part.WriteByte(' ')
				} else {
					part.WriteByte('\n')
				}
			}
			text := c.sents[si].text
			if w.clip > 0 {
				text = clipAround(text, w.clip, func(word string) bool {
					for _, t := range textindex.IndexTerms(word, c.lang(q)) {
						if m, _ := q.firstMatch(t, soft); m >= 0 {
							return true
						}
					}
					return false
				})
			}
			part.WriteString(text)
		}
		if len(ws) > 1 && needsHeading(c, part.String()) {
			b.WriteString(lastHeading(c.hit.Heading) + ": ")
		}
		b.WriteString(part.String())
	}
	return b.String()
}

// needsHeading reports whether a quoted window of c lacks every word of its section's
// heading (the document's title is no section name).
func needsHeading(c *candidate, text string) bool {
	h := lastHeading(c.hit.Heading)
	if h == "" || c.hit.Heading == c.hit.Title {
		return false
	}
	lang := c.hit.Lang
	have := make(map[string]bool)
	for _, t := range textindex.IndexTerms(text, lang) {
		have[t] = true
	}
	terms := textindex.IndexTerms(h, lang)
	if len(terms) == 0 {
		return false
	}
	for _, t := range terms {
		if have[t] {
			return false
		}
	}
	return true
}

// lastHeading is the innermost heading of a heading path ("Shipping › Domestic").
func lastHeading(h string) string {
	if i := strings.LastIndex(h, "›"); i >= 0 {
		h = h[i+len("›"):]
	}
	return strings.TrimFunc(h, func(r rune) bool { return unicode.IsSpace(r) || r == ':' })
}

// clipAround shortens a sentence longer than maxChars to the stretch of it that holds the
// most words of the question (matches), from the first of them, cut at word boundaries and
// marked "…" where it was cut. A long sentence's answer sits near the question's words, not
// necessarily at its start; with none of them in it, it keeps the start (clipSentence).
func clipAround(s string, maxChars int, matches func(word string) bool) string {
	rs := []rune(s)
	if len(rs) <= maxChars {
		return s
	}
	type span struct {
		start, end int
		hit        bool
	}
	var words []span
	for i := 0; i < len(rs); {
		if !unicode.IsLetter(rs[i]) && !unicode.IsDigit(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
			j++
		}
		words = append(words, span{i, j, matches(string(rs[i:j]))})
		i = j
	}
	room := maxChars - 2 // the two ellipses
	best, bestHits := -1, 0
	for k, w := range words {
		if !w.hit {
			continue
		}
		hits := 0
		for _, x := range words[k:] {
			if x.end-w.start > room {
				break
			}
			if x.hit {
				hits++
			}
		}
		if hits > bestHits {
			best, bestHits = k, hits
		}
	}
	if best <= 0 || words[best].start < maxChars/2 {
		return clipSentence(s, maxChars) // the question's words are in the start that fits
	}
	start := words[best].start
	end := start
	for _, x := range words[best:] {
		if x.end-start > room {
			break
		}
		end = x.end
	}
	out := "…" + string(rs[start:end])
	if end < len(rs) {
		out += "…"
	} else {
		out += string(rs[end:])
	}
	return out
}
