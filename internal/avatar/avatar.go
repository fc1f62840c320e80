// Package avatar fetches the image an owner names as their widget's avatar, once, on the
// server, so that the widget can show it from svc's own origin and no visitor's browser ever
// asks a third party for it (no tracking pixel, no referrer, no IP address handed over).
//
// The address is a stranger's URL as far as the server is concerned, so it goes through the
// crawler's guarded client (internal/fetch): public addresses only unless the operator
// allows private ones (SVC_CRAWL_ALLOW_PRIVATE), checked again after DNS resolution on every
// connection, a bounded body and time, https only, including every redirect. The bytes must
// then be a PNG, JPEG, WebP or GIF image (sniffed, never the server's Content-Type; SVG is
// refused, since it is a document that can hold script), of at most MaxBytes and MaxSide
// pixels a side, and decode whole.
package avatar

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // registers the decoder
	_ "image/jpeg" // registers the decoder
	_ "image/png"  // registers the decoder
	"net/http"
	"net/url"
	"time"

	_ "golang.org/x/image/webp" // registers the decoder

	"svc/internal/embed"
	"svc/internal/errs"
	"svc/internal/fetch"
	"svc/internal/store"
)

// Limits of an avatar image.
const (
	MaxBytes = 256 << 10
	MaxSide  = 512
	MinSide  = 16
	// Timeout bounds the whole fetch: the owner waits for it when saving.
	Timeout = 10 * time.Second
)

// Types maps the decoder names of the accepted formats to their media types.
var Types = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif"}

// Options configure a Fetcher.
type Options struct {
	// AllowPrivate lets the fetch reach loopback and private addresses (the crawler's
	// SVC_CRAWL_ALLOW_PRIVATE), for intranets and tests.
	AllowPrivate bool
	// Transport replaces the guarded transport; for tests only (fetch.Options.Transport).
	Transport http.RoundTripper
}

// Fetcher fetches avatar images; it is safe for concurrent use.
type Fetcher struct {
	c            *fetch.Client
	allowPrivate bool
}

// New returns a Fetcher.
func New(o Options) *Fetcher {
	return &Fetcher{allowPrivate: o.AllowPrivate, c: fetch.New(fetch.Options{
		AllowPrivate: o.AllowPrivate,
		UserAgent:    "Mozilla/5.0 (compatible; svc-avatar/1.0)",
		Timeout:      Timeout,
		MaxBodyBytes: MaxBytes,
		MaxRedirects: 3,
		// A redirect must stay on https, like the address itself.
		InScope:   func(u *url.URL) bool { return u.Scheme == "https" },
		Transport: o.Transport,
	})}
}

func bad(key, format string, args ...any) error {
	return errs.Coded(errs.BadRequest, key, format, args...)
}

// Fetch reads the image at rawURL (an https address; see embed.NormalizeAvatarURL) and
// returns it checked, with its hash. Every failure the owner can act on is a client error
// saying what was wrong with the address or the image.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (store.EmbedAvatar, error) {
	u, err := embed.NormalizeAvatarURL(rawURL)
	if err != nil {
		return store.EmbedAvatar{}, err
	}
	if u == "" {
		return store.EmbedAvatar{}, bad("err.embed.avatar_url", "avatar_url must be an https address of an image, such as https://example.com/logo.png.")
	}
	// A clear refusal of a private or blocked address before any connection; the guarded
	// dialer checks every address again, so this is not the only line.
	if err := fetch.CheckStart(ctx, u, f.allowPrivate); err != nil {
		var r *fetch.StartRefusal
		if errors.As(err, &r) {
			return store.EmbedAvatar{}, errs.Wrap(errs.BadRequest, fmt.Sprintf(
				"The avatar's address %s is refused: %s. svc fetches images only from public addresses.", r.Host, r.Reason), err).
				WithKey("err.embed.avatar_address", r.Host, r.Reason)
		}
		return store.EmbedAvatar{}, errs.Wrap(errs.BadRequest, "The avatar's address could not be resolved; check the address.", err).
			WithKey("err.embed.avatar_unreachable")
	}
	res, err := f.c.Get(ctx, fetch.Request{URL: u})
	switch {
	case errors.Is(err, fetch.ErrTooLarge):
		return store.EmbedAvatar{}, errs.Wrap(errs.BadRequest, fmt.Sprintf("The avatar image is larger than %d KiB.", MaxBytes>>10), err).
			WithKey("err.embed.avatar_too_large", MaxBytes>>10)
	case errors.Is(err, fetch.ErrBlocked):
		return store.EmbedAvatar{}, errs.Wrap(errs.BadRequest, "The avatar's address is refused: it is not a public address.", err).
			WithKey("err.embed.avatar_blocked")
	case errors.Is(err, fetch.ErrOffScope), errors.Is(err, fetch.ErrBadURL):
		return store.EmbedAvatar{}, errs.Wrap(errs.BadRequest, "The avatar's address redirects to an address that is not https.", err).
			WithKey("err.embed.avatar_redirect")
	case err != nil:
		return store.EmbedAvatar{}, errs.Wrap(errs.BadRequest, "The avatar image could not be fetched; check that the address opens the image.", err).
			WithKey("err.embed.avatar_unreachable")
	case res.Status != http.StatusOK:
		return store.EmbedAvatar{}, bad("err.embed.avatar_status", "The avatar's address answered HTTP %d instead of an image.", res.Status)
	}
	return Check(res.Body)
}

// Check accepts data as an avatar: a PNG, JPEG, WebP or GIF image of at most MaxBytes,
// MinSide to MaxSide pixels a side, that decodes whole. The format is read from the bytes.
func Check(data []byte) (store.EmbedAvatar, error) {
	if len(data) > MaxBytes {
		return store.EmbedAvatar{}, bad("err.embed.avatar_too_large", "The avatar image is larger than %d KiB.", MaxBytes>>10)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	typ, ok := Types[format]
	if err != nil || !ok {
		return store.EmbedAvatar{}, bad("err.embed.avatar_type", "The avatar must be a PNG, JPEG, WebP or GIF image (SVG is not accepted).")
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || cfg.Width < MinSide || cfg.Height < MinSide {
		return store.EmbedAvatar{}, bad("err.embed.avatar_dimensions", "The avatar image is %d×%d pixels; each side must be from %d to %d.",
			cfg.Width, cfg.Height, MinSide, MaxSide)
	}
	// Decoding it whole proves it is the image its header says (the sizes above bound the
	// work: at most 512 × 512 pixels).
	if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
		return store.EmbedAvatar{}, bad("err.embed.avatar_type", "The avatar must be a PNG, JPEG, WebP or GIF image (SVG is not accepted).")
	}
	sum := sha256.Sum256(data)
	return store.EmbedAvatar{Hash: hex.EncodeToString(sum[:]), Type: typ, Data: data}, nil
}
