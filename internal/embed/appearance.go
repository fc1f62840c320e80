package embed

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The widget's appearance per token (issue 28; DECISIONS.md "Widget appearance"). Each
// setting has a normaliser here that returns the stored form or a client error naming the
// setting and its limit; account applies them to a token.

// Limits of the appearance settings.
const (
	MaxTitleChars         = 60
	MaxWelcomeChars       = 300
	MaxLauncherLabelChars = 40
	// MaxOffset bounds the launcher's distance from the page's side and bottom (px): enough
	// to clear a cookie bar or a site's own button, never off a phone's screen.
	MaxOffset = 240
	// Panel size on a desktop (px); on a phone the open panel fills the screen.
	MinPanelWidth, MaxPanelWidth   = 300, 600
	MinPanelHeight, MaxPanelHeight = 400, 800
	MaxStarters                    = 5
	MaxStarterChars                = 150
	MaxInlineChars                 = 200
	MaxAvatarURLChars              = 2048
)

// Positions and themes.
const (
	PositionRight = "right"
	PositionLeft  = "left"
	ThemeLight    = "light"
	ThemeDark     = "dark"
	ThemeAuto     = "auto" // the visitor's prefers-color-scheme
)

// cleanText drops control characters other than the line breaks keep allows (which become
// "\n", or a space without it), bidi controls and the ends' spaces; invalid UTF-8 is refused
// by the caller first.
func cleanText(s string, keepLines bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r':
			if keepLines {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case unicode.IsControl(r) && unicode.IsSpace(r):
			b.WriteByte(' ')
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// text is a cleaned text setting of at most max characters.
func text(field, s string, max int, keepLines bool) (string, error) {
	if !utf8.ValidString(s) {
		return "", badKey("err.embed.text_utf8", "%s is not valid UTF-8 text.", field)
	}
	v := cleanText(s, keepLines)
	if n := utf8.RuneCountInString(v); n > max {
		return "", badKey("err.embed.text_too_long", "%s is too long: %d characters, at most %d.", field, n, max)
	}
	return v, nil
}

// NormalizeTitle is the panel's title: one line, at most MaxTitleChars; "" is the account's
// name.
func NormalizeTitle(s string) (string, error) { return text("title", s, MaxTitleChars, false) }

// NormalizeWelcome is a welcome message in field (welcome, welcome_tr, …): line breaks kept,
// at most MaxWelcomeChars.
func NormalizeWelcome(field, s string) (string, error) {
	return text(field, s, MaxWelcomeChars, true)
}

// NormalizeLauncherLabel is the text beside the launcher's icon; "" is the icon alone.
func NormalizeLauncherLabel(s string) (string, error) {
	return text("launcher_label", s, MaxLauncherLabelChars, false)
}

// ParsePosition reads right or left ("" is right).
func ParsePosition(s string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "", PositionRight:
		return PositionRight, nil
	case PositionLeft:
		return v, nil
	}
	return "", badKey("err.embed.position", "position must be right or left, not %s.", shown(s))
}

// ParseTheme reads light, dark or auto ("" is light).
func ParseTheme(s string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "", ThemeLight:
		return ThemeLight, nil
	case ThemeDark, ThemeAuto:
		return v, nil
	}
	return "", badKey("err.embed.theme", "theme must be light, dark or auto, not %s.", shown(s))
}

// pixels reads a whole number of pixels in [lo, hi]; a trailing "px" is allowed.
func pixels(field, s string, lo, hi int) (int, error) {
	v := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "px")
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, badKey("err.embed.pixels", "%s must be a whole number of pixels from %d to %d, not %s.", field, lo, hi, shown(s))
	}
	return n, nil
}

// ParseOffset reads offset_x or offset_y: 0 to MaxOffset px.
func ParseOffset(field, s string) (int, error) { return pixels(field, s, 0, MaxOffset) }

// ParsePanelWidth and ParsePanelHeight read the desktop panel's size.
func ParsePanelWidth(s string) (int, error) {
	return pixels("panel_width", s, MinPanelWidth, MaxPanelWidth)
}

func ParsePanelHeight(s string) (int, error) {
	return pixels("panel_height", s, MinPanelHeight, MaxPanelHeight)
}

// NormalizeStarters cleans the starter questions: empty ones dropped, duplicates (by their
// text, case-insensitively) dropped, at most MaxStarters of at most MaxStarterChars each.
func NormalizeStarters(qs []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, q := range qs {
		v, err := text("a starter question", q, MaxStarterChars, false)
		if err != nil {
			return nil, err
		}
		if v == "" || seen[strings.ToLower(v)] {
			continue
		}
		seen[strings.ToLower(v)] = true
		out = append(out, v)
	}
	if len(out) > MaxStarters {
		return nil, badKey("err.embed.starters_too_many", "At most %d starter questions; %d were given.", MaxStarters, len(out))
	}
	return out, nil
}

// NormalizeInline is the CSS selector of the element the widget renders into ("" floats).
// The page's querySelector judges its syntax; here it is one line of printable text without
// the characters that could end a style rule or an HTML attribute.
func NormalizeInline(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", badKey("err.embed.text_utf8", "%s is not valid UTF-8 text.", "inline")
	}
	v := strings.TrimSpace(s)
	if utf8.RuneCountInString(v) > MaxInlineChars {
		return "", badKey("err.embed.text_too_long", "%s is too long: %d characters, at most %d.", "inline", utf8.RuneCountInString(v), MaxInlineChars)
	}
	if strings.ContainsAny(v, "{}<;\\`\"") || strings.IndexFunc(v, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
	}) >= 0 {
		return "", badKey("err.embed.inline", "inline must be a CSS selector such as #chat or .help-box, not %s.", shown(s))
	}
	return v, nil
}

// NormalizeAvatarURL checks the owner's avatar address: "" (none) or an absolute https URL
// with a host and no user name, at most MaxAvatarURLChars. Whether the image may be fetched
// (public address, type, size) is the fetcher's to say.
func NormalizeAvatarURL(s string) (string, error) {
	v := strings.TrimSpace(s)
	if v == "" {
		return "", nil
	}
	if len(v) > MaxAvatarURLChars {
		return "", badKey("err.embed.avatar_url_too_long", "avatar_url is longer than %d characters.", MaxAvatarURLChars)
	}
	u, err := url.Parse(v)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Hostname() == "" || u.User != nil {
		return "", badKey("err.embed.avatar_url", "avatar_url must be an https address of an image, such as https://example.com/logo.png.")
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return "", badKey("err.embed.avatar_https", "avatar_url must be an https address; %s is not.", shown(v))
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// WelcomeLangs are the languages a welcome may be given in besides the default (the widget's
// languages): welcome_tr, welcome_en, welcome_de.
var WelcomeLangs = []string{"tr", "en", "de"}

// AvatarPath is where svc serves an avatar image: /widget/avatar/<sha256>.<ext>, "" for none.
// The address changes with the bytes, so it is cached for good.
func AvatarPath(hash, typ string) string {
	ext := AvatarExt(typ)
	if hash == "" || ext == "" {
		return ""
	}
	return "/widget/avatar/" + hash + "." + ext
}

// AvatarExt is the file extension of an avatar's media type, "" for another type.
func AvatarExt(typ string) string {
	switch typ {
	case "image/png":
		return "png"
	case "image/jpeg":
		return "jpg"
	case "image/webp":
		return "webp"
	case "image/gif":
		return "gif"
	}
	return ""
}
