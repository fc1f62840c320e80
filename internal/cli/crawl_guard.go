package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"svc/internal/crawl"
	"svc/internal/fetch"
)

// allowPrivateHint names the two ways to let the crawler reach private addresses.
const allowPrivateHint = "pass --allow-private (or set SVC_CRAWL_ALLOW_PRIVATE=1)"

// checkStartAddress refuses, before anything is stored, a start URL whose host the crawler's
// address guard would refuse (crawl.CheckStart, the one check every surface makes): the
// crawl itself would only count the page as skipped ("blocked") and end with nothing, and
// the operator would not learn why.
func checkStartAddress(ctx context.Context, rawURL string, allowPrivate bool) error {
	return startRefused("crawl", crawl.CheckStart(ctx, rawURL, allowPrivate))
}

// startRefused words crawl.CheckStart's refusal for the command line (exit 2), naming
// --allow-private for an address that allowing private ones would let through; other errors
// pass as they are.
func startRefused(cmd string, err error) error {
	var r *fetch.StartRefusal
	switch {
	case errors.As(err, &r) && r.Private:
		return usagef("%s: %s is refused: %s, and the crawler fetches only public addresses; %s to crawl it", cmd, r.Host, r.Reason, allowPrivateHint)
	case errors.As(err, &r):
		return usagef("%s: %s is refused: %s; the crawler never fetches it", cmd, r.Host, r.Reason)
	}
	return err
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
