package embed

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"svc/internal/errs"
)

// checkBadRequest fails unless err is a client error whose message quotes the input's
// start and carries no control character.
func checkBadRequest(t *testing.T, err error, quoted string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.BadRequest {
		t.Fatalf("error %v is not a BadRequest *errs.Error", err)
	}
	if strings.IndexFunc(e.Safe, unicode.IsControl) >= 0 {
		t.Errorf("message %q carries a control character", e.Safe)
	}
	if quoted != "" && !strings.Contains(e.Safe, quoted) {
		t.Errorf("message %q does not name the input %s", e.Safe, quoted)
	}
}

// longest is a name of exactly 253 characters, the most DNS allows.
var longest = strings.Repeat("abcdefghi.", 25) + "com"

func TestNormalizeDomainAccepts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"example.com", "example.com"},
		{"Example.COM", "example.com"},
		{"  example.com  ", "example.com"},
		{"https://shop.example.com:8443/path?q", "shop.example.com"},
		{"HTTP://Example.com#top", "example.com"},
		{"//example.com/x", "example.com"},
		{"example.com/a://b", "example.com"},
		{`example.com\path`, "example.com"},
		{"example.com/user@page", "example.com"},
		{"example.com.", "example.com"},
		{"example.com:443", "example.com"},
		{"*.example.com", "example.com"},
		{"https://*.example.com:8443", "example.com"},
		{"bücher.de", "xn--bcher-kva.de"},
		{"BÜCHER.de", "xn--bcher-kva.de"},
		{"xn--bcher-kva.de", "xn--bcher-kva.de"},
		{"straße.de", "xn--strae-oqa.de"}, // non-transitional: ß is kept, as browsers do
		{"ｅｘａｍｐｌｅ．ｃｏｍ", "example.com"},
		{"r3---sn-4g5e6nzz.example.com", "r3---sn-4g5e6nzz.example.com"},
		{"example.co.uk", "example.co.uk"},
		{"me.github.io", "me.github.io"},
		{"localhost", "localhost"},
		{"http://localhost:3000/", "localhost"},
		{"app.localhost", "app.localhost"},
		{"127.0.0.1", "127.0.0.1"},
		{"http://127.0.0.1:8080/x", "127.0.0.1"},
		{"[::1]", "[::1]"},
		{"::1", "[::1]"},
		{"[::1]:8443", "[::1]"},
		{"http://[0:0:0:0:0:0:0:1]:80/", "[::1]"},
		{"2001:DB8::1", "[2001:db8::1]"},
		{"123.example.com", "123.example.com"},
		{strings.Repeat("a", 63) + ".com", strings.Repeat("a", 63) + ".com"},
		{longest, longest},
		{longest + ".", longest},
	}
	for _, tc := range tests {
		got, err := NormalizeDomain(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("NormalizeDomain(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestNormalizeDomainRejects(t *testing.T) {
	long := "x" + longest // 254 characters
	tests := []struct {
		in     string
		reason string // a fragment of the message
	}{
		{"", "required"},
		{"   ", "required"},
		{"exa mple.com", "spaces"},
		{"example.com\tx", "spaces"},
		{"example.com\x00", "control"},
		{"exa\u202emple.com", "control"},
		{"exa\xffmple.com", "control"},
		{"user@example.com", "user name"},
		{"https://user:pw@example.com/", "user name"},
		{"example.com@evil.io", "user name"},
		{"ftp://example.com", "http, https"},
		{"javascript://example.com", "http, https"},
		{"https://", "no host"},
		{"https:///path", "no host"},
		{"*", "wildcard"},
		{"*.", "wildcard"},
		{"*.*.example.com", "not a valid"},
		{"-x-", "not a valid"},
		{"-shop.example.com", "not a valid"},
		{"shop-.example.com", "not a valid"},
		{"example..com", "not a valid"},
		{".example.com", "not a valid"},
		{"example.com..", "not a valid"},
		{"exa_mple.com", "not a valid"},
		{"exa!mple.com", "not a valid"},
		{"xn--a.com", "not a valid"},
		{"1.2.3", "not a valid"},
		{"999.1.1.1", "not a valid"},
		{"0x7f.1", "not a valid"},
		{"example.123", "not a valid"},
		{"[::1", "not a valid"},
		{"[127.0.0.1]", "not a valid"},
		{"[fe80::1%25eth0]", "not a valid"},
		{"[::1]x", "not a valid"},
		{"example.com:", "port"},
		{"example.com:abc", "port"},
		{"example.com:0", "port"},
		{"example.com:65536", "port"},
		{"[::1]:99999", "port"},
		{"javascript:alert(1)", "port"},
		{strings.Repeat("a", 64) + ".com", "63"},
		{long, "253"},
		{strings.Repeat("a", 2000), "253"},
		{"com", "public suffix"},
		{"COM.", "public suffix"},
		{"*.com", "public suffix"},
		{"co.uk", "public suffix"},
		{"github.io", "public suffix"},
		{"intranet", "public suffix"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			got, err := NormalizeDomain(tc.in)
			if err == nil {
				t.Fatalf("NormalizeDomain(%q) = %q, want an error", tc.in, got)
			}
			quoted := ""
			if strings.TrimSpace(tc.in) != "" {
				quoted = shown(strings.TrimSpace(tc.in))
			}
			checkBadRequest(t, err, quoted)
			if !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("message %q does not say %q", err.Error(), tc.reason)
			}
		})
	}
}

func TestNormalizeDomains(t *testing.T) {
	var many []string
	for i := range MaxDomains + 1 {
		many = append(many, fmt.Sprintf("site%d.example.com", i))
	}
	tests := []struct {
		name   string
		in     string
		want   []string
		reason string
	}{
		{"commas", "a.com,b.com", []string{"a.com", "b.com"}, ""},
		{"spaces around", " a.com , b.com ", []string{"a.com", "b.com"}, ""},
		{"newlines and semicolons", "a.com\r\nb.com;c.com\n", []string{"a.com", "b.com", "c.com"}, ""},
		{"space separated", "a.com b.com", []string{"a.com", "b.com"}, ""},
		{"duplicates keep first order", "b.com, A.com, https://b.com/x, *.a.com", []string{"b.com", "a.com"}, ""},
		{"empty items", " , ,a.com,,;", []string{"a.com"}, ""},
		{"the maximum", strings.Join(many[:MaxDomains], ","), many[:MaxDomains], ""},
		{"the maximum after duplicates", strings.Join(append(many[:MaxDomains:MaxDomains], many[0]), ","), many[:MaxDomains], ""},
		{"empty", "", nil, "At least one"},
		{"separators only", " ,;\n ", nil, "At least one"},
		{"too many", strings.Join(many, ","), nil, `at most 20 domains; "site20.example.com" is one more`},
		{"one bad item", "a.com, user@b.com, c.com", nil, `"user@b.com"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NormalizeDomains(tc.in)
			if tc.reason == "" {
				if err != nil || !slices.Equal(got, tc.want) {
					t.Fatalf("NormalizeDomains(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("NormalizeDomains(%q) = %q, want an error", tc.in, got)
			}
			checkBadRequest(t, err, "")
			if !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("message %q does not say %q", err.Error(), tc.reason)
			}
		})
	}
}
