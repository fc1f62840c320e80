package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for zero Options fields.
const (
	// DefaultUserAgent names the crawler honestly; operators should append a
	// contact URL via Options.UserAgent so site owners can reach them.
	DefaultUserAgent = "Mozilla/5.0 (compatible; svc-crawler/1.0; +https://github.com/svc)"
	// DefaultAgentToken is the robots.txt product token matching DefaultUserAgent.
	DefaultAgentToken = "svc-crawler"

	DefaultTimeout      = 15 * time.Second
	DefaultMaxBodyBytes = 5 << 20
	DefaultMaxRedirects = 5

	// maxHeaderBytes bounds a response's header block; real sites stay far
	// below it, hostile ones could otherwise send megabytes of cookies.
	maxHeaderBytes = 128 << 10
	// maxConnectTimeout caps TCP connect and TLS handshake separately from
	// the overall timeout, so one dead address does not eat the whole budget.
	maxConnectTimeout = 10 * time.Second

	// acceptHeader prefers what the crawler can use.
	acceptHeader = "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5"
)

// Options configure a Client. The zero value is usable and safe: public
// addresses only, 15 s, 5 MiB, 5 redirects, any http(s) redirect target.
type Options struct {
	// AllowPrivate permits loopback, private (RFC 1918, ULA fc00::/7),
	// link-local, CGNAT and other non-public destinations, for intranets and
	// tests. Cloud metadata endpoints stay blocked even then.
	AllowPrivate bool
	// UserAgent is sent with every request; DefaultUserAgent when empty.
	UserAgent string
	// Timeout bounds a whole request including reading the body, so a server
	// that drips one byte a second is cut off; DefaultTimeout when <= 0.
	Timeout time.Duration
	// MaxBodyBytes bounds the (decompressed) body of Get; larger bodies fail
	// with ErrTooLarge after reading at most the limit plus one byte.
	// DefaultMaxBodyBytes when <= 0.
	MaxBodyBytes int64
	// MaxRedirects is how many redirects Get follows; DefaultMaxRedirects when
	// 0, none when negative (the first redirect is ErrTooManyRedirects).
	MaxRedirects int
	// InScope says whether a redirect target may be followed (ErrOffScope
	// otherwise). Nil allows any http(s) target. It is not applied to the
	// URL passed to Get: the caller chose that one.
	InScope func(*url.URL) bool
	// Transport replaces the guarded transport; for tests only. URL checks
	// (scheme, credentials, port, metadata hosts, IP literals) still apply,
	// but resolved addresses are then not checked.
	Transport http.RoundTripper
}

// Client fetches pages, robots.txt files and sitemaps under the limits of its
// Options. It is safe for concurrent use and holds no state besides the
// connection pool.
type Client struct {
	rt           http.RoundTripper
	transport    *http.Transport // nil when Options.Transport was given
	guard        *guard
	userAgent    string
	timeout      time.Duration
	maxBody      int64
	maxRedirects int
	inScope      func(*url.URL) bool

	// Sitemap limits; fields rather than constants so tests can shrink them.
	sitemapMaxBytes    int64
	sitemapMaxChildren int
	sitemapMaxDepth    int
	sitemapTimeout     time.Duration
}

// New builds a Client; zero fields of opts take their defaults.
func New(opts Options) *Client {
	c := &Client{
		userAgent:    opts.UserAgent,
		timeout:      opts.Timeout,
		maxBody:      opts.MaxBodyBytes,
		maxRedirects: opts.MaxRedirects,
		inScope:      opts.InScope,
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBodyBytes
	}
	switch {
	case c.maxRedirects == 0:
		c.maxRedirects = DefaultMaxRedirects
	case c.maxRedirects < 0:
		c.maxRedirects = 0
	}
	c.sitemapMaxBytes = sitemapMaxBytes
	c.sitemapMaxChildren = sitemapMaxChildren
	c.sitemapMaxDepth = sitemapMaxDepth
	// Sitemaps may be ten times larger than a page; give them more time, but
	// still a bound.
	c.sitemapTimeout = 4 * c.timeout

	connect := min(c.timeout, maxConnectTimeout)
	c.guard = newGuard(opts.AllowPrivate, connect)
	if opts.Transport != nil {
		c.rt = opts.Transport
		return c
	}
	c.transport = &http.Transport{
		// Never an environment proxy: it would dial on our behalf and bypass
		// every address check below.
		Proxy:               nil,
		DialContext:         c.guard.dialContext,
		ForceAttemptHTTP2:   true,
		TLSClientConfig:     &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: connect,
		// A little over Timeout, so that for pages the overall deadline
		// fires first and reports itself; for sitemaps (longer deadline) it
		// still bounds the wait for headers.
		ResponseHeaderTimeout:  c.timeout + time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: maxHeaderBytes,
		// We decompress ourselves so decompressed bytes are counted against
		// the body limit and gzip-encoded sitemaps are handled the same way.
		DisableCompression:  true,
		MaxIdleConns:        64,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
	}
	c.rt = c.transport
	return c
}

// CloseIdleConnections closes pooled keep-alive connections, for shutdown.
func (c *Client) CloseIdleConnections() {
	if c.transport != nil {
		c.transport.CloseIdleConnections()
	}
}

// Request is one GET. Set ETag and/or LastModified (from an earlier Response)
// to make it conditional.
type Request struct {
	URL          string
	ETag         string
	LastModified string
}

// Response is what Get returns for any HTTP status. Non-2xx statuses are not
// errors: Status says what happened and Body is empty.
type Response struct {
	// URL is the final URL after redirects.
	URL *url.URL
	// Status is the HTTP status code of the final response.
	Status int
	// ContentType is the lower-case media type without parameters, sniffed
	// from the body when the server sent none.
	ContentType string
	// Body holds a 2xx body. HTML, XHTML and text (except XML) are decoded to
	// UTF-8; other types are the raw bytes.
	Body []byte
	// Charset names the encoding Body was decoded from ("utf-8",
	// "windows-1254", ...), empty when Body was not decoded.
	Charset string
	// ETag and LastModified are the validators for a later conditional GET.
	// On 304 they fall back to the request's values when the server omits them.
	ETag         string
	LastModified string
	// NotModified is true on 304.
	NotModified bool
	// Header is the final response's header.
	Header http.Header
}

// policy is what differs between a page fetch, a robots.txt fetch and a
// sitemap fetch.
type policy struct {
	maxBody      int64
	timeout      time.Duration
	maxRedirects int
	inScope      func(*url.URL) bool
	// truncate keeps the first maxBody bytes instead of failing (robots.txt:
	// RFC 9309 lets crawlers ignore what follows the first 500 KiB).
	truncate bool
	// decode turns HTML and text into UTF-8.
	decode bool
}

func (c *Client) pagePolicy() policy {
	return policy{
		maxBody:      c.maxBody,
		timeout:      c.timeout,
		maxRedirects: c.maxRedirects,
		inScope:      c.inScope,
		decode:       true,
	}
}

// Get fetches req.URL, following redirects within the Options' limits.
// Errors are transport failures, blocked destinations (ErrBlocked), bad URLs
// (ErrBadURL), redirect problems (ErrTooManyRedirects, ErrOffScope), size
// (ErrTooLarge) and time (ErrTimeout); each names the URL.
func (c *Client) Get(ctx context.Context, req Request) (*Response, error) {
	resp, _, err := c.get(ctx, req, c.pagePolicy())
	return resp, err
}

// get is Get under an explicit policy; truncated reports that the body was
// cut at pol.maxBody (only with pol.truncate).
func (c *Client) get(ctx context.Context, req Request, pol policy) (_ *Response, truncated bool, _ error) {
	o, err := c.open(ctx, req, pol)
	if err != nil {
		return nil, false, err
	}
	out := &Response{
		URL:          o.url,
		Status:       o.resp.StatusCode,
		ETag:         o.resp.Header.Get("ETag"),
		LastModified: o.resp.Header.Get("Last-Modified"),
		Header:       o.resp.Header,
	}
	mediaType, params := parseContentType(o.resp.Header.Get("Content-Type"))
	out.ContentType = mediaType

	if o.resp.StatusCode == http.StatusNotModified {
		drainAndClose(o.body)
		out.NotModified = true
		if out.ETag == "" {
			out.ETag = req.ETag
		}
		if out.LastModified == "" {
			out.LastModified = req.LastModified
		}
		return out, false, nil
	}
	if o.resp.StatusCode < 200 || o.resp.StatusCode > 299 {
		drainAndClose(o.body)
		return out, false, nil
	}

	body, err := readAll(o.body, o.resp.ContentLength, pol.maxBody)
	_ = o.body.Close()
	if err != nil {
		if !pol.truncate || !errors.Is(err, ErrTooLarge) {
			return nil, false, fmt.Errorf("fetch %s: read body: %w", o.url.Redacted(), err)
		}
		truncated = true
	}
	if out.ContentType == "" && len(body) > 0 {
		out.ContentType, _ = parseContentType(http.DetectContentType(body))
	}
	out.Body = body
	if pol.decode && decodable(out.ContentType) {
		out.Body, out.Charset = decodeText(body, out.ContentType, params["charset"])
	}
	return out, truncated, nil
}

// opened is a response with its body wrapped in our limits. The caller must
// close body, which also releases the request's deadline.
type opened struct {
	resp *http.Response
	url  *url.URL
	body *bodyReader
}

// open sends the request (following redirects) and wraps a 2xx body with the
// decompression and size limits of pol. The deadline of pol.timeout covers
// everything until body is closed.
func (c *Client) open(ctx context.Context, req Request, pol policy) (*opened, error) {
	u, err := url.Parse(strings.TrimSpace(req.URL))
	if err != nil {
		return nil, fmt.Errorf("fetch %q: %w: %v", req.URL, ErrBadURL, err)
	}
	u.Fragment, u.RawFragment = "", ""
	if err := c.guard.checkURL(u); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}

	ctx, cancel := context.WithTimeoutCause(ctx, pol.timeout, ErrTimeout)
	header := http.Header{}
	header.Set("User-Agent", c.userAgent)
	header.Set("Accept", acceptHeader)
	header.Set("Accept-Encoding", "gzip")
	if req.ETag != "" {
		header.Set("If-None-Match", req.ETag)
	}
	if req.LastModified != "" {
		header.Set("If-Modified-Since", req.LastModified)
	}

	resp, final, err := c.follow(ctx, u, header, pol)
	if err != nil {
		err = deadlineError(ctx, pol.timeout, err)
		cancel()
		return nil, fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	body := &bodyReader{
		Reader:  resp.Body,
		ctx:     ctx,
		closers: []func() error{resp.Body.Close},
		cancel:  cancel,
		timeout: pol.timeout,
	}
	o := &opened{resp: resp, url: final, body: body}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return o, nil
	}

	encoding := resp.Header.Get("Content-Encoding")
	identity := encoding == "" || strings.EqualFold(encoding, "identity")
	if identity && !pol.truncate && resp.ContentLength > pol.maxBody {
		_ = body.Close()
		return nil, fmt.Errorf("fetch %s: Content-Length %d over %d bytes: %w",
			final.Redacted(), resp.ContentLength, pol.maxBody, ErrTooLarge)
	}
	decoded, closeDecoder, err := decodeContentEncoding(resp.Body, encoding, pol.maxBody)
	if err != nil {
		err = deadlineError(ctx, pol.timeout, err)
		_ = body.Close()
		return nil, fmt.Errorf("fetch %s: %w", final.Redacted(), err)
	}
	if closeDecoder != nil {
		body.closers = append(body.closers, closeDecoder)
	}
	body.Reader = newCapReader(decoded, pol.maxBody,
		fmt.Errorf("body over %d bytes: %w", pol.maxBody, ErrTooLarge))
	return o, nil
}

// parseContentType returns the lower-case media type and its parameters,
// tolerating the malformed parameters real servers send.
func parseContentType(v string) (string, map[string]string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", nil
	}
	mt, params, err := mime.ParseMediaType(v)
	if err != nil && !errors.Is(err, mime.ErrInvalidMediaParameter) {
		mt, _, _ = strings.Cut(v, ";")
		params = nil
	}
	return strings.ToLower(strings.TrimSpace(mt)), params
}
