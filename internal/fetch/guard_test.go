package fetch

import (
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		ip   string
		want addrClass
	}{
		// public
		{"8.8.8.8", classPublic},
		{"1.1.1.1", classPublic},
		{"93.184.216.34", classPublic},
		{"2001:4860::8888", classPublic},
		{"2606:4700:4700::1111", classPublic},
		{"::ffff:8.8.8.8", classPublic},
		{"64:ff9b::808:808", classPublic}, // NAT64 of 8.8.8.8
		{"2002:808:808::1", classPublic},  // 6to4 of 8.8.8.8
		{"100.63.255.255", classPublic},   // just below CGNAT
		{"100.128.0.0", classPublic},      // just above CGNAT
		{"172.32.0.1", classPublic},       // just above 172.16/12
		{"168.63.129.15", classPublic},    // next to Azure WireServer
		{"169.253.255.255", classPublic},  // just below link-local
		{"2a00:1450:4001::200e", classPublic},

		// private, loopback, link-local and friends (IPv4)
		{"127.0.0.1", classPrivate},
		{"127.255.255.254", classPrivate},
		{"10.0.0.1", classPrivate},
		{"172.16.0.1", classPrivate},
		{"172.31.255.255", classPrivate},
		{"192.168.1.1", classPrivate},
		{"169.254.1.1", classPrivate},
		{"100.64.0.1", classPrivate},
		{"100.127.255.255", classPrivate},
		{"0.0.0.0", classPrivate},
		{"0.1.2.3", classPrivate},
		{"224.0.0.1", classPrivate},
		{"239.255.255.250", classPrivate},
		{"255.255.255.255", classPrivate},
		{"240.0.0.1", classPrivate},
		{"192.0.2.1", classPrivate},
		{"198.18.0.1", classPrivate},

		// IPv6
		{"::1", classPrivate},
		{"::", classPrivate},
		{"fc00::1", classPrivate},
		{"fd12:3456::1", classPrivate},
		{"fe80::1", classPrivate},
		{"fe80::1%eth0", classPrivate},
		{"fec0::1", classPrivate},
		{"ff02::1", classPrivate},
		{"2001:db8::1", classPrivate},
		{"2001::1", classPrivate}, // Teredo
		{"100::1", classPrivate},
		{"4000::1", classPrivate}, // outside 2000::/3

		// IPv4 inside IPv6
		{"::ffff:127.0.0.1", classPrivate},
		{"::ffff:10.1.2.3", classPrivate},
		{"::127.0.0.1", classPrivate},        // IPv4-compatible
		{"::ffff:0:127.0.0.1", classPrivate}, // SIIT
		{"64:ff9b::7f00:1", classPrivate},    // NAT64 of 127.0.0.1
		{"64:ff9b::a00:1", classPrivate},     // NAT64 of 10.0.0.1
		{"64:ff9b:1::1", classPrivate},       // local-use NAT64
		{"2002:7f00:1::1", classPrivate},     // 6to4 of 127.0.0.1
		{"2002:c0a8:101::1", classPrivate},   // 6to4 of 192.168.1.1

		// metadata, in every disguise
		{"169.254.169.254", classMetadata},
		{"169.254.170.2", classMetadata},
		{"100.100.100.200", classMetadata},
		{"168.63.129.16", classMetadata},
		{"fd00:ec2::254", classMetadata},
		{"::ffff:169.254.169.254", classMetadata},
		{"::169.254.169.254", classMetadata},
		{"64:ff9b::a9fe:a9fe", classMetadata},
		{"2002:a9fe:a9fe::1", classMetadata},
		{"::ffff:100.100.100.200", classMetadata},
	}
	for _, tc := range tests {
		t.Run(tc.ip, func(t *testing.T) {
			ip := netip.MustParseAddr(tc.ip)
			got, why := classify(ip)
			if got != tc.want {
				t.Fatalf("classify(%s) = %v (%s), want %v", tc.ip, got, why, tc.want)
			}
			errPublic := CheckAddr(ip, false)
			errPrivate := CheckAddr(ip, true)
			switch tc.want {
			case classPublic:
				if errPublic != nil || errPrivate != nil {
					t.Fatalf("public address refused: %v / %v", errPublic, errPrivate)
				}
			case classPrivate:
				if !errors.Is(errPublic, ErrBlocked) || errPrivate != nil {
					t.Fatalf("private address: without AllowPrivate %v, with %v", errPublic, errPrivate)
				}
			case classMetadata:
				if !errors.Is(errPublic, ErrBlocked) || !errors.Is(errPrivate, ErrBlocked) {
					t.Fatalf("metadata address allowed: %v / %v", errPublic, errPrivate)
				}
			}
		})
	}
	if c, _ := classify(netip.Addr{}); c != classMetadata {
		t.Fatalf("zero Addr must be refused always, got %v", c)
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		raw          string
		allowPrivate bool
		want         error
	}{
		{"https://example.com/a", false, nil},
		{"http://example.com:8080/a", false, nil},
		{"http://8.8.8.8/", false, nil},
		{"ftp://example.com/", false, ErrBadURL},
		{"file:///etc/passwd", false, ErrBadURL},
		{"javascript:alert(1)", false, ErrBadURL},
		{"gopher://example.com:70/", false, ErrBadURL},
		{"http://user:pass@example.com/", false, ErrBadURL},
		{"http://user@example.com/", false, ErrBadURL},
		{"http:///path", false, ErrBadURL},
		{"http:example.com", false, ErrBadURL},
		{"http://example.com:0/", false, ErrBadURL},
		{"http://example.com:65536/", false, ErrBadURL},
		{"http://127.0.0.1/", false, ErrBlocked},
		{"http://127.0.0.1/", true, nil},
		{"http://[::1]:8080/", false, ErrBlocked},
		{"http://[::ffff:127.0.0.1]/", false, ErrBlocked},
		{"http://localhost/", false, ErrBlocked},
		{"http://app.localhost/", false, ErrBlocked},
		{"http://169.254.169.254/latest/meta-data", true, ErrBlocked},
		{"http://[fd00:ec2::254]/", true, ErrBlocked},
		{"http://[::ffff:a9fe:a9fe]/", true, ErrBlocked},
		{"http://metadata.google.internal/computeMetadata/v1/", true, ErrBlocked},
		{"http://METADATA.google.internal./", true, ErrBlocked},
		{"http://100.100.100.200/", true, ErrBlocked},
		// Numeric IPv4 forms are the addresses they spell, not names left to DNS.
		{"http://2130706433/", false, ErrBlocked},
		{"http://0x7f.0.0.1/", false, ErrBlocked},
		{"http://127.1/", false, ErrBlocked},
		{"http://0/", false, ErrBlocked},
		{"http://0xa9fea9fe/", true, ErrBlocked},
		{"http://134744072/", false, nil}, // 8.8.8.8
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			u, err := url.Parse(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			g := newGuard(tc.allowPrivate, 0)
			err = g.checkURL(u)
			if tc.want == nil && err != nil {
				t.Fatalf("checkURL(%s) = %v, want nil", tc.raw, err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("checkURL(%s) = %v, want %v", tc.raw, err, tc.want)
			}
		})
	}
}

// Without AllowPrivate the loopback test server must not even see a TCP
// connection, let alone a request.
func TestLoopbackBlockedWithoutAllowPrivate(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("secret"))
	}))
	c := New(Options{})
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	for _, raw := range []string{
		srv.URL + "/",
		"http://localhost" + port + "/",
		"http://[::ffff:127.0.0.1]" + port + "/",
	} {
		resp, err := c.Get(testContext(t), Request{URL: raw})
		if !errors.Is(err, ErrBlocked) {
			t.Fatalf("Get(%s) = %v, %v; want ErrBlocked", raw, resp, err)
		}
	}
	if n := srv.conns.Load(); n != 0 {
		t.Fatalf("server saw %d connections, want 0", n)
	}
}

// Names are checked after resolution, every answer counts, and the checked
// address is the one dialled.
func TestResolvedAddressesChecked(t *testing.T) {
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("host=" + r.Host))
	}))
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	dns := map[string][]string{
		"intranet.test": {"127.0.0.1"},
		"rebind.test":   {"8.8.8.8", "127.0.0.1"},
		"meta.test":     {"169.254.169.254"},
		"mapped.test":   {"::ffff:169.254.169.254"},
	}
	tests := []struct {
		host         string
		allowPrivate bool
		wantErr      error
	}{
		{"intranet.test", false, ErrBlocked},
		{"rebind.test", false, ErrBlocked},
		{"meta.test", true, ErrBlocked},
		{"mapped.test", true, ErrBlocked},
		{"intranet.test", true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			before := srv.conns.Load()
			c := New(Options{AllowPrivate: tc.allowPrivate})
			t.Cleanup(c.CloseIdleConnections)
			fakeDNS(c, dns)
			resp, err := c.Get(testContext(t), Request{URL: "http://" + tc.host + port + "/"})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if srv.conns.Load() != before {
					t.Fatal("blocked fetch reached the server")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := "host=" + tc.host + port; string(resp.Body) != want {
				t.Fatalf("body %q, want %q", resp.Body, want)
			}
		})
	}
}

// The dialer's Control hook refuses a blocked socket address even if a
// caller hands it an IP directly.
func TestDialerControlRefuses(t *testing.T) {
	g := newGuard(false, 0)
	_, err := g.dialer.DialContext(testContext(t), "tcp", "127.0.0.1:9")
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("dial 127.0.0.1 = %v, want ErrBlocked", err)
	}
	g = newGuard(true, 0)
	_, err = g.dialer.DialContext(testContext(t), "tcp", "169.254.169.254:80")
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("dial metadata = %v, want ErrBlocked", err)
	}
}
