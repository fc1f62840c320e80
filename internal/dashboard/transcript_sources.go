package dashboard

import (
	"net/url"
	"strings"
)

// sourceLink is one source of a reply as the transcript shows it: Href is set only for an
// absolute http(s) URL, so that anything else (a Q&A entry without a page, a scheme a page
// should not link to) is plain text.
type sourceLink struct {
	Title, Href string
}

// SourceLinks are the reply's sources (the KB documents it quoted), for the transcript.
func (m transcriptMsg) SourceLinks() []sourceLink {
	out := make([]sourceLink, 0, len(m.Sources))
	for _, s := range m.Sources {
		if strings.TrimSpace(s.Title) == "" {
			continue
		}
		out = append(out, sourceLink{Title: s.Title, Href: httpURL(s.URL)})
	}
	return out
}

// httpURL is u when it is an absolute http or https URL with a host, else "".
func httpURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return p.String()
}
