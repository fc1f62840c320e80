package tokencount

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCountMatchesLibraryOnXQuAD(t *testing.T) {
	t.Parallel()
	c, lib := counter(t), library(t)
	for lang, texts := range xquadTexts(t) {
		total := 0
		for _, s := range texts {
			sameCount(t, c, lib, s)
			n, _ := c.Count(s)
			total += n
		}
		t.Logf("%s: %d paragraphs and questions, %d tokens", lang, len(texts), total)
		if len(texts) < 700 { // 120 paragraphs and 632 questions each
			t.Errorf("%s: only %d texts", lang, len(texts))
		}
	}
}

func TestCountMatchesLibraryOnEdgeCases(t *testing.T) {
	t.Parallel()
	c, lib := counter(t), library(t)
	cases := []string{
		"", " ", "  ", "\n", "\r\n", "\n\n\n", " \n ", "\t", "a", "A", "0", "!",
		"Hello, world!", "hello world  ", "  leading", "trailing  \n", "tab\tseparated\tvalues",
		// Contractions, in every case, including the long s that (?i) folds to s.
		"I'm you're he's we've they'll she'd can't", "I'M YOU'RE HE'S", "it'ſ", "x'S", "'s", "''s", "don’t",
		// Numbers are split in threes.
		"1", "12", "123", "1234", "1234567890", "3.14159", "1,000,000", "٣٤٥٦", "１２３４",
		// Punctuation runs and their trailing newlines and slashes.
		"...", "?!?!", " --- ", "a/b/c", "//\n", "<|endoftext|>", "<|endofprompt|>", "{\"a\": [1, 2]}\n",
		// Turkish, German, and scripts without spaces.
		"İstanbul'da ığdır şöyle çünkü", "Straße GRÜSSE Äpfel", "東京都は日本の首都です。", "서울특별시", "กรุงเทพมหานคร",
		"مرحبا بالعالم", "Здравствуй, мир", "ελληνικά", "हिन्दी", "ǅemal ǈ ǋ", // titlecase letters
		// Marks alone and after other characters, modifier letters.
		"\u0301", "a\u0301", "\u0301A", "e\u0301\u0302\u0303", " \u0301x", "ʰʲ", "ˈtoʊkən",
		// Emoji and symbols.
		"👍", "👍🏽", "👨‍👩‍👧‍👦", "🇹🇷🇩🇪", "©®™", "€100", "→ ← ↑",
		// Unicode spaces and line breaks.
		"a\u00a0b", "a\u2003b", "a\u3000b", "a\u2028b", "a\u0085b", "\v\f", " \u00a0\n",
		// Invalid UTF-8: each bad byte is read as U+FFFD.
		"\xff", "\xfe\xff", "a\xffb", "\xc3", "\xc3(", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\x80\x80\x80", "ok\xc0\xafok", "\uFFFD", "Ünï\xffcødé",
		// Control characters and NUL; DEL counts no token in the library (see splitPattern).
		"\x00", "a\x00b", "\x01\x02\x03", "\x7f", "a\x7fb", " \x7f ", "\x7f's", "\x7f\x7f\n", "!\x7f!",
		// Long pieces, for the heap merge and the matcher's backtracking.
		strings.Repeat("a", 200), strings.Repeat("ab", 5000), strings.Repeat("東", 3000),
		strings.Repeat(" ", 10000), strings.Repeat("\n", 1000), strings.Repeat(".", 5000),
		strings.Repeat("1", 1000), strings.Repeat("\u0301", 2000), strings.Repeat("Aa", 3000),
		strings.Repeat("x ", 5000), strings.Repeat("\xff", 500), strings.Repeat("ÄÖÜ", 2000),
		strings.Repeat("aGVsbG8gd29ybGQ=", 100),
	}
	for _, s := range cases {
		sameCount(t, c, lib, s)
	}
}

func TestCountMatchesLibraryOnLongInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("inputs of 64 KiB")
	}
	t.Parallel()
	c, lib := counter(t), library(t)
	for _, s := range []string{
		strings.Repeat("a", 1<<16), strings.Repeat(" ", 1<<16), strings.Repeat("Word ", 1<<14),
		strings.Repeat("ğ", 1<<15), strings.Repeat("!", 1<<16),
		// The library takes time quadratic in this one (see splitPattern), so it is shorter.
		strings.Repeat("\n \n", 1<<12),
	} {
		sameCount(t, c, lib, s)
	}
}

// alphabet mixes what a visitor or a crawled page may hold, weighted toward the boundaries
// of the pattern's classes.
var alphabet = []string{
	"a", "b", "z", "A", "Z", "s", "t", "S", "T", "'", "’", "e", " ", " ", " ", "  ", "\n", "\r", "\t",
	"0", "1", "9", "٣", ".", ",", "!", "?", "/", "-", "_", "(", ")", "\"", "#", "@",
	"ç", "ğ", "ı", "İ", "ö", "ş", "ü", "Ä", "ß", "é", "ǅ", "ʰ", "\u0301", "\u0308",
	"東", "京", "한", "ก", "م", "Ж", "ω", "ह", "्",
	"👍", "🏽", "\u200d", "€", "©", "\u00a0", "\u2003", "\u2028", "\u0085", "\x00",
	"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80",
	"the", "The", "and", "ing", "tion", "'s", "'ll", "http://", "1234", "...", "\n\n",
}

// randomText is n pieces of the alphabet, or random bytes one time in eight.
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	if rng.IntN(8) == 0 {
		for range n {
			b.WriteByte(byte(rng.IntN(256)))
		}
		return b.String()
	}
	for range n {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

func TestCountMatchesLibraryOnRandomText(t *testing.T) {
	t.Parallel()
	c, lib := counter(t), library(t)
	rng := rand.New(rand.NewPCG(1, 2))
	runs := 8000
	if testing.Short() {
		runs = 2000
	}
	for range runs {
		sameCount(t, c, lib, randomText(rng, 1+rng.IntN(40)))
		if t.Failed() {
			return
		}
	}
}

func TestCountMatchesLibraryOnRandomRunes(t *testing.T) {
	t.Parallel()
	c, lib := counter(t), library(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			// Mostly the Basic Multilingual Plane, where the letter classes are thickest.
			r := rune(rng.IntN(0x10000))
			if rng.IntN(10) == 0 {
				r = rune(rng.IntN(utf8.MaxRune + 1))
			}
			b.WriteRune(r)
		}
		sameCount(t, c, lib, b.String())
		if t.Failed() {
			return
		}
	}
}

func TestCountInvalidUTF8IsReplacementCharacters(t *testing.T) {
	t.Parallel()
	c := counter(t)
	for _, s := range []string{"\xff", "a\xffb\xfe", "\xed\xa0\x80x"} {
		got, err := c.Count(s)
		want, _ := c.Count(string([]rune(s)))
		if err != nil || got != want {
			t.Errorf("Count(%q) = %d, %v; its U+FFFD form counts %d", s, got, err, want)
		}
	}
}

func TestMergeScanAndHeapAgree(t *testing.T) {
	t.Parallel()
	v := counter(t).vocab
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		piece := randomText(rng, 1+rng.IntN(40))
		if len(piece) >= scanLimit {
			piece = piece[:scanLimit-1]
		}
		if scan, heap := v.mergeScan(piece), v.mergeHeap(piece); scan != heap {
			t.Fatalf("%q: scan %d tokens, heap %d", piece, scan, heap)
		}
	}
}

func TestCounterIsSafeForConcurrentUse(t *testing.T) {
	t.Parallel()
	c, lib := counter(t), library(t)
	texts := []string{"Hello, world!", "東京都は日本の首都です。", strings.Repeat("İstanbul'da ", 50), "a\xffb"}
	want := make([]int, len(texts))
	for i, s := range texts {
		want[i], _ = lib.Count(s)
	}
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 200 {
				k := (g + i) % len(texts)
				if got, err := c.Count(texts[k]); err != nil || got != want[k] {
					t.Errorf("Count(%q) = %d, %v; want %d", texts[k], got, err, want[k])
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}
