package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// numericIPv4 reads a host written as an IPv4 address in one of the legacy numeric forms
// that browsers and the C resolver accept (the WHATWG URL standard's IPv4 parser): one to
// four parts, each decimal, octal with a leading 0 or hexadecimal with 0x, the last filling
// the remaining bytes. "2130706433", "0x7f000001", "0x7f.0.0.1", "0177.0.0.1", "127.1",
// "127.000.000.001" and "0" are all addresses (127.0.0.1 and 0.0.0.0), not names, and must be
// judged as such; netip reads only the canonical dotted quad. A host that is not all
// numbers is a name (false).
func numericIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // one trailing dot, as in a fully qualified name
	}
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// ipv4Number is one part of a numeric IPv4 host: 0x… hexadecimal (0x alone is 0), 0…
// octal, else decimal.
func ipv4Number(p string) (uint64, bool) {
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	case p == "":
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil || n > 0xffffffff {
		return 0, false
	}
	return n, true
}

// hostAddr is the address a host names when it is written as an address (an IP literal or
// a numeric IPv4 form), else false: a name.
func hostAddr(host string) (netip.Addr, bool) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, true
	}
	return numericIPv4(host)
}

// StartRefusal is a start URL the crawler's guard would refuse: Host as the URL writes it
// and Reason, the guard's words ("127.0.0.1 is loopback"). Private means that allowing
// private addresses (Options.AllowPrivate) would let it through; otherwise it is refused
// always (a cloud metadata endpoint, an invalid address).
type StartRefusal struct {
	Host    string
	Reason  string
	Private bool
}

func (e *StartRefusal) Error() string { return ErrBlocked.Error() + ": " + e.Host + ": " + e.Reason }

// Unwrap makes a refusal ErrBlocked.
func (e *StartRefusal) Unwrap() error { return ErrBlocked }

// startLookupTimeout bounds CheckStart's DNS lookup; a slow resolver is the crawl's to
// report.
const startLookupTimeout = 5 * time.Second

// CheckStart judges a crawl's start URL before anything about it is stored, with the very
// rules the guard applies to every request (the URL's form, metadata host names, IP literals
// and numeric IPv4 forms, localhost), and a host name by every address it resolves to (the
// guard refuses a name when any answer is refused). It returns an error wrapping ErrBadURL
// for a URL the client would refuse, a *StartRefusal for a destination it would refuse, and
// nil otherwise; a name that does not resolve passes, since the crawl reports that.
func CheckStart(ctx context.Context, rawURL string, allowPrivate bool) error {
	return checkStart(ctx, rawURL, allowPrivate, func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	})
}

func checkStart(ctx context.Context, rawURL string, allowPrivate bool, lookup func(context.Context, string) ([]netip.Addr, error)) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return errors.Join(ErrBadURL, err)
	}
	host := u.Hostname()
	// Judged as if private addresses were allowed first: what is refused even then is
	// refused always; then as configured.
	strict := newGuard(true, 0)
	if err := strict.checkURL(u); err != nil {
		if errors.Is(err, ErrBlocked) {
			return &StartRefusal{Host: host, Reason: reasonOf(err)}
		}
		return err
	}
	if !allowPrivate {
		if err := newGuard(false, 0).checkHost(host); err != nil {
			return &StartRefusal{Host: host, Reason: reasonOf(err), Private: true}
		}
	}
	name := normalizeHost(host)
	if _, isAddr := hostAddr(name); isAddr || name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return nil // judged above, without DNS
	}
	lctx, cancel := context.WithTimeout(ctx, startLookupTimeout)
	defer cancel()
	ips, err := lookup(lctx, name)
	if err != nil {
		return nil
	}
	for _, ip := range ips {
		if err := CheckAddr(ip, true); err != nil {
			return &StartRefusal{Host: host, Reason: "it resolves to " + reasonOf(err)}
		}
		if err := CheckAddr(ip, allowPrivate); err != nil {
			return &StartRefusal{Host: host, Reason: "it resolves to " + reasonOf(err), Private: true}
		}
	}
	return nil
}

// reasonOf is a guard's refusal without its "destination blocked" prefix.
func reasonOf(err error) string {
	return strings.TrimPrefix(err.Error(), ErrBlocked.Error()+": ")
}
