package vecindex

import (
	"errors"
	"math"
	"testing"

	"github.com/x448/float16"
)

func TestEncodeRoundTripBounds(t *testing.T) {
	t.Parallel()
	vecs := append(randomUnit(3, 50, 384), []float32{1e-3, -5, 7.25, 0, 1e4}, []float32{0.5})
	for _, v := range vecs {
		for _, e := range []Encoding{Float32, Float16, Int8} {
			b, err := Encode(e, v)
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			if len(b) != e.EncodedLen(len(v)) {
				t.Fatalf("%s: %d bytes, EncodedLen says %d", e, len(b), e.EncodedLen(len(v)))
			}
			got, ge, err := Decode(b)
			if err != nil || ge != e || len(got) != len(v) {
				t.Fatalf("%s: decode = %d components, %s, %v", e, len(got), ge, err)
			}
			var maxAbs float64
			for _, x := range v {
				maxAbs = math.Max(maxAbs, math.Abs(float64(x)))
			}
			for i := range v {
				x, y := float64(v[i]), float64(got[i])
				var bound float64
				switch e {
				case Float32:
					bound = 0
				case Float16:
					// 11 significant bits: half an ulp relative, or the
					// smallest subnormal's half near zero.
					bound = math.Abs(x)*math.Pow(2, -11) + math.Pow(2, -25)
				case Int8:
					// Rounding to the nearest step of max|v|/127.
					bound = maxAbs/127/2 + 1e-6*maxAbs
				}
				if math.Abs(x-y) > bound {
					t.Fatalf("%s: component %d: %g decoded as %g, error above %g", e, i, x, y, bound)
				}
			}
		}
	}
}

func TestEncodeRefusesAndDecodeChecks(t *testing.T) {
	t.Parallel()
	if _, err := Encode(Int8, nil); !errors.Is(err, ErrEmptyVector) {
		t.Errorf("empty: %v", err)
	}
	if _, err := Encode(Float32, []float32{1, float32(math.NaN())}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	if _, err := Encode(Float16, []float32{float32(math.Inf(1))}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("Inf: %v", err)
	}
	if _, err := Encode(Encoding(9), []float32{1}); err == nil {
		t.Error("unknown encoding accepted")
	}
	// Float16 overflows to infinity above 65504: refused on the way back.
	b, err := Encode(Float16, []float32{1e6})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Decode(b); !errors.Is(err, ErrNotFinite) {
		t.Errorf("float16 overflow decoded: %v", err)
	}
	for name, b := range map[string][]byte{
		"empty":          nil,
		"unknown tag":    {9, 0, 0, 0, 0},
		"float32 ragged": {byte(Float32), 0, 0, 0},
		"float16 ragged": {byte(Float16), 0},
		"int8 no scale":  {byte(Int8), 0, 0},
		"no components":  {byte(Float32)},
		"int8 empty":     {byte(Int8), 0, 0, 0, 0},
	} {
		if _, _, err := Decode(b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	z, _ := Encode(Int8, []float32{0, 0, 0})
	got, _, err := Decode(z)
	if err != nil || got[0] != 0 || got[2] != 0 {
		t.Errorf("zero vector int8 = %v, %v", got, err)
	}
}

func TestParseEncoding(t *testing.T) {
	t.Parallel()
	for _, e := range []Encoding{Float32, Float16, Int8} {
		got, err := ParseEncoding(e.String())
		if err != nil || got != e {
			t.Errorf("%s: %v %v", e, got, err)
		}
	}
	if _, err := ParseEncoding("int4"); err == nil {
		t.Error("int4 accepted")
	}
}

func TestHalfToFloat(t *testing.T) {
	t.Parallel()
	for h := range 1 << 16 {
		if (h>>10)&0x1f == 0x1f {
			continue // infinities and NaNs are never stored
		}
		want := float16.Frombits(uint16(h)).Float32()
		if got := halfToFloat(uint16(h)); got != want && !(got == 0 && want == 0) {
			t.Fatalf("%#04x: %v, library says %v", h, got, want)
		}
	}
}
