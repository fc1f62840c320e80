package embed

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestContrastKnownValues(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#fff", "#FFFFFF", 1},
		{"#777777", "#ffffff", 4.48}, // the classic "just fails AA" grey
		{"#0a66c2", "#ffffff", 5.69}, // the widget's default colour
	} {
		if got := ColorContrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("ColorContrast(%s, %s) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
	for _, bad := range []string{"", "fff", "#ff", "#ggg", "#12345", "#1234567", "red"} {
		if _, _, _, ok := ParseHexColor(bad); ok {
			t.Errorf("ParseHexColor(%q) accepted", bad)
		}
		if ColorContrast(bad, "#fff") != 0 {
			t.Errorf("ColorContrast(%q) is not 0", bad)
		}
	}
}

// Every colour, in steps of 5 per channel (about 140,000), gets a text colour that passes AA.
func TestTextOnAlwaysPassesAA(t *testing.T) {
	t.Parallel()
	worst := 21.0
	for r := 0; r <= 255; r += 5 {
		for g := 0; g <= 255; g += 5 {
			for b := 0; b <= 255; b += 5 {
				c := fmt.Sprintf("#%02x%02x%02x", r, g, b)
				ratio := ColorContrast(c, TextOn(c))
				if ratio < MinTextContrast {
					t.Fatalf("TextOn(%s) = %s: %.2f:1, under AA", c, TextOn(c), ratio)
				}
				worst = min(worst, ratio)
			}
		}
	}
	t.Logf("worst text contrast %.2f:1", worst)
	if TextOn("#ffff00") != TextDark || TextOn("#0a66c2") != TextLight || TextOn("#000") != TextLight || TextOn("nope") != TextLight {
		t.Error("TextOn picks the wrong side on plain cases")
	}
}

func TestUIContrastFails(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		color, theme string
		want         []string
	}{
		{"#0a66c2", ThemeLight, nil},
		{"#ffeb3b", ThemeLight, []string{BackgroundLight}}, // yellow on white
		{"#ffeb3b", ThemeDark, nil},
		{"#222222", ThemeDark, []string{BackgroundDark}},
		{"#222222", ThemeAuto, []string{BackgroundDark}},
		{"#f0f0f0", ThemeAuto, []string{BackgroundLight}},
		{"#808080", ThemeAuto, nil},
		{"bad", ThemeLight, nil},
	} {
		if got := UIContrastFails(c.color, c.theme); !slices.Equal(got, c.want) {
			t.Errorf("UIContrastFails(%s, %s) = %v, want %v", c.color, c.theme, got, c.want)
		}
	}
}
