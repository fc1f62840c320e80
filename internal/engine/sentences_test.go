package engine

import (
	"reflect"
	"testing"
)

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		name, lang, text string
		want             []string
	}{
		{"plain", "en", "Returns are free. Refunds take 5 days! Any questions?",
			[]string{"Returns are free.", "Refunds take 5 days!", "Any questions?"}},
		{"german abbreviation", "de", "Wir liefern z. B. nach Berlin. Der Versand kostet 4,90 €.",
			[]string{"Wir liefern z. B. nach Berlin.", "Der Versand kostet 4,90 €."}},
		{"title and saint", "en", "Dr. Smith lives in St. Louis. He works there.",
			[]string{"Dr. Smith lives in St. Louis.", "He works there."}},
		{"versus", "en", "It was Denver vs. Carolina. Denver won.",
			[]string{"It was Denver vs. Carolina.", "Denver won."}},
		{"decimal price", "de", "Der Preis ist 2.029,00 €. Versand frei.",
			[]string{"Der Preis ist 2.029,00 €.", "Versand frei."}},
		{"english decimal", "en", "It weighs 3.5 kg. It is light.",
			[]string{"It weighs 3.5 kg.", "It is light."}},
		{"turkish ordinal", "tr", "1. Dünya Savaşı 1914'te başladı. 19. yüzyılda kuruldu.",
			[]string{"1. Dünya Savaşı 1914'te başladı.", "19. yüzyılda kuruldu."}},
		{"german ordinal date", "de", "Am 7. Februar 2016 fand es statt. Es regnete.",
			[]string{"Am 7. Februar 2016 fand es statt.", "Es regnete."}},
		{"year ends sentence", "en", "It opened in 1856. Then it closed.",
			[]string{"It opened in 1856.", "Then it closed."}},
		{"initials", "en", "J. R. R. Tolkien wrote it. It sold well.",
			[]string{"J. R. R. Tolkien wrote it.", "It sold well."}},
		{"dotted abbreviation", "en", "He moved to the U.S. in 1990. He stayed.",
			[]string{"He moved to the U.S. in 1990.", "He stayed."}},
		{"turkish abbreviation", "tr", "Kamp, yürüyüş vb. ürünler satıyoruz. Mağazamız açık.",
			[]string{"Kamp, yürüyüş vb. ürünler satıyoruz.", "Mağazamız açık."}},
		{"lower case continues", "en", "Use the code etc. and so on. Done.",
			[]string{"Use the code etc. and so on.", "Done."}},
		{"quote after period", "en", `He said "Go." Then he left.`,
			[]string{`He said "Go."`, "Then he left."}},
		{"lines", "tr", "Fırtına Mont\nFiyat: 3.450,00 TL\nSu geçirmez.",
			[]string{"Fırtına Mont", "Fiyat: 3.450,00 TL", "Su geçirmez."}},
		{"no terminator", "en", "Free returns", []string{"Free returns"}},
		{"price ends a sentence", "en", "The boot costs $129.00. It is waterproof.",
			[]string{"The boot costs $129.00.", "It is waterproof."}},
		{"german day and month", "de", "Bestellen Sie bis 24.12. Wir liefern dann rechtzeitig.",
			[]string{"Bestellen Sie bis 24.12. Wir liefern dann rechtzeitig."}},
		{"empty", "en", " \n ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range splitSentences(tt.text, tt.lang) {
				got = append(got, s.text)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("splitSentences(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestSplitSentencesKeepsLines(t *testing.T) {
	spans := splitSentences("A one. A two.\nB one.", "en")
	want := []textSpan{{"A one.", 0}, {"A two.", 0}, {"B one.", 1}}
	if !reflect.DeepEqual(spans, want) {
		t.Errorf("got %+v, want %+v", spans, want)
	}
}

func TestClipSentence(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"short enough", 20, "short enough"},
		{"one two three four five", 12, "one two…"},
		{"one two, three four", 10, "one two…"},
	}
	for _, tt := range tests {
		if got := clipSentence(tt.in, tt.max); got != tt.want {
			t.Errorf("clipSentence(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
