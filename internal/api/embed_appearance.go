package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"

	"svc/internal/account"
	"svc/internal/chat"
	"svc/internal/embed"
	"svc/internal/errs"
	"svc/internal/store"
)

// The widget's appearance per embed token (issue 28): the management API's parameters and
// fields, the widget's settings action and the avatar images served from svc's origin.

// embedAppearanceView is the appearance as embedTokens returns it.
type embedAppearanceView struct {
	Title         string   `json:"title"`
	Welcome       string   `json:"welcome"`
	WelcomeTR     string   `json:"welcome_tr"`
	WelcomeEN     string   `json:"welcome_en"`
	WelcomeDE     string   `json:"welcome_de"`
	Position      string   `json:"position"`
	OffsetX       int      `json:"offset_x"`
	OffsetY       int      `json:"offset_y"`
	Theme         string   `json:"theme"`
	AvatarURL     string   `json:"avatar_url"`
	AvatarSrc     string   `json:"avatar_src"` // the image's path on svc ("" for none)
	LauncherLabel string   `json:"launcher_label"`
	PanelWidth    int      `json:"panel_width"`
	PanelHeight   int      `json:"panel_height"`
	Starters      []string `json:"starters"`
	Inline        string   `json:"inline"`
}

func toAppearanceView(t store.EmbedToken) embedAppearanceView {
	a := t.Appearance
	v := embedAppearanceView{Title: a.Title, Welcome: a.Welcome, WelcomeTR: a.WelcomeByLang["tr"], WelcomeEN: a.WelcomeByLang["en"],
		WelcomeDE: a.WelcomeByLang["de"], Position: a.Position, OffsetX: a.OffsetX, OffsetY: a.OffsetY, Theme: a.Theme,
		AvatarURL: a.AvatarURL, AvatarSrc: embed.AvatarPath(t.AvatarHash, t.AvatarType), LauncherLabel: a.LauncherLabel,
		PanelWidth: a.PanelWidth, PanelHeight: a.PanelHeight, Starters: a.Starters, Inline: a.Inline}
	if v.Starters == nil {
		v.Starters = []string{}
	}
	return v
}

// readAppearance reads the appearance parameters of embedTokenCreate and embedTokenUpdate;
// an absent one stays nil (unchanged on update). starters is a list (a JSON array, repeated
// form fields) or one text with a question per line.
func readAppearance(p params, in *account.EmbedTokenInput) {
	for name, dst := range map[string]**string{"title": &in.Title, "welcome": &in.Welcome, "position": &in.Position,
		"offset_x": &in.OffsetX, "offset_y": &in.OffsetY, "theme": &in.Theme, "avatar_url": &in.AvatarURL,
		"launcher_label": &in.LauncherLabel, "panel_width": &in.PanelWidth, "panel_height": &in.PanelHeight, "inline": &in.Inline} {
		if v, ok := p[name]; ok {
			*dst = &v
		}
	}
	for _, lang := range embed.WelcomeLangs {
		if v, ok := p["welcome_"+lang]; ok {
			if in.WelcomeByLang == nil {
				in.WelcomeByLang = map[string]string{}
			}
			in.WelcomeByLang[lang] = v
		}
	}
	if raw, ok := p["starters[]"]; ok {
		var qs []string
		_ = json.Unmarshal([]byte(raw), &qs) // params keeps lists as JSON arrays
		in.Starters = &qs
	} else if v, ok := p["starters"]; ok {
		qs := strings.Split(v, "\n")
		in.Starters = &qs
	}
}

var avatarFile = regexp.MustCompile(`^([0-9a-f]{64})\.(png|jpg|webp|gif)$`)

// widgetAvatar serves an avatar image by its hash, while an active token holds it. Anyone may
// read it (it is public, like the page it appears on); it is never a document (nosniff, a
// CSP of nothing), and any site may embed it.
func (s *Server) widgetAvatar(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.writeError(w, r, errs.New(errs.MethodNotAllowed, "Use GET."))
		return
	}
	m := avatarFile.FindStringSubmatch(r.PathValue("file"))
	if m == nil {
		s.writeError(w, r, errs.New(errs.NotFound, "No such image."))
		return
	}
	img, err := s.st.EmbedAvatar(r.Context(), m[1])
	if err == nil && embed.AvatarExt(img.Type) != m[2] {
		err = store.ErrNotFound
	}
	if err != nil {
		s.writeError(w, r, errs.Wrap(errs.NotFound, "No such image.", err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", img.Type)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	etag := `"` + m[1][:32] + `"`
	h.Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(img.Data)
}

// embedSettingsView is what the widget applies at load: the token's appearance with the
// welcome in the widget's language, the title resolved (the account's name when none is
// set) and the avatar as a path on svc.
type embedSettingsView struct {
	Title         string   `json:"title"`
	Welcome       string   `json:"welcome"`
	Position      string   `json:"position"`
	OffsetX       int      `json:"offsetX"`
	OffsetY       int      `json:"offsetY"`
	Theme         string   `json:"theme"`
	Avatar        string   `json:"avatar"`
	LauncherLabel string   `json:"launcherLabel"`
	PanelWidth    int      `json:"panelWidth"`
	PanelHeight   int      `json:"panelHeight"`
	Starters      []string `json:"starters"`
	Inline        string   `json:"inline"`
	ShowSources   bool     `json:"showSources"`
}

// WelcomeFor is a token's welcome in lang: the one given in that language, else the default.
func WelcomeFor(a store.EmbedAppearance, lang string) string {
	if w := a.WelcomeByLang[lang]; w != "" {
		return w
	}
	return a.Welcome
}

// embedSettings answers the widget's settings (GET /api/v1/embed/settings?lang=xx), once per
// page load: after the surface's checks, like every action, and cacheable by the browser for
// five minutes per token and origin, then revalidated by its ETag, so a visitor browsing a
// site asks for them about once in five minutes and a change reaches every page as fast.
func (s *Server) embedSettings(w http.ResponseWriter, r *http.Request, v chat.Visitor, p params) error {
	a := v.Token.Appearance
	view := embedSettingsView{Title: a.Title, Welcome: WelcomeFor(a, p["lang"]), Position: a.Position, OffsetX: a.OffsetX,
		OffsetY: a.OffsetY, Theme: a.Theme, Avatar: embed.AvatarPath(v.Token.AvatarHash, v.Token.AvatarType), LauncherLabel: a.LauncherLabel,
		PanelWidth: a.PanelWidth, PanelHeight: a.PanelHeight, Starters: a.Starters, Inline: a.Inline, ShowSources: !v.Token.HideSources}
	if view.Title == "" {
		view.Title = v.Account.Name
	}
	if view.Starters == nil {
		view.Starters = []string{}
	}
	body, err := json.Marshal(envelope{Success: true, Data: view})
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("Cache-Control", "private, max-age=300")
	h.Set("ETag", etag)
	h.Add("Vary", headerEmbedToken)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(append(bytes.TrimSpace(body), '\n'))
	return nil
}
