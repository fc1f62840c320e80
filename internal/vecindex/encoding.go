package vecindex

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/x448/float16"
)

// Encoding is how a vector's components are stored: in a store's column and in
// an index's memory.
type Encoding uint8

const (
	// Float32 keeps every component exactly: 4 bytes a dimension.
	Float32 Encoding = 1
	// Float16 is IEEE 754 half precision: 2 bytes a dimension, about three
	// significant digits.
	Float16 Encoding = 2
	// Int8 is symmetric linear quantization with one scale per vector
	// (the largest magnitude maps to ±127): 1 byte a dimension plus 4.
	Int8 Encoding = 3
)

// DefaultEncoding is the encoding vectors are stored and searched in unless
// configured otherwise. Float16 keeps recall@10 within 0.1 point of float32
// exact search on every set measured, at half the memory; int8 stays within a
// point on the dev sets' stand-in embeddings (99.2 at 384 dimensions, 99.7 at
// 1024) but not on random unit vectors (98.7, 98.6), where neighbours are
// closest together (BENCHMARKS.md, "Vector search"). Config.Encoding = Int8
// halves memory again where that is acceptable.
const DefaultEncoding = Float16

// String is the encoding's name as configuration spells it.
func (e Encoding) String() string {
	switch e {
	case Float32:
		return "float32"
	case Float16:
		return "float16"
	case Int8:
		return "int8"
	}
	return fmt.Sprintf("encoding(%d)", uint8(e))
}

// ParseEncoding reads an encoding's name ("float32", "float16", "int8").
func ParseEncoding(s string) (Encoding, error) {
	for _, e := range []Encoding{Float32, Float16, Int8} {
		if s == e.String() {
			return e, nil
		}
	}
	return 0, fmt.Errorf("vecindex: unknown encoding %q (want float32, float16 or int8)", s)
}

func (e Encoding) valid() bool { return e == Float32 || e == Float16 || e == Int8 }

// headerLen is the tag byte that starts every encoded vector, so a stored
// vector says how to read it and a change of default leaves old rows readable.
const headerLen = 1

// EncodedLen is the length in bytes of a vector of dim components encoded
// with e.
func (e Encoding) EncodedLen(dim int) int {
	switch e {
	case Float32:
		return headerLen + 4*dim
	case Float16:
		return headerLen + 2*dim
	case Int8:
		return headerLen + 4 + dim
	}
	return 0
}

// Encode writes v in encoding e: a tag byte, then the components little
// endian (Int8: the float32 scale, then one signed byte a component). A vector
// must be non-empty and finite.
func Encode(e Encoding, v []float32) ([]byte, error) {
	if !e.valid() {
		return nil, fmt.Errorf("vecindex: encode: unknown encoding %d", uint8(e))
	}
	if err := checkVector(v); err != nil {
		return nil, err
	}
	out := make([]byte, e.EncodedLen(len(v)))
	out[0] = byte(e)
	body := out[headerLen:]
	switch e {
	case Float32:
		for i, x := range v {
			binary.LittleEndian.PutUint32(body[4*i:], math.Float32bits(x))
		}
	case Float16:
		for i, x := range v {
			binary.LittleEndian.PutUint16(body[2*i:], float16.Fromfloat32(x).Bits())
		}
	case Int8:
		q := make([]int8, len(v))
		scale := quantizeInt8(v, q)
		binary.LittleEndian.PutUint32(body, math.Float32bits(scale))
		for i, x := range q {
			body[4+i] = byte(x)
		}
	}
	return out, nil
}

// Decode reads a vector written by Encode and says which encoding it was in.
// Int8 components come back as scale × q, the quantized value.
func Decode(b []byte) ([]float32, Encoding, error) {
	if len(b) < headerLen {
		return nil, 0, fmt.Errorf("vecindex: decode: empty input")
	}
	e := Encoding(b[0])
	body := b[headerLen:]
	var dim int
	switch e {
	case Float32:
		if len(body)%4 != 0 {
			return nil, e, fmt.Errorf("vecindex: decode float32: %d bytes is not a whole number of components", len(body))
		}
		dim = len(body) / 4
	case Float16:
		if len(body)%2 != 0 {
			return nil, e, fmt.Errorf("vecindex: decode float16: %d bytes is not a whole number of components", len(body))
		}
		dim = len(body) / 2
	case Int8:
		if len(body) < 4 {
			return nil, e, fmt.Errorf("vecindex: decode int8: %d bytes holds no scale", len(body))
		}
		dim = len(body) - 4
	default:
		return nil, 0, fmt.Errorf("vecindex: decode: unknown encoding tag %d", b[0])
	}
	if dim == 0 {
		return nil, e, fmt.Errorf("vecindex: decode %s: no components", e)
	}
	v := make([]float32, dim)
	switch e {
	case Float32:
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(body[4*i:]))
		}
	case Float16:
		for i := range v {
			v[i] = float16.Frombits(binary.LittleEndian.Uint16(body[2*i:])).Float32()
		}
	case Int8:
		scale := math.Float32frombits(binary.LittleEndian.Uint32(body))
		for i, q := range body[4:] {
			v[i] = scale * float32(int8(q))
		}
	}
	if err := checkVector(v); err != nil {
		return nil, e, err
	}
	return v, e, nil
}

// checkVector refuses what no index can rank: an empty vector, or a NaN or
// infinite component (a model's error, not a direction).
func checkVector(v []float32) error {
	if len(v) == 0 {
		return ErrEmptyVector
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return ErrNotFinite
		}
	}
	return nil
}

// quantizeInt8 writes round(v/scale) into q, with scale = max|v|/127, and
// returns the scale. A zero vector has scale 0 and all-zero components.
func quantizeInt8(v []float32, q []int8) float32 {
	var m float32
	for _, x := range v {
		m = max(m, abs32(x))
	}
	if m == 0 {
		clear(q)
		return 0
	}
	scale := m / 127
	inv := 1 / scale
	q = q[:len(v)]
	for i, x := range v {
		r := math.Round(float64(x * inv))
		q[i] = int8(max(-127, min(127, r)))
	}
	return scale
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
