package variant

import (
	"slices"
	"testing"
)

func TestFit(t *testing.T) {
	t.Parallel()
	phones := []string{"Nova 12 Lite", "Nova 12 Pro", "Nova 12 Pro Max", "Nova 11 Lite"}
	jackets := []string{"Storm Jacket Red", "Storm Jacket Blue", "Poyraz Rain Jacket"}
	shirts := []string{"Trail T-Shirt S", "Trail T-Shirt XL"}
	tests := []struct {
		text  string
		names []string
		want  []bool
	}{
		{"Nova 12 Lite fiyatı ne kadar?", phones, []bool{true, false, false, false}},
		{"Nova 12 Lite'ın fiyatı ne kadar?", phones, []bool{true, false, false, false}},
		{"How much is the Nova 12 Lite?", phones, []bool{true, false, false, false}},
		{"Was kostet das Nova 12 Pro?", phones, []bool{false, true, false, false}},
		{"Nova 12 Pro Max price", phones, []bool{false, false, true, false}},
		{"How much is the Nova 12?", phones, []bool{true, true, true, false}},
		{"Nova telefonların fiyatları", phones, []bool{true, true, true, true}},
		{"Is the Lite lighter than the Pro?", phones[:2], []bool{true, true}},
		{"Nova 13 Lite price", phones, []bool{false, false, false, false}},
		{"Do you have the Storm jacket in red?", jackets, []bool{true, false, true}},
		{"Kırmızı Storm ceket var mı?", jackets, []bool{true, false, true}},
		{"Gibt es die Storm Jacke in Blau?", jackets, []bool{false, true, true}},
		{"Trail T-Shirt in XL?", shirts, []bool{false, true}},
		{"Trail T-shirt in size S", shirts, []bool{true, false}},
		{"it's a trail t-shirt", shirts, []bool{true, true}},
		{"Gibt es das Trail T-Shirt in Größe S?", shirts, []bool{true, false}},
		{"Trail tişörtün XL bedeni var mı?", shirts, []bool{false, true}},
		{"Haben Sie die rote Storm Jacke?", jackets, []bool{true, false, true}},
		{"Storm ceketin mavisi kaç TL?", jackets, []bool{false, true, true}},
		{"Uludağ tent for 3 people", []string{"Uludağ 2 Tent"}, []bool{true}},
		{"Uludağ 3 tent", []string{"Uludağ 2 Tent"}, []bool{false}},
		{"Can I order 2 Aladağ backpacks?", []string{"Aladağ 35 Backpack"}, []bool{true}},
		{"Aladağ 45 Rucksack", []string{"Aladağ 35 Rucksack"}, []bool{false}},
		{"Erciyes -5 uyku tulumu", []string{"Erciyes -5 Uyku Tulumu", "Erciyes -15 Uyku Tulumu"}, []bool{true, false}},
		{"128 GB Nova 12", []string{"Nova 12 128GB", "Nova 12 256GB"}, []bool{true, false}},
	}
	for _, tt := range tests {
		if got := Fit(tt.text, tt.names); !slices.Equal(got, tt.want) {
			t.Errorf("Fit(%q, %q) = %v, want %v", tt.text, tt.names, got, tt.want)
		}
	}
}

func TestNamed(t *testing.T) {
	t.Parallel()
	names := []string{"Nova 12 Lite", "Nova 12 Pro", "Steel Water Bottle"}
	for _, tt := range []struct {
		text string
		want []bool
	}{
		{"The Nova 12 Lite costs 14.999 TL.", []bool{true, false, false}},
		{"Nova 12 Pro: 24.999 TL", []bool{false, true, false}},
		{"Both Nova 12 phones ship free.", []bool{true, true, false}},
		{"Delivery takes two days.", []bool{false, false, false}},
	} {
		if got := Named(tt.text, names); !slices.Equal(got, tt.want) {
			t.Errorf("Named(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	if !Conflicts("Nova 12 Pro kaç TL?", "Nova 12 Lite") || Conflicts("Nova 12 kaç TL?", "Nova 12 Lite") {
		t.Error("Conflicts")
	}
}

func TestDiffer(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"Nova 12 Pro'nun pil ömrü ne kadar?", "Nova 12 Lite'ın pil ömrü ne kadar?", true},
		{"How long does the Nova 12 Lite battery last?", "Nova 12 Lite battery life?", false},
		{"Ist die Storm Jacke in Rot wasserdicht?", "Ist die blaue Storm Jacke wasserdicht?", true},
		{"Ist die Storm Jacke wasserdicht?", "Ist die blaue Storm Jacke wasserdicht?", false},
		{"Kann ich mit PayPal zahlen?", "Kann ich mit PayPal bezahlen?", false},
	} {
		if got := Differ(tt.a, tt.b); got != tt.want {
			t.Errorf("Differ(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}
