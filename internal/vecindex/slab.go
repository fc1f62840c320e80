package vecindex

import (
	"fmt"
	"maps"
	"slices"

	"github.com/x448/float16"
)

// slab holds an index's vectors in its encoding, one slot each, with the chunk
// id, document id and language of every slot: contiguous arrays, so a scan walks memory in
// order and the garbage collector sees a few large objects, not one per vector.
// Vectors are unit length before they are encoded, so a dot product is the
// cosine similarity.
type slab struct {
	enc   Encoding
	dim   int
	f32   []float32
	f16   []uint16
	i8    []int8
	scale []float32 // Int8 only: the slot's scale
	ids   []int64
	docs  []int64 // the chunk's document: a search names it, so its caller need not read the chunk
	langs []uint8 // index into langNames

	langNames []string
	langIdx   map[string]uint8
}

func newSlab(dim int, enc Encoding) (slab, error) {
	if dim <= 0 {
		return slab{}, fmt.Errorf("vecindex: dimension %d is not positive", dim)
	}
	if !enc.valid() {
		return slab{}, fmt.Errorf("vecindex: unknown encoding %d", uint8(enc))
	}
	return slab{enc: enc, dim: dim, langIdx: map[string]uint8{}}, nil
}

func (s *slab) len() int { return len(s.ids) }

// toUnit checks vec against the slab's dimension and returns it at unit length, as every
// index stores it. The dimension never changes, so no lock is needed.
func (s *slab) toUnit(vec []float32) ([]float32, error) {
	if len(vec) != s.dim {
		return nil, ErrDim
	}
	return normalized(vec)
}

// langCode is lang's small number, assigned on first sight.
func (s *slab) langCode(lang string) (uint8, error) {
	if c, ok := s.langIdx[lang]; ok {
		return c, nil
	}
	if len(s.langNames) == 255 {
		return 0, ErrTooManyLangs
	}
	c := uint8(len(s.langNames))
	s.langNames = append(s.langNames, lang)
	s.langIdx[lang] = c
	return c, nil
}

// append adds a slot holding unit (already normalised).
func (s *slab) append(id, doc int64, lang uint8, unit []float32) {
	s.ids = append(s.ids, id)
	s.docs = append(s.docs, doc)
	s.langs = append(s.langs, lang)
	switch s.enc {
	case Float32:
		s.f32 = append(s.f32, unit...)
	case Float16:
		for _, x := range unit {
			s.f16 = append(s.f16, float16.Fromfloat32(x).Bits())
		}
	case Int8:
		n := len(s.i8)
		s.i8 = append(s.i8, make([]int8, s.dim)...)
		s.scale = append(s.scale, quantizeInt8(unit, s.i8[n:]))
	}
}

// move copies slot src over slot dst.
func (s *slab) move(dst, src int) {
	s.ids[dst], s.docs[dst], s.langs[dst] = s.ids[src], s.docs[src], s.langs[src]
	d := s.dim
	switch s.enc {
	case Float32:
		copy(s.f32[dst*d:(dst+1)*d], s.f32[src*d:(src+1)*d])
	case Float16:
		copy(s.f16[dst*d:(dst+1)*d], s.f16[src*d:(src+1)*d])
	case Int8:
		copy(s.i8[dst*d:(dst+1)*d], s.i8[src*d:(src+1)*d])
		s.scale[dst] = s.scale[src]
	}
}

// truncate keeps the first n slots.
func (s *slab) truncate(n int) {
	s.ids, s.docs, s.langs = s.ids[:n], s.docs[:n], s.langs[:n]
	switch s.enc {
	case Float32:
		s.f32 = s.f32[:n*s.dim]
	case Float16:
		s.f16 = s.f16[:n*s.dim]
	case Int8:
		s.i8, s.scale = s.i8[:n*s.dim], s.scale[:n]
	}
}

// unit returns slot i's vector decoded to float32 (unit length up to the
// encoding's error).
func (s *slab) unit(i int) []float32 {
	d := s.dim
	out := make([]float32, d)
	switch s.enc {
	case Float32:
		copy(out, s.f32[i*d:(i+1)*d])
	case Float16:
		for j, b := range s.f16[i*d : (i+1)*d] {
			out[j] = float16.Frombits(b).Float32()
		}
	case Int8:
		sc := s.scale[i]
		for j, q := range s.i8[i*d : (i+1)*d] {
			out[j] = sc * float32(q)
		}
	}
	return out
}

// bytes estimates the slab's memory: its arrays at capacity, and the language
// table.
func (s *slab) bytes() int64 {
	b := int64(cap(s.f32))*4 + int64(cap(s.f16))*2 + int64(cap(s.i8)) +
		int64(cap(s.scale))*4 + int64(cap(s.ids))*8 + int64(cap(s.docs))*8 + int64(cap(s.langs))
	for _, l := range s.langNames {
		b += int64(len(l)) + 16 + 48 // string header and map entry
	}
	return b
}

// query is a search vector prepared for the slab's encoding. Every encoding
// keeps the query in float32 and widens the stored side: quantizing the query
// too (int8 × int8, 15% faster in a scan) cost int8 0.3 points of recall@10
// (BENCHMARKS.md, "Vector search").
type query struct {
	f32 []float32
}

func (s *slab) prepare(unit []float32) query {
	return query{f32: unit}
}

// score is the cosine similarity of the query and slot i.
func (s *slab) score(q *query, i int) float32 {
	d := s.dim
	switch s.enc {
	case Float32:
		return dotF32(q.f32, s.f32[i*d:(i+1)*d])
	case Float16:
		return dotF32F16(q.f32, s.f16[i*d:(i+1)*d])
	default:
		return s.scale[i] * dotF32I8(q.f32, s.i8[i*d:(i+1)*d])
	}
}

// scorePair is the cosine similarity of slots a and b.
func (s *slab) scorePair(a, b int) float32 {
	d := s.dim
	switch s.enc {
	case Float32:
		return dotF32(s.f32[a*d:(a+1)*d], s.f32[b*d:(b+1)*d])
	case Float16:
		return dotF16(s.f16[a*d:(a+1)*d], s.f16[b*d:(b+1)*d])
	default:
		return s.scale[a] * s.scale[b] * float32(dotI8(s.i8[a*d:(a+1)*d], s.i8[b*d:(b+1)*d]))
	}
}

// accept is a Filter compiled against a slab: languages as a bit set of codes.
type accept struct {
	langs    [4]uint64
	anyLang  bool
	allow    func(int64) bool
	everyone bool // no condition at all
	none     bool // the filter's languages are all absent from the index
}

func (s *slab) compile(f Filter) accept {
	a := accept{anyLang: len(f.Langs) == 0, allow: f.Allow}
	if !a.anyLang {
		a.none = true
		for _, l := range f.Langs {
			if c, ok := s.langIdx[l]; ok {
				a.langs[c/64] |= 1 << (c % 64)
				a.none = false
			}
		}
	}
	a.everyone = a.anyLang && a.allow == nil
	return a
}

func (a *accept) ok(s *slab, i int) bool {
	if !a.anyLang {
		c := s.langs[i]
		if a.langs[c/64]&(1<<(c%64)) == 0 {
			return false
		}
	}
	return a.allow == nil || a.allow(s.ids[i])
}

// scan offers every slot passing acc to top. One loop per encoding keeps the
// kernel call direct; the filter test costs one predictable branch when
// there is no filter.
func (s *slab) scan(q *query, acc *accept, top *topK) {
	d, n := s.dim, s.len()
	keep := func(i int, sc float32) {
		if !top.full() || sc >= top.min() {
			top.offer(Hit{ID: s.ids[i], Score: sc})
		}
	}
	switch s.enc {
	case Float32:
		for i := range n {
			if acc.everyone || acc.ok(s, i) {
				keep(i, dotF32(q.f32, s.f32[i*d:(i+1)*d]))
			}
		}
	case Float16:
		for i := range n {
			if acc.everyone || acc.ok(s, i) {
				keep(i, dotF32F16(q.f32, s.f16[i*d:(i+1)*d]))
			}
		}
	case Int8:
		for i := range n {
			if acc.everyone || acc.ok(s, i) {
				keep(i, s.scale[i]*dotF32I8(q.f32, s.i8[i*d:(i+1)*d]))
			}
		}
	}
}

// hit is slot i's search result: its chunk, document and language.
func (s *slab) hit(i int, score float32) Hit {
	return Hit{ID: s.ids[i], Doc: s.docs[i], Lang: s.langNames[s.langs[i]], Score: score}
}

// clone copies the slots keep accepts (all when keep is nil) into a new slab
// with its own arrays.
func (s *slab) clone(keep func(int) bool) slab {
	c := slab{enc: s.enc, dim: s.dim, langNames: slices.Clone(s.langNames), langIdx: maps.Clone(s.langIdx)}
	d := s.dim
	for i := range s.len() {
		if keep != nil && !keep(i) {
			continue
		}
		c.ids = append(c.ids, s.ids[i])
		c.docs = append(c.docs, s.docs[i])
		c.langs = append(c.langs, s.langs[i])
		switch s.enc {
		case Float32:
			c.f32 = append(c.f32, s.f32[i*d:(i+1)*d]...)
		case Float16:
			c.f16 = append(c.f16, s.f16[i*d:(i+1)*d]...)
		case Int8:
			c.i8 = append(c.i8, s.i8[i*d:(i+1)*d]...)
			c.scale = append(c.scale, s.scale[i])
		}
	}
	return c
}
