package users

import (
	"errors"
	"strings"
	"testing"

	"svc/internal/errs"
	"svc/internal/store"
	"svc/internal/store/storetest"
)

func TestAddUserValidation(t *testing.T) {
	e := newEnv(t)
	u := e.addUser("Owner@Example.com", "", pw)
	if u.Role != store.UserOwner || u.Email != "owner@example.com" || !VerifyPassword(u.PasswordHash, pw) ||
		u.PasswordChangedAt.IsZero() {
		t.Fatalf("added user %+v", u)
	}
	if ns := e.notices(); len(ns) != 0 {
		t.Fatalf("a user with a password was invited: %+v", ns)
	}
	for _, tc := range []struct {
		account              int64
		email, role, pw, why string
	}{
		{e.account.ID, "owner@example.com", "", pw, "email_taken"},
		{e.account.ID, "OWNER@example.com", "", "", "email_taken"}, // unique within the account
		{e.account.ID, "not-an-address", "", pw, "email_invalid"},
		{e.account.ID, "x@example.com", "admin", pw, "role_invalid"},
		{e.account.ID, "x@example.com", "", "short", "password_too_short"},
	} {
		_, _, err := e.svc.AddUser(ctx(), tc.account, tc.email, tc.role, tc.pw)
		if Reason(err) != tc.why || errs.KindOf(err) != errs.BadRequest {
			t.Errorf("%+v: %v", tc, err)
		}
	}
	if e, ok := errs.As(func() error {
		_, _, err := e.svc.AddUser(ctx(), e.account.ID, "owner@example.com", "", "")
		return err
	}()); !ok || e.Safe != "The account already has a user with this e-mail." {
		t.Fatalf("duplicate message: %v", e)
	}
	_, _, err := e.svc.AddUser(ctx(), 9999, "x@example.com", "", pw)
	if errs.KindOf(err) != errs.NotFound {
		t.Fatalf("unknown account: %v", err)
	}
	if us, _ := e.svc.ListUsers(ctx(), e.account.ID); len(us) != 1 {
		t.Fatalf("refused users were stored: %+v", us)
	}
}

func TestLastOwnerProtected(t *testing.T) {
	e := newEnv(t)
	owner := e.addUser("owner@example.com", "", pw)
	agent := e.addUser("agent@example.com", store.UserAgent, pw)

	if err := e.svc.RemoveUser(ctx(), e.account.ID, owner.ID); Reason(err) != "last_owner" || errs.KindOf(err) != errs.BadRequest {
		t.Fatalf("remove last owner: %v", err)
	}
	if err := e.svc.SetRole(ctx(), e.account.ID, owner.ID, store.UserAgent); Reason(err) != "last_owner" {
		t.Fatalf("demote last owner: %v", err)
	}
	if err := e.svc.SetRole(ctx(), e.account.ID, agent.ID, "boss"); Reason(err) != "role_invalid" {
		t.Fatalf("bad role: %v", err)
	}
	if err := e.svc.SetRole(ctx(), e.account.ID, agent.ID, store.UserOwner); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetRole(ctx(), e.account.ID, owner.ID, store.UserAgent); err != nil {
		t.Fatalf("demote one of two owners: %v", err)
	}
	// The role applies to the next request of a signed-in user.
	s := e.signIn("owner@example.com", pw)
	if s.User.Role != store.UserAgent {
		t.Fatalf("role after demotion %q", s.User.Role)
	}
	if err := e.svc.RemoveUser(ctx(), e.account.ID, agent.ID); Reason(err) != "last_owner" {
		t.Fatalf("remove the new last owner: %v", err)
	}
	if err := e.svc.RemoveUser(ctx(), e.account.ID, owner.ID); err != nil {
		t.Fatalf("remove an agent: %v", err)
	}
	us, _ := e.svc.ListUsers(ctx(), e.account.ID)
	if len(us) != 1 || us[0].ID != agent.ID || us[0].Role != store.UserOwner {
		t.Fatalf("users left: %+v", us)
	}
}

func TestRemoveUserEndsSessionsAtOnce(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	agent := e.addUser("agent@example.com", store.UserAgent, pw)
	s := e.signIn("agent@example.com", pw)
	if _, err := e.svc.Session(ctx(), s.SessionID); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.RemoveUser(ctx(), e.account.ID, agent.ID); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.Session(ctx(), s.SessionID)
	wantErr(t, err, ErrNoSession)
	if err := e.svc.RemoveUser(ctx(), e.account.ID, agent.ID); Reason(err) != "user_not_found" || errs.KindOf(err) != errs.NotFound {
		t.Fatalf("second removal: %v", err)
	}
}

// Another account's user id behaves like one that does not exist.
func TestOtherAccountsUsersUnreachable(t *testing.T) {
	e := newEnv(t)
	e.addUser("mine@example.com", "", pw)
	other, _ := storetest.NewAccount(t, e.st, "Other", 0)
	theirs, _, err := e.svc.AddUser(ctx(), other.ID, "theirs@example.com", store.UserAgent, "")
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]error{
		"remove":   e.svc.RemoveUser(ctx(), e.account.ID, theirs.ID),
		"set role": e.svc.SetRole(ctx(), e.account.ID, theirs.ID, store.UserOwner),
		"set lang": e.svc.SetLang(ctx(), e.account.ID, theirs.ID, "de"),
	}
	_, checks["invite"] = e.svc.Invite(ctx(), e.account.ID, theirs.ID, "")
	for name, err := range checks {
		if !errors.Is(err, ErrUserNotFound) || errs.KindOf(err) != errs.NotFound {
			t.Errorf("%s: %v", name, err)
		}
	}
	got, _ := e.st.GetUser(ctx(), other.ID, theirs.ID)
	if got.Role != store.UserAgent || got.Lang != "" {
		t.Fatalf("the other account's user changed: %+v", got)
	}
	if us, _ := e.svc.ListUsers(ctx(), e.account.ID); len(us) != 1 {
		t.Fatalf("list crosses accounts: %+v", us)
	}
}

func TestSetLang(t *testing.T) {
	e := newEnv(t)
	u := e.addUser("owner@example.com", "", pw)
	if err := e.svc.SetLang(ctx(), e.account.ID, u.ID, "tr"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetLang(ctx(), e.account.ID, u.ID, "xx"); Reason(err) != "lang_invalid" {
		t.Fatalf("xx: %v", err)
	}
	got, _ := e.st.GetUser(ctx(), e.account.ID, u.ID)
	if got.Lang != "tr" || got.Role != store.UserOwner {
		t.Fatalf("after SetLang: %+v", got)
	}
	if err := e.svc.SetLang(ctx(), e.account.ID, u.ID, ""); err != nil {
		t.Fatal(err)
	}
}

// Nothing the service logs may sign anyone in: no password, no session id, no link token.
func TestLogsHoldNoSecrets(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	_, link, _ := e.svc.AddUser(ctx(), e.account.ID, "invited@example.com", "", "")
	s := e.signIn("owner@example.com", pw)
	_, _ = e.svc.SignIn(ctx(), "owner@example.com", "wrong password guess", "192.0.2.1", "")
	_, _ = e.svc.Session(ctx(), s.SessionID)
	_ = e.svc.ChangePassword(ctx(), s.User, s.Session.ID, pw, "the next password")
	_ = e.svc.RequestReset(ctx(), "owner@example.com", "192.0.2.1")
	reset := payloadOf(t, e.notices()[1]).URL
	_, _ = e.svc.RedeemLink(ctx(), tokenOf(t, link, "invite"), "invitee password")
	_, _ = e.svc.RedeemLink(ctx(), tokenOf(t, reset, "reset"), "reset password!")
	_ = e.svc.SignOut(ctx(), s.SessionID)
	logs := e.logs.String()
	if !strings.Contains(logs, "signed in") {
		t.Fatalf("nothing was logged: %q", logs)
	}
	for _, secret := range []string{pw, "wrong password guess", "the next password", "invitee password",
		"reset password!", s.SessionID, tokenOf(t, link, "invite"), tokenOf(t, reset, "reset")} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds a secret %q:\n%s", secret, logs)
		}
	}
}
