package dashboard

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"svc/internal/errs"
	"svc/internal/users"
)

var (
	pageLogin  = page{name: "login", title: "auth.sign_in_title"}
	pageForgot = page{name: "forgot", title: "auth.forgot_title"}
	pageLink   = page{name: "link", title: "auth.set_password_title"}
)

func (s *Server) authRoutes(rt router) {
	rt.handle("GET /dashboard/login", public, s.loginPage)
	rt.handle("POST /dashboard/login", public, s.login)
	rt.handle("POST /dashboard/logout", public, s.logout)
	rt.handle("GET /dashboard/forgot", public, s.forgotPage)
	rt.handle("POST /dashboard/forgot", public, s.forgot)
	rt.handle("GET /dashboard/reset/{token}", public, s.linkPage)
	rt.handle("POST /dashboard/reset/{token}", public, s.redeemLink)
	rt.handle("GET /dashboard/invite/{token}", public, s.linkPage)
	rt.handle("POST /dashboard/invite/{token}", public, s.redeemLink)
}

type loginData struct {
	Email string
	Next  string
	// Accounts are the accounts the e-mail and password opened, when there are several: the
	// form then asks which one, and the password again (it is never put into a page).
	Accounts []users.AccountChoice
	Account  int64 // the one chosen, or first
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	if c.User.ID != 0 {
		http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
		return nil
	}
	s.render(w, r, c, pageLogin, 0, loginData{Next: r.URL.Query().Get("next")})
	return nil
}

// login signs a user in. Every success issues a new session id (a session cookie planted
// before sign-in is never promoted) and ends the session the browser had.
func (s *Server) login(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	email := strings.TrimSpace(r.PostFormValue("email"))
	data := loginData{Email: email, Next: r.PostFormValue("next")}
	if email == "" || r.PostFormValue("password") == "" {
		s.formError(w, r, c, pageLogin, invalid("auth.error_required"), data)
		return nil
	}
	// One person may be a user of several accounts: a second sign-in names the account
	// (users.SignInTo), after the first was answered with the choice.
	account, _ := strconv.ParseInt(r.PostFormValue("account"), 10, 64)
	signed, err := s.d.Users.SignInTo(r.Context(), email, r.PostFormValue("password"), account, s.clientAddr(r), r.UserAgent())
	var th *users.ThrottledError
	var choose *users.ChooseAccount
	switch {
	case errors.As(err, &choose):
		data.Accounts, data.Account = choose.Accounts, choose.Accounts[0].ID
		s.render(w, r, c, pageLogin, http.StatusOK, data)
		return nil
	case errors.As(err, &th):
		secs := int(th.RetryAfter.Seconds() + 0.999)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		v := s.newView(w, r, c, pageLogin, data)
		v.Error = s.cat.T(c.Lang, "auth.error_throttled", (secs+59)/60)
		s.execute(w, r, pageLogin.name, "layout", http.StatusTooManyRequests, v)
		return nil
	case errors.Is(err, users.ErrBadCredentials):
		v := s.newView(w, r, c, pageLogin, data)
		v.Error = s.cat.T(c.Lang, "auth.error_credentials")
		s.execute(w, r, pageLogin.name, "layout", http.StatusOK, v)
		return nil
	case err != nil:
		return err
	}
	if old, err := r.Cookie(sessionCookie); err == nil && old.Value != "" && old.Value != signed.SessionID {
		_ = s.d.Users.SignOut(r.Context(), old.Value)
	}
	s.setCookie(w, sessionCookie, signed.SessionID, users.SessionMax)
	http.Redirect(w, r, safeNext(data.Next), http.StatusSeeOther)
	return nil
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	if ck, err := r.Cookie(sessionCookie); err == nil && ck.Value != "" {
		if err := s.d.Users.SignOut(r.Context(), ck.Value); err != nil {
			return err
		}
	}
	s.clearCookie(w, sessionCookie)
	s.redirect(w, r, "/dashboard/login", "flash.signed_out")
	return nil
}

func (s *Server) forgotPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	s.render(w, r, c, pageForgot, 0, loginData{})
	return nil
}

// forgot queues a reset link. The answer is the same whether or not the e-mail has a user,
// so the form cannot be used to learn who has an account.
func (s *Server) forgot(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	email := strings.TrimSpace(r.PostFormValue("email"))
	if email == "" || !strings.Contains(email, "@") || len(email) > 254 {
		s.formError(w, r, c, pageForgot, invalid("auth.error_email"), loginData{Email: email})
		return nil
	}
	if err := s.d.Users.RequestReset(r.Context(), email, s.clientAddr(r)); err != nil {
		return err
	}
	s.redirect(w, r, "/dashboard/login", "flash.reset_sent")
	return nil
}

type linkData struct {
	Invite bool
	Valid  bool
	Email  string
}

func isInvite(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/dashboard/invite/") }

func (s *Server) linkPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d := linkData{Invite: isInvite(r)}
	_, err := s.d.Users.CheckLink(r.Context(), r.PathValue("token"))
	switch {
	case errors.Is(err, users.ErrBadLink):
		s.render(w, r, c, pageLink, http.StatusNotFound, d)
		return nil
	case err != nil:
		return err
	}
	d.Valid = true
	s.render(w, r, c, pageLink, 0, d)
	return nil
}

// redeemLink sets the password of an invite or reset link. Every session of the user ends
// (a reset is what someone does who fears another has their password); they sign in anew.
func (s *Server) redeemLink(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d := linkData{Invite: isInvite(r), Valid: true}
	pw, again := r.PostFormValue("password"), r.PostFormValue("password_again")
	if pw != again {
		s.formError(w, r, c, pageLink, invalid("auth.error_mismatch"), d)
		return nil
	}
	if err := users.ValidatePassword(pw); err != nil {
		s.formError(w, r, c, pageLink, invalid("auth.error_password_policy"), d)
		return nil
	}
	_, err := s.d.Users.RedeemLink(r.Context(), r.PathValue("token"), pw)
	switch {
	case errors.Is(err, users.ErrBadLink):
		d.Valid = false
		s.render(w, r, c, pageLink, http.StatusNotFound, d)
		return nil
	case errs.KindOf(err) == errs.BadRequest:
		s.formError(w, r, c, pageLink, err, d)
		return nil
	case err != nil:
		return err
	}
	s.clearCookie(w, sessionCookie)
	s.redirect(w, r, "/dashboard/login", "flash.password_set")
	return nil
}
