package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"svc/internal/fetch"
)

// lookupTimeout bounds the start URL's DNS lookup; a slow resolver is the crawl's to report.
const lookupTimeout = 5 * time.Second

// allowPrivateHint names the two ways to let the crawler reach private addresses.
const allowPrivateHint = "pass --allow-private (or set SVC_CRAWL_ALLOW_PRIVATE=1)"

// checkStartAddress refuses, before anything is stored, a start URL whose host the crawler's
// address guard (internal/fetch) would refuse: the crawl itself would only count the page as
// skipped ("blocked") and end with nothing, and the operator would not learn why. It judges
// addresses with fetch.CheckAddr, as the guard does, and a host name by every address it
// resolves to (the guard refuses a name when any answer is refused). A name that does not
// resolve passes: the crawl reports that.
func checkStartAddress(ctx context.Context, rawURL string, allowPrivate bool) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil // NormalizeURL accepted it; the crawl reports anything else
	}
	host := strings.TrimRight(strings.ToLower(u.Hostname()), ".")
	var addrs []netip.Addr
	switch ip, err := netip.ParseAddr(host); {
	case err == nil:
		addrs = []netip.Addr{ip}
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		if allowPrivate {
			return nil
		}
		return usagef("crawl: %s is a loopback host and the crawler fetches only public addresses; %s to crawl it", host, allowPrivateHint)
	default:
		lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		defer cancel()
		if addrs, err = net.DefaultResolver.LookupNetIP(lctx, "ip", host); err != nil {
			return nil
		}
	}
	for _, ip := range addrs {
		if err := fetch.CheckAddr(ip, true); err != nil {
			return usagef("crawl: %s is refused: %s; the crawler never fetches it", host, blockedReason(err))
		}
		if err := fetch.CheckAddr(ip, allowPrivate); err != nil {
			return usagef("crawl: %s is refused: %s, and the crawler fetches only public addresses; %s to crawl it",
				host, blockedReason(err), allowPrivateHint)
		}
	}
	return nil
}

// blockedReason is the guard's verdict without its "destination blocked" prefix.
func blockedReason(err error) string {
	return strings.TrimPrefix(err.Error(), fetch.ErrBlocked.Error()+": ")
}

// blockedHint tells, on stderr, why a crawl skipped pages as "blocked", for a crawl that did
// run: the JSON on stdout only counts them.
func blockedHint(w io.Writer, blocked int, allowPrivate bool) {
	if blocked == 0 {
		return
	}
	if allowPrivate {
		fmt.Fprintf(w, "svc: crawl: %d URL(s) skipped as blocked: they lead to cloud metadata endpoints or other addresses the crawler never fetches\n", blocked)
		return
	}
	fmt.Fprintf(w, "svc: crawl: %d URL(s) skipped as blocked: they lead to private, loopback or cloud metadata addresses; %s to crawl private and loopback ones\n",
		blocked, allowPrivateHint)
}
