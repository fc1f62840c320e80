// Package account owns tenants and their secret keys: defaults and validation of account
// settings, key generation, and authentication of a presented key.
package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"

	"svc/internal/store"
)

// Key forms of DECISIONS.md: "svc_pk_" + 32 lowercase hex; the public prefix is "svc_pk_" + the
// first 8 hex characters.
const (
	keyScheme    = "svc_pk_"
	keyHexLen    = 32
	prefixHexLen = 8
)

// NewKey returns a fresh secret key and the record to store: its prefix and SHA-256 hash.
// The key has 128 random bits, so a fast hash is enough; a slow password hash would only
// cost every request time.
func NewKey() (string, store.APIKey, error) {
	var b [keyHexLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", store.APIKey{}, fmt.Errorf("generate key: %w", err)
	}
	plain := keyScheme + hex.EncodeToString(b[:])
	return plain, store.APIKey{Prefix: KeyPrefix(plain), Hash: hashKey(plain)}, nil
}

// KeyPrefix returns the public prefix of a well-formed key.
func KeyPrefix(key string) string { return key[:len(keyScheme)+prefixHexLen] }

// WellFormed reports whether s has the secret key's form, so that garbage is refused before
// any database work.
func WellFormed(s string) bool {
	if len(s) != len(keyScheme)+keyHexLen || s[:len(keyScheme)] != keyScheme {
		return false
	}
	for _, c := range s[len(keyScheme):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func hashKey(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// matchHash finds the candidate whose hash is h, comparing every candidate in constant time
// so that timing reveals nothing about which bytes matched. Secret keys and embed tokens
// are both found this way.
func matchHash[T any](h []byte, candidates []T, hashOf func(T) []byte) (T, bool) {
	var found T
	ok := 0
	for _, c := range candidates {
		eq := subtle.ConstantTimeCompare(h, hashOf(c))
		if eq == 1 {
			found = c
		}
		ok |= eq
	}
	return found, ok == 1
}
