package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/fetch"
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
	// ErrSiteAddress: the crawler's guard refuses the site's address (CheckStart): a
	// loopback, private or link-local one without AllowPrivate, or a cloud metadata
	// endpoint; errors.As finds the guard's *fetch.StartRefusal with the reason.
	ErrSiteAddress = errors.New("crawl: the crawler does not fetch the site's address")
)

// siteError is an error of NewSite: errors.Is matches its sentinel (ErrSiteURL or
// ErrSiteName), whose text it keeps, and errs.As finds the client error with the catalog key
// of the precise problem, for front ends that show errors in the user's language.
type siteError struct {
	sentinel error
	client   *errs.Error
	cause    error // the guard's refusal, for ErrSiteAddress; nil otherwise
}

func (e *siteError) Error() string { return e.sentinel.Error() }
func (e *siteError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.sentinel, e.client, e.cause}
	}
	return []error{e.sentinel, e.client}
}

func badSite(sentinel error, key, format string, args ...any) error {
	return &siteError{sentinel: sentinel, client: errs.Coded(errs.BadRequest, key, format, args...)}
}

// CheckStart refuses, before anything about it is stored, a start URL the crawler's address
// guard would refuse (fetch.CheckStart: the same rules, a host name judged by every address
// it resolves to), with the reason: a crawl of it would only count the page as skipped and
// end with nothing. allowPrivate is the crawler's Options.AllowPrivate. Every surface that
// stores a site or starts a crawl from a URL calls it (svc site add, svc crawl, the
// dashboard). The error is ErrSiteAddress with the guard's *fetch.StartRefusal, or
// ErrSiteURL for a URL that is no http(s) URL with a host.
func CheckStart(ctx context.Context, rawURL string, allowPrivate bool) error {
	err := fetch.CheckStart(ctx, rawURL, allowPrivate)
	var r *fetch.StartRefusal
	switch {
	case err == nil:
		return nil
	case errors.As(err, &r) && r.Private:
		return &siteError{sentinel: ErrSiteAddress, cause: r, client: errs.Coded(errs.BadRequest, "err.site.url_private",
			"The site's address %s is refused: %s. The crawler fetches only public addresses unless private ones are allowed (SVC_CRAWL_ALLOW_PRIVATE=1).",
			r.Host, r.Reason)}
	case errors.As(err, &r):
		return &siteError{sentinel: ErrSiteAddress, cause: r, client: errs.Coded(errs.BadRequest, "err.site.url_blocked",
			"The site's address %s is refused: %s. The crawler never fetches it.", r.Host, r.Reason)}
	}
	return badSite(ErrSiteURL, "err.site.url_invalid", "The site's address is not a valid URL.")
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
// harmless. An address the crawler would refuse (CheckStart, with allowPrivate as the
// crawler's) is refused before anything is stored.
func AddSite(ctx context.Context, st SiteStore, accountID int64, rawURL, name string, allowPrivate bool) (site store.Site, existed bool, err error) {
	site, err = NewSite(accountID, rawURL, name)
	if err != nil {
		return store.Site{}, false, err
	}
	if err := CheckStart(ctx, site.URL, allowPrivate); err != nil {
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

// StartSiteStore is the part of the store StartSite uses.
type StartSiteStore interface {
	SiteStore
	GetSite(ctx context.Context, accountID, siteID int64) (store.Site, error)
}

// ErrNotOnSite: a start URL given with a site is outside that site's scope.
var ErrNotOnSite = errors.New("crawl: the start URL is not on the site")

// StartSite is the account's site a crawl asked for by a start URL, a site id, or both
// belongs to, as `svc crawl` resolves it: the site siteID (store.ErrNotFound when the
// account has none; start, when given, must be in its scope), else the account's site
// whose scope holds start, else a new site for start (AddSite). Every address is checked
// with CheckStart before anything is stored, so a crawl the guard would refuse is refused
// here with the reason, and no site is added for it.
func StartSite(ctx context.Context, st StartSiteStore, accountID, siteID int64, start string, allowPrivate bool) (store.Site, error) {
	start = strings.TrimSpace(start)
	var su *url.URL
	if start != "" {
		if len(start) > MaxSiteURLLen {
			return store.Site{}, badSite(ErrSiteURL, "err.site.url_too_long",
				"The site's address is longer than %d characters.", MaxSiteURLLen)
		}
		if raw, err := url.Parse(start); err == nil && raw.User != nil {
			return store.Site{}, badSite(ErrSiteURL, "err.site.url_credentials",
				"The site's address must not contain a user name or password.")
		}
		u, err := NormalizeURL(start)
		if err != nil {
			return store.Site{}, badSite(ErrSiteURL, "err.site.url_invalid", "The site's address is not a valid URL.")
		}
		if err := CheckStart(ctx, u.String(), allowPrivate); err != nil {
			return store.Site{}, err
		}
		su = u
	}
	if siteID != 0 {
		site, err := st.GetSite(ctx, accountID, siteID)
		if err != nil {
			return store.Site{}, err
		}
		if su != nil {
			base, err := NormalizeURL(site.URL)
			if err != nil || !InScope(base, su) {
				return store.Site{}, &siteError{sentinel: ErrNotOnSite, client: errs.Coded(errs.BadRequest, "err.site.url_not_on_site",
					"%s is not on site %d (%s); give a URL of that site, or leave site_id out.", su.String(), site.ID, site.URL)}
			}
			return site, nil
		}
		// A site stored before its address was checked (or whose name now resolves
		// elsewhere) is refused with the reason, rather than crawled to "skipped: 1".
		if err := CheckStart(ctx, site.URL, allowPrivate); err != nil {
			return store.Site{}, err
		}
		return site, nil
	}
	if su == nil {
		return store.Site{}, badSite(ErrSiteURL, "err.site.url_required", "The site's address is required.")
	}
	sites, err := st.ListSites(ctx, accountID)
	if err != nil {
		return store.Site{}, err
	}
	for _, s := range sites {
		if base, err := NormalizeURL(s.URL); err == nil && InScope(base, su) {
			return s, nil
		}
	}
	site, _, err := AddSite(ctx, st, accountID, su.String(), "", allowPrivate)
	return site, err
}
