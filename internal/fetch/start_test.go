package fetch

import (
	"context"
	"errors"
	"net/netip"
	"testing"
)

// The legacy numeric forms of an IPv4 address are addresses, as browsers and the C resolver
// read them; before, they passed the guard as names that do not resolve.
func TestNumericIPv4(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]string{
		"0":                "0.0.0.0",
		"2130706433":       "127.0.0.1",
		"0x7f000001":       "127.0.0.1",
		"0X7F000001":       "127.0.0.1",
		"0x7f.0.0.1":       "127.0.0.1",
		"0177.0.0.1":       "127.0.0.1",
		"127.1":            "127.0.0.1",
		"127.0.1":          "127.0.0.1",
		"127.000.000.001":  "127.0.0.1",
		"169.254.43518":    "169.254.169.254",
		"0xa9fea9fe":       "169.254.169.254",
		"10.0.0.1.":        "10.0.0.1",
		"8.8.8.8":          "8.8.8.8",
		"0x":               "0.0.0.0",
		"4294967295":       "255.255.255.255",
		"1.2.3.0x4":        "1.2.3.4",
		"1.0x2.0003.4":     "1.2.3.4",
		"192.168.0.0x101":  "",
		"4294967296":       "",
		"256.0.0.1":        "",
		"1.2.3.4.5":        "",
		"example.com":      "",
		"shop.example":     "",
		"08.0.0.1":         "", // not octal
		"0x7g.0.0.1":       "",
		"1..1":             "",
		"":                 "",
		"metadata.google.": "",
	} {
		ip, ok := numericIPv4(host)
		switch {
		case want == "" && ok:
			t.Errorf("%q read as the address %s, want a name", host, ip)
		case want != "" && (!ok || ip != netip.MustParseAddr(want)):
			t.Errorf("%q = %s %v, want %s", host, ip, ok, want)
		}
	}
}

// CheckStart refuses every private spelling of a start URL before a crawl is stored, says
// whether allowing private addresses would let it through, and resolves names.
func TestCheckStart(t *testing.T) {
	t.Parallel()
	dns := map[string][]netip.Addr{
		"intranet.example": {netip.MustParseAddr("10.1.2.3")},
		"rebind.example":   {netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("169.254.169.254")},
		"shop.example":     {netip.MustParseAddr("93.184.216.34")},
	}
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		if ips, ok := dns[host]; ok {
			return ips, nil
		}
		return nil, errors.New("no such host")
	}
	const never, private, ok = 0, 1, 2
	for _, tc := range []struct {
		url     string
		allow   bool
		verdict int
	}{
		{"http://127.0.0.1:8080/", false, private},
		{"http://localhost:8080/", false, private},
		{"http://[::1]:8080/", false, private},
		{"http://0.0.0.0/", false, private},
		{"http://[::ffff:127.0.0.1]/", false, private},
		{"http://0/", false, private},
		{"http://2130706433/", false, private},
		{"http://0x7f000001/", false, private},
		{"http://0x7f.0.0.1/", false, private},
		{"http://0177.0.0.1/", false, private},
		{"http://127.1/", false, private},
		{"http://127.000.000.001/", false, private},
		{"http://intranet.example/", false, private},
		{"http://169.254.169.254/", false, never},
		{"http://169.254.169.254/", true, never},
		{"http://0xa9fea9fe/", true, never},
		{"http://metadata.google.internal/", false, never},
		{"http://metadata.google.internal/", true, never},
		{"http://rebind.example/", true, never},
		{"http://127.0.0.1:8080/", true, ok},
		{"http://127.1/", true, ok},
		{"http://intranet.example/", true, ok},
		{"https://shop.example/", false, ok},
		{"https://unknown.example/", false, ok}, // the crawl reports a name that does not resolve
	} {
		err := checkStart(context.Background(), tc.url, tc.allow, lookup)
		var r *StartRefusal
		got := ok
		if errors.As(err, &r) {
			got = never
			if r.Private {
				got = private
			}
			if r.Reason == "" || r.Host == "" || !errors.Is(err, ErrBlocked) {
				t.Errorf("%s: refusal %+v", tc.url, r)
			}
		} else if err != nil {
			t.Errorf("%s: %v, want a refusal or nil", tc.url, err)
			continue
		}
		if got != tc.verdict {
			t.Errorf("%s (allow private %v): verdict %d (%v), want %d", tc.url, tc.allow, got, err, tc.verdict)
		}
	}
	if err := checkStart(context.Background(), "ftp://shop.example/", false, lookup); !errors.Is(err, ErrBadURL) {
		t.Errorf("ftp: %v, want ErrBadURL", err)
	}
}
