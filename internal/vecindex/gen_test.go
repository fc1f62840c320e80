package vecindex

import (
	"math"
	"math/rand/v2"
)

// randomUnit returns n random unit vectors of dim components, uniform on the
// sphere (normalised Gaussians), reproducible from seed. They are the hardest
// case for quantization and for a graph: every pair is almost equally far.
func randomUnit(seed uint64, n, dim int) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([][]float32, n)
	for i := range out {
		out[i] = gaussUnit(r, dim)
	}
	return out
}

func gaussUnit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var s float64
	for j := range v {
		x := r.NormFloat64()
		v[j] = float32(x)
		s += x * x
	}
	inv := float32(1 / math.Sqrt(s))
	for j := range v {
		v[j] *= inv
	}
	return v
}

// clustered returns n unit vectors around c random topics, each a topic
// direction plus noise of weight spread: closer to what embedding models give
// (passages about one subject near each other) than uniform vectors.
func clustered(seed uint64, n, dim, c int, spread float32) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 11))
	centers := make([][]float32, c)
	for i := range centers {
		centers[i] = gaussUnit(r, dim)
	}
	out := make([][]float32, n)
	for i := range out {
		ctr := centers[r.IntN(c)]
		v := gaussUnit(r, dim)
		for j := range v {
			v[j] = (1-spread)*ctr[j] + spread*v[j]
		}
		u, _ := normalized(v)
		out[i] = u
	}
	return out
}

// exactTop is the true top k of q among vs by float64 cosine, as slot numbers.
func exactTop(vs [][]float32, q []float32, k int) []int {
	type sc struct {
		i int
		s float64
	}
	top := make([]sc, 0, k+1)
	for i, v := range vs {
		var s float64
		for j := range v {
			s += float64(v[j]) * float64(q[j])
		}
		if len(top) < k || s > top[len(top)-1].s {
			top = append(top, sc{i, s})
			for p := len(top) - 1; p > 0 && top[p].s > top[p-1].s; p-- {
				top[p], top[p-1] = top[p-1], top[p]
			}
			if len(top) > k {
				top = top[:k]
			}
		}
	}
	out := make([]int, len(top))
	for i, t := range top {
		out[i] = t.i
	}
	return out
}

// overlap is |a ∩ b| / len(truth): recall of got against truth.
func overlap(truth []int, got []Hit) float64 {
	if len(truth) == 0 {
		return 1
	}
	in := make(map[int64]bool, len(truth))
	for _, t := range truth {
		in[int64(t)] = true
	}
	n := 0
	for _, g := range got {
		if in[g.ID] {
			n++
		}
	}
	return float64(n) / float64(len(truth))
}
