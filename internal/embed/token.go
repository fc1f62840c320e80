package embed

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
)

// TokenPrefix starts every embed token. The form is TokenPrefix followed by tokenChars
// characters of tokenAlphabet (DECISIONS.md): about 190 random bits, so a fast hash is enough
// to store it and a slow one would only cost every widget request time.
const TokenPrefix = "svc_emb_"

const (
	tokenChars    = 32
	prefixChars   = 8 // characters after TokenPrefix kept in clear to find candidates
	tokenAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// unbiasedBelow is the largest multiple of the alphabet's size that fits in a byte.
	// Random bytes at or above it are thrown away: taking the rest modulo 62 then gives every
	// character the same chance, where all 256 values would favour the first 8 characters.
	unbiasedBelow = 256 - 256%len(tokenAlphabet)
)

// NewToken returns a fresh token from crypto/rand, the prefix to store with it (TokenPrefix
// and the token's first 8 characters) and its SHA-256; only the prefix and hash are kept.
func NewToken() (token, prefix string, hash []byte, err error) {
	chars, err := randomChars(rand.Reader, tokenChars)
	if err != nil {
		return "", "", nil, fmt.Errorf("generate embed token: %w", err)
	}
	token = TokenPrefix + chars
	return token, tokenPrefixOf(token), tokenHash(token), nil
}

// ParseToken checks that s has exactly the token's form, so garbage is refused before any
// database work, and returns the prefix to look candidates up by and the hash to compare.
func ParseToken(s string) (prefix string, hash []byte, ok bool) {
	if len(s) != len(TokenPrefix)+tokenChars || !strings.HasPrefix(s, TokenPrefix) {
		return "", nil, false
	}
	for i := len(TokenPrefix); i < len(s); i++ {
		if strings.IndexByte(tokenAlphabet, s[i]) < 0 {
			return "", nil, false
		}
	}
	return tokenPrefixOf(s), tokenHash(s), true
}

// randomChars draws n characters of tokenAlphabet from r by rejection sampling.
func randomChars(r io.Reader, n int) (string, error) {
	out := make([]byte, 0, n)
	var buf [48]byte // 32 characters need about 33 bytes; one read nearly always suffices
	for len(out) < n {
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return "", err
		}
		for _, b := range buf {
			if int(b) < unbiasedBelow && len(out) < n {
				out = append(out, tokenAlphabet[int(b)%len(tokenAlphabet)])
			}
		}
	}
	return string(out), nil
}

func tokenPrefixOf(token string) string { return token[:len(TokenPrefix)+prefixChars] }

func tokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
