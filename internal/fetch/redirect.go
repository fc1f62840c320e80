package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// isRedirect lists the statuses we follow. 300 and 304 are not redirects in
// this sense: 300 has no single target and 304 is an answer.
func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// follow sends GET u and follows redirects itself rather than through
// http.Client, so that every hop passes the same URL check as the first one,
// the scope test and the hop limit are per call (robots.txt follows its own
// rules), and the final URL is known without digging in the response.
// Connections are still checked by the guarded dialer on every hop.
//
// It returns the final response, whose body the caller must close, and the
// final URL.
func (c *Client) follow(ctx context.Context, u *url.URL, header http.Header, pol policy) (*http.Response, *url.URL, error) {
	for hop := 0; ; hop++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrBadURL, err)
		}
		// No Referer and no cookies: the crawler carries nothing from one
		// hop to the next except the conditional-GET validators.
		req.Header = header.Clone()
		resp, err := c.rt.RoundTrip(req)
		if err != nil {
			return nil, nil, err
		}
		if !isRedirect(resp.StatusCode) {
			return resp, u, nil
		}
		loc := strings.TrimSpace(resp.Header.Get("Location"))
		if loc == "" {
			// A redirect without a target is just a status to report.
			return resp, u, nil
		}
		drainAndClose(resp.Body)

		next, err := u.Parse(loc)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: redirect from %s to unparsable Location %q: %v", ErrBadURL, u.Redacted(), loc, err)
		}
		next.Fragment, next.RawFragment = "", ""
		if hop >= pol.maxRedirects {
			return nil, nil, fmt.Errorf("%w: more than %d (next would be %s)", ErrTooManyRedirects, pol.maxRedirects, next.Redacted())
		}
		if err := c.guard.checkURL(next); err != nil {
			return nil, nil, fmt.Errorf("redirect from %s: %w", u.Redacted(), err)
		}
		if pol.inScope != nil && !pol.inScope(next) {
			return nil, nil, fmt.Errorf("%w: redirect from %s to %s", ErrOffScope, u.Redacted(), next.Redacted())
		}
		u = next
	}
}
