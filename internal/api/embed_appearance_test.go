package api_test

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"svc/internal/account"
	"svc/internal/avatar"
)

// appearanceView is the appearance part of embedTokens' token.
type appearanceView struct {
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
	AvatarSrc     string   `json:"avatar_src"`
	LauncherLabel string   `json:"launcher_label"`
	PanelWidth    int      `json:"panel_width"`
	PanelHeight   int      `json:"panel_height"`
	Starters      []string `json:"starters"`
	Inline        string   `json:"inline"`
	ID            int64    `json:"id"`
}

func (h *harness) appearance(key string, id int64) appearanceView {
	h.t.Helper()
	r := h.get("/api/v1/chat/embedTokens", key)
	var d struct {
		Tokens []appearanceView `json:"tokens"`
	}
	r.decode(h.t, &d)
	for _, tk := range d.Tokens {
		if tk.ID == id {
			return tk
		}
	}
	h.t.Fatalf("token %d not listed: %s", id, r.raw)
	return appearanceView{}
}

type settingsView struct {
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

// avatarServer is a local https server with a 48 px PNG at /a.png and an SVG at /a.svg; the
// harness's fetcher is pointed at it (trusting its certificate, loopback allowed).
func (h *harness) avatarServer() (*httptest.Server, []byte) {
	h.t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 48, 48))); err != nil {
		h.t.Fatal(err)
	}
	img := b.Bytes()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a.png":
			_, _ = w.Write(img)
		case "/a.svg":
			w.Header().Set("Content-Type", "image/svg+xml")
			_, _ = io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"/>`)
		default:
			http.NotFound(w, r)
		}
	}))
	h.t.Cleanup(srv.Close)
	h.accounts.WithAvatars(avatar.New(avatar.Options{AllowPrivate: true, Transport: srv.Client().Transport}))
	return srv, img
}

func TestEmbedTokenAppearance(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{Name: ptr("Yolcu Outdoor")})
	imgSrv, img := h.avatarServer()

	t.Run("defaults", func(t *testing.T) {
		_, id := h.createToken(key, url.Values{"domains": {"example.com"}})
		got := h.appearance(key, id)
		if got.Position != "right" || got.Theme != "light" || got.OffsetX != 20 || got.OffsetY != 20 || got.PanelWidth != 380 ||
			got.PanelHeight != 620 || got.Title != "" || got.Welcome != "" || got.AvatarSrc != "" || got.Starters == nil || len(got.Starters) != 0 {
			t.Fatalf("defaults: %+v", got)
		}
	})

	t.Run("validation", func(t *testing.T) {
		for _, tc := range []struct {
			field, value, says string
		}{
			{"title", strings.Repeat("é", 61), "title is too long: 61 characters, at most 60"},
			{"welcome", strings.Repeat("w", 301), "welcome is too long"},
			{"welcome_de", strings.Repeat("w", 301), "welcome_de is too long"},
			{"position", "top", "position must be right or left"},
			{"theme", "sepia", "theme must be light, dark or auto"},
			{"offset_x", "241", "offset_x must be a whole number of pixels from 0 to 240"},
			{"offset_y", "-5", "offset_y must be"},
			{"panel_width", "1200", "panel_width must be a whole number of pixels from 300 to 600"},
			{"panel_height", "abc", "panel_height must be"},
			{"launcher_label", strings.Repeat("x", 41), "launcher_label is too long"},
			{"inline", "#a{}", "inline must be a CSS selector"},
			{"starters", "1\n2\n3\n4\n5\n6", "At most 5 starter questions"},
			{"avatar_url", "http://cdn.example.com/a.png", "must be an https address"},
			{"avatar_url", "javascript:alert(1)", "avatar_url must be an https address"},
			{"avatar_url", imgSrv.URL + "/a.svg", "PNG, JPEG, WebP or GIF"},
			{"avatar_url", imgSrv.URL + "/missing.png", "HTTP 404"},
		} {
			r := h.postForm("/api/v1/chat/embedTokenCreate", key, url.Values{"domains": {"example.com"}, tc.field: {tc.value}})
			if r.Status != http.StatusBadRequest || r.Error != "bad_request" || !strings.Contains(r.Message, tc.says) {
				t.Errorf("%s=%.30q: %d %s %q, want 400 saying %q", tc.field, tc.value, r.Status, r.Error, r.Message, tc.says)
			}
		}
	})

	t.Run("round trip", func(t *testing.T) {
		_, id := h.createToken(key, url.Values{"domains": {"example.com"}, "title": {"  Yolcu Destek "}, "welcome": {"Hello!\nHow can we help?"},
			"welcome_tr": {"Merhaba!"}, "position": {"LEFT"}, "offset_x": {"0"}, "offset_y": {"96px"}, "theme": {"dark"},
			"launcher_label": {"Questions?"}, "panel_width": {"420"}, "panel_height": {"700"}, "inline": {"#chat"},
			"starters": {"How long does shipping take?\n\nhow long does shipping take?\nDo you ship abroad?"}})
		got := h.appearance(key, id)
		want := appearanceView{ID: id, Title: "Yolcu Destek", Welcome: "Hello!\nHow can we help?", WelcomeTR: "Merhaba!", Position: "left",
			OffsetX: 0, OffsetY: 96, Theme: "dark", LauncherLabel: "Questions?", PanelWidth: 420, PanelHeight: 700, Inline: "#chat",
			Starters: []string{"How long does shipping take?", "Do you ship abroad?"}}
		if !equalAppearance(got, want) {
			t.Fatalf("created:\n got %+v\nwant %+v", got, want)
		}
		// JSON, with a list; what is not sent is kept.
		r := h.postJSON("/api/v1/chat/embedTokenUpdate", key, map[string]any{"id": id, "theme": "auto", "welcome_de": "Hallo!",
			"welcome_tr": "", "starters": []string{"Wo ist meine Bestellung?"}, "offset_x": 12, "avatar_url": imgSrv.URL + "/a.png"})
		if r.Status != http.StatusOK {
			t.Fatalf("update: %d %s", r.Status, r.raw)
		}
		got = h.appearance(key, id)
		want.Theme, want.WelcomeDE, want.WelcomeTR, want.Starters, want.OffsetX = "auto", "Hallo!", "", []string{"Wo ist meine Bestellung?"}, 12
		want.AvatarURL = imgSrv.URL + "/a.png"
		if !strings.HasPrefix(got.AvatarSrc, "/widget/avatar/") || !strings.HasSuffix(got.AvatarSrc, ".png") {
			t.Fatalf("avatar_src %q", got.AvatarSrc)
		}
		want.AvatarSrc = got.AvatarSrc
		if !equalAppearance(got, want) {
			t.Fatalf("updated:\n got %+v\nwant %+v", got, want)
		}

		// The image is served from svc's origin, by its hash, cached for good.
		req, _ := http.NewRequest(http.MethodGet, h.srv.URL+got.AvatarSrc, nil)
		resp, err := h.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		h.v.Check(t, req, resp, body)
		if resp.StatusCode != 200 || !bytes.Equal(body, img) || resp.Header.Get("Content-Type") != "image/png" ||
			!strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("avatar: %d %v (%d bytes)", resp.StatusCode, resp.Header, len(body))
		}
		for _, bad := range []string{strings.Replace(got.AvatarSrc, ".png", ".gif", 1), "/widget/avatar/" + strings.Repeat("0", 64) + ".png", "/widget/avatar/x.png"} {
			if st, _, _ := h.rawGet(bad, nil); st != http.StatusNotFound {
				t.Errorf("%s: %d, want 404", bad, st)
			}
		}

		// The same address again keeps the image; "" removes it, and it is served no more.
		h.imgFetchesStayed(t, key, id, imgSrv, got.AvatarSrc)
		if r := h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(id)}, "avatar_url": {""}}); r.Status != 200 {
			t.Fatalf("clear avatar: %d %s", r.Status, r.raw)
		}
		if a := h.appearance(key, id); a.AvatarURL != "" || a.AvatarSrc != "" {
			t.Fatalf("cleared: %+v", a)
		}
		if st, _, _ := h.rawGet(got.AvatarSrc, nil); st != http.StatusNotFound {
			t.Errorf("a removed avatar is still served: %d", st)
		}
		// A bad setting in an update changes nothing.
		before := h.appearance(key, id)
		if r := h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(id)}, "title": {"New"}, "theme": {"neon"}}); r.Status != 400 {
			t.Fatalf("bad update: %d", r.Status)
		}
		if after := h.appearance(key, id); !equalAppearance(after, before) {
			t.Fatalf("a refused update changed %+v into %+v", before, after)
		}
	})

	t.Run("settings action", func(t *testing.T) {
		tok, id := h.createToken(key, url.Values{"domains": {"example.com"}, "welcome": {"Hi!"}, "welcome_de": {"Hallo!"},
			"position": {"left"}, "starters": {"Do you ship abroad?"}, "show_sources": {"false"}})
		c := widgetCall{token: tok, visitor: visitorID(7), origin: "https://www.example.com"}
		r := h.embed(http.MethodGet, "settings?lang=de", c, nil)
		if r.Status != 200 {
			t.Fatalf("settings: %d %s", r.Status, r.raw)
		}
		var s settingsView
		r.decode(t, &s)
		if s.Title != "Yolcu Outdoor" || s.Welcome != "Hallo!" || s.Position != "left" || s.ShowSources || !slices.Equal(s.Starters, []string{"Do you ship abroad?"}) ||
			s.PanelWidth != 380 || s.Theme != "light" || s.Avatar != "" {
			t.Fatalf("settings: %+v", s)
		}
		if cc := r.Header.Get("Cache-Control"); cc != "private, max-age=300" || r.Header.Get("ETag") == "" ||
			!strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "X-SVC-Embed-Token") ||
			r.Header.Get("Access-Control-Allow-Origin") != "https://www.example.com" {
			t.Fatalf("headers: %v", r.Header)
		}
		// The welcome falls back to the default one; the title to the account's name.
		if r := h.embed(http.MethodGet, "settings?lang=tr", c, nil); !strings.Contains(string(r.Data), `"welcome":"Hi!"`) {
			t.Errorf("tr: %s", r.raw)
		}
		// Revalidation: the same ETag is a 304 without a body; a change makes a new one.
		etag := r.Header.Get("ETag")
		c304 := c
		c304.header = http.Header{"If-None-Match": {etag}}
		if r := h.embed(http.MethodGet, "settings?lang=de", c304, nil); r.Status != http.StatusNotModified || len(r.raw) != 0 {
			t.Fatalf("revalidation: %d %s", r.Status, r.raw)
		}
		if r := h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(id)}, "title": {"Neu"}}); r.Status != 200 {
			t.Fatal(r.Status)
		}
		if r := h.embed(http.MethodGet, "settings?lang=de", c304, nil); r.Status != 200 || r.Header.Get("ETag") == etag || !strings.Contains(string(r.Data), `"title":"Neu"`) {
			t.Fatalf("after a change: %d %s", r.Status, r.raw)
		}
		// The surface's rules hold: another site, no token.
		if r := h.embed(http.MethodGet, "settings", widgetCall{token: tok, visitor: visitorID(7), origin: "https://evil.test"}, nil); r.Status != 403 {
			t.Errorf("foreign origin: %d", r.Status)
		}
		if r := h.embed(http.MethodGet, "settings", widgetCall{visitor: visitorID(7), origin: "https://example.com"}, nil); r.Status != 401 {
			t.Errorf("no token: %d", r.Status)
		}
		if r := h.embed(http.MethodPost, "settings", c, map[string]string{}); r.Status != 405 {
			t.Errorf("POST: %d", r.Status)
		}
	})
}

// imgFetchesStayed sends the stored avatar address again and checks the image is kept, not
// fetched again: the image server is closed first, so a fetch would fail.
func (h *harness) imgFetchesStayed(t *testing.T, key string, id int64, srv *httptest.Server, src string) {
	t.Helper()
	addr := h.appearance(key, id).AvatarURL
	srv.Close()
	if r := h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(id)}, "avatar_url": {addr}, "label": {"kept"}}); r.Status != 200 {
		t.Fatalf("same avatar again: %d %s", r.Status, r.raw)
	}
	if a := h.appearance(key, id); a.AvatarSrc != src {
		t.Fatalf("same avatar again changed avatar_src to %q", a.AvatarSrc)
	}
}

func equalAppearance(a, b appearanceView) bool {
	if !slices.Equal(a.Starters, b.Starters) {
		return false
	}
	a.Starters, b.Starters = nil, nil
	return reflect.DeepEqual(a, b)
}
