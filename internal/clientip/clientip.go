// Package clientip finds the address a request came from, believing X-Forwarded-For only as
// far as trusted proxies wrote it, and the key rate limits count an address under.
package clientip

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Of is the address a request came from. X-Forwarded-For is believed only as far as
// it was written by proxies we trust (SVC_TRUSTED_PROXIES): walking the header from the
// right, the first address that is not a trusted proxy is the client. Anything to its left
// was written by the client itself and could be anything, so it is never used; without
// trusted proxies the header is ignored entirely.
func Of(r *http.Request, trusted []netip.Prefix) netip.Addr {
	remote := remoteAddr(r.RemoteAddr)
	if !remote.IsValid() || !isTrusted(remote, trusted) {
		return remote
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	client := remote
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			// A malformed hop: the last address a trusted proxy vouched for is the client.
			break
		}
		client = a.Unmap()
		if !isTrusted(client, trusted) {
			break
		}
	}
	return client
}

func remoteAddr(s string) netip.Addr {
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = s
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Key is the rate-limit key of a client address: IPv6 clients are limited per /64, the
// smallest network one subscriber usually holds, so that hopping addresses does not help.
func Key(a netip.Addr) string {
	if !a.IsValid() {
		return "unknown"
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
