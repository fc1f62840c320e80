package textindex

import (
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name, text, lang string
		want             []string
	}{
		{"turkish apostrophe suffix dropped", "İstanbul'da mağaza", "tr", []string{"istanbul", "magaza"}},
		{"turkish typographic apostrophe", "NFL’de 11'le", "tr", []string{"nfl", "11"}},
		{"english apostrophe splits", "don't O'Brien", "en", []string{"don", "t", "o", "brien"}},
		{"dotted capital I in english", "İSTANBUL", "en", []string{"istanbul"}},
		{"dotless capital I in turkish folds", "ISTANBUL", "tr", []string{"istanbul"}},
		{"thousands and zero decimals", "2.029,00 TL", "tr", []string{"2029", "tl"}},
		{"english thousands", "2,029 items", "en", []string{"2029", "items"}},
		{"decimal kept as groups", "1,5 kg", "de", []string{"1", "5", "kg"}},
		{"time splits", "14:30", "en", []string{"14", "30"}},
		{"millions", "1.000.000", "de", []string{"1000000"}},
		{"sentence full stop after number", "in 2029. Next", "en", []string{"in", "2029", "next"}},
		{"punctuation and emoji", "Hi!! 👋 where's it?", "en", []string{"hi", "where", "s", "it"}},
		{"byte-order mark and soft hyphen", "\ufeffPanthers Liefer\u00adung", "de", []string{"panthers", "lieferung"}},
		{"decomposed dotted I", "I\u0307stanbul", "tr", []string{"istanbul"}},
		{"german sharp s and umlauts", "Größe Übergröße", "de", []string{"grosse", "ubergrosse"}},
		{"hyphen splits", "T-Shirt", "en", []string{"t", "shirt"}},
		{"empty", " ?! ", "en", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Words(tt.text, tt.lang); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Words(%q, %q) = %q, want %q", tt.text, tt.lang, got, tt.want)
			}
		})
	}
}

func TestLowerRune(t *testing.T) {
	tests := []struct {
		in      rune
		turkish bool
		want    rune
	}{
		{'İ', false, 'i'},
		{'İ', true, 'i'},
		{'I', true, 'ı'},
		{'I', false, 'i'},
		{'Ş', true, 'ş'},
		{'Ä', false, 'ä'},
		{'ẞ', false, 'ß'},
	}
	for _, tt := range tests {
		if got := lowerRune(tt.in, tt.turkish); got != tt.want {
			t.Errorf("lowerRune(%q, %v) = %q, want %q", tt.in, tt.turkish, got, tt.want)
		}
	}
}

func TestTokenizeMarksDigits(t *testing.T) {
	toks := tokenize("a4 Kağıt 2029", langTR)
	want := []token{{text: "a4", hasDigit: true}, {text: "kağıt", capital: true}, {text: "2029", hasDigit: true}}
	if !reflect.DeepEqual(toks, want) {
		t.Errorf("tokenize = %+v, want %+v", toks, want)
	}
}
