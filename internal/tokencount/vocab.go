package tokencount

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math/bits"
	"strings"
)

// o200kBaseTokens is written by gen/main.go; see there for the format.
//
//go:embed o200k_base.tokens.gz
var o200kBaseTokens []byte

// maxTokens bounds the count read from the header, so that a corrupt file cannot ask for
// gigabytes.
const maxTokens = 1 << 20

// vocab maps tokens to their ranks (ids) in about 4.1 MB of heap, where the library's
// map[string]uint takes 6.7 MB. It holds no pointers but its three arrays, so the garbage
// collector has nothing to trace in it, against 200 000 strings in the map.
type vocab struct {
	// text is every token's bytes, in rank order; token r is text[ends[r]:ends[r+1]].
	text string
	ends []uint32
	// slots is an open-addressing hash table with linear probing: rank+1 of the token that
	// hashed there, or 0 for an empty slot. It is kept under 40% full, so a lookup that
	// misses, which byte-pair merging does all the time, probes about two slots.
	slots []uint32
	mask  uint64
	seed  maphash.Seed
}

// loadVocab decodes the embedded form written by gen/main.go.
func loadVocab(gz []byte) (*vocab, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(zr)
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, fmt.Errorf("read count: %w", err)
	}
	if n == 0 || n > maxTokens {
		return nil, fmt.Errorf("bad token count %d", n)
	}
	lengths := make([]byte, n)
	if _, err := io.ReadFull(r, lengths); err != nil {
		return nil, fmt.Errorf("read lengths: %w", err)
	}
	v := &vocab{ends: make([]uint32, n+1), seed: maphash.MakeSeed()}
	total := 0
	for i, l := range lengths {
		if l == 0 {
			return nil, fmt.Errorf("token %d is empty", i)
		}
		total += int(l)
		v.ends[i+1] = uint32(total)
	}
	var text strings.Builder
	text.Grow(total)
	if _, err := io.CopyN(&text, r, int64(total)); err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	// Reading to the end lets gzip check its CRC and length.
	if _, err := r.ReadByte(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the tokens, or a damaged stream: %v", err)
	}
	v.text = text.String()

	size := 1 << bits.Len(uint(n)*5/2) // the power of two past 2.5n
	v.slots = make([]uint32, size)
	v.mask = uint64(size - 1)
	for r := range uint32(n) {
		tok := v.token(r)
		i := maphash.String(v.seed, tok) & v.mask
		for ; v.slots[i] != 0; i = (i + 1) & v.mask {
			if v.token(v.slots[i]-1) == tok {
				return nil, fmt.Errorf("token %d repeats token %d", r, v.slots[i]-1)
			}
		}
		v.slots[i] = r + 1
	}
	return v, nil
}

// token returns the bytes of rank r.
func (v *vocab) token(r uint32) string {
	return v.text[v.ends[r]:v.ends[r+1]]
}

// rank looks s up.
func (v *vocab) rank(s string) (uint32, bool) {
	for i := maphash.String(v.seed, s) & v.mask; ; i = (i + 1) & v.mask {
		slot := v.slots[i]
		if slot == 0 {
			return 0, false
		}
		if v.token(slot-1) == s {
			return slot - 1, true
		}
	}
}

// size is the number of tokens.
func (v *vocab) size() int { return len(v.ends) - 1 }
