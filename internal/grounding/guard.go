package grounding

import (
	"strings"
)

// Guard checks generated text against Sources. Build one per generation with New; it is not
// changed after, so one Guard may check the fields of a generation concurrently.
type Guard struct {
	lang string
	ix   *index
}

// New builds the guard of a generation in lang (tr, en or de). It reads the sources once, so
// that checking each generated field is a matter of lookups.
func New(src Sources, lang string) *Guard {
	lang = normLang(lang)
	return &Guard{lang: lang, ix: newIndex(src, lang)}
}

// Clean returns text without every sentence that states something the sources do not
// support, and what it removed. Supported sentences are kept word for word. A sentence goes
// whole rather than patched, so what remains reads naturally; a line left without sentences
// goes with its bullet, and the blank lines around it close up. Text with nothing to remove
// comes back unchanged.
func (g *Guard) Clean(text string) (string, []Claim) {
	var claims []Claim
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	changed := false
	for _, line := range lines {
		kept, cs := g.cleanLine(line)
		if len(cs) == 0 {
			out = append(out, line)
			continue
		}
		changed = true
		claims = append(claims, cs...)
		if kept != "" {
			out = append(out, kept)
		}
	}
	if !changed {
		return text, nil
	}
	return closeBlankLines(out, strings.HasSuffix(text, "\n")), claims
}

// Supported reports whether a short text (a headline, a call to action, a hashtag) states
// nothing unsupported, and what is unsupported in it. The caller replaces an unsupported one
// with a safe text rather than shortening it.
func (g *Guard) Supported(text string) (bool, []Claim) {
	var claims []Claim
	for _, line := range strings.Split(text, "\n") {
		_, body := splitMarker(line)
		for _, s := range sentences(body, g.lang) {
			claims = append(claims, g.claims(body[s[0]:s[1]])...)
		}
	}
	return len(claims) == 0, claims
}

// CleanList cleans every item of a list field (angles, proof points, objections) and drops
// the items left empty; the items kept are in their order.
func (g *Guard) CleanList(items []string) ([]string, []Claim) {
	var out []string
	var claims []Claim
	for _, it := range items {
		c, cs := g.Clean(it)
		claims = append(claims, cs...)
		if strings.TrimSpace(c) != "" {
			out = append(out, c)
		}
	}
	return out, claims
}

// claims returns what one sentence states that the sources do not support.
func (g *Guard) claims(sentence string) []Claim {
	links, text := scanLinks(sentence)
	text, ends := g.withoutBusiness(text)
	facts, text, ws := scan(text, g.lang)
	facts = append(links, facts...)
	var out []Claim
	seen := map[Claim]bool{}
	add := func(c Claim) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, f := range facts {
		if !g.ix.supports(f) {
			add(f.claim())
		}
	}
	for _, c := range g.nameClaims(text, ws, ends) {
		add(c)
	}
	for _, c := range g.misattributed(sentence, facts) {
		add(c)
	}
	return out
}

// withoutBusiness blanks the business's own name wherever the sentence writes it, in any case
// and with Turkish suffixes: the name is always fine, and its words and digits ("Yolcu
// Outdoor", "Shop 24") must not read as claims. It also returns where each mention ends,
// since a word right after it may name a product ("Ledgerly Enterprise").
func (g *Guard) withoutBusiness(s string) (string, []int) {
	n := len(g.ix.business)
	if n == 0 {
		return s, nil
	}
	var ends []int
	var mentions [][2]int
	ws := scanWords(s)
	for i := 0; i+n <= len(ws); i++ {
		match := true
		for k, b := range g.ix.business {
			if ws[i+k].fold != b || k > 0 && !ws[i+k].joined && strings.TrimSpace(s[ws[i+k-1].end:ws[i+k].start]) != "&" {
				match = false
				break
			}
		}
		if match {
			mentions = append(mentions, [2]int{ws[i].start, ws[i+n-1].end})
			ends = append(ends, ws[i+n-1].end)
		}
	}
	return blank(s, mentions), ends
}
