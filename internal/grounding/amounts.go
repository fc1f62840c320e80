package grounding

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/textindex"
)

// numberRe finds numbers written with digits; "." and "," (and the Swiss apostrophe or a
// no-break space) between digits belong to the number and numberValues reads them.
var numberRe = regexp.MustCompile(`\d+(?:[.,'’\x{00A0}\x{202F}]\d+)*`)

// amount is one number of a text and what stands around it.
type amount struct {
	start, end int // the number with its currency, percent sign or unit
	numEnd     int // where the digits end
	vals       []float64
	kind       string // KindPrice, KindPercent, KindQuantity or kindNumber
	cur        string
	u          unit
	skip       bool // an ordinal: not an amount
}

// scanAmounts reads every number of text (links and patterns already blanked) as a price, a
// percentage, a quantity with a unit or a bare number. A number without a unit takes the unit
// of the number it forms a range or a dimension with ("2-3 gün", "210 x 140 cm", "€49–59").
// Bare whole numbers up to 10 (list counts, "3 easy steps") and years (unless the text says
// the business was founded then) are not facts and are left out.
func scanAmounts(text, lang string) []fact {
	var as []amount
	for _, m := range numberRe.FindAllStringIndex(text, -1) {
		if a, ok := readAmount(text, m[0], m[1], lang); ok {
			as = append(as, a)
		}
	}
	inheritUnits(text, as)
	var out []fact
	for _, a := range as {
		if a.skip {
			continue
		}
		f := fact{kind: a.kind, text: strings.TrimSpace(text[a.start:a.end]), values: a.vals, cur: a.cur}
		switch a.kind {
		case KindQuantity:
			f.unit = a.u.base
			f.values = scaled(a.vals, a.u.scale)
			if (a.u.base == "degC" || a.u.base == "degF") && negative(text, a.start) {
				f.values = scaled(f.values, -1)
			}
		case kindNumber:
			if smallCount(a.vals) || isYear(text[a.start:a.numEnd]) && !founded(text, a.start, a.end) {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// readAmount reads the number at text[start:end] with what precedes and follows it; ok is
// false for digits that are part of something else ("X200", "RX-450", "1/2", a hashtag).
func readAmount(text string, start, end int, lang string) (amount, bool) {
	a := amount{start: start, end: end, numEnd: end, kind: kindNumber}
	before, size := utf8.DecodeLastRuneInString(text[:start])
	switch {
	case (before == 'x' || before == '×') && start > size && digitBefore(text, start-size):
		// the second side of a dimension written without spaces ("200x220 cm")
	case unicode.IsLetter(before) || before == '/' || before == '#' || before == '\\':
		return a, false
	case (before == '-' || before == '‐') && start >= 2:
		if r, _ := utf8.DecodeLastRuneInString(text[:start-1]); unicode.IsLetter(r) {
			return a, false
		}
	}
	a.vals = numberValues(text[start:end])
	if len(a.vals) == 0 {
		return a, false
	}
	if ordinalSuffix(text, end, lang) {
		a.skip = true
		return a, true
	}
	j := end
	if tok, next := unitToken(text, skipSpace(text, j)); tok != "" {
		f := textindex.Fold(tok)
		m, ok := multipliers[f]
		switch {
		case !ok, f == "k" && tok != "k" && a.vals[0] < 10, f == "bin" && lang != "tr":
			// "4K" is a resolution; "bin" is a thousand only in Turkish
		default:
			a.vals = scaled(a.vals, m)
			j = next
			if strings.HasPrefix(text[j:], ".") {
				j++
			}
			a.end = j
		}
	}
	if readSign(text, j, &a) || readBefore(text, &a) || readUnit(text, j, lang, &a) {
		return a, true
	}
	a.skip = (lang == "de" || lang == "tr") && ordinalPeriod(text, end)
	return a, true
}

// readSign reads what directly follows a number and makes it a price or a percentage: a
// price dash ("49.-"), a percent sign, a currency sign or code, or a percent word.
func readSign(text string, j int, a *amount) bool {
	for _, dash := range []string{".-", ",-", ".–", ",–"} {
		if strings.HasPrefix(text[j:], dash) {
			a.kind, a.end = KindPrice, j+len(dash)
			return true
		}
	}
	j = skipSpace(text, j)
	if strings.HasPrefix(text[j:], "%") {
		a.kind, a.end = KindPercent, j+1
		return true
	}
	if r, size := utf8.DecodeRuneInString(text[j:]); strings.ContainsRune("₺€$£", r) {
		a.kind, a.cur, a.end = KindPrice, currencies[string(r)], j+size
		return true
	}
	tok, next := unitToken(text, j)
	f := textindex.Fold(tok)
	switch {
	case currencyWord(tok):
		a.kind, a.cur, a.end = KindPrice, currencies[f], next
		return true
	case percentWords.Has(f) || strings.HasPrefix(f, "prozent"):
		a.kind, a.end = KindPercent, next
		return true
	case f == "per":
		if t2, n2 := unitToken(text, skipSpace(text, next)); textindex.Fold(t2) == "cent" {
			a.kind, a.end = KindPercent, n2
			return true
		}
	}
	return false
}

// readBefore reads a currency or a percent sign written before the number ("€49", "TL 49",
// "%50", "yüzde 50").
func readBefore(text string, a *amount) bool {
	i := a.start
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:i])
		if r != ' ' && r != '\u00a0' && r != '\u202f' {
			break
		}
		i -= size
	}
	r, size := utf8.DecodeLastRuneInString(text[:i])
	switch {
	case r == '%':
		a.kind, a.start = KindPercent, i-size
		return true
	case strings.ContainsRune("₺€$£", r):
		a.kind, a.cur, a.start = KindPrice, currencies[string(r)], i-size
		if strings.HasSuffix(text[:i-size], "US") {
			a.start -= 2
		}
		return true
	}
	j := i
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:j])
		if !unicode.IsLetter(r) {
			break
		}
		j -= size
	}
	f := textindex.Fold(text[j:i])
	switch {
	case currencyWord(text[j:i]):
		a.kind, a.cur, a.start = KindPrice, currencies[f], j
		return true
	case f == "yuzde":
		a.kind, a.start = KindPercent, j
		return true
	}
	return false
}

// readUnit reads the unit after a number, glued or after a space or hyphen ("40L", "2 kg",
// "30-day", "2 kişilik", "5 iş günü").
func readUnit(text string, j int, lang string, a *amount) bool {
	j = skipSpace(text, j)
	if strings.HasPrefix(text[j:], "+") {
		j = skipSpace(text, j+1) // "500+ customers"
	}
	if strings.HasPrefix(text[j:], "-") {
		j++
	} else if strings.HasPrefix(text[j:], "‐") {
		j += len("‐")
	}
	tok, next := unitToken(text, j)
	if tok == "" || (tok == "x" || tok == "×") && digitAt(text, skipSpace(text, next)) {
		return false // a dimension: the unit comes after the last side
	}
	if modifiers.Has(textindex.Fold(tok)) {
		if t2, n2 := unitToken(text, skipSpace(text, next)); t2 != "" {
			if u, ok := lookupUnit(t2, lang); ok {
				a.kind, a.u, a.end = KindQuantity, u, n2
				return true
			}
		}
		return false
	}
	if u, ok := lookupUnit(tok, lang); ok {
		a.kind, a.u, a.end = KindQuantity, u, next
		return true
	}
	return false
}

// unitToken returns the word starting at j (letters, and the signs units are written with:
// "°C", "m²", "km/h") and where it ends; "" when no word starts there.
func unitToken(text string, j int) (string, int) {
	k := j
	for k < len(text) {
		r, size := utf8.DecodeRuneInString(text[k:])
		if !unicode.IsLetter(r) && r != '°' && r != '²' && r != '³' && !(k > j && r == '$') {
			break
		}
		k += size
	}
	if k > j && strings.HasPrefix(text[k:], "/h") && !letterAt(text, k+2) {
		k += 2
	}
	return text[j:k], k
}

// digitBefore reports whether a digit ends text[:i].
func digitBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsDigit(r)
}

// skipSpace returns the offset of the first rune at or after j that is not a space; copy
// writes no-break spaces between amounts and units.
func skipSpace(text string, j int) int {
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if r != ' ' && r != '\u00a0' && r != '\u202f' && r != '\t' {
			break
		}
		j += size
	}
	return j
}

// ordinalSuffix reports whether the number ending at end is written as an ordinal: "1st",
// "21st", Turkish "3'üncü".
func ordinalSuffix(text string, end int, lang string) bool {
	glued, _ := unitToken(text, end)
	if f := textindex.Fold(glued); lang == "en" && (f == "st" || f == "nd" || f == "rd" || f == "th") {
		return true
	}
	r, size := utf8.DecodeRuneInString(text[end:])
	if !isApostrophe(r) {
		return false
	}
	suffix, _ := unitToken(text, end+size)
	f := textindex.Fold(suffix)
	for _, o := range []string{"inci", "uncu", "nci", "ncu"} {
		if strings.HasPrefix(f, o) {
			return true
		}
	}
	return false
}

// ordinalPeriod reports whether a period and a word follow the number within the sentence,
// which in German and Turkish makes it an ordinal ("am 7. Februar", "19. yüzyıl"); the
// sentence splitter keeps such periods inside the sentence.
func ordinalPeriod(text string, end int) bool {
	if !strings.HasPrefix(text[end:], ". ") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[skipSpace(text, end+1):])
	return unicode.IsLetter(r)
}

// currencyWord reports whether a word names a currency. Codes that are also words ("TRY",
// "EUR") count only in capitals; "TL", "Euro", "lira" and "dollar" in any case.
func currencyWord(raw string) bool {
	f := textindex.Fold(raw)
	if currencies[f] == "" {
		return false
	}
	switch f {
	case "try", "eur", "usd", "gbp", "chf":
		return raw == strings.ToUpper(raw)
	}
	return true
}

// inheritUnits gives a bare number the kind and unit of the number next to it when only a
// range or dimension sign stands between them.
func inheritUnits(text string, as []amount) {
	typed := func(a amount) bool { return a.kind != kindNumber && !a.skip }
	for i := len(as) - 2; i >= 0; i-- {
		if !typed(as[i]) && !as[i].skip && typed(as[i+1]) && connector(text[as[i].numEnd:as[i+1].start]) {
			inherit(&as[i], as[i+1])
		}
	}
	for i := 1; i < len(as); i++ {
		if !typed(as[i]) && !as[i].skip && typed(as[i-1]) && connector(text[as[i-1].end:as[i].start]) {
			inherit(&as[i], as[i-1])
		}
	}
}

// inherit gives a the kind, currency and unit of from.
func inherit(a *amount, from amount) {
	a.kind, a.cur, a.u = from.kind, from.cur, from.u
}

// connectors are what stands between the two numbers of a range or a dimension.
var connectors = map[string]bool{"-": true, "–": true, "—": true, "x": true, "×": true, "/": true,
	"to": true, "bis": true, "ila": true, "ile": true, "ve": true, "and": true, "und": true,
	"or": true, "oder": true, "veya": true}

// connector reports whether gap joins two numbers into a range or a dimension.
func connector(gap string) bool {
	return connectors[strings.ToLower(strings.TrimSpace(gap))]
}

// scaled multiplies every reading of an amount.
func scaled(vs []float64, by float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = v * by
	}
	return out
}

// negative reports whether a minus sign stands right before the number at start.
func negative(text string, start int) bool {
	r, size := utf8.DecodeLastRuneInString(text[:start])
	if r != '-' && r != '−' {
		return false
	}
	p, _ := utf8.DecodeLastRuneInString(text[:start-size])
	return !unicode.IsLetter(p) && !unicode.IsDigit(p)
}

// isYear reports whether digits are a year a campaign names ("2026"): four digits, no
// separators, from 1900 to 2099.
func isYear(digits string) bool {
	if len(digits) != 4 || strings.Trim(digits, "0123456789") != "" {
		return false
	}
	return digits >= "1900" && digits <= "2099"
}

// founded reports whether the words around a year say the business was founded then, a
// history the copywriter may have invented ("since 1998", "1998'den beri", "seit 1998").
func founded(text string, start, end int) bool {
	lo, hi := max(0, start-40), min(len(text), end+40)
	for lo > 0 && !utf8.RuneStart(text[lo]) {
		lo--
	}
	for hi < len(text) && !utf8.RuneStart(text[hi]) {
		hi++
	}
	for _, w := range scanWords(text[lo:hi]) {
		switch f := w.fold; {
		case f == "since" || f == "seit" || f == "beri" || f == "founded" || f == "est" ||
			strings.HasPrefix(f, "establish") || strings.HasPrefix(f, "gegrundet") ||
			strings.HasPrefix(f, "grundung") || strings.HasPrefix(f, "kurul") || strings.HasPrefix(f, "kurdu"):
			return true
		}
	}
	return false
}
