package grounding

import (
	"testing"
	"unicode/utf8"
)

// FuzzClean checks that Clean never panics and never adds text: what it returns is the input
// with pieces cut out (a subsequence of its bytes), unchanged exactly when nothing was removed.
func FuzzClean(f *testing.F) {
	for _, c := range loadFuzzSeeds() {
		f.Add(c.text, c.lang)
	}
	guards := map[string]*Guard{}
	for lang, src := range fixtures {
		guards[lang] = New(src, lang)
	}
	f.Fuzz(func(t *testing.T, text, lang string) {
		g := guards[lang]
		if g == nil {
			g = guards["en"]
		}
		got, claims := g.Clean(text)
		if !subsequence(got, text) {
			t.Fatalf("Clean(%q) = %q: not the input with pieces cut out", text, got)
		}
		if (got == text) != (len(claims) == 0) {
			t.Fatalf("Clean(%q) = %q with claims %v", text, got, claims)
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("Clean(%q) = %q: cut inside a character", text, got)
		}
		g.Supported(text)
	})
}

type fuzzSeed struct{ text, lang string }

// loadFuzzSeeds returns the fuzz corpus to start from: the outputs of the adversarial set and
// texts at the edges of the scanners.
func loadFuzzSeeds() []fuzzSeed {
	seeds := []fuzzSeed{
		{"", "en"}, {"\n\n", "tr"}, {"- \n1. \n#", "de"}, {"50%", "en"}, {"%", "tr"},
		{"$", "en"}, {"1.-", "de"}, {"200x220 cm", "tr"}, {"24/7 7/24 4.8/5 09:00–18:00 01.02.2026", "tr"},
		{"https://", "en"}, {"a@b.cd", "en"}, {"-5 °C. Warm", "en"}, {"RX-450 X200 Pro 3000", "de"},
		{"Kuzey Patika Pro", "tr"}, {"\x1f\xff\xfe", "en"}, {"10k 4K 2 Mio. 10 bin", "tr"},
		{"yüzde elli, fifty percent, zweijährige", "de"}, {"İ I ı i", "tr"},
	}
	cases, _ := readAdversarial()
	for _, c := range cases {
		seeds = append(seeds, fuzzSeed{c.Output, c.Lang})
	}
	return seeds
}

// subsequence reports whether every byte of short appears in long in the same order.
func subsequence(short, long string) bool {
	i := 0
	for j := 0; i < len(short) && j < len(long); j++ {
		if short[i] == long[j] {
			i++
		}
	}
	return i == len(short)
}
