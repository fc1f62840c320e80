package dashboard

import (
	"net/http"
	"strings"

	"svc/internal/errs"
	"svc/internal/store"
	"svc/internal/users"
)

var pageTeam = page{name: "team", title: "team.title", nav: "team"}

func (s *Server) teamRoutes(rt router) {
	rt.handle("GET /dashboard/team", ownerOnly, s.teamPage)
	rt.handle("POST /dashboard/team/users", ownerOnly, s.inviteUser)
	rt.handle("POST /dashboard/team/users/{id}/role", ownerOnly, s.setUserRole)
	rt.handle("POST /dashboard/team/users/{id}/remove", ownerOnly, s.removeUser)
	rt.handle("POST /dashboard/team/users/{id}/invite", ownerOnly, s.reinviteUser)
}

// teamUser is one user as the list shows it.
type teamUser struct {
	store.User
	// Invited: the user has not set a password yet, so a new invite link can be sent.
	Invited bool
	Self    bool
}

// inviteForm is the invite form as sent.
type inviteForm struct {
	Email, Role string
}

type teamData struct {
	Users []teamUser
	Roles []string
	Form  inviteForm
	// InviteLink is a one-time link just made for InviteEmail: shown in this response only,
	// so the owner can pass it on when mail is not delivered.
	InviteLink  string
	InviteEmail string
}

func (s *Server) teamData(r *http.Request, c *reqCtx) (teamData, error) {
	d := teamData{Roles: []string{store.UserAgent, store.UserOwner}, Form: inviteForm{Role: store.UserAgent}}
	us, err := s.d.Users.ListUsers(r.Context(), c.Account.ID)
	if err != nil {
		return d, err
	}
	for _, u := range us {
		tu := teamUser{User: u, Invited: u.PasswordHash == "", Self: u.ID == c.User.ID}
		tu.PasswordHash = "" // a template has no business with it
		d.Users = append(d.Users, tu)
	}
	return d, nil
}

func (s *Server) teamPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.teamData(r, c)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageTeam, 0, d)
	return nil
}

// teamError turns a users.Service refusal into the catalog's text for it (users.Reason is
// the stable code for that); other errors pass unchanged (a missing user is a 404).
func teamError(err error) error {
	key := ""
	switch users.Reason(err) {
	case "email_invalid":
		key = "team.error_email"
	case "email_taken":
		key = "team.error_email_taken"
	case "role_invalid":
		key = "team.error_role"
	case "last_owner":
		key = "team.error_last_owner"
	case "has_password":
		key = "team.error_has_password"
	}
	if key != "" {
		return invalid(key)
	}
	return err
}

// teamFail shows a refused change on the team page (400) when it is the form's fault, and
// otherwise hands err on to the error page.
func (s *Server) teamFail(w http.ResponseWriter, r *http.Request, c *reqCtx, err error, form *inviteForm) error {
	err = teamError(err)
	if errs.KindOf(err) != errs.BadRequest {
		return err
	}
	d, derr := s.teamData(r, c)
	if derr != nil {
		return derr
	}
	if form != nil {
		d.Form = *form
	}
	s.formError(w, r, c, pageTeam, err, d)
	return nil
}

// inviteUser adds a user without a password: users.AddUser makes the invite link and queues
// its mail. The link is also shown, once, in this response (never stored in plain text nor
// put in a cookie or a URL), for a server whose mail is not set up.
func (s *Server) inviteUser(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := inviteForm{Email: strings.TrimSpace(r.PostFormValue("email")), Role: r.PostFormValue("role")}
	if f.Role != store.UserOwner && f.Role != store.UserAgent {
		// users.AddUser reads "" as owner; the form always names a role, so refuse instead.
		return s.teamFail(w, r, c, invalid("team.error_role"), &f)
	}
	u, link, err := s.d.Users.AddUser(r.Context(), c.Account.ID, f.Email, f.Role, "")
	if err != nil {
		return s.teamFail(w, r, c, err, &f)
	}
	d, err := s.teamData(r, c)
	if err != nil {
		return err
	}
	d.InviteLink, d.InviteEmail = link, u.Email
	s.render(w, r, c, pageTeam, 0, d)
	return nil
}

// reinviteUser makes a fresh invite link (and mail) for a user who has not set a password.
func (s *Server) reinviteUser(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	link, err := s.d.Users.Invite(r.Context(), c.Account.ID, id, "")
	if err != nil {
		return s.teamFail(w, r, c, err, nil)
	}
	d, err := s.teamData(r, c)
	if err != nil {
		return err
	}
	d.InviteLink = link
	for _, u := range d.Users {
		if u.ID == id {
			d.InviteEmail = u.Email
		}
	}
	s.render(w, r, c, pageTeam, 0, d)
	return nil
}

// setUserRole changes a role; users.Service refuses to demote the last owner. An owner who
// made themself an agent can no longer open this page, so they go to the overview.
func (s *Server) setUserRole(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	if err := s.d.Users.SetRole(r.Context(), c.Account.ID, id, r.PostFormValue("role")); err != nil {
		return s.teamFail(w, r, c, err, nil)
	}
	if id == c.User.ID && r.PostFormValue("role") != store.UserOwner {
		s.redirect(w, r, "/dashboard/", "flash.team_role_saved")
		return nil
	}
	s.redirect(w, r, "/dashboard/team", "flash.team_role_saved")
	return nil
}

// removeUser removes a user; their sessions end at once, so their next request is sent to
// sign in. users.Service refuses to remove the last owner, the signed-in one included. An
// owner who removed themself has no session left and goes to the sign-in page.
func (s *Server) removeUser(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	if err := s.d.Users.RemoveUser(r.Context(), c.Account.ID, id); err != nil {
		return s.teamFail(w, r, c, err, nil)
	}
	if id == c.User.ID {
		s.clearCookie(w, sessionCookie)
		s.redirect(w, r, "/dashboard/login", "flash.team_removed_self")
		return nil
	}
	s.redirect(w, r, "/dashboard/team", "flash.team_user_removed")
	return nil
}
