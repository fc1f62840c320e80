package grounding

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/engine"
)

// markerRe is what starts a list item or heading line: indentation, then a bullet, a number
// or letter with "." or ")", or a Markdown heading, then space. The marker is not part of the
// line's first sentence, so "1." is never read as one, and it goes when the line goes.
var markerRe = regexp.MustCompile(`^\s*(?:[-*•·–—+>▪►▶→✓✔☑]|\d{1,2}[.)]|[a-zA-Z]\)|#{1,6})\s+`)

// splitMarker returns a line's list marker (with indentation) and the rest.
func splitMarker(line string) (string, string) {
	m := markerRe.FindString(line)
	return m, line[len(m):]
}

// sentences returns the [start, end) byte ranges of the sentences of one line, cut by the
// chat engine's splitter (abbreviations, ordinals and decimals stay inside their sentence)
// and then after amounts, which copy ends sentences with far more often than prose does.
func sentences(line, lang string) [][2]int {
	var out [][2]int
	at := 0
	for _, s := range engine.SplitLine(line, lang) {
		i := strings.Index(line[at:], s)
		if i < 0 {
			continue
		}
		start := at + i
		for _, cut := range amountEnds(s, lang) {
			out = append(out, [2]int{start, at + i + cut})
			start = at + i + skipSpace(s, cut)
		}
		out = append(out, [2]int{start, at + i + len(s)})
		at += i + len(s)
	}
	return out
}

// amountTailRe is an amount at the end of a text: a number with decimals ("$32.00"), or a
// number and a short unit or currency word ("900 g", "-5 °C", "20 W").
var amountTailRe = regexp.MustCompile(`\d[\d.,]*(?:\s?(°?\s?\p{L}{1,3}))?$`)

// maxAmountTail bounds how far back amountEnds looks for an amount, keeping it linear.
const maxAmountTail = 32

// amountEnds returns where a sentence the engine's splitter left whole ends after an amount:
// at a ".", "!" or "?" after "$32.00", "900 g" or "-5 °C", followed by a capitalised word. The
// splitter keeps such periods because "32.00" looks like an abbreviation and "g" like an
// initial. A whole number alone is left to the splitter, which in German and Turkish reads it
// as an ordinal ("am 7. Februar").
func amountEnds(s, lang string) []int {
	var cuts []int
	for i := 0; i+1 < len(s); i++ {
		if !strings.ContainsRune(".!?", rune(s[i])) || s[i+1] != ' ' {
			continue
		}
		r, _ := utf8.DecodeRuneInString(s[skipSpace(s, i+1):])
		if !unicode.IsUpper(r) {
			continue
		}
		lo := max(0, i-maxAmountTail)
		for lo > 0 && !utf8.RuneStart(s[lo]) {
			lo--
		}
		m := amountTailRe.FindStringSubmatch(s[lo:i])
		if m == nil {
			continue
		}
		unitWord := strings.TrimLeft(strings.TrimPrefix(m[1], "°"), " ")
		switch {
		case m[1] == "":
			if !strings.ContainsAny(m[0], ".,") {
				continue
			}
		case !strings.HasPrefix(m[1], "°") && !currencyWord(unitWord):
			if _, ok := lookupUnit(unitWord, lang); !ok {
				continue
			}
		}
		cuts = append(cuts, i+1)
	}
	return cuts
}

// cleanLine removes the unsupported sentences of one line. It returns the line as it remains
// ("" when no sentence is left) and what was removed; the white space after a kept sentence
// stays with it, so the kept text is the line with pieces cut out and nothing added.
func (g *Guard) cleanLine(line string) (string, []Claim) {
	marker, body := splitMarker(line)
	spans := sentences(body, g.lang)
	var claims []Claim
	keep := make([]bool, len(spans))
	kept := 0
	for i, s := range spans {
		cs := g.claims(body[s[0]:s[1]])
		claims = append(claims, cs...)
		if len(cs) == 0 {
			keep[i] = true
			kept++
		}
	}
	if len(claims) == 0 {
		return line, nil
	}
	if kept == 0 {
		return "", claims
	}
	var b strings.Builder
	b.WriteString(marker)
	b.WriteString(body[:spans[0][0]])
	prev := -1
	for i, s := range spans {
		if !keep[i] {
			continue
		}
		if prev >= 0 {
			b.WriteString(body[spans[prev][1]:spans[prev+1][0]])
		}
		b.WriteString(body[s[0]:s[1]])
		prev = i
	}
	b.WriteString(body[spans[len(spans)-1][1]:])
	return b.String(), claims
}

// closeBlankLines joins the kept lines, leaving no blank line at the start or end and none
// doubled where a removed paragraph stood; a final newline stays.
func closeBlankLines(lines []string, finalNewline bool) string {
	var out []string
	for _, l := range lines {
		blank := strings.TrimSpace(l) == ""
		if blank && (len(out) == 0 || strings.TrimSpace(out[len(out)-1]) == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	s := strings.Join(out, "\n")
	if finalNewline && s != "" {
		s += "\n"
	}
	return s
}
