package vecindex

import "math"

// The kernels below are the whole cost of a search: plain Go, no assembly, four
// independent accumulators so the additions overlap, and the second slice
// resliced to the first's length so the compiler drops the bounds checks.

// dotF32 is the dot product of two float32 vectors of equal length.
func dotF32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotI8 is the dot product of two int8 vectors of equal length, exact in int32:
// |Σ| ≤ 127² × dim, which fits for any dimension below 133,000.
func dotI8(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		aa := a[i : i+8 : i+8]
		bb := b[i : i+8 : i+8]
		s0 += int32(aa[0])*int32(bb[0]) + int32(aa[4])*int32(bb[4])
		s1 += int32(aa[1])*int32(bb[1]) + int32(aa[5])*int32(bb[5])
		s2 += int32(aa[2])*int32(bb[2]) + int32(aa[6])*int32(bb[6])
		s3 += int32(aa[3])*int32(bb[3]) + int32(aa[7])*int32(bb[7])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// dotF32F16 is the dot product of a float32 query and a float16 vector.
func dotF32F16(a []float32, b []uint16) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * halfToFloat(b[i])
		s1 += a[i+1] * halfToFloat(b[i+1])
		s2 += a[i+2] * halfToFloat(b[i+2])
		s3 += a[i+3] * halfToFloat(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += a[i] * halfToFloat(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// dotF16 is the dot product of two float16 vectors.
func dotF16(a, b []uint16) float32 {
	b = b[:len(a)]
	var s0, s1 float32
	i := 0
	for ; i+2 <= len(a); i += 2 {
		s0 += halfToFloat(a[i]) * halfToFloat(b[i])
		s1 += halfToFloat(a[i+1]) * halfToFloat(b[i+1])
	}
	for ; i < len(a); i++ {
		s0 += halfToFloat(a[i]) * halfToFloat(b[i])
	}
	return s0 + s1
}

// halfToFloat widens a finite float16 to float32 with a shift and one
// multiply: the half's exponent and mantissa bits placed in a float32 are the
// value times 2^-112, subnormals included. It is 2.5 times faster in a scan
// than x448/float16's branchy conversion, and equal to it for every finite
// half (TestHalfToFloat); stored vectors are finite, Decode and Add check.
func halfToFloat(h uint16) float32 {
	return math.Float32frombits(uint32(h&0x7fff)<<13|uint32(h&0x8000)<<16) * 0x1p112
}

// dotF32I8 is the dot product of a float32 query and an int8 vector: the
// query keeps its precision, so only the stored side's rounding counts.
func dotF32I8(a []float32, b []int8) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * float32(b[i])
		s1 += a[i+1] * float32(b[i+1])
		s2 += a[i+2] * float32(b[i+2])
		s3 += a[i+3] * float32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += a[i] * float32(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}
