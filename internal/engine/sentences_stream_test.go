package engine

import (
	"strings"
	"testing"
)

// streamTexts are replies as a model writes them: abbreviations, decimals, ordinals, quotes
// after a period, line breaks and blank lines.
var streamTexts = []struct{ lang, text string }{
	{"en", "Returns are free. Refunds take 5 days! Any questions?"},
	{"en", "The Uludağ 2 costs 4.95 EUR. Dr. Smith in St. Louis agrees. It weighs 3.5 kg."},
	{"de", "Wir liefern z. B. nach Berlin. Der Versand kostet 4,90 €.\n\nAm 7. Februar 2016 war Schluss."},
	{"tr", "1. Dünya Savaşı 1914'te başladı. 19. yüzyılda kuruldu.\nFiyat: 3.450,00 TL"},
	{"en", `He said "Go." Then he left.  Twice spaced.` + "\n- a list item\n- another"},
	{"en", "Use the code etc. and so on. Done."},
	{"en", "  leading space. trailing space.  \n"},
}

// SentenceEnd never reports a cut that a longer text would move: whatever prefix of a reply
// has arrived, a reported end is the end the whole reply has there.
func TestSentenceEndIsStableAsTextGrows(t *testing.T) {
	for _, tt := range streamTexts {
		full := tt.text
		for start := 0; start < len(full); start++ {
			want, wantOK := SentenceEnd(full[start:], tt.lang)
			for n := start; n <= len(full); n++ {
				if got, ok := SentenceEnd(full[start:n], tt.lang); ok && (!wantOK || got != want) {
					t.Fatalf("%q: prefix %q cuts at %d, the whole at %d (%v)", full, full[start:n], got, want, wantOK)
				}
			}
		}
	}
}

// Pieces joined are the text, and the pieces trimmed are its sentences.
func TestPiecesJoinToTheText(t *testing.T) {
	for _, tt := range streamTexts {
		ps := Pieces(tt.text, tt.lang)
		if got := strings.Join(ps, ""); got != tt.text {
			t.Errorf("pieces of %q join to %q", tt.text, got)
		}
		var trimmed, want []string
		for _, p := range ps {
			if s := strings.TrimSpace(p); s != "" {
				trimmed = append(trimmed, s)
			}
		}
		for _, s := range splitSentences(tt.text, tt.lang) {
			want = append(want, s.text)
		}
		if strings.Join(trimmed, "|") != strings.Join(want, "|") {
			t.Errorf("pieces of %q:\n got %q\nwant %q", tt.text, trimmed, want)
		}
	}
}
