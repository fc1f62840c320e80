package embed

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestNewTokenForm(t *testing.T) {
	seen := make(map[string]bool)
	used := make(map[rune]bool)
	for range 1000 {
		token, prefix, hash, err := NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if len(token) != len(TokenPrefix)+32 || !strings.HasPrefix(token, TokenPrefix) {
			t.Fatalf("token %q has the wrong form", token)
		}
		if prefix != token[:len(TokenPrefix)+8] {
			t.Fatalf("prefix %q is not the token's first 8 characters after %q", prefix, TokenPrefix)
		}
		if sum := sha256.Sum256([]byte(token)); !bytes.Equal(hash, sum[:]) {
			t.Fatalf("hash of %q is not its SHA-256", token)
		}
		p, h, ok := ParseToken(token)
		if !ok || p != prefix || !bytes.Equal(h, hash) {
			t.Fatalf("ParseToken(%q) = %q, %x, %v; want the prefix and hash NewToken gave", token, p, h, ok)
		}
		if seen[token] {
			t.Fatalf("token %q drawn twice", token)
		}
		seen[token] = true
		for _, r := range token[len(TokenPrefix):] {
			used[r] = true
		}
	}
	// 32,000 draws leave a character unused with a chance of about 62×(61/62)^32000.
	if len(used) != 62 {
		t.Errorf("tokens used %d distinct characters, want all 62", len(used))
	}
}

func TestRandomCharsRejectsBiasedBytes(t *testing.T) {
	// First read: bytes ≥ 248 are thrown away, the rest taken modulo 62; the tail of 250s
	// yields nothing, so a second read of 10s ("A") completes the 32 characters.
	first := append([]byte{248, 255, 0, 247, 61, 62, 123, 200}, bytes.Repeat([]byte{250}, 40)...)
	second := bytes.Repeat([]byte{10}, 48)
	got, err := randomChars(bytes.NewReader(append(first, second...)), 32)
	if err != nil {
		t.Fatal(err)
	}
	if want := "0zz0zE" + strings.Repeat("A", 26); got != want {
		t.Fatalf("randomChars = %q, want %q", got, want)
	}
}

func TestRandomCharsReadError(t *testing.T) {
	_, err := randomChars(bytes.NewReader(bytes.Repeat([]byte{255}, 48)), 32)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("randomChars on an exhausted reader: err = %v, want EOF", err)
	}
}

func TestParseTokenRejects(t *testing.T) {
	good := TokenPrefix + "0123456789ABCDEFGHIJabcdefghijKL"
	if _, _, ok := ParseToken(good); !ok {
		t.Fatalf("ParseToken(%q) refused a well-formed token", good)
	}
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"prefix only", TokenPrefix},
		{"one short", good[:len(good)-1]},
		{"one long", good + "a"},
		{"secret key scheme", "svc_pk_" + good[len(TokenPrefix)-1:]},
		{"upper-case prefix", strings.ToUpper(TokenPrefix) + good[len(TokenPrefix):]},
		{"underscore", good[:len(good)-1] + "_"},
		{"hyphen", good[:len(good)-1] + "-"},
		{"space", good[:len(good)-1] + " "},
		{"non-ASCII", good[:len(good)-2] + "é"},
		{"NUL", good[:len(good)-1] + "\x00"},
		{"surrounding space", " " + good[:len(good)-1]},
	}
	for _, tc := range tests {
		if p, h, ok := ParseToken(tc.in); ok || p != "" || h != nil {
			t.Errorf("%s: ParseToken(%q) = %q, %x, %v; want refused", tc.name, tc.in, p, h, ok)
		}
	}
}
