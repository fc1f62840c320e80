package embed

import (
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// Limits of a DNS name in its ASCII form (RFC 1035), without the root's trailing dot.
const (
	maxHostLen  = 253
	maxLabelLen = 63
	// maxHostInput refuses absurd input before any IDNA work; a real entry is far shorter.
	maxHostInput = 1024
)

// hostProfile is IDNA processing for lookup (UTS #46 mapping: case folding, width and
// compatibility mappings; only letters, digits and hyphens; the Bidi rule), non-transitional
// so "ß" stays "ß" as browsers now resolve it, and without the hyphen-position check: labels
// like "r3---sn-4g5e6nzz" are common and browsers send them in Origin headers. A Profile is
// immutable, so sharing one is no mutable state.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.CheckHyphens(false),
)

// Reasons a host is refused, completing the sentence `The domain "…" …`.
const (
	reasonInvalid = "is not a valid domain name or IP address."
	reasonLong    = "is longer than 253 characters."
	reasonLabel   = "has a part longer than 63 characters."
	reasonPort    = "has an invalid port."
)

// splitHostPort separates the host of an authority ("host", "host:port", "[v6]",
// "[v6]:port") from its port, which must be a number from 1 to 65535 when present. With
// bareIPv6, an authority of two or more colons is a bare IPv6 address ("::1"), which an
// owner may type but an Origin header never carries. IPv6 hosts come back in brackets.
func splitHostPort(a string, bareIPv6 bool) (host, reason string) {
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return "", reasonInvalid
		}
		host, rest := a[:end+1], a[end+1:]
		if rest != "" {
			port, ok := strings.CutPrefix(rest, ":")
			if !ok {
				return "", reasonInvalid
			}
			if !validPort(port) {
				return "", reasonPort
			}
		}
		return host, ""
	}
	switch strings.Count(a, ":") {
	case 0:
		return a, ""
	case 1:
		host, port, _ := strings.Cut(a, ":")
		if !validPort(port) {
			return "", reasonPort
		}
		return host, ""
	default:
		if !bareIPv6 {
			return "", reasonInvalid
		}
		return "[" + a + "]", ""
	}
}

func validPort(p string) bool {
	if p == "" || len(p) > 5 {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
	}
	n, _ := strconv.Atoi(p)
	return n >= 1 && n <= 65535
}

// canonicalHost puts a host in the one form both the owner's list and the Origin header are
// compared in: an IPv4 address dotted, an IPv6 address compressed in brackets ("[::1]", as
// Origin carries it), a name lower case in ASCII (punycode) without a trailing dot. It
// returns "" and a reason when h is none of these.
func canonicalHost(h string) (string, string) {
	if h == "" {
		return "", reasonInvalid
	}
	if inner, ok := strings.CutPrefix(h, "["); ok {
		inner, ok = strings.CutSuffix(inner, "]")
		addr, err := netip.ParseAddr(inner)
		if !ok || err != nil || !addr.Is6() || addr.Zone() != "" {
			return "", reasonInvalid
		}
		return "[" + addr.String() + "]", ""
	}
	if addr, err := netip.ParseAddr(h); err == nil {
		if !addr.Is4() {
			return "", reasonInvalid
		}
		return addr.String(), ""
	}
	name, err := hostProfile.ToASCII(h)
	if err != nil {
		return "", reasonInvalid
	}
	name = strings.TrimSuffix(name, ".")
	if len(name) > maxHostLen {
		return "", reasonLong
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if l == "" || l[0] == '-' || l[len(l)-1] == '-' {
			return "", reasonInvalid
		}
		if len(l) > maxLabelLen {
			return "", reasonLabel
		}
	}
	if isNumber(labels[len(labels)-1]) {
		// Browsers read a host ending in a number as an IPv4 address in a short or hex
		// form ("127.1", "0x7f.1"); it is no name, and not the dotted form Origin carries.
		return "", reasonInvalid
	}
	return name, ""
}

// isNumber reports whether a label is decimal digits or a 0x hexadecimal number.
func isNumber(l string) bool {
	digits := "0123456789"
	if rest, ok := strings.CutPrefix(l, "0x"); ok {
		l, digits = rest, "0123456789abcdef"
		if l == "" {
			return true
		}
	}
	return strings.Trim(l, digits) == ""
}

// isIP reports whether a canonical host is an address rather than a name.
func isIP(h string) bool {
	if strings.HasPrefix(h, "[") {
		return true
	}
	_, err := netip.ParseAddr(h)
	return err == nil
}
