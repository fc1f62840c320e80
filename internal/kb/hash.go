package kb

import (
	"crypto/sha256"
	"encoding/hex"
)

// BuildVersion is part of every content hash. Bump it when cleaning, chunking or analysis
// changes, so that re-importing an unchanged file rebuilds the stored chunks instead of
// being skipped as unchanged.
const BuildVersion = "kb3"

// contentHash is the hex SHA-256 of the version, the type and the given fields, each
// length-prefixed so that moving text from one field to the next changes the hash.
func contentHash(typ string, fields ...string) string {
	h := sha256.New()
	write := func(s string) {
		var n [8]byte
		l := uint64(len(s))
		for i := range n {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(BuildVersion)
	write(typ)
	for _, f := range fields {
		write(f)
	}
	return hex.EncodeToString(h.Sum(nil))
}
