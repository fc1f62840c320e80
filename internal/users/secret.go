package users

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/netip"
	"strings"
	"unicode/utf8"

	"svc/internal/clientip"
)

// secretBytes is the entropy of a session id or a link token.
const secretBytes = 32

// secretLen is the length of a secret in its unpadded base64url form.
const secretLen = (secretBytes*8 + 5) / 6

// newSecret returns a random secret for a cookie or a link, and the hash that is stored.
func newSecret() (raw string, hash []byte) {
	b := make([]byte, secretBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it crashes the program instead)
	raw = base64.RawURLEncoding.EncodeToString(b)
	return raw, hashOf(raw)
}

func hashOf(raw string) []byte {
	h := sha256.Sum256([]byte(raw))
	return h[:]
}

// hashSecret hashes a secret presented by a client, or reports false when it does not have
// a secret's shape (no store lookup for garbage).
func hashSecret(raw string) ([]byte, bool) {
	if len(raw) != secretLen {
		return nil, false
	}
	if _, err := base64.RawURLEncoding.DecodeString(raw); err != nil {
		return nil, false
	}
	return hashOf(raw), true
}

// addrKey is the throttle value of a client address: an IP address keyed as the rate limits
// key it (clientip.Key: IPv6 per /64), anything else as given, clipped.
func addrKey(addr string) string {
	addr = strings.TrimSpace(addr)
	if a, err := netip.ParseAddr(addr); err == nil {
		return clientip.Key(a.Unmap())
	}
	return clip(addr, 64)
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
