package api_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"svc/internal/account"
	"svc/internal/api"
	"svc/internal/chat"
	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/ratelimit"
	"svc/internal/store/teststore"
)

// fakePreviews accepts one preview token for one embed token; the dashboard's real
// authenticator is tested end to end with the dashboard.
type fakePreviews struct {
	token  string
	caller account.EmbedCaller
	calls  int
}

func (f *fakePreviews) AuthenticatePreview(_ context.Context, token string) (account.EmbedCaller, error) {
	f.calls++
	if token != f.token {
		return account.EmbedCaller{}, errs.New(errs.Unauthorized, "Missing, invalid, expired or revoked preview token.")
	}
	return f.caller, nil
}

// previewServer is the API with preview (nil: no preview authenticator), an account and
// one embed token of it for shop.example.com.
func previewServer(t *testing.T, withPreview bool) (srv *httptest.Server, embedToken string, f *fakePreviews) {
	t.Helper()
	ctx := context.Background()
	st := teststore.Open(t, nil)
	accounts := account.New(st, nil)
	name, balance := "Shop", int64(1_000_000)
	a, _, err := accounts.Create(ctx, account.Settings{Name: &name, BalanceMicro: &balance})
	if err != nil {
		t.Fatal(err)
	}
	domains := "shop.example.com"
	plain, tok, err := accounts.CreateEmbedToken(ctx, a, account.EmbedTokenInput{Domains: &domains})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	limiter := ratelimit.NewMemory()
	d := api.Deps{Store: st, Accounts: accounts, Limiter: limiter, Log: log, PublicURL: "https://svc.example/",
		Chat: chat.New(chat.Deps{Store: st, Engine: eng, Limiter: limiter, Log: log})}
	f = &fakePreviews{token: "svc_prev_1.1.1.good", caller: account.EmbedCaller{Account: a, Token: tok}}
	if withPreview {
		d.Preview = f
	}
	srv = httptest.NewServer(api.New(d))
	t.Cleanup(srv.Close)
	return srv, plain, f
}

func previewCall(t *testing.T, srv *httptest.Server, method, action, token, origin string) (int, http.Header) {
	t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader(`{"message":"Hello!"}`)
	}
	req, _ := http.NewRequest(method, srv.URL+"/api/v1/embed/"+action, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-SVC-Embed-Token", token)
	req.Header.Set("X-SVC-Visitor", visitorID(1))
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

func TestPreviewTokenWorksFromTheServicesOwnOriginOnly(t *testing.T) {
	t.Parallel()
	srv, embedToken, f := previewServer(t, true)
	good := f.token
	u, _ := url.Parse(srv.URL)

	// Same origin: served, with no CORS headers since none are needed.
	for _, c := range []struct{ method, action string }{{http.MethodGet, "start"}, {http.MethodPost, "send"}, {http.MethodGet, "sync"}} {
		code, hdr := previewCall(t, srv, c.method, c.action, good, srv.URL)
		if code != http.StatusOK || hdr.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preview %s from the own origin: %d %q", c.action, code, hdr.Get("Access-Control-Allow-Origin"))
		}
	}
	// The public URL's origin is the service's own too (behind a proxy that rewrites Host).
	if code, hdr := previewCall(t, srv, http.MethodPost, "send", good, "https://svc.example"); code != http.StatusOK ||
		hdr.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preview from the public origin: %d", code)
	}
	// A read without Origin passes as it does for an embed token; a write does not.
	if code, _ := previewCall(t, srv, http.MethodGet, "start", good, ""); code != http.StatusOK {
		t.Errorf("preview read without Origin: %d", code)
	}
	if code, _ := previewCall(t, srv, http.MethodPost, "send", good, ""); code != http.StatusForbidden {
		t.Errorf("preview write without Origin: %d", code)
	}
	// Any other origin is refused: the token's own allowed domain, another port of the same
	// host, another scheme's form of it, garbage.
	for _, origin := range []string{"https://shop.example.com", "http://" + u.Hostname() + ":1", "https://" + u.Host + "/x", "null"} {
		if code, hdr := previewCall(t, srv, http.MethodGet, "start", good, origin); code != http.StatusForbidden || hdr.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preview from %q: %d", origin, code)
		}
	}
	// A preview token the authenticator refuses is a 401.
	if code, _ := previewCall(t, srv, http.MethodGet, "start", "svc_prev_1.1.1.bad", srv.URL); code != http.StatusUnauthorized {
		t.Errorf("refused preview: %d", code)
	}

	// The embed token itself keeps its domain lock: the service's own origin is not one of
	// its domains, and it never reaches the preview authenticator.
	calls := f.calls
	if code, _ := previewCall(t, srv, http.MethodGet, "start", embedToken, srv.URL); code != http.StatusForbidden {
		t.Errorf("embed token from the service's origin: %d", code)
	}
	if code, hdr := previewCall(t, srv, http.MethodGet, "start", embedToken, "https://shop.example.com"); code != http.StatusOK ||
		hdr.Get("Access-Control-Allow-Origin") != "https://shop.example.com" {
		t.Errorf("embed token from its domain: %d", code)
	}
	if f.calls != calls {
		t.Error("an embed token was given to the preview authenticator")
	}
}

func TestPreviewTokenWithoutAnAuthenticatorIsAnInvalidEmbedToken(t *testing.T) {
	t.Parallel()
	srv, _, f := previewServer(t, false)
	if code, _ := previewCall(t, srv, http.MethodGet, "start", f.token, srv.URL); code != http.StatusUnauthorized {
		t.Errorf("preview token without an authenticator: %d", code)
	}
}
