// Package lang tells Turkish, English and German apart in the short
// messages visitors type into the chat.
//
// It is deliberately small: svc needs three languages, not the 75 of a
// general detector (lingua-go adds about 135 MB to the binary). Evidence
// comes from four hand-written sources, summed per language:
//
//   - letters only one of the languages uses (ı ğ ş İ for Turkish, ä ß
//     for German; ö ü count for both),
//   - frequent function and customer-service words, compared ASCII-folded
//     so "siparisim nerede" and "fur" count like "siparişim", "für",
//   - word stems and suffixes typical of each language (Turkish -lar,
//     -iyor, -mış; German -ung, -keit; English -ing, -tion),
//   - letter sequences typical of each language (sch, th, w).
package lang

import (
	"strings"
	"unicode"

	"svc/internal/textindex"
)

// The three languages, in the order used by score arrays.
const (
	EN = "en"
	DE = "de"
	TR = "tr"
)

var languages = [numLangs]string{EN, DE, TR}

const (
	en = iota
	de
	tr
	numLangs
)

// scores holds the evidence collected for each language.
type scores [numLangs]float64

// minConfidence is the confidence below which DetectOr prefers the
// caller's fallback. A single distinctive word ("merhaba", "danke",
// "thanks") is well above it; a neutral word ("ok", "iPhone") has none.
const minConfidence = 0.3

// Detect returns the language of text ("tr", "en" or "de") and a
// confidence in [0,1]. With no evidence at all it returns "en" and 0.
func Detect(text string) (lang string, confidence float64) {
	s := score(text)
	best, second := 0, 1
	if s[second] > s[best] {
		best, second = second, best
	}
	for i := 2; i < numLangs; i++ {
		switch {
		case s[i] > s[best]:
			best, second = i, best
		case s[i] > s[second]:
			second = i
		}
	}
	if s[best] <= 0 {
		return EN, 0
	}
	// The margin over the runner-up, damped by +1 so that a little
	// evidence gives a moderate confidence and a lot gives close to 1.
	conf := (s[best] - s[second]) / (s[best] + 1)
	return languages[best], clamp01(conf)
}

// DetectOr returns Detect's answer, or fallback when the text is too
// short or ambiguous to tell (for example a single neutral word like "ok"
// or a product name).
func DetectOr(text, fallback string) string {
	lang, conf := Detect(text)
	if conf < minConfidence {
		return fallback
	}
	return lang
}

// score sums all evidence for each language.
func score(text string) scores {
	var s scores
	scoreLetters(text, &s)
	for _, w := range textindex.Words(text, EN) {
		scoreWord(w, &s)
	}
	return s
}

// scoreLetters looks at the raw text, before folding removes the
// diacritics that are the strongest evidence there is.
func scoreLetters(text string, s *scores) {
	for _, r := range text {
		if r != 'İ' {
			r = unicode.ToLower(r)
		}
		if w, ok := letterWeights[r]; ok {
			for i := range s {
				s[i] += w[i]
			}
		}
	}
}

// scoreWord adds the evidence of one lower-cased, ASCII-folded word.
func scoreWord(w string, s *scores) {
	if langs, ok := vocabulary[w]; ok {
		for _, l := range langs {
			s[l] += wordWeight / float64(len(langs))
		}
		return
	}
	for l := range s {
		if hasStem(w, stems[l]) {
			s[l] += stemWeight
		} else if hasSuffix(w, suffixes[l]) {
			s[l] += suffixWeight
		}
		for _, p := range patterns[l] {
			s[l] += patternWeight * float64(strings.Count(w, p))
		}
	}
}

// hasStem reports whether w starts with one of the stems.
func hasStem(w string, list []string) bool {
	for _, st := range list {
		if strings.HasPrefix(w, st) {
			return true
		}
	}
	return false
}

// hasSuffix reports whether w ends with one of the suffixes and keeps at
// least minSuffixStem letters before it, so short words are not judged
// by their ending alone.
func hasSuffix(w string, list []string) bool {
	for _, suf := range list {
		if len(w) >= len(suf)+minSuffixStem && strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}
