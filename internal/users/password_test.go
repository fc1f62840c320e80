package users

import (
	"strings"
	"testing"

	"svc/internal/errs"
)

func TestHashPasswordProductionCost(t *testing.T) {
	phc, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(phc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("PHC string %q does not carry the production parameters", phc)
	}
	if !VerifyPassword(phc, "correct horse battery") || VerifyPassword(phc, "correct horse batterY") {
		t.Fatal("verify disagrees with hash")
	}
	again, _ := HashPassword("correct horse battery")
	if again == phc {
		t.Fatal("two hashes of one password are equal: no salt")
	}
}

func TestVerifyPassword(t *testing.T) {
	phc, err := hashPassword("p\u00e4sswort-12", testCost) // composed ä
	if err != nil {
		t.Fatal(err)
	}
	if !VerifyPassword(phc, "pa\u0308sswort-12") { // a + combining diaeresis
		t.Fatal("a decomposed spelling of the same password was refused")
	}
	if VerifyPassword(phc, "passwort-12") {
		t.Fatal("another password verified")
	}
	parts := strings.Split(phc, "$")
	for name, bad := range map[string]string{
		"empty":          "",
		"plain text":     "pässwort-12",
		"argon2i":        strings.Replace(phc, "$argon2id$", "$argon2i$", 1),
		"bcrypt":         "$2a$10$abcdefghijklmnopqrstuu5Ip3GKQK8p2Ib8UGN9ToGz5zeSO3xK",
		"old version":    strings.Replace(phc, "v=19", "v=16", 1),
		"missing param":  strings.Replace(phc, "m=64,t=1,p=1", "m=64,t=1", 1),
		"unknown param":  strings.Replace(phc, "m=64,t=1,p=1", "m=64,t=1,p=1,x=2", 1),
		"huge memory":    strings.Replace(phc, "m=64", "m=4194304", 1),
		"many passes":    strings.Replace(phc, "t=1", "t=1000", 1),
		"zero lanes":     strings.Replace(phc, "p=1", "p=0", 1),
		"bad salt":       strings.Join([]string{"", parts[1], parts[2], parts[3], "!!!", parts[5]}, "$"),
		"short key":      strings.Join([]string{"", parts[1], parts[2], parts[3], parts[4], "AAAA"}, "$"),
		"extra field":    phc + "$x",
		"negative param": strings.Replace(phc, "t=1", "t=-1", 1),
	} {
		if VerifyPassword(bad, "pässwort-12") {
			t.Errorf("%s: %q verified", name, bad)
		}
	}
}

func TestValidatePassword(t *testing.T) {
	for _, tc := range []struct {
		pw     string
		reason string
	}{
		{"0123456789", ""},
		{"şifre-ğüçö", ""}, // ten characters, more bytes
		{"with spaces is fine", ""},
		{strings.Repeat("x", MaxPasswordBytes), ""},
		{"012345678", "password_too_short"},
		{"ğğğğğğğğğ", "password_too_short"}, // 18 bytes, 9 characters
		{"", "password_too_short"},
		{strings.Repeat("x", MaxPasswordBytes+1), "password_too_long"},
		{"0123456789\n", "password_invalid"},
		{"0123456789\x00", "password_invalid"},
		{"0123456789\xff", "password_invalid"},
	} {
		err := ValidatePassword(tc.pw)
		if got := Reason(err); got != tc.reason {
			t.Errorf("%q: reason %q, want %q (%v)", tc.pw, got, tc.reason, err)
		}
		if err != nil {
			if e, ok := errs.As(err); !ok || e.Kind != errs.BadRequest || e.Safe == "" || strings.Contains(e.Safe, tc.pw) && tc.pw != "" {
				t.Errorf("%q: not a safe BadRequest: %v", tc.pw, err)
			}
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	for in, want := range map[string]string{
		"  Owner@Example.COM ": "owner@example.com",
		"a.b+tag@x.io":         "a.b+tag@x.io",
	} {
		if got, err := NormalizeEmail(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "plain", "@example.com", "me@", "a@b@c", "me @example.com", "me@exa mple.com",
		"Me <me@example.com>", strings.Repeat("a", 250) + "@x.io", "me@example.com\r\nBcc: x@y.z"} {
		if _, err := NormalizeEmail(bad); Reason(err) != "email_invalid" || errs.KindOf(err) != errs.BadRequest {
			t.Errorf("%q accepted or wrong error: %v", bad, err)
		}
	}
}
