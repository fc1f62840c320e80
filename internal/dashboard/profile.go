package dashboard

import (
	"context"
	"errors"
	"net/http"

	"svc/internal/i18n"
	"svc/internal/users"
)

var pageProfile = page{name: "profile", title: "profile.title", nav: "profile"}

// profileStore is what the profile page changes directly.
type profileStore interface {
	DeleteUserSessions(ctx context.Context, accountID, userID int64) error
}

// profileRoutes: the signed-in user's own settings — language, password, sessions.
func (s *Server) profileRoutes(rt router) {
	rt.handle("GET /dashboard/profile", member, s.profilePage)
	rt.handle("POST /dashboard/profile/lang", member, s.setLang)
	rt.handle("POST /dashboard/profile/password", member, s.changePassword)
	rt.handle("POST /dashboard/profile/signout-all", member, s.signOutEverywhere)
}

func (s *Server) profilePage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	s.render(w, r, c, pageProfile, 0, nil)
	return nil
}

// setLang stores the user's language; "" returns to the account's.
func (s *Server) setLang(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	lang := r.PostFormValue("lang")
	if lang != "" && !i18n.Supported(lang) {
		return invalid("profile.error_lang")
	}
	if err := s.d.Users.SetLang(r.Context(), c.Account.ID, c.User.ID, lang); err != nil {
		return err
	}
	s.redirect(w, r, safeNext(r.PostFormValue("back")), "flash.lang_saved")
	return nil
}

// changePassword keeps this browser signed in and ends every other session.
func (s *Server) changePassword(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	next, again := r.PostFormValue("new_password"), r.PostFormValue("new_password_again")
	if next != again {
		s.formError(w, r, c, pageProfile, invalid("auth.error_mismatch"), nil)
		return nil
	}
	if err := users.ValidatePassword(next); err != nil {
		s.formError(w, r, c, pageProfile, invalid("auth.error_password_policy"), nil)
		return nil
	}
	err := s.d.Users.ChangePassword(r.Context(), c.User, c.Session.ID, r.PostFormValue("current_password"), next)
	if errors.Is(err, users.ErrBadCredentials) {
		s.formError(w, r, c, pageProfile, invalid("profile.error_current"), nil)
		return nil
	}
	if err != nil {
		return err
	}
	s.redirect(w, r, "/dashboard/profile", "flash.password_changed")
	return nil
}

// signOutEverywhere ends every session of the user, this one included.
func (s *Server) signOutEverywhere(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	if err := s.st.DeleteUserSessions(r.Context(), c.Account.ID, c.User.ID); err != nil {
		return err
	}
	s.clearCookie(w, sessionCookie)
	s.redirect(w, r, "/dashboard/login", "flash.signed_out_everywhere")
	return nil
}
