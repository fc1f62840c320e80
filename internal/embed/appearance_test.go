package embed

import (
	"slices"
	"strings"
	"testing"

	"svc/internal/errs"
)

func wantBad(t *testing.T, what string, err error, key string) {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.BadRequest || e.Key != key {
		t.Errorf("%s: %v, want a bad request %s", what, err, key)
	}
}

func TestAppearanceTexts(t *testing.T) {
	t.Parallel()
	if v, err := NormalizeTitle("  Yardım\tmasası \u202e\n "); err != nil || v != "Yardım masası" {
		t.Errorf("title: %q %v", v, err)
	}
	if v, err := NormalizeTitle(strings.Repeat("ş", MaxTitleChars)); err != nil || v == "" {
		t.Errorf("title at the limit: %v", err)
	}
	_, err := NormalizeTitle(strings.Repeat("a", MaxTitleChars+1))
	wantBad(t, "long title", err, "err.embed.text_too_long")
	_, err = NormalizeTitle("\xff")
	wantBad(t, "bad UTF-8", err, "err.embed.text_utf8")
	if v, err := NormalizeWelcome("welcome_de", "Hallo!\r\nWie kann ich helfen?"); err != nil || v != "Hallo!\nWie kann ich helfen?" {
		t.Errorf("welcome keeps lines: %q %v", v, err)
	}
	_, err = NormalizeWelcome("welcome", strings.Repeat("x", MaxWelcomeChars+1))
	wantBad(t, "long welcome", err, "err.embed.text_too_long")
	if e, _ := errs.As(err); !strings.Contains(e.Safe, "welcome") || !strings.Contains(e.Safe, "300") {
		t.Errorf("the message names neither the field nor the limit: %q", e.Safe)
	}
	_, err = NormalizeLauncherLabel(strings.Repeat("x", MaxLauncherLabelChars+1))
	wantBad(t, "long label", err, "err.embed.text_too_long")
}

func TestAppearanceChoices(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "right", "RIGHT": "right", " left ": "left"} {
		if v, err := ParsePosition(in); err != nil || v != want {
			t.Errorf("position %q: %q %v", in, v, err)
		}
	}
	_, err := ParsePosition("top")
	wantBad(t, "position", err, "err.embed.position")
	for in, want := range map[string]string{"": "light", "Dark": "dark", "auto": "auto"} {
		if v, err := ParseTheme(in); err != nil || v != want {
			t.Errorf("theme %q: %q %v", in, v, err)
		}
	}
	_, err = ParseTheme("sepia")
	wantBad(t, "theme", err, "err.embed.theme")
}

func TestAppearancePixels(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"0": 0, "24px": 24, " 240 ": 240} {
		if v, err := ParseOffset("offset_x", in); err != nil || v != want {
			t.Errorf("offset %q: %d %v", in, v, err)
		}
	}
	for _, bad := range []string{"-1", "241", "1.5", "", "x", "99999999999999999999"} {
		_, err := ParseOffset("offset_y", bad)
		wantBad(t, "offset "+bad, err, "err.embed.pixels")
	}
	if v, err := ParsePanelWidth("420"); err != nil || v != 420 {
		t.Errorf("width: %d %v", v, err)
	}
	for _, bad := range []string{"299", "601"} {
		_, err := ParsePanelWidth(bad)
		wantBad(t, "width "+bad, err, "err.embed.pixels")
	}
	for _, bad := range []string{"399", "801"} {
		_, err := ParsePanelHeight(bad)
		wantBad(t, "height "+bad, err, "err.embed.pixels")
	}
}

func TestAppearanceStarters(t *testing.T) {
	t.Parallel()
	got, err := NormalizeStarters([]string{" Kargo ücreti ne kadar? ", "", "kargo ÜCRETI ne kadar?", "Do you ship abroad?"})
	if err != nil || !slices.Equal(got, []string{"Kargo ücreti ne kadar?", "Do you ship abroad?"}) {
		t.Errorf("starters: %q %v", got, err)
	}
	if got, err := NormalizeStarters(nil); err != nil || got == nil || len(got) != 0 {
		t.Errorf("no starters: %#v %v", got, err)
	}
	_, err = NormalizeStarters([]string{"a", "b", "c", "d", "e", "f"})
	wantBad(t, "six starters", err, "err.embed.starters_too_many")
	_, err = NormalizeStarters([]string{strings.Repeat("q", MaxStarterChars+1)})
	wantBad(t, "long starter", err, "err.embed.text_too_long")
}

func TestAppearanceInline(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"", "#chat", ".help-box > div", "[data-chat='x']", "main #c1"} {
		if v, err := NormalizeInline(ok); err != nil || v != strings.TrimSpace(ok) {
			t.Errorf("inline %q: %q %v", ok, v, err)
		}
	}
	for _, bad := range []string{"#a{color:red}", "</script>", "#a;b", "a\nb", `"x"`} {
		_, err := NormalizeInline(bad)
		wantBad(t, "inline "+bad, err, "err.embed.inline")
	}
	_, err := NormalizeInline("#" + strings.Repeat("a", MaxInlineChars))
	wantBad(t, "long inline", err, "err.embed.text_too_long")
}

func TestAvatarURL(t *testing.T) {
	t.Parallel()
	if v, err := NormalizeAvatarURL(" https://cdn.example.com/a.png#x "); err != nil || v != "https://cdn.example.com/a.png" {
		t.Errorf("avatar: %q %v", v, err)
	}
	if v, err := NormalizeAvatarURL(""); err != nil || v != "" {
		t.Errorf("no avatar: %q %v", v, err)
	}
	_, err := NormalizeAvatarURL("http://cdn.example.com/a.png")
	wantBad(t, "http", err, "err.embed.avatar_https")
	for _, bad := range []string{"cdn.example.com/a.png", "https://user:pw@x.com/a.png", "https:///a.png", "data:image/png;base64,AAAA", "javascript:alert(1)"} {
		_, err := NormalizeAvatarURL(bad)
		if e, ok := errs.As(err); !ok || e.Kind != errs.BadRequest {
			t.Errorf("avatar %q accepted: %v", bad, err)
		}
	}
	_, err = NormalizeAvatarURL("https://x.com/" + strings.Repeat("a", MaxAvatarURLChars))
	wantBad(t, "long avatar URL", err, "err.embed.avatar_url_too_long")
}
