package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

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

// NewSite validates a site's address and name and returns the record to store: the URL
// normalised, the host the crawl's scope is based on, and the name (the host when empty).
func NewSite(accountID int64, rawURL, name string) (store.Site, error) {
	rawURL, name = strings.TrimSpace(rawURL), strings.TrimSpace(name)
	if rawURL == "" || len(rawURL) > MaxSiteURLLen {
		return store.Site{}, ErrSiteURL
	}
	// Normalising drops user info, so it is refused on the raw form.
	if raw, err := url.Parse(rawURL); err != nil || raw.User != nil {
		return store.Site{}, ErrSiteURL
	}
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return store.Site{}, ErrSiteURL
	}
	if utf8.RuneCountInString(name) > MaxSiteNameLen {
		return store.Site{}, ErrSiteName
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
