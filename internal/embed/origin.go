package embed

import (
	"strings"
)

// OriginHost returns the host of an Origin header value ("https://a.example.com:8443" →
// "a.example.com"), normalised as NormalizeDomain does so it can be compared with a token's
// list. Only http and https origins with no path, user info, query or fragment are
// accepted; "null" (sandboxed frames, file: pages), an empty or malformed value gives ok
// false, and the caller must then refuse rather than guess.
func OriginHost(origin string) (host string, ok bool) {
	if origin == "" || origin == "null" || len(origin) > maxHostInput {
		return "", false
	}
	scheme, rest, found := strings.Cut(origin, "://")
	if s := strings.ToLower(scheme); !found || s != "http" && s != "https" {
		return "", false
	}
	if strings.ContainsAny(rest, `/?#@\`) || strings.IndexFunc(rest, notPrintable) >= 0 || strings.Contains(rest, " ") {
		return "", false
	}
	h, reason := splitHostPort(rest, false)
	if reason != "" {
		return "", false
	}
	h, reason = canonicalHost(h)
	if reason != "" {
		return "", false
	}
	return h, true
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
