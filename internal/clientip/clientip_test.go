package clientip

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestOfBelievesOnlyTrustedProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	for _, tc := range []struct {
		name, remote, xff string
		trusted           []netip.Prefix
		want              string
	}{
		{"no proxies: the header is ignored", "203.0.113.5:1234", "198.51.100.1", nil, "203.0.113.5"},
		{"an untrusted peer cannot speak for others", "203.0.113.5:1234", "198.51.100.1", trusted, "203.0.113.5"},
		{"a trusted proxy names the client", "10.0.0.2:80", "198.51.100.1", trusted, "198.51.100.1"},
		{"the rightmost untrusted hop wins", "10.0.0.2:80", "1.1.1.1, 198.51.100.1, 10.0.0.3", trusted, "198.51.100.1"},
		{"a malformed hop stops the walk", "10.0.0.2:80", "198.51.100.1, junk", trusted, "10.0.0.2"},
		{"IPv4-mapped addresses are unmapped", "[::ffff:203.0.113.9]:80", "", nil, "203.0.113.9"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := Of(r, tc.trusted); got.String() != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestKeyGroupsIPv6By64(t *testing.T) {
	a := Key(netip.MustParseAddr("2001:db8:1:2:3:4:5:6"))
	b := Key(netip.MustParseAddr("2001:db8:1:2:ffff::1"))
	c := Key(netip.MustParseAddr("2001:db8:1:3::1"))
	if a != b || a == c {
		t.Fatalf("keys %q %q %q", a, b, c)
	}
	if Key(netip.Addr{}) != "unknown" || Key(netip.MustParseAddr("192.0.2.1")) != "192.0.2.1" {
		t.Fatal("IPv4 and invalid keys")
	}
}
