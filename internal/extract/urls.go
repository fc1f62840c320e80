package extract

import (
	"net/url"
	"strings"
)

// resolveURL makes ref absolute against base and drops its fragment. It returns "" for
// references that are not web links (javascript:, mailto:, data:, "#", "http:" without a
// host) or do not parse.
// Without a base a relative reference cannot be made absolute and is returned as written.
func resolveURL(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "#") {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	u.Fragment, u.RawFragment = "", ""
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return "" // "http:" or "https:/x" is absolute yet names no site: no link
		}
		return u.String()
	case "":
		if base == nil {
			return u.String()
		}
	}
	return ""
}

// pageString is the page's own address without fragment, the URL of a product the page
// does not give an address for.
func pageString(page *url.URL) string {
	if page == nil {
		return ""
	}
	u := *page
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// sameURL compares two absolute URLs ignoring the differences shops make between links to
// one page: scheme, "www.", letter case of the host and a trailing slash.
func sameURL(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return urlKey(a) == urlKey(b)
}

func urlKey(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	host := strings.TrimPrefix(strings.ToLower(u.Host), "www.")
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	key := host + path
	if u.RawQuery != "" {
		key += "?" + u.RawQuery
	}
	return key
}

// rootPath reports URLs that point at a site's home page.
func rootPath(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return strings.Trim(u.Path, "/") == "" && u.RawQuery == ""
}
