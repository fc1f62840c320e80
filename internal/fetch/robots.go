package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
)

const (
	// robotsMaxBytes is the part of a robots.txt we read; RFC 9309 asks
	// crawlers to parse at least 500 KiB and lets them ignore the rest.
	robotsMaxBytes = 500 << 10
	// robotsMaxRedirects is the RFC's "at least five consecutive redirects".
	robotsMaxRedirects = 5
	// maxCrawlDelay caps what a site can ask for, so one robots.txt line
	// cannot stall a crawl for hours.
	maxCrawlDelay = 30 * time.Second
)

// Robots answers robots.txt questions for any number of hosts. Each origin
// (scheme, host, port) has its robots.txt fetched once, on first use, through
// the Client (so with the same address guard); concurrent first uses share
// one fetch. A Robots is meant to live for one crawl and is safe for
// concurrent use.
type Robots struct {
	client *Client
	agent  string

	mu    sync.Mutex
	hosts map[string]*robotsEntry
}

// robotsEntry is one origin's robots.txt, being fetched until done is closed.
type robotsEntry struct {
	done  chan struct{}
	rules *robotsRules
	// retry means the fetch was abandoned because its caller's context ended;
	// the entry was not kept and waiters should try again themselves.
	retry bool
}

// robotsRules is the outcome for one origin.
type robotsRules struct {
	allowAll    bool
	disallowAll bool
	// unreachable says why disallowAll was decided without rules (network
	// error, blocked address, 5xx, 429); nil otherwise.
	unreachable error
	group       *robotstxt.Group // our group (or "*"); nil with allowAll/disallowAll
	delay       time.Duration
	sitemaps    []string
}

// allowAllRules and unreachableRules are the outcomes decided without rules.
func allowAllRules() *robotsRules { return &robotsRules{allowAll: true} }
func unreachableRules(why error) *robotsRules {
	return &robotsRules{disallowAll: true, unreachable: why}
}

// NewRobots returns a robots.txt cache using c. agent is the product token
// matched against User-agent lines ("svc-crawler"); a full User-Agent string
// is reduced to its token, and an empty one means DefaultAgentToken.
func NewRobots(c *Client, agent string) *Robots {
	tok := productToken(agent)
	if tok == "" || tok == "*" {
		tok = DefaultAgentToken
	}
	return &Robots{client: c, agent: tok, hosts: map[string]*robotsEntry{}}
}

// Allowed reports whether the robots.txt of u's origin lets our agent fetch
// u. The robots.txt URL itself is always allowed. Anything that is not an
// http(s) URL, and any question whose context ends before the answer is
// known, is answered false: the safe side for a crawler.
func (r *Robots) Allowed(ctx context.Context, u *url.URL) bool {
	ok, _ := r.Check(ctx, u)
	return ok
}

// Check is Allowed with the reason for a refusal that does not come from the
// rules themselves: when robots.txt was unreachable (a blocked address,
// network failure, timeout, 5xx or 429) err wraps the cause (ErrBlocked,
// ErrTimeout, ErrStatus...); for a URL without an http(s) origin it wraps
// ErrBadURL; when ctx ended it is ctx's cause. A crawler can thus report "blocked"
// rather than "disallowed by robots.txt". err is nil whenever the answer
// comes from the file (or its absence).
func (r *Robots) Check(ctx context.Context, u *url.URL) (allowed bool, err error) {
	if _, _, ok := robotsOrigin(u); !ok {
		return false, fmt.Errorf("robots: %w: no http(s) origin", ErrBadURL)
	}
	rules := r.rules(ctx, u)
	if rules == nil {
		cause := context.Cause(ctx)
		if cause == nil {
			cause = context.Canceled
		}
		return false, fmt.Errorf("robots: %w", cause)
	}
	p := robotsRequestPath(u)
	switch {
	case p == "/robots.txt":
		return true, nil
	case rules.allowAll:
		return true, nil
	case rules.disallowAll:
		return false, rules.unreachable
	}
	return rules.group.Test(p), nil
}

// CrawlDelay is the Crawl-delay our group (or "*") asks for, capped at 30 s;
// 0 when there is none or robots.txt could not be read.
func (r *Robots) CrawlDelay(ctx context.Context, u *url.URL) time.Duration {
	if rules := r.rules(ctx, u); rules != nil {
		return rules.delay
	}
	return 0
}

// Sitemaps lists the absolute http(s) Sitemap URLs of u's robots.txt, in
// file order without duplicates. The caller may modify the slice.
func (r *Robots) Sitemaps(ctx context.Context, u *url.URL) []string {
	if rules := r.rules(ctx, u); rules != nil && len(rules.sitemaps) > 0 {
		return append([]string(nil), rules.sitemaps...)
	}
	return nil
}

// robotsOrigin returns the cache key and robots.txt URL of u's origin.
func robotsOrigin(u *url.URL) (key, robotsURL string, ok bool) {
	if u == nil || u.Hostname() == "" {
		return "", "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case scheme == "http" && port == "":
		port = "80"
	case scheme == "https" && port == "":
		port = "443"
	case scheme != "http" && scheme != "https":
		return "", "", false
	}
	hostPort := net.JoinHostPort(normalizeHost(u.Hostname()), port)
	return scheme + "://" + hostPort, scheme + "://" + hostPort + "/robots.txt", true
}

// robotsRequestPath is the part of u that rules are matched against: the
// escaped path plus query, normalised like rule paths.
func robotsRequestPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	return normalizeRobotsPath(p)
}

// rules returns the cached outcome for u's origin, fetching it if needed; nil
// when u has no origin or ctx ended first.
func (r *Robots) rules(ctx context.Context, u *url.URL) *robotsRules {
	key, robotsURL, ok := robotsOrigin(u)
	if !ok {
		return nil
	}
	for {
		r.mu.Lock()
		e, found := r.hosts[key]
		if !found {
			e = &robotsEntry{done: make(chan struct{})}
			r.hosts[key] = e
		}
		r.mu.Unlock()

		if !found {
			rules, keep := r.load(ctx, robotsURL)
			e.rules = rules
			if !keep {
				e.retry = true
				r.mu.Lock()
				if r.hosts[key] == e {
					delete(r.hosts, key)
				}
				r.mu.Unlock()
			}
			close(e.done)
			if !keep {
				return nil
			}
			return rules
		}

		select {
		case <-e.done:
			if !e.retry {
				return e.rules
			}
			if ctx.Err() != nil {
				return nil
			}
			// The fetch we waited for was abandoned by its caller; try again.
		case <-ctx.Done():
			return nil
		}
	}
}

// load fetches and interprets one robots.txt. keep is false when the outcome
// says nothing about the site (our caller's context ended) and must not be
// cached.
//
// Status rules (RFC 9309 §2.3.1):
//   - 2xx: parse the first 500 KiB.
//   - 3xx: followed up to five times; a longer chain, or a 3xx without a
//     usable Location, counts as "unavailable": allow all.
//   - 4xx, including 401 and 403: unavailable, allow all — except 429, a
//     request to slow down, which we treat like a server error.
//   - 5xx, 429, network errors, blocked addresses, anything else:
//     unreachable, disallow all ("complete disallow").
func (r *Robots) load(ctx context.Context, robotsURL string) (_ *robotsRules, keep bool) {
	pol := policy{
		maxBody:      robotsMaxBytes,
		timeout:      r.client.timeout,
		maxRedirects: robotsMaxRedirects,
		// A robots.txt may redirect to another host (http→https, bare→www);
		// reading rules there is fine even if crawling there is not. The
		// address guard still applies.
		inScope:  nil,
		truncate: true,
	}
	resp, truncated, err := r.client.get(ctx, Request{URL: robotsURL}, pol)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, false
	case errors.Is(err, ErrTooManyRedirects):
		return allowAllRules(), true
	case err != nil:
		return unreachableRules(fmt.Errorf("robots.txt unreachable: %w", err)), true
	case resp.Status >= 200 && resp.Status <= 299:
		body := resp.Body
		if truncated {
			// Drop the line cut in half by the limit.
			if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
				body = body[:i+1]
			}
		}
		return r.parse(body, resp.URL), true
	case resp.Status >= 300 && resp.Status <= 499 && resp.Status != http.StatusTooManyRequests:
		return allowAllRules(), true
	default:
		return unreachableRules(fmt.Errorf("robots.txt %s: %w: %d", resp.URL.Redacted(), ErrStatus, resp.Status)), true
	}
}

// parse turns a robots.txt body into rules for our agent.
func (r *Robots) parse(body []byte, base *url.URL) *robotsRules {
	norm := normalizeRobots(body, r.agent)
	out := &robotsRules{sitemaps: resolveSitemaps(norm.sitemaps, base)}
	data, err := robotstxt.FromBytes(norm.text)
	if err != nil || data == nil {
		// The normaliser removes everything the library rejects, so this is
		// our bug, not the site's; refuse rather than guess.
		out.disallowAll = true
		return out
	}
	out.group = data.FindGroup(r.agent)
	out.delay = min(out.group.CrawlDelay, maxCrawlDelay)
	if out.delay < 0 {
		// The library multiplies the seconds as a float into a Duration, so a huge value
		// ("Crawl-delay: 1e10") overflows to a negative one: the site asked for the most.
		out.delay = maxCrawlDelay
	}
	return out
}

// resolveSitemaps makes Sitemap values absolute against the robots.txt URL
// and keeps distinct http(s) ones.
func resolveSitemaps(values []string, base *url.URL) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range values {
		u, err := base.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		s := u.String()
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
