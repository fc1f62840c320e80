package crawl

import (
	"errors"
	"net"
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/idna"
)

// scope is the part of the web a site's crawl may visit: the site's host and its subdomains,
// over http or https. "www." is not part of the base, so a site added as www.shop.test also
// covers shop.test and help.shop.test. A non-default port is part of the scope: another
// service on the same machine is another site.
type scope struct {
	base string // lower-case host without "www." and port
	port string // "" for the scheme's default port
}

func newScope(site *url.URL) scope {
	return scope{base: BaseHost(site.Hostname()), port: site.Port()}
}

// BaseHost is the host a site's scope is built on: lower case, IDN in ASCII, no trailing dot,
// no "www.".
func BaseHost(host string) string {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if a, err := idna.Lookup.ToASCII(h); err == nil {
		h = a
	}
	return strings.TrimPrefix(h, "www.")
}

func (s scope) contains(u *url.URL) bool {
	if u == nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		return false
	}
	h := BaseHost(u.Hostname())
	if h != s.base && !strings.HasSuffix(h, "."+s.base) {
		return false
	}
	return u.Port() == s.port
}

// errBadURL is returned for a start URL that cannot be crawled.
var errBadURL = errors.New("not an http or https URL with a host")

// NormalizeURL parses raw and returns the form under which a page is stored and
// deduplicated: scheme and host lower case, IDN in ASCII, no default port, no fragment, no
// user info, an empty path as "/", dot segments resolved, and tracking parameters (utm_*,
// gclid, fbclid, ...) removed because they never change the content.
func NormalizeURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, err
	}
	return normalize(u)
}

func normalize(u *url.URL) (*url.URL, error) {
	v := *u
	v.Scheme = strings.ToLower(v.Scheme)
	if (v.Scheme != "http" && v.Scheme != "https") || v.Hostname() == "" {
		return nil, errBadURL
	}
	host := strings.TrimSuffix(strings.ToLower(v.Hostname()), ".")
	if a, err := idna.Lookup.ToASCII(host); err == nil {
		host = a
	}
	port := v.Port()
	if (v.Scheme == "http" && port == "80") || (v.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	v.Host, v.User, v.Fragment, v.RawFragment, v.Opaque = host, nil, "", "", ""
	if v.Path == "" {
		v.Path = "/"
	} else {
		trailing := strings.HasSuffix(v.Path, "/")
		v.Path = path.Clean(v.Path)
		if trailing && v.Path != "/" {
			v.Path += "/"
		}
	}
	v.RawPath = ""
	if v.RawQuery != "" {
		q := v.Query()
		for k := range q {
			if isTrackingParam(k) {
				q.Del(k)
			}
		}
		v.RawQuery = q.Encode() // sorted, so parameter order does not make a new page
	}
	v.ForceQuery = false
	return &v, nil
}

func isTrackingParam(k string) bool {
	k = strings.ToLower(k)
	if strings.HasPrefix(k, "utm_") {
		return true
	}
	switch k {
	case "gclid", "fbclid", "msclkid", "yclid", "mc_cid", "mc_eid", "_ga", "_gl", "ref_src", "igshid":
		return true
	}
	return false
}

// skippedExtensions are links that are never HTML pages; fetching them would only spend the
// page budget.
var skippedExtensions = map[string]bool{
	".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".webp": true, ".svg": true, ".ico": true,
	".bmp": true, ".avif": true, ".css": true, ".js": true, ".mjs": true, ".json": true, ".xml": true,
	".zip": true, ".gz": true, ".rar": true, ".7z": true, ".tar": true, ".mp3": true, ".mp4": true,
	".webm": true, ".avi": true, ".mov": true, ".wav": true, ".woff": true, ".woff2": true, ".ttf": true,
	".eot": true, ".exe": true, ".dmg": true, ".apk": true, ".doc": true, ".docx": true, ".xls": true,
	".xlsx": true, ".ppt": true, ".pptx": true, ".csv": true, ".rss": true, ".atom": true,
}

// mazeLike reports URLs that look like a crawler trap: very long, very deep, or a path that
// repeats one segment over and over (/a/b/a/b/a/b, calendars, relative-link loops).
func mazeLike(u *url.URL) bool {
	s := u.String()
	if len(s) > 1024 || len(u.RawQuery) > 256 {
		return true
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(segs) > 12 {
		return true
	}
	count := map[string]int{}
	for _, seg := range segs {
		if seg == "" {
			continue
		}
		count[seg]++
		if count[seg] >= 3 {
			return true
		}
	}
	return false
}

// InScope reports whether u belongs to the site at siteURL (its host or a subdomain, same port).
func InScope(siteURL, u *url.URL) bool { return newScope(siteURL).contains(u) }
