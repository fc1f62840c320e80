package grounding

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// pattern is a claim written with digits and signs that the number scanner must not read as
// plain numbers: "24/7" is support around the clock, not the numbers 24 and 7.
type pattern struct {
	need func(string) bool // a cheap test the text must pass for the expression to be run
	re   *regexp.Regexp
	read func(m []string) fact
}

// patterns are tried in order on text with links already blanked; each match is blanked after.
var patterns = []pattern{
	{has("/"), regexp.MustCompile(`(?:^|[^\d/.,])((?:24\s?/\s?7|7\s?/\s?24))(?:$|[^\d/])`), family("support247")},
	{has("1"), regexp.MustCompile(`(?i)(?:^|[^\p{L}\d])((?:#|\bno\.?|\bnr\.?|\bnumber|\bnummer)\s?1)(?:$|[^\d.,])`), family("numberone")},
	{digitNear("+", "for", "für", "al", "For", "Für"), regexp.MustCompile(`(?i)(?:^|[^\p{L}\d])(\d\s?(?:\+|for|für)\s?\d|\d\s?al(?:ana)?\s?\d\s?(?:öde|ode|bedava))(?:$|[^\d])`), family("bogo")},
	{has("IP"), regexp.MustCompile(`(?:^|[^\p{L}\d])(IP(?:X\d|\d\d))(?:$|[^\p{L}\d])`), family("waterproof")},
	{digitNear(".", "/", "-"), regexp.MustCompile(`(?:^|[^\d.,/])(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./](?:\d{4}|\d{2}))(?:$|[^\d])`), readDate},
	{has(":"), regexp.MustCompile(`(?:^|[^\d.,:])((?:[01]?\d|2[0-4]):[0-5]\d\s?(?:[-–—]|to|bis|ile|ila)\s?(?:[01]?\d|2[0-4]):[0-5]\d|(?:[01]?\d|2[0-4]):[0-5]\d)(?:$|[^\d])`), readTimes},
	{has("/"), regexp.MustCompile(`(?:^|[^\d.,/])(\d(?:[.,]\d{1,2})?\s?/\s?(?:5|10))(?:$|[^\d.,])`), readRating},
}

// has is a pattern's precondition: the text contains s.
func has(s string) func(string) bool {
	return func(text string) bool { return strings.Contains(text, s) }
}

// digitNear is a pattern's precondition: one of seps stands right after a digit, or after a
// digit and a space.
func digitNear(seps ...string) func(string) bool {
	return func(text string) bool {
		for i := 0; i < len(text); i++ {
			if text[i] < '0' || text[i] > '9' {
				continue
			}
			rest := strings.TrimPrefix(text[i+1:], " ")
			for _, s := range seps {
				if strings.HasPrefix(rest, s) {
					return true
				}
			}
		}
		return false
	}
}

// family reads a match as a statement of the concept family id.
func family(id string) func([]string) fact {
	return func(m []string) fact { return fact{kind: kindFamily, family: id, text: m[1]} }
}

// digitRuns finds the runs of digits of a date, a time or any source text.
var digitRuns = regexp.MustCompile(`\d+`)

// readDate compares dates by their numbers without leading zeros: "01.02.2026" is "1.2.2026".
func readDate(m []string) fact {
	parts := digitRuns.FindAllString(m[1], -1)
	for i, p := range parts {
		n, _ := strconv.Atoi(p)
		parts[i] = strconv.Itoa(n)
	}
	return fact{kind: kindDate, text: m[1], key: strings.Join(parts, ".")}
}

// readTimes compares a time or an opening-hours range by its numbers: "09:00–18:00" is
// "9:00-18:00".
func readTimes(m []string) fact {
	parts := digitRuns.FindAllString(m[1], -1)
	var b strings.Builder
	for i := 0; i+1 < len(parts); i += 2 {
		h, _ := strconv.Atoi(parts[i])
		if i > 0 {
			b.WriteByte('-')
		}
		b.WriteString(strconv.Itoa(h) + ":" + parts[i+1])
	}
	return fact{kind: kindTime, text: m[1], key: b.String()}
}

// readRating reads "4.8/5" as a rating of 4.8 out of 5.
func readRating(m []string) fact {
	i := strings.Index(m[1], "/")
	scale := strings.TrimSpace(m[1][i+1:])
	return fact{kind: KindQuantity, text: m[1], values: numberValues(strings.TrimSpace(m[1][:i])), unit: "rating/" + scale}
}

// scanPatterns returns the facts of patterns and the text with them blanked.
func scanPatterns(text string) ([]fact, string) {
	var out []fact
	if strings.IndexFunc(text, unicode.IsDigit) < 0 {
		return nil, text // every pattern has a digit
	}
	for _, p := range patterns {
		if !p.need(text) {
			continue
		}
		var seen [][2]int
		for _, m := range p.re.FindAllStringSubmatchIndex(text, -1) {
			out = append(out, p.read([]string{text[m[0]:m[1]], text[m[2]:m[3]]}))
			seen = append(seen, [2]int{m[2], m[3]})
		}
		text = blank(text, seen)
	}
	return out, text
}
