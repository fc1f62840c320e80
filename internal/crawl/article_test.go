package crawl

import "testing"

func TestSlugOf(t *testing.T) {
	tests := []struct{ in, want string }{
		{"return-policy", "return-policy"},
		{"Sipariş ve Teslimat", "siparis-ve-teslimat"},
		{"İade & Garanti", "iade-garanti"},
		{"R%C3%BCckgabe-Garantie.html", "ruckgabe-garantie"},
		{"Größe_Tabelle", "grosse-tabelle"},
		{"360001234-How-to-Return", "360001234-how-to-return"},
	}
	for _, tt := range tests {
		if got := slugOf(tt.in); got != tt.want {
			t.Errorf("slugOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
