package textindex

import (
	"reflect"
	"testing"
)

func TestGermanCompoundParts(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"bevölkerungsgröße", []string{"bevölkerung", "größe"}},
		{"rechnungsadresse", []string{"rechnung", "adresse"}},
		{"sicherheitshinweise", []string{"sicherheit", "hinweise"}},
		{"universitätsbibliothek", []string{"universität", "bibliothek"}},
		{"meinungsverschiedenheitsproblem", []string{"meinung", "verschiedenheit", "problem"}},
		{"versandkosten", nil},
		{"leistungs", nil},
		{"bestellung", nil},
	}
	for _, tt := range tests {
		if got := germanCompoundParts(tt.word); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("germanCompoundParts(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestGermanUmlauts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"groesse", "grösse"},
		{"rueckgabe", "rückgabe"},
		{"gebuehren", "gebühren"},
		{"aerger", "ärger"},
		{"ueberweisung", "überweisung"},
		{"quelle", "quelle"},
		{"neuen", "neuen"},
		{"dauer", "dauer"},
		{"steuer", "steuer"},
		{"rot", "rot"},
	}
	for _, tt := range tests {
		if got := germanUmlauts(tt.in); got != tt.want {
			t.Errorf("germanUmlauts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
