package grounding

import (
	"slices"
	"strings"

	"svc/internal/lang/lexicon"
	"svc/internal/textindex"
)

// The phrase engine behind the concept families: matchers written in the notation described
// in the lexicon's concept_phrases.txt, an index that finds the matchers a word can satisfy,
// and the matching of whole phrases, adjacent or within a window, on a text's words.

// matcher is one word of a phrase; see the lexicon's concept_phrases.txt for the notation.
type matcher struct {
	pat          lexicon.Pattern // the word, in the lexicon's one notation
	hyphen       bool
	num, capital bool
	neg          bool // not part of the matcher's identity: the id is of the word matched
	id           int  // index in matcherIndex.all, set by indexMatchers
}

// inner reports whether w is a word the matcher (negation aside) stands for.
func (m matcher) inner(w word) bool {
	switch {
	case m.num:
		return w.digits
	case m.capital:
		return w.upper && !w.digits
	case m.hyphen && !w.hyphen:
		return false
	}
	return m.pat.Match(w.fold)
}

// phrase is a sequence of matchers; near > 0 lets them stand in any order within a window.
type phrase struct {
	m    []matcher
	near int
	// trailingHyphen marks "free-": the word is followed by a hyphenated one ("free-range").
	trailingHyphen bool
}

// phrases parses phrase specs written in the notation of the lexicon's concept_phrases.txt.
func phrases(specs ...string) []phrase {
	out := make([]phrase, 0, len(specs))
	for _, s := range specs {
		var p phrase
		if strings.HasPrefix(s, "~") {
			p.near = int(s[1] - '0')
			s = s[3:]
		}
		if strings.HasSuffix(s, "-") {
			p.trailingHyphen = true
			s = strings.TrimSuffix(s, "-")
		}
		for _, f := range strings.Fields(s) {
			var m matcher
			if m.neg = strings.HasPrefix(f, "!"); m.neg {
				f = f[1:]
			}
			if m.hyphen = strings.HasPrefix(f, "-"); m.hyphen {
				f = f[1:]
			}
			m.num = f == "#num"
			m.capital = f == "@"
			if !m.num && !m.capital {
				m.pat = lexicon.ParsePattern(f)
			}
			p.m = append(p.m, m)
		}
		out = append(out, p)
	}
	return out
}

// matcherIndex holds every distinct matcher of the families and finds, for a word, the few
// that can match it: matching a text word by word against an index, instead of phrase by
// phrase against every word, keeps reading a whole knowledge base cheap.
type matcherIndex struct {
	all    []matcher
	exact  map[string][]int // by the word
	prefix map[string][]int // by the first two bytes of the word
	other  []int            // contains, suffix, number and capital matchers: tried on every word
}

func indexMatchers(fams []conceptFamily) *matcherIndex {
	ix := &matcherIndex{exact: map[string][]int{}, prefix: map[string][]int{}}
	ids := map[matcher]int{}
	number := func(ps []phrase) {
		for _, p := range ps {
			for k := range p.m {
				key := p.m[k]
				key.neg = false
				id, ok := ids[key]
				if !ok {
					id = len(ix.all)
					ids[key] = id
					ix.all = append(ix.all, key)
					switch {
					case key.num || key.capital || key.pat.Suffix || len(key.pat.Text) < 2:
						ix.other = append(ix.other, id)
					case key.pat.Prefix:
						ix.prefix[key.pat.Text[:2]] = append(ix.prefix[key.pat.Text[:2]], id)
					default:
						ix.exact[key.pat.Text] = append(ix.exact[key.pat.Text], id)
					}
				}
				p.m[k].id = id
			}
		}
	}
	for _, f := range fams {
		number(f.phrases)
		number(f.not)
	}
	return ix
}

// hits records which matchers match which word of a text: one bit per matcher and word, and
// per matcher the words it matches, where a phrase starting with it can start.
type hits struct {
	bits  []uint64
	width int // words of bits per text word
	at    [][]int
}

// hits matches every word of a text against the matchers that can match it.
func (ix *matcherIndex) hits(ws []word) hits {
	h := hits{width: (len(ix.all) + 63) / 64, at: make([][]int, len(ix.all))}
	h.bits = make([]uint64, len(ws)*h.width)
	for i, w := range ws {
		try := func(ids []int) {
			for _, id := range ids {
				if ix.all[id].inner(w) {
					h.bits[i*h.width+id/64] |= 1 << (id % 64)
					h.at[id] = append(h.at[id], i)
				}
			}
		}
		try(ix.exact[w.fold])
		if len(w.fold) >= 2 {
			try(ix.prefix[w.fold[:2]])
		}
		try(ix.other)
	}
	return h
}

// match reports whether matcher m matches word i.
func (h hits) match(m matcher, i int) bool {
	return (h.bits[i*h.width+m.id/64]&(1<<(m.id%64)) != 0) != m.neg
}

// spans returns every [start, end) range of words the phrase matches.
func (p phrase) spans(ws []word, h hits) [][2]int {
	var out [][2]int
	n := len(p.m)
	for _, i := range p.starts(h) {
		if p.near == 0 {
			if i+n > len(ws) {
				break
			}
			ok := true
			for k, m := range p.m {
				if !h.match(m, i+k) {
					ok = false
					break
				}
			}
			if ok && p.trailingHyphen && !(i+n < len(ws) && ws[i+n].hyphen) {
				ok = false
			}
			if ok {
				out = append(out, [2]int{i, i + n})
			}
			continue
		}
		end := i + 1
		for end < min(len(ws), i+n+p.near) && ws[end].clause && !conjunctions[ws[end].fold] {
			end++
		}
		if used := assign(p.m, h, i, make([]bool, end-i)); used != nil && used[0] {
			last := 0
			for k, u := range used {
				if u {
					last = k
				}
			}
			out = append(out, [2]int{i, i + last + 1})
		}
	}
	return out
}

// starts returns where the phrase may start, in order: where its first word matches, or any
// of its words when they may come in any order. A first word that is negated may match
// anywhere.
func (p phrase) starts(h hits) []int {
	if p.near == 0 {
		if p.m[0].neg {
			all := make([]int, len(h.bits)/max(h.width, 1))
			for i := range all {
				all[i] = i
			}
			return all
		}
		return h.at[p.m[0].id]
	}
	var out []int
	for _, m := range p.m {
		if !m.neg {
			out = append(out, h.at[m.id]...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// conjunctions end the window of a phrase written "~N": "free shipping and returns" does not
// say the returns are free. The three languages' conjunctions, folded; read-only.
var conjunctions = func() map[string]bool {
	out := make(map[string]bool)
	for _, lang := range lexicon.Languages() {
		for _, w := range lexicon.Default().Entries(lexicon.Conjunctions, lang) {
			out[textindex.Fold(w)] = true
		}
	}
	return out
}()

// assign gives every matcher its own word of the window of words starting at from, in any
// order, and returns which words were used; nil when it cannot.
func assign(ms []matcher, h hits, from int, used []bool) []bool {
	if len(ms) == 0 {
		return used
	}
	for k := range used {
		if used[k] || !h.match(ms[0], from+k) {
			continue
		}
		used[k] = true
		if r := assign(ms[1:], h, from, used); r != nil {
			return r
		}
		used[k] = false
	}
	return nil
}
