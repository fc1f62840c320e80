package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/store"
)

// Limits of a site record. A start URL longer than a browser would keep is a mistake, and a
// name is a label in lists.
const (
	MaxSiteURLLen  = 2048
	MaxSiteNameLen = 200
)

// Errors of NewSite, so that each front end (svc site add, the dashboard) words them itself.
var (
	// ErrSiteURL: not an absolute http or https URL with a host, too long, or carrying a user
	// name or password (which would end up in logs and in every link the KB quotes).
	ErrSiteURL = errors.New("crawl: a site's address must be an http or https URL with a host")
	// ErrSiteName: the name is longer than MaxSiteNameLen characters.
	ErrSiteName = fmt.Errorf("crawl: a site's name may be at most %d characters", MaxSiteNameLen)
)

// siteError is an error of NewSite: errors.Is matches its sentinel (ErrSiteURL or
// ErrSiteName), whose text it keeps, and errs.As finds the client error with the catalog key
// of the precise problem, for front ends that show errors in the user's language.
type siteError struct {
	sentinel error
	client   *errs.Error
}

func (e *siteError) Error() string   { return e.sentinel.Error() }
func (e *siteError) Unwrap() []error { return []error{e.sentinel, e.client} }

func badSite(sentinel error, key, format string, args ...any) error {
	return &siteError{sentinel: sentinel, client: errs.Coded(errs.BadRequest, key, format, args...)}
}

// NewSite validates a site's address and name and returns the record to store: the URL
// normalised, the host the crawl's scope is based on, and the name (the host when empty).
func NewSite(accountID int64, rawURL, name string) (store.Site, error) {
	rawURL, name = strings.TrimSpace(rawURL), strings.TrimSpace(name)
	if rawURL == "" {
		return store.Site{}, badSite(ErrSiteURL, "err.site.url_required", "The site's address is required.")
	}
	if len(rawURL) > MaxSiteURLLen {
		return store.Site{}, badSite(ErrSiteURL, "err.site.url_too_long",
			"The site's address is longer than %d characters.", MaxSiteURLLen)
	}
	// Normalising drops user info, so it is refused on the raw form.
	raw, err := url.Parse(rawURL)
	if err != nil {
		return store.Site{}, badSite(ErrSiteURL, "err.site.url_invalid", "The site's address is not a valid URL.")
	}
	if raw.User != nil {
		return store.Site{}, badSite(ErrSiteURL, "err.site.url_credentials",
			"The site's address must not contain a user name or password.")
	}
	if sc := strings.ToLower(raw.Scheme); sc != "http" && sc != "https" {
		return store.Site{}, badSite(ErrSiteURL, "err.site.url_scheme",
			"The site's address must start with http:// or https://.")
	}
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return store.Site{}, badSite(ErrSiteURL, "err.site.url_no_host",
			"The site's address has no host name, such as example.com.")
	}
	if utf8.RuneCountInString(name) > MaxSiteNameLen {
		return store.Site{}, badSite(ErrSiteName, "err.site.name_too_long",
			"The site's name may be at most %d characters.", MaxSiteNameLen)
	}
	if name == "" {
		name = u.Hostname()
	}
	return store.Site{AccountID: accountID, URL: u.String(), Host: BaseHost(u.Hostname()), Name: name}, nil
}

// SiteStore is the part of the store AddSite uses.
type SiteStore interface {
	CreateSite(ctx context.Context, s *store.Site) error
	ListSites(ctx context.Context, accountID int64) ([]store.Site, error)
}

// AddSite creates the account's site for rawURL, or returns the one it already has with
// existed set, so that adding a site twice (a script run again, a form sent twice) is
// harmless.
func AddSite(ctx context.Context, st SiteStore, accountID int64, rawURL, name string) (site store.Site, existed bool, err error) {
	site, err = NewSite(accountID, rawURL, name)
	if err != nil {
		return store.Site{}, false, err
	}
	err = st.CreateSite(ctx, &site)
	if !errors.Is(err, store.ErrConflict) {
		return site, false, err
	}
	sites, err := st.ListSites(ctx, accountID)
	if err != nil {
		return store.Site{}, false, err
	}
	for _, s := range sites {
		if s.URL == site.URL {
			return s, true, nil
		}
	}
	return store.Site{}, false, fmt.Errorf("add site %q: conflict, yet not listed: %w", site.URL, store.ErrConflict)
}
