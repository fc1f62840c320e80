package fetch

import "errors"

// The sentinel errors below are always returned wrapped with the URL and the
// reason, so callers test them with errors.Is and log the full message.
var (
	// ErrBlocked means the destination address or host name is not allowed:
	// a private, loopback, link-local or otherwise non-public address without
	// Options.AllowPrivate, or a cloud metadata endpoint (always).
	ErrBlocked = errors.New("fetch: destination blocked")

	// ErrTooLarge means a body (after decompression) was larger than the limit.
	ErrTooLarge = errors.New("fetch: body too large")

	// ErrTooManyRedirects means the redirect chain was longer than allowed,
	// which is also how redirect loops end.
	ErrTooManyRedirects = errors.New("fetch: too many redirects")

	// ErrOffScope means a redirect pointed outside Options.InScope.
	ErrOffScope = errors.New("fetch: redirect target out of scope")

	// ErrBadURL means the URL (or a redirect's Location) is not an absolute
	// http(s) URL without credentials and with a valid port.
	ErrBadURL = errors.New("fetch: bad URL")

	// ErrTimeout means the request, including reading the body, did not
	// finish within Options.Timeout (such errors also wrap
	// context.DeadlineExceeded), or that a connect, TLS handshake or
	// response-header timeout under it fired.
	ErrTimeout = errors.New("fetch: timeout")

	// ErrStatus means a sitemap (or, for Robots.Check, a robots.txt) answered
	// with a status that makes it unusable. Get never returns it: for Get a
	// non-2xx status is a normal Response.
	ErrStatus = errors.New("fetch: unexpected HTTP status")

	// ErrEncoding means the server used a Content-Encoding we did not ask for
	// and cannot decode.
	ErrEncoding = errors.New("fetch: unsupported content encoding")
)
