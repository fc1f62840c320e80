package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// addrClass is the verdict on one IP address.
type addrClass int

const (
	// classPublic addresses are ordinary globally routed unicast addresses.
	classPublic addrClass = iota
	// classPrivate addresses (loopback, RFC 1918, ULA, link-local, CGNAT,
	// reserved, documentation, multicast...) are reachable only with
	// Options.AllowPrivate: they are how an outside URL reaches inside.
	classPrivate
	// classMetadata addresses serve cloud instance metadata, i.e. credentials.
	// They are refused even with AllowPrivate, because AllowPrivate exists for
	// intranets and tests and must never hand a crawled page our cloud keys.
	classMetadata
)

// prefixRule names a range so a refusal can say why.
type prefixRule struct {
	prefix netip.Prefix
	why    string
}

func rules(pairs ...string) []prefixRule {
	out := make([]prefixRule, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, prefixRule{netip.MustParsePrefix(pairs[i]), pairs[i+1]})
	}
	return out
}

// The tables below are read-only after package initialisation.
var (
	// metadataAddrs are the instance-metadata endpoints of the clouds we know,
	// compared after unwrapping any IPv4-in-IPv6 form.
	metadataAddrs = map[netip.Addr]string{
		netip.MustParseAddr("169.254.169.254"): "cloud metadata (AWS, GCP, Azure, OCI, DigitalOcean, ...)",
		netip.MustParseAddr("169.254.170.2"):   "AWS ECS task metadata",
		netip.MustParseAddr("169.254.170.23"):  "AWS EKS pod identity",
		netip.MustParseAddr("169.254.0.23"):    "Tencent Cloud metadata",
		netip.MustParseAddr("100.100.100.200"): "Alibaba Cloud metadata",
		netip.MustParseAddr("168.63.129.16"):   "Azure WireServer",
		netip.MustParseAddr("192.0.0.192"):     "Oracle Cloud metadata",
		netip.MustParseAddr("fd00:ec2::254"):   "AWS metadata (IPv6)",
		netip.MustParseAddr("fd00:ec2::23"):    "AWS EKS pod identity (IPv6)",
	}

	// metadataHosts are names that resolve to metadata services inside their
	// cloud; refusing the name as well keeps the refusal independent of DNS.
	metadataHosts = map[string]bool{
		"metadata.google.internal":   true,
		"metadata.goog":              true,
		"metadata":                   true,
		"instance-data":              true,
		"instance-data.ec2.internal": true,
		"metadata.tencentyun.com":    true,
		"metadata.azure.internal":    true,
	}

	privateV4 = rules(
		"0.0.0.0/8", "this network",
		"10.0.0.0/8", "private (RFC 1918)",
		"100.64.0.0/10", "carrier-grade NAT",
		"127.0.0.0/8", "loopback",
		"169.254.0.0/16", "link-local",
		"172.16.0.0/12", "private (RFC 1918)",
		"192.0.0.0/24", "IETF protocol assignments",
		"192.0.2.0/24", "documentation",
		"192.88.99.0/24", "6to4 relay anycast",
		"192.168.0.0/16", "private (RFC 1918)",
		"198.18.0.0/15", "benchmarking",
		"198.51.100.0/24", "documentation",
		"203.0.113.0/24", "documentation",
		"224.0.0.0/4", "multicast",
		"240.0.0.0/4", "reserved or broadcast",
	)

	privateV6 = rules(
		"64:ff9b:1::/48", "local-use NAT64",
		"100::/64", "discard-only",
		"2001::/32", "Teredo tunnel",
		"2001:10::/28", "ORCHID",
		"2001:20::/28", "ORCHIDv2",
		"2001:db8::/32", "documentation",
		"3fff::/20", "documentation",
		"fc00::/7", "unique local (ULA)",
		"fe80::/10", "link-local",
		"fec0::/10", "site-local",
		"ff00::/8", "multicast",
	)

	globalUnicastV6 = netip.MustParsePrefix("2000::/3")
	nat64V6         = netip.MustParsePrefix("64:ff9b::/96")
	sixToFourV6     = netip.MustParsePrefix("2002::/16")
	ipv4CompatV6    = netip.MustParsePrefix("::/96")
	ipv4XlatV6      = netip.MustParsePrefix("::ffff:0:0/96")
)

// classify says whether ip is public, private or a metadata endpoint, and why.
// IPv6 forms that carry an IPv4 address (mapped, compatible, SIIT-translated,
// NAT64, 6to4) are judged by the IPv4 address they lead to, so no wrapping
// sneaks 127.0.0.1 or 169.254.169.254 past the check.
func classify(ip netip.Addr) (addrClass, string) {
	if !ip.IsValid() {
		return classMetadata, "invalid address"
	}
	ip = ip.WithZone("")
	if ip.Is4In6() {
		c, why := classify(ip.Unmap())
		return c, "IPv4-mapped " + why
	}
	if why, ok := metadataAddrs[ip]; ok {
		return classMetadata, why
	}
	if ip.Is4() {
		for _, r := range privateV4 {
			if r.prefix.Contains(ip) {
				return classPrivate, r.why
			}
		}
		return classPublic, "public"
	}
	switch {
	case ip.IsUnspecified():
		return classPrivate, "unspecified"
	case ip.IsLoopback():
		return classPrivate, "loopback"
	}
	b := ip.As16()
	embedded := func(kind string, v4 []byte) (addrClass, string) {
		c, why := classify(netip.AddrFrom4([4]byte(v4)))
		if c == classPublic {
			// A public IPv4 behind a translation prefix is as reachable as the
			// IPv4 itself; keep the verdict, but say how we got there.
			return c, kind + " of public"
		}
		return c, kind + " " + why
	}
	switch {
	case nat64V6.Contains(ip):
		return embedded("NAT64", b[12:16])
	case ipv4XlatV6.Contains(ip):
		return embedded("IPv4-translated", b[12:16])
	case ipv4CompatV6.Contains(ip):
		return embedded("IPv4-compatible", b[12:16])
	case sixToFourV6.Contains(ip):
		return embedded("6to4", b[2:6])
	}
	for _, r := range privateV6 {
		if r.prefix.Contains(ip) {
			return classPrivate, r.why
		}
	}
	if !globalUnicastV6.Contains(ip) {
		return classPrivate, "reserved (outside 2000::/3)"
	}
	return classPublic, "public"
}

// CheckAddr reports whether the crawler may connect to ip. It returns nil or
// an error wrapping ErrBlocked that names the range. Metadata endpoints are
// refused regardless of allowPrivate.
func CheckAddr(ip netip.Addr, allowPrivate bool) error {
	c, why := classify(ip)
	switch {
	case c == classMetadata:
		return fmt.Errorf("%w: %s is %s (never allowed)", ErrBlocked, ip, why)
	case c == classPrivate && !allowPrivate:
		return fmt.Errorf("%w: %s is %s", ErrBlocked, ip, why)
	}
	return nil
}

// normalizeHost lower-cases a host name and drops trailing dots so that
// "Metadata.Google.Internal." is recognised.
func normalizeHost(h string) string {
	return strings.TrimRight(strings.ToLower(h), ".")
}

// guard decides which destinations are reachable and dials only those.
type guard struct {
	allowPrivate bool
	// lookup resolves a host name; tests replace it to simulate DNS answers.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	dialer *net.Dialer
}

func newGuard(allowPrivate bool, dialTimeout time.Duration) *guard {
	g := &guard{allowPrivate: allowPrivate}
	g.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	g.dialer = &net.Dialer{
		Timeout:   dialTimeout,
		KeepAlive: 30 * time.Second,
		// Control sees the exact socket address about to be connected. The
		// dialer below only ever passes checked IP literals, so this is a
		// second lock on the same door, in case a future change dials a name.
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: cannot verify socket address %q", ErrBlocked, address)
			}
			return CheckAddr(ap.Addr(), g.allowPrivate)
		},
	}
	return g
}

// checkURL validates a URL before any connection is made: absolute http(s),
// no user:password@, a host, a port in 1..65535, not a metadata host name, and
// (for IP literals) an allowed address. Host names are checked again after
// resolution by dialContext.
func (g *guard) checkURL(u *url.URL) error {
	if u == nil {
		return fmt.Errorf("%w: empty URL", ErrBadURL)
	}
	switch u.Scheme {
	case "http", "https":
	default:
		return fmt.Errorf("%w: %q: scheme %q is not http or https", ErrBadURL, u.Redacted(), u.Scheme)
	}
	if u.User != nil {
		return fmt.Errorf("%w: %q: credentials in URLs are not allowed", ErrBadURL, u.Redacted())
	}
	if u.Opaque != "" {
		return fmt.Errorf("%w: %q: not a hierarchical URL", ErrBadURL, u.Redacted())
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("%w: %q: no host", ErrBadURL, u.Redacted())
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: %q: invalid port %q", ErrBadURL, u.Redacted(), p)
		}
	}
	return g.checkHost(host)
}

// checkHost refuses metadata host names and disallowed IP literals.
func (g *guard) checkHost(host string) error {
	name := normalizeHost(host)
	if metadataHosts[name] {
		return fmt.Errorf("%w: host %q is a cloud metadata endpoint (never allowed)", ErrBlocked, host)
	}
	if ip, ok := hostAddr(name); ok {
		// A numeric form ("2130706433", "0x7f.0.0.1", "127.1") is the address it spells.
		return CheckAddr(ip, g.allowPrivate)
	}
	if !g.allowPrivate && (name == "localhost" || strings.HasSuffix(name, ".localhost")) {
		// RFC 6761 reserves these for loopback; no need to ask DNS.
		return fmt.Errorf("%w: host %q is loopback", ErrBlocked, host)
	}
	return nil
}

// maxDialAddrs bounds how many resolved addresses one dial tries, so a name
// with hundreds of records cannot stretch a request.
const maxDialAddrs = 4

// dialContext is the transport's only way to open a connection. It resolves
// the name itself, refuses the whole name if any answer is disallowed, and
// connects to the checked IP, so there is no second resolution an attacker's
// DNS could answer differently (DNS rebinding).
func (g *guard) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: dial address %q: %v", ErrBadURL, addr, err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil || port == 0 {
		return nil, fmt.Errorf("%w: dial address %q: invalid port", ErrBadURL, addr)
	}
	if err := g.checkHost(host); err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, ok := hostAddr(host); ok {
		ips = []netip.Addr{ip}
	} else {
		ips, err = g.lookup(ctx, host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("resolve %s: no addresses", host)
		}
	}
	// A name that resolves to both a public and an internal address is
	// refused outright: dialing only the good one would still let a hostile
	// zone probe which internal addresses answer.
	for _, ip := range ips {
		if err := CheckAddr(ip, g.allowPrivate); err != nil {
			return nil, fmt.Errorf("%s resolves to a blocked address: %w", host, err)
		}
	}
	if len(ips) > maxDialAddrs {
		ips = ips[:maxDialAddrs]
	}
	var errs []error
	for _, ip := range ips {
		target := netip.AddrPortFrom(ip.Unmap().WithZone(""), uint16(port))
		conn, err := g.dialer.DialContext(ctx, network, target.String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}
