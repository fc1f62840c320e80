package embed

import (
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"svc/internal/errs"
)

// The fuzz targets of the widget's parsers of outside input: the domains an owner types, the
// Origin header a browser (or anyone) sends, and the visitor id. Their seeds run with
// `go test`; `.ci/fuzz` (or `go test -run='^$' -fuzz='^FuzzNormalizeDomain$' ./internal/embed`)
// explores further.

// domainSeeds are inputs of domain_test.go and origin_test.go: accepted, refused and edge
// cases.
var domainSeeds = []string{
	"example.com", "Example.COM", "https://shop.example.com:8443/path?q", "//example.com/x",
	"example.com/a://b", `example.com\path`, "example.com.", "*.example.com", "bücher.de",
	"straße.de", "ｅｘａｍｐｌｅ．ｃｏｍ", "r3---sn-4g5e6nzz.example.com", "example.co.uk",
	"me.github.io", "localhost", "http://localhost:3000/", "127.0.0.1", "[::1]", "::1",
	"http://[0:0:0:0:0:0:0:1]:80/", "2001:DB8::1", "123.example.com", strings.Repeat("a", 64) + ".com",
	"exa\u202emple.com", "exa\xffmple.com", "user@example.com", "ftp://example.com", "https://",
	"*", "*.*.example.com", "-x-", "xn--a.com", "1.2.3", "0x7f.1", "[fe80::1%25eth0]",
	"example.com:0", "com", "co.uk", "github.io", "xn--bcher-kva.de", "ǅ.example", "İ.tr",
	"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.example.com",
}

// checkRefusal holds a refusal to what the dashboard and the API show: a client error with
// a catalog key and a one-line printable message.
func checkRefusal(t *testing.T, in string, err error) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.BadRequest || e.Key == "" || e.Safe == "" {
		t.Fatalf("%q refused with %#v: want a BadRequest with a catalog key", in, err)
	}
	if strings.IndexFunc(e.Safe, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 {
		t.Fatalf("%q: message %q holds a character that does not print as itself", in, e.Safe)
	}
}

// checkCanonical holds a host to the one form lists and Origin headers are compared in:
// lower-case ASCII (punycode) labels of letters, digits and hyphens within DNS's lengths, a
// dotted IPv4 address, or a compressed IPv6 address in brackets.
func checkCanonical(t *testing.T, in, host string) {
	t.Helper()
	if inner, ok := strings.CutPrefix(host, "["); ok {
		addr, err := netip.ParseAddr(strings.TrimSuffix(inner, "]"))
		if err != nil || !addr.Is6() || "["+addr.String()+"]" != host {
			t.Fatalf("%q → %q: not a canonical bracketed IPv6 address", in, host)
		}
		return
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if !addr.Is4() || addr.String() != host {
			t.Fatalf("%q → %q: not a dotted IPv4 address", in, host)
		}
		return
	}
	if len(host) == 0 || len(host) > maxHostLen {
		t.Fatalf("%q → %q: %d bytes", in, host, len(host))
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > maxLabelLen || label[0] == '-' || label[len(label)-1] == '-' {
			t.Fatalf("%q → %q: bad label %q", in, host, label)
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				t.Fatalf("%q → %q: byte %q is not lower-case ASCII", in, host, c)
			}
		}
	}
}

// FuzzNormalizeDomain: whatever an owner types is refused with a client error, or becomes a
// canonical host that normalises to itself (with or without scheme, port and path), that the
// Origin header of a page on it yields, and that admits itself and its subdomains.
func FuzzNormalizeDomain(f *testing.F) {
	for _, s := range domainSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := NormalizeDomain(in)
		if err != nil {
			if got != "" {
				t.Fatalf("NormalizeDomain(%q) = %q with error %v", in, got, err)
			}
			checkRefusal(t, in, err)
			return
		}
		checkCanonical(t, in, got)
		if again, err := NormalizeDomain(got); again != got || err != nil {
			t.Fatalf("not idempotent: %q → %q → %q, %v", in, got, again, err)
		}
		if again, err := NormalizeDomain("HTTPS://" + got + ":8443/x?y#z"); again != got || err != nil {
			t.Fatalf("%q with scheme, port and path → %q, %v; want %q", got, again, err, got)
		}
		if host, ok := OriginHost("https://" + got); !ok || host != got {
			t.Fatalf("the Origin of a page on %q reads %q, %v", got, host, ok)
		}
		if !Allowed([]string{got}, got) {
			t.Fatalf("%q does not admit itself", got)
		}
		if !isIP(got) && len(got) < maxHostLen-4 && !Allowed([]string{got}, "www."+got) {
			t.Fatalf("%q does not admit www.%s", got, got)
		}
	})
}

// FuzzNormalizeDomains: a list is refused or comes back as 1..MaxDomains distinct canonical
// hosts, and joining them again gives the same list (a stored list re-reads as itself).
func FuzzNormalizeDomains(f *testing.F) {
	f.Add("example.com, shop.example.com;bücher.de\nlocalhost 127.0.0.1")
	f.Add("a.com,A.com,https://a.com/x")
	f.Add(strings.Repeat("x.com,", 25))
	f.Add(",,; \n")
	f.Add("example.com,com")
	f.Fuzz(func(t *testing.T, list string) {
		got, err := NormalizeDomains(list)
		if err != nil {
			if got != nil {
				t.Fatalf("NormalizeDomains(%q) = %q with error %v", list, got, err)
			}
			checkRefusal(t, list, err)
			return
		}
		if len(got) == 0 || len(got) > MaxDomains {
			t.Fatalf("NormalizeDomains(%q): %d domains", list, len(got))
		}
		seen := map[string]bool{}
		for _, d := range got {
			checkCanonical(t, list, d)
			if seen[d] {
				t.Fatalf("NormalizeDomains(%q) lists %q twice", list, d)
			}
			seen[d] = true
		}
		if again, err := NormalizeDomains(strings.Join(got, ",")); err != nil || !slices.Equal(again, got) {
			t.Fatalf("round trip of %q: %q, %v", got, again, err)
		}
	})
}

// FuzzOriginHost: an Origin header is refused (empty host) or yields a canonical ASCII host,
// so what the API echoes in Access-Control-Allow-Origin can never carry raw bytes; a host
// that passes Allowed is one of the domains or ends in "." plus one of them.
func FuzzOriginHost(f *testing.F) {
	for _, s := range []string{
		"https://a.example.com:8443", "http://localhost:3000", "HTTPS://A.Example.COM", "https://bücher.de",
		"http://[::1]:3000", "https://co.uk", "null", "https://example.com/", "https://user@example.com",
		"https://example.com:99999", "https://::1", " https://example.com", "https://example.com\r\n",
		"https://*.example.com", "https://ß.de", "https://xn--zca.de", "https://évil.example.com",
	} {
		f.Add(s, "example.com,bücher.de,[::1],127.0.0.1")
	}
	f.Fuzz(func(t *testing.T, origin, list string) {
		host, ok := OriginHost(origin)
		if !ok {
			if host != "" {
				t.Fatalf("OriginHost(%q) refused but returned %q", origin, host)
			}
			return
		}
		if !utf8.ValidString(origin) {
			// Ranging over invalid UTF-8 reads U+FFFD, which IDNA turns into a punycode
			// label ("http://\x97" → "xn--zn7c") that no list can hold: refuse it, as
			// NormalizeDomain does.
			t.Fatalf("OriginHost(%q) accepted bytes that are not UTF-8 as %q", origin, host)
		}
		checkCanonical(t, origin, host)
		if again, reason := canonicalHost(host); again != host || reason != "" {
			t.Fatalf("host %q of %q re-reads as %q (%s)", host, origin, again, reason)
		}
		domains, err := NormalizeDomains(list)
		if err != nil || !Allowed(domains, host) {
			return
		}
		for _, d := range domains {
			if host == d || !isIP(d) && !isIP(host) && strings.HasSuffix(host, "."+d) {
				return
			}
		}
		t.Fatalf("%q admitted by %q though it is none of them nor a subdomain", host, domains)
	})
}

// uuidRE is the canonical 8-4-4-4-12 form, the oracle NormalizeVisitor must agree with.
var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// FuzzNormalizeVisitor: exactly the canonical UUIDs are accepted, lower-cased, and accepting
// is idempotent; a refusal returns no id that could pass for one.
func FuzzNormalizeVisitor(f *testing.F) {
	for _, s := range []string{
		"123e4567-e89b-42d3-a456-426614174000", "123E4567-E89B-42D3-A456-426614174000",
		"{123e4567-e89b-42d3-a456-426614174000}", "urn:uuid:123e4567-e89b-42d3-a456-426614174000",
		"123e4567e89b42d3a456426614174000", "123e4567-e89b-42d3-a456-42661417400é", "",
		"123e4567-e89b-42d3-a4564-26614174000", "123e4567\n-e89b-42d3-a456-42661417400",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := NormalizeVisitor(in)
		if ok != uuidRE.MatchString(in) {
			t.Fatalf("NormalizeVisitor(%q) ok = %v, want %v", in, ok, !ok)
		}
		if !ok {
			if got != "" {
				t.Fatalf("NormalizeVisitor(%q) refused but returned %q", in, got)
			}
			return
		}
		if got != strings.ToLower(in) {
			t.Fatalf("NormalizeVisitor(%q) = %q, want it lower-cased", in, got)
		}
		if again, ok := NormalizeVisitor(got); !ok || again != got {
			t.Fatalf("not idempotent: %q → %q → %q", in, got, again)
		}
	})
}
