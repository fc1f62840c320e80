package embed

import "testing"

func TestOriginHost(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" for refused
	}{
		{"https://a.example.com:8443", "a.example.com"},
		{"https://example.com", "example.com"},
		{"http://localhost:3000", "localhost"},
		{"HTTPS://A.Example.COM", "a.example.com"},
		{"https://example.com.", "example.com"},
		{"https://xn--bcher-kva.de", "xn--bcher-kva.de"},
		{"https://bücher.de", ""}, // browsers send an IDN as punycode: raw Unicode is no browser's
		{"https://ｅｘａｍｐｌｅ.com", ""},
		{"https://example.com\u00a0", ""},
		{"https://exa\tmple.com", ""},
		{"https://example.com\x00", ""},
		{"http://127.0.0.1:8080", "127.0.0.1"},
		{"http://[::1]:3000", "[::1]"},
		{"http://[0:0::1]", "[::1]"},
		{"https://r3---sn-4g5e6nzz.example.com", "r3---sn-4g5e6nzz.example.com"},
		{"https://co.uk", "co.uk"}, // no list check here: it simply matches nothing narrower
		{"", ""},
		{"null", ""},
		{"example.com", ""},
		{"//example.com", ""},
		{"ftp://example.com", ""},
		{"file://", ""},
		{"chrome-extension://abcdef", ""},
		{"https://", ""},
		{"https://example.com/", ""},
		{"https://example.com/path", ""},
		{"https://example.com?q", ""},
		{"https://example.com#f", ""},
		{`https://example.com\`, ""},
		{"https://user@example.com", ""},
		{"https://example.com:", ""},
		{"https://example.com:99999", ""},
		{"https://::1", ""},
		{"https://[::1", ""},
		{"https://exa mple.com", ""},
		{" https://example.com", ""},
		{"https://example.com\r\n", ""},
		{"https://*.example.com", ""},
		{"https://-x-.com", ""},
		{"https://1.2.3", ""},
		{"https://example..com", ""},
	}
	for _, tc := range tests {
		got, ok := OriginHost(tc.in)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("OriginHost(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

// The origin echoed in Access-Control-Allow-Origin is rebuilt from its parts, never copied
// from the request: lower-case scheme, canonical ASCII host, and a port only when it is not
// the scheme's default.
func TestCanonicalOrigin(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com", "https://example.com"},
		{"https://a.example.com:8443", "https://a.example.com:8443"},
		{"HTTPS://A.Example.COM", "https://a.example.com"},
		{"https://example.com:443", "https://example.com"},
		{"http://example.com:80", "http://example.com"},
		{"http://example.com:443", "http://example.com:443"},
		{"https://example.com:08443", "https://example.com:8443"},
		{"https://example.com.", "https://example.com."},
		{"https://xn--bcher-kva.de", "https://xn--bcher-kva.de"},
		{"http://[0:0::1]:3000", "http://[::1]:3000"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"https://bücher.de", ""},
		{"https://example.com/", ""},
		{"null", ""},
		{"https://example.com\r\n", ""},
	}
	for _, tc := range tests {
		got, ok := CanonicalOrigin(tc.in)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("CanonicalOrigin(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

func TestAllowed(t *testing.T) {
	domains := []string{"example.com", "shop.test.org", "127.0.0.1", "[::1]"}
	tests := []struct {
		host string
		want bool
	}{
		{"example.com", true},
		{"shop.example.com", true},
		{"a.b.example.com", true},
		{"evil-example.com", false},
		{"notexample.com", false},
		{"example.com.evil.io", false},
		{"xample.com", false},
		{"com", false},
		{"shop.test.org", true},
		{"cdn.shop.test.org", true},
		{"test.org", false},
		{"other.test.org", false},
		{"127.0.0.1", true},
		{"1.127.0.0.1", false},
		{"x.127.0.0.1", false},
		{"127.0.0.2", false},
		{"[::1]", true},
		{"[::2]", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := Allowed(domains, tc.host); got != tc.want {
			t.Errorf("Allowed(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
	if Allowed(nil, "example.com") || Allowed([]string{""}, "") || Allowed([]string{""}, "x.") {
		t.Error("an empty list or an empty entry allowed a host")
	}
	if Allowed([]string{"0.1"}, "127.0.0.1") {
		t.Error("an IP host matched as a subdomain")
	}
}

// TestDomainLockEndToEnd runs what an owner types and what a browser sends through the same
// path the widget uses: NormalizeDomains, OriginHost, Allowed.
func TestDomainLockEndToEnd(t *testing.T) {
	tests := []struct {
		typed, origin string
		want          bool
	}{
		{"Example.COM.", "https://EXAMPLE.com", true},
		{"https://shop.example.com/cart", "https://shop.example.com:8443", true},
		{"*.example.com", "https://www.example.com", true},
		{"bücher.de", "https://shop.xn--bcher-kva.de", true},
		{"::1", "http://[::1]:3000", true},
		{"localhost:5173", "http://localhost:8080", true},
		{"example.com", "https://example.com.evil.io", false},
		{"example.com", "https://evil-example.com", false},
		{"example.com", "null", false},
		{"127.0.0.1", "http://127.0.0.1.nip.io", false},
	}
	for _, tc := range tests {
		domains, err := NormalizeDomains(tc.typed)
		if err != nil {
			t.Fatalf("NormalizeDomains(%q): %v", tc.typed, err)
		}
		host, _ := OriginHost(tc.origin)
		if got := Allowed(domains, host); got != tc.want {
			t.Errorf("typed %q, origin %q: allowed %v, want %v", tc.typed, tc.origin, got, tc.want)
		}
	}
}
