package embed

import (
	"strconv"
	"strings"
)

// OriginHost returns the host of an Origin header value ("https://a.example.com:8443" →
// "a.example.com"), normalised as NormalizeDomain does so it can be compared with a token's
// list. Only http and https origins with no path, user info, query or fragment are
// accepted; "null" (sandboxed frames, file: pages), an empty or malformed value gives ok
// false, and the caller must then refuse rather than guess.
//
// An origin is an ASCII serialisation (RFC 6454): browsers send an IDN as punycode, so raw
// non-ASCII bytes, control characters and spaces are no browser's and are refused rather
// than mapped (IDNA would turn full-width "ｅｘａｍｐｌｅ.com" into "example.com").
func OriginHost(origin string) (host string, ok bool) {
	o, ok := parseOrigin(origin)
	return o.host, ok
}

// CanonicalOrigin returns the serialisation of an origin OriginHost accepts, rebuilt from
// its parts rather than copied: lower-case scheme, "://", the canonical ASCII host (with the
// trailing dot the page's URL had, which the browser keeps), and the port unless it is the
// scheme's default. For what browsers send it is the value itself, so it is what
// Access-Control-Allow-Origin must echo; a response header never carries request bytes.
func CanonicalOrigin(origin string) (string, bool) {
	o, ok := parseOrigin(origin)
	if !ok {
		return "", false
	}
	out := o.scheme + "://" + o.host
	if o.dot {
		out += "."
	}
	if o.port != 0 && !(o.scheme == "http" && o.port == 80) && !(o.scheme == "https" && o.port == 443) {
		out += ":" + strconv.Itoa(o.port)
	}
	return out, true
}

// origin is a parsed Origin header value.
type origin struct {
	scheme string // "http" or "https"
	host   string // canonical, as canonicalHost returns it
	dot    bool   // the name was written with a trailing dot
	port   int    // 0 when absent
}

func parseOrigin(s string) (origin, bool) {
	if s == "" || s == "null" || len(s) > maxHostInput || !printableASCII(s) {
		return origin{}, false
	}
	scheme, rest, found := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	if !found || scheme != "http" && scheme != "https" {
		return origin{}, false
	}
	if strings.ContainsAny(rest, `/?#@\`) {
		return origin{}, false
	}
	h, reason := splitHostPort(rest, false)
	if reason != "" {
		return origin{}, false
	}
	port := 0
	if p := rest[len(h):]; p != "" {
		port, _ = strconv.Atoi(strings.TrimPrefix(p, ":")) // checked by splitHostPort
	}
	c, reason := canonicalHost(h)
	if reason != "" {
		return origin{}, false
	}
	return origin{scheme: scheme, host: c, dot: !isIP(c) && strings.HasSuffix(h, "."), port: port}, true
}

// printableASCII reports whether s is only visible ASCII characters: no space, no control
// character, no byte above 0x7e.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// Allowed reports whether host (from OriginHost) is one of domains (from NormalizeDomains)
// or a subdomain of one: "shop.example.com" passes for "example.com", while
// "evil-example.com" and "example.com.evil.io" do not, since a match must end on a label
// boundary. An IP address has no subdomains, so it matches only itself.
func Allowed(domains []string, host string) bool {
	if host == "" {
		return false
	}
	hostIP := isIP(host)
	for _, d := range domains {
		if d == "" {
			continue
		}
		if host == d {
			return true
		}
		if hostIP || isIP(d) {
			continue
		}
		if len(host) > len(d) && strings.HasSuffix(host, d) && host[len(host)-len(d)-1] == '.' {
			return true
		}
	}
	return false
}
