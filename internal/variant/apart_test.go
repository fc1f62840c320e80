package variant

import (
	"slices"
	"testing"
)

// TestFitApartFromTheName: a visitor often names the variant apart from the product's full
// name: by its model code without the brand ("the R7 Lite"), with a word between ("die
// Flasche mit 500 ml", "das Pro-Modell des Falcon R7"), or with no name at all ("the Pro
// model"). The variant still picks the sibling, in tr, en and de; a variant word no sibling
// carries, and a bare number, say nothing.
func TestFitApartFromTheName(t *testing.T) {
	t.Parallel()
	phones := []string{"Falcon R7 Lite", "Falcon R7 Pro", "Orbit Mini", "Orbit Max"}
	flasks := []string{"Summit Flask 500 ml", "Summit Flask 750 ml", "Summit Trinkflasche 500 ml", "Summit Trinkflasche 750 ml", "Summit su şişesi 500 ml", "Summit su şişesi 750 ml"}
	tests := []struct {
		text  string
		names []string
		want  []bool
	}{
		{"How much is the R7 Lite phone?", phones, []bool{true, false, true, true}},
		{"R7 Pro telefonun fiyatı ne kadar?", phones, []bool{false, true, true, true}},
		{"Was kostet das R7 Pro?", phones, []bool{false, true, true, true}},
		{"Wie teuer ist das Pro-Modell des Falcon R7?", phones, []bool{false, true, true, true}},
		{"How much is the Pro model phone?", phones, []bool{false, true, true, true}},
		{"Lite model telefon kaç TL?", phones, []bool{true, false, true, true}},
		{"Is the Lite lighter than the Pro?", phones, []bool{true, true, true, true}},
		{"Does the Orbit Mini work with the Falcon R7?", phones, []bool{true, true, true, false}},
		{"Can I use the Falcon R7 with air pods?", phones, []bool{true, true, true, true}},
		{"Was kostet die Summit Trinkflasche mit 500 ml?", flasks, []bool{true, false, true, false, true, false}},
		{"Was kostet die Trinkflasche mit 750 ml?", flasks[2:4], []bool{false, true}},
		{"500 ml su şişesinin fiyatı nedir?", flasks[4:], []bool{true, false}},
		{"Summit su şişesi 750 ml kaç TL?", flasks[4:], []bool{false, true}},
		{"How much is the 750 ml flask?", flasks[:2], []bool{false, true}},
		{"Summit flask for 2 people", flasks[:2], []bool{true, true}},
	}
	for _, tt := range tests {
		if got := Fit(tt.text, tt.names); !slices.Equal(got, tt.want) {
			t.Errorf("Fit(%q, %q) = %v, want %v", tt.text, tt.names, got, tt.want)
		}
	}
	// A sentence that writes the model code names the product, brand or not.
	if got := Named("The R7 Pro costs $549.", phones); !slices.Equal(got, []bool{false, true, false, false}) {
		t.Errorf("Named by model code: %v", got)
	}
}
