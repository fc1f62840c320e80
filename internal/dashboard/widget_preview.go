package dashboard

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"svc/internal/account"
	"svc/internal/errs"
	"svc/internal/store"
)

// The live preview runs the real widget, on the real pipeline and the token's real budget,
// inside the dashboard. Two things stand in its way: a token's full value is never stored
// (only its hash), so the dashboard cannot put it in a page, and the dashboard's origin is
// usually not one of the token's allowed domains. So the dashboard issues a preview token
// instead:
//
//	svc_prev_<accountID>.<tokenID>.<expiry unix>.<mac>
//
// where mac is base64url(HMAC-SHA256(formKey, "<accountID>.<tokenID>.<expiry>")). The widget
// surface (api.PreviewAuthenticator) accepts it in place of the token, and instead of the
// domain lock requires the page to be on the service's own origin. The MAC key is the
// process's form key, so a preview token ends with the process that issued it (a reload of
// the preview issues a new one); the token is checked to be active on every request, so a
// revoked token's preview stops at once.

// PreviewTokenPrefix starts every preview token; the API tells them from embed tokens by it.
const PreviewTokenPrefix = "svc_prev_"

// previewTTL bounds how long a preview page can spend its token's budget.
const previewTTL = time.Hour

// maxPreviewToken bounds what is parsed: three int64s, a 43-character MAC and separators.
const maxPreviewToken = 128

var errBadPreview = errs.New(errs.Unauthorized, "Missing, invalid, expired or revoked preview token.")

// previewToken signs a preview of the account's token until exp. The signed text always has
// two dots, so it can never equal what a signed-out form token signs (a bare number).
func (s *Server) previewToken(accountID, tokenID int64, exp time.Time) string {
	msg := fmt.Sprintf("%d.%d.%d", accountID, tokenID, exp.Unix())
	return PreviewTokenPrefix + msg + "." + s.sign(msg)
}

// AuthenticatePreview implements api.PreviewAuthenticator: it checks the MAC (in constant
// time) and the expiry before any store work, then that the account's token is still active.
// Every refusal is the same Unauthorized error, so nothing tells which part was wrong.
func (s *Server) AuthenticatePreview(ctx context.Context, token string) (account.EmbedCaller, error) {
	rest, ok := strings.CutPrefix(token, PreviewTokenPrefix)
	if !ok || len(rest) > maxPreviewToken {
		return account.EmbedCaller{}, errBadPreview
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return account.EmbedCaller{}, errBadPreview
	}
	msg, mac := rest[:i], rest[i+1:]
	if subtle.ConstantTimeCompare([]byte(mac), []byte(s.sign(msg))) != 1 {
		return account.EmbedCaller{}, errBadPreview
	}
	parts := strings.Split(msg, ".")
	if len(parts) != 3 {
		return account.EmbedCaller{}, errBadPreview
	}
	var n [3]int64
	for j, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return account.EmbedCaller{}, errBadPreview
		}
		n[j] = v
	}
	accountID, tokenID, exp := n[0], n[1], n[2]
	if !s.now().Before(time.Unix(exp, 0)) {
		return account.EmbedCaller{}, errBadPreview
	}
	a, err := s.d.Accounts.Get(ctx, accountID)
	if errs.KindOf(err) == errs.NotFound {
		return account.EmbedCaller{}, errBadPreview
	}
	if err != nil {
		return account.EmbedCaller{}, fmt.Errorf("authenticate preview: %w", err)
	}
	t, err := s.st.GetEmbedToken(ctx, accountID, tokenID)
	if errors.Is(err, store.ErrNotFound) {
		return account.EmbedCaller{}, errBadPreview
	}
	if err != nil {
		return account.EmbedCaller{}, fmt.Errorf("authenticate preview: %w", err)
	}
	if t.Status != store.EmbedActive {
		return account.EmbedCaller{}, errBadPreview
	}
	// Unlike AuthenticateEmbed, the token's last use is not touched: "last used" tells the
	// owner about the sites using the token, not about their own previews.
	return account.EmbedCaller{Account: a, Token: t}, nil
}

type widgetPreviewData struct {
	Token  store.EmbedToken
	Active bool
	// Preview is the preview token the page's widget presents ("" for a revoked token).
	Preview string
	Opts    snippetOpts
}

// widgetPreviewPage is the page framed by the widget page: nothing but the real widget
// script with a preview token, and a note. It is a page of its own (no layout), allowed in a
// frame of the dashboard's own origin by the default X-Frame-Options and frame-ancestors.
func (s *Server) widgetPreviewPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	t, err := routeItem(r, c, s.accountToken)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	d := widgetPreviewData{Token: t, Active: t.Status == store.EmbedActive, Opts: s.snippetOpts(c, q.Get("lang"), q.Get("color"))}
	if d.Active {
		d.Preview = s.previewToken(c.Account.ID, t.ID, s.now().Add(previewTTL))
	}
	s.renderFragment(w, r, c, pageWidgetPreview, "preview", d)
	return nil
}
