package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
)

// MaxDomains is how many domains one embed token may list.
const MaxDomains = 20

// NormalizeDomain turns what an owner types into the host an Origin header carries, so the
// lock compares like with like: "https://Shop.Example.com:8443/path" → "shop.example.com",
// "bücher.de" → "xn--bcher-kva.de", "*.example.com" → "example.com" (subdomains pass anyway),
// "::1" → "[::1]". Scheme (http or https only), port, path, query, fragment and one trailing
// dot are dropped. It refuses what would lock nothing or too much: user info (in
// "user@evil.io" the host is evil.io), invalid names, and a bare TLD or other public suffix
// ("com", "co.uk", "github.io"), which would let in every site under it; "localhost" is the
// one single-label name allowed.
func NormalizeDomain(s string) (string, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return "", badKey("err.embed.domain_required", "A domain is required.")
	}
	// refuse words the error from the reason's sentence; key is its catalog message, which
	// takes the quoted input and then args.
	refuse := func(key, reason string, args ...any) (string, error) {
		return "", bad("The domain %s %s", shown(in), reason).WithKey(key, append([]any{shown(in)}, args...)...)
	}
	refuseHost := func(reason string) (string, error) { return refuse(hostReasonKeys[reason], reason) }
	if len(in) > maxHostInput {
		return refuseHost(reasonLong)
	}
	if strings.IndexFunc(in, unicode.IsSpace) >= 0 {
		return refuse("err.embed.domain_spaces", "must not contain spaces.")
	}
	if !utf8.ValidString(in) || strings.IndexFunc(in, notPrintable) >= 0 {
		return refuse("err.embed.domain_control", "contains an invisible or control character.")
	}

	rest := in
	if scheme, after, ok := strings.Cut(rest, "://"); ok && isScheme(scheme) {
		if s := strings.ToLower(scheme); s != "http" && s != "https" {
			return refuse("err.embed.domain_scheme", "must be a web address: http, https or no scheme.")
		}
		rest = after
	} else {
		rest = strings.TrimPrefix(rest, "//")
	}
	if i := strings.IndexAny(rest, `/?#\`); i >= 0 {
		rest = rest[:i]
	}
	if rest == "" {
		return refuse("err.embed.domain_no_host", "names no host.")
	}
	if strings.Contains(rest, "@") {
		return refuse("err.embed.domain_userinfo", "must not contain a user name; give only the site's domain.")
	}
	host, reason := splitHostPort(rest, true)
	if reason != "" {
		return refuseHost(reason)
	}
	if host == "*" || host == "*." {
		return refuse("err.embed.domain_wildcard", `is a wildcard alone; give the domain, such as "example.com" (its subdomains are allowed too).`)
	}
	host = strings.TrimPrefix(host, "*.")
	host, reason = canonicalHost(host)
	if reason != "" {
		return refuseHost(reason)
	}
	if !isIP(host) && host != "localhost" {
		if suffix, _ := publicsuffix.PublicSuffix(host); suffix == host {
			return refuse("err.embed.domain_public_suffix", `is a top-level domain or public suffix and would allow every site under it; give the site's own domain, such as "example.`+host+`".`, host)
		}
	}
	return host, nil
}

// NormalizeDomains reads an owner's list: items separated by commas, semicolons, newlines or
// spaces, each normalised by NormalizeDomain, duplicates dropped keeping the first, at least
// one and at most MaxDomains.
func NormalizeDomains(list string) ([]string, error) {
	items := strings.FieldsFunc(list, func(r rune) bool {
		return r == ',' || r == ';' || unicode.IsSpace(r)
	})
	var out []string
	seen := make(map[string]bool)
	for _, item := range items {
		d, err := NormalizeDomain(item)
		if err != nil {
			return nil, err
		}
		if seen[d] {
			continue
		}
		if len(out) == MaxDomains {
			return nil, badKey("err.embed.domains_too_many", "A token may list at most %d domains; %s is one more.", MaxDomains, shown(d))
		}
		seen[d] = true
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, badKey("err.embed.domains_required", "At least one domain is required.")
	}
	return out, nil
}

// hostReasonKeys are the catalog keys of the reasons splitHostPort and canonicalHost give.
var hostReasonKeys = map[string]string{
	reasonInvalid: "err.embed.domain_invalid",
	reasonLong:    "err.embed.domain_too_long",
	reasonLabel:   "err.embed.domain_label_too_long",
	reasonPort:    "err.embed.domain_port",
}

// isScheme reports whether s has a URL scheme's syntax (RFC 3986: a letter, then letters,
// digits, "+", "-" or "."), so that "example.com/a://b" is not read as a scheme.
func isScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

func notPrintable(r rune) bool { return !unicode.IsPrint(r) }
