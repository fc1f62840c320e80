package embed

import (
	"math"
	"strconv"
	"strings"
)

// Colour contrast after WCAG 2.2: the widget's text on the owner's colour (data-svc-color)
// must reach AA for text (4.5:1), and the colour itself, the launcher and the send button,
// should reach 3:1 against what is around it (1.4.11, non-text contrast).

// Contrast thresholds of WCAG 2.2.
const (
	MinTextContrast = 4.5 // AA, normal text
	MinUIContrast   = 3.0 // AA, user-interface components
)

// The widget's text colours on a brand colour: white or black, whichever contrasts more.
// Only pure black guarantees AA on every colour: the worst colour (relative luminance about
// 0.18) gives 4.58:1 with either, while a near-black such as #1b1f24 falls to 4.06:1.
const (
	TextLight = "#ffffff"
	TextDark  = "#000000"
)

// Page backgrounds the colour is judged against: the widget's light panel and a typical light
// page, and its dark panel.
const (
	BackgroundLight = "#ffffff"
	BackgroundDark  = "#1b1f24"
)

// ParseHexColor reads #rgb or #rrggbb (any case) into 0..255 channels.
func ParseHexColor(s string) (r, g, b uint8, ok bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "#") || (len(s) != 4 && len(s) != 7) {
		return 0, 0, 0, false
	}
	h := s[1:]
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return 0, 0, 0, false
	}
	return uint8(v >> 16), uint8(v >> 8), uint8(v), true
}

// Luminance is the WCAG relative luminance of a colour, 0 (black) to 1 (white).
func Luminance(r, g, b uint8) float64 {
	lin := func(c uint8) float64 {
		v := float64(c) / 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// Contrast is the WCAG contrast ratio of two luminances, 1 to 21.
func Contrast(l1, l2 float64) float64 {
	if l1 < l2 {
		l1, l2 = l2, l1
	}
	return (l1 + 0.05) / (l2 + 0.05)
}

// ColorContrast is the contrast ratio of two hex colours; 0 when either is not one.
func ColorContrast(a, b string) float64 {
	ar, ag, ab, ok1 := ParseHexColor(a)
	br, bg, bb, ok2 := ParseHexColor(b)
	if !ok1 || !ok2 {
		return 0
	}
	return Contrast(Luminance(ar, ag, ab), Luminance(br, bg, bb))
}

// TextOn is the text colour the widget writes on color: TextLight or TextDark, whichever
// contrasts more (always at least 4.5:1). It is the rule of the widget's textOn
// (widget/src/main.ts): white below a luminance of 0.179, where the two ratios are equal.
func TextOn(color string) string {
	r, g, b, ok := ParseHexColor(color)
	if !ok {
		return TextLight
	}
	l := Luminance(r, g, b)
	if Contrast(l, 1) >= Contrast(l, 0) {
		return TextLight
	}
	return TextDark
}

// UIContrastFails lists the backgrounds of theme (BackgroundLight, BackgroundDark) against
// which color falls under MinUIContrast: the owner is warned, since a launcher or button that
// does not stand out from the page is hard to find. auto is judged against both.
func UIContrastFails(color, theme string) []string {
	var bgs []string
	switch theme {
	case ThemeDark:
		bgs = []string{BackgroundDark}
	case ThemeAuto:
		bgs = []string{BackgroundLight, BackgroundDark}
	default:
		bgs = []string{BackgroundLight}
	}
	var out []string
	for _, bg := range bgs {
		if c := ColorContrast(color, bg); c > 0 && c < MinUIContrast {
			out = append(out, bg)
		}
	}
	return out
}
