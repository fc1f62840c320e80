package dashboard

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"svc/internal/account"
	"svc/internal/avatar"
	"svc/internal/embed"
	"svc/internal/i18n"
	"svc/internal/store"
)

// The widget's appearance in a token's edit form (issue 28): every setting, the starter
// questions to choose from, the colour's contrast, and the live preview, which app.js keeps
// in step with the form as the owner types (window.svcWidget.apply in the framed widget).

// lookForm is the appearance part of the edit form, as typed.
type lookForm struct {
	Title, Welcome, Position, OffsetX, OffsetY, Theme, AvatarURL, LauncherLabel string
	PanelWidth, PanelHeight, Inline                                             string
	WelcomeByLang                                                               map[string]string
	Starters                                                                    []string
}

// WelcomeIn is the welcome given in lang (the template's accessor).
func (f lookForm) WelcomeIn(lang string) string { return f.WelcomeByLang[lang] }

// Chosen reports whether q is one of the chosen starters.
func (f lookForm) Chosen(q string) bool { return slices.Contains(f.Starters, q) }

func lookFormOf(t store.EmbedToken) *lookForm {
	a := t.Appearance
	f := &lookForm{Title: a.Title, Welcome: a.Welcome, Position: a.Position, OffsetX: strconv.Itoa(a.OffsetX),
		OffsetY: strconv.Itoa(a.OffsetY), Theme: a.Theme, AvatarURL: a.AvatarURL, LauncherLabel: a.LauncherLabel,
		PanelWidth: strconv.Itoa(a.PanelWidth), PanelHeight: strconv.Itoa(a.PanelHeight), Inline: a.Inline,
		WelcomeByLang: map[string]string{}, Starters: slices.Clone(a.Starters)}
	for l, w := range a.WelcomeByLang {
		f.WelcomeByLang[l] = w
	}
	return f
}

// readLookForm reads the appearance fields; nil when the form had none (the create form),
// which leaves the token's appearance as it is.
func readLookForm(r *http.Request) *lookForm {
	if r.PostFormValue("look") == "" {
		return nil
	}
	v := r.PostFormValue
	f := &lookForm{Title: v("title"), Welcome: v("welcome"), Position: v("position"), OffsetX: v("offset_x"),
		OffsetY: v("offset_y"), Theme: v("theme"), AvatarURL: v("avatar_url"), LauncherLabel: v("launcher_label"),
		PanelWidth: v("panel_width"), PanelHeight: v("panel_height"), Inline: v("inline"),
		WelcomeByLang: map[string]string{}, Starters: r.PostForm["starters"]}
	for _, l := range embed.WelcomeLangs {
		f.WelcomeByLang[l] = v("welcome_" + l)
	}
	return f
}

// apply puts every field of f into in: the form always sends the whole appearance.
func (f *lookForm) apply(in *account.EmbedTokenInput) {
	in.Title, in.Welcome, in.Position, in.OffsetX, in.OffsetY = &f.Title, &f.Welcome, &f.Position, &f.OffsetX, &f.OffsetY
	in.Theme, in.AvatarURL, in.LauncherLabel, in.Inline = &f.Theme, &f.AvatarURL, &f.LauncherLabel, &f.Inline
	in.PanelWidth, in.PanelHeight = &f.PanelWidth, &f.PanelHeight
	in.WelcomeByLang = f.WelcomeByLang
	qs := slices.Clone(f.Starters)
	if qs == nil {
		qs = []string{}
	}
	in.Starters = &qs
}

// lookLimits are the limits the appearance fields' hints name.
type lookLimits struct {
	MaxTitle, MaxWelcome, MaxLauncher, MaxOffset, MaxStarters, MaxInline int
	MinWidth, MaxWidth, MinHeight, MaxHeight, AvatarKiB, AvatarPx        int
}

var theLookLimits = lookLimits{MaxTitle: embed.MaxTitleChars, MaxWelcome: embed.MaxWelcomeChars,
	MaxLauncher: embed.MaxLauncherLabelChars, MaxOffset: embed.MaxOffset, MaxStarters: embed.MaxStarters,
	MaxInline: embed.MaxInlineChars, MinWidth: embed.MinPanelWidth, MaxWidth: embed.MaxPanelWidth,
	MinHeight: embed.MinPanelHeight, MaxHeight: embed.MaxPanelHeight, AvatarKiB: avatar.MaxBytes >> 10, AvatarPx: avatar.MaxSide}

// starterChoice is a question the owner may offer as a starter: a seed of the site in one of
// the widget's languages, or a starter the token already has.
type starterChoice struct {
	Q    string
	Lang string // "" for a chosen starter that is no seed today
}

// lookView is what the edit page shows beside the form: the choices, the limits, the preview
// and the colour's contrast.
type lookView struct {
	Limits   lookLimits
	Langs    []string // the welcome's languages
	Starters []starterChoice
	// The preview: the framed page, the title shown when the form's is empty, the stored
	// avatar (shown while the avatar field holds its address) and the widget's language.
	PreviewSrc, DefaultTitle, AvatarURL, AvatarSrc string
	Opts                                           snippetOpts
	Contrast                                       []contrastWarning
	Decimal                                        string // the page's decimal separator, for app.js's ratio
}

// contrastWarning says that the widget's colour stands out too little from a background.
type contrastWarning struct {
	Background string // the catalog key of its name
	Color      string
	Ratio      string // as the page writes numbers, one decimal
}

// contrastWarnings judges color against the backgrounds of theme (WCAG 1.4.11, 3:1).
func contrastWarnings(lang, color, theme string) []contrastWarning {
	var out []contrastWarning
	for _, bg := range embed.UIContrastFails(color, theme) {
		key := "widget.bg_light"
		if bg == embed.BackgroundDark {
			key = "widget.bg_dark"
		}
		ratio := strconv.FormatFloat(embed.ColorContrast(color, bg), 'f', 1, 64)
		out = append(out, contrastWarning{Background: key, Color: color, Ratio: strings.Replace(ratio, ".", styleOf(lang).decimal, 1)})
	}
	return out
}

// lookView builds the appearance view of token t's edit page, with f the form as shown.
func (s *Server) lookView(ctx context.Context, c *reqCtx, t store.EmbedToken, f *lookForm, o snippetOpts) lookView {
	v := lookView{Limits: theLookLimits, Langs: embed.WelcomeLangs, DefaultTitle: c.Account.Name, Opts: o,
		AvatarURL: t.Appearance.AvatarURL, AvatarSrc: embed.AvatarPath(t.AvatarHash, t.AvatarType),
		Contrast: contrastWarnings(c.Lang, o.Color, f.Theme), Decimal: styleOf(c.Lang).decimal}
	if t.Status == store.EmbedActive {
		v.PreviewSrc = previewSrc(t.ID, o)
	}
	seen := map[string]bool{}
	for _, q := range f.Starters {
		seen[q] = true
		v.Starters = append(v.Starters, starterChoice{Q: q})
	}
	if s.d.Chat == nil {
		return v
	}
	// Seeds in the account's language first, then the other languages of the widget.
	langs := []string{}
	for _, l := range append([]string{c.Account.Lang}, i18n.Langs...) {
		if i18n.Supported(l) && !slices.Contains(langs, l) {
			langs = append(langs, l)
		}
	}
	for _, l := range langs {
		qs, err := s.d.Chat.Seeds(ctx, c.Account, l)
		if err != nil {
			continue // the choice of starters is a convenience: the form works without it
		}
		for _, q := range qs {
			if !seen[q] && len([]rune(q)) <= embed.MaxStarterChars {
				seen[q] = true
				v.Starters = append(v.Starters, starterChoice{Q: q, Lang: l})
			}
		}
	}
	return v
}
