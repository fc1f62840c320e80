package users

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/errs"
	"svc/internal/store"
)

const pw = "correct horse battery"

func TestSignIn(t *testing.T) {
	e := newEnv(t)
	u := e.addUser("owner@example.com", "", pw)
	s := e.signIn("  Owner@Example.com ", pw)
	if len(s.SessionID) != 43 || s.User.ID != u.ID || s.Session.ID == 0 || s.Session.UserID != u.ID ||
		s.Session.AccountID != e.account.ID || s.Session.UserAgent != "Mozilla/5.0 test" ||
		!s.Session.ExpiresAt.Equal(e.clock.Now().Add(SessionMax)) || !s.User.LastSignInAt.Equal(e.clock.Now()) {
		t.Fatalf("signed: %+v", s)
	}
	got, err := e.svc.Session(ctx(), s.SessionID)
	if err != nil || got.User.ID != u.ID || got.Session.ID != s.Session.ID || got.SessionID != "" {
		t.Fatalf("session: %v %+v", err, got)
	}
	if stored, _ := e.st.GetUser(ctx(), e.account.ID, u.ID); !stored.LastSignInAt.Equal(e.clock.Now()) {
		t.Fatalf("sign-in not recorded: %+v", stored)
	}
	// A new session id on every sign-in.
	if again := e.signIn("owner@example.com", pw); again.SessionID == s.SessionID || again.Session.ID == s.Session.ID {
		t.Fatal("a second sign-in reused the session")
	}

	e.addUser("invited@example.com", store.UserAgent, "")
	for name, try := range map[string][2]string{
		"wrong password":   {"owner@example.com", "correct horse batterx"},
		"unknown e-mail":   {"nobody@example.com", pw},
		"no password yet":  {"invited@example.com", ""},
		"empty everything": {"", ""},
	} {
		_, err := e.svc.SignIn(ctx(), try[0], try[1], "198.51.100."+fmt.Sprint(len(name)), "")
		wantErr(t, err, ErrBadCredentials)
		if errs.KindOf(err) != errs.Unauthorized || Reason(err) != "bad_credentials" {
			t.Fatalf("%s: %v", name, err)
		}
		if err.Error() != badCredentials().Error() {
			t.Fatalf("%s: the error %q differs from the others", name, err)
		}
	}
}

// Every refused sign-in pays for one argon2 verification, whether or not the e-mail
// exists, so that the time taken does not tell.
func TestSignInAlwaysVerifies(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	e.addUser("invited@example.com", store.UserAgent, "")
	var calls atomic.Int32
	e.svc.key = func(phc, p string) ([]byte, []byte, bool) {
		calls.Add(1)
		if _, _, _, ok := parsePHC(phc); !ok {
			t.Errorf("verified against a garbled hash %q", phc)
		}
		return argonKey(phc, p)
	}
	for _, email := range []string{"nobody@example.com", "invited@example.com", "owner@example.com"} {
		calls.Store(0)
		_, err := e.svc.SignIn(ctx(), email, "not the password", "", "")
		wantErr(t, err, ErrBadCredentials)
		if calls.Load() != 1 {
			t.Fatalf("%s: %d verifications, want 1", email, calls.Load())
		}
	}
	// The dummy hash has the service's cost, not a cheaper one.
	p, _, _, _ := parsePHC(e.svc.dummyHash())
	if p != e.svc.params {
		t.Fatalf("dummy hash parameters %+v, want %+v", p, e.svc.params)
	}
	// A user without a password cannot sign in even with the dummy's secret: there is none.
	calls.Store(0)
	if _, err := e.svc.SignIn(ctx(), "invited@example.com", "", "", ""); !errors.Is(err, ErrBadCredentials) {
		t.Fatal(err)
	}
}

func TestSignInThrottlePerEmail(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	for i := range 5 {
		// Different addresses: only the e-mail's counter can block.
		_, err := e.svc.SignIn(ctx(), "owner@example.com", "wrong", fmt.Sprintf("192.0.2.%d", i), "")
		wantErr(t, err, ErrBadCredentials)
		e.clock.Advance(time.Minute)
	}
	_, err := e.svc.SignIn(ctx(), "OWNER@example.com", pw, "192.0.2.99", "")
	var te *ThrottledError
	if !errors.As(err, &te) || te.RetryAfter != 10*time.Minute {
		t.Fatalf("sixth attempt, right password: %v, want throttled for 10m", err)
	}
	if e, ok := errs.As(err); !ok || e.Kind != errs.RateLimited || e.RetryAfter != te.RetryAfter || Reason(err) != "throttled" {
		t.Fatalf("throttle error not mapped: %v", err)
	}
	// Another e-mail from the same addresses is not affected.
	e.addUser("agent@example.com", store.UserAgent, pw)
	e.signIn("agent@example.com", pw)

	e.clock.Advance(10 * time.Minute)
	e.signIn("owner@example.com", pw)
	// The success forgot the failures: four more are allowed before a block again.
	for range 4 {
		_, err := e.svc.SignIn(ctx(), "owner@example.com", "wrong", "192.0.2.1", "")
		wantErr(t, err, ErrBadCredentials)
	}
	e.signIn("owner@example.com", pw)
}

func TestSignInThrottlePerAddress(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	const addr = "2001:db8:7::1"
	for i := range 20 {
		_, err := e.svc.SignIn(ctx(), fmt.Sprintf("guess%d@example.com", i), pw, addr, "")
		wantErr(t, err, ErrBadCredentials)
	}
	// The same /64, another host: still the same client.
	_, err := e.svc.SignIn(ctx(), "owner@example.com", pw, "2001:db8:7::abcd", "")
	var te *ThrottledError
	if !errors.As(err, &te) || te.RetryAfter <= 0 {
		t.Fatalf("21st attempt from the address: %v", err)
	}
	// Another address signs in.
	if _, err := e.svc.SignIn(ctx(), "owner@example.com", pw, "2001:db8:8::1", ""); err != nil {
		t.Fatal(err)
	}
	// A success does not reset the address's counter.
	if _, err := e.svc.SignIn(ctx(), "owner@example.com", pw, addr, ""); !errors.As(err, &te) {
		t.Fatalf("address unblocked by another address's success: %v", err)
	}
	e.clock.Advance(15 * time.Minute)
	if _, err := e.svc.SignIn(ctx(), "owner@example.com", pw, addr, ""); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}

func TestSessionIdleExpiry(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	s := e.signIn("owner@example.com", pw)
	// Used every 7 hours, it lives on.
	for range 3 {
		e.clock.Advance(7 * time.Hour)
		if _, err := e.svc.Session(ctx(), s.SessionID); err != nil {
			t.Fatalf("active session ended: %v", err)
		}
	}
	e.clock.Advance(SessionIdle + time.Second)
	_, err := e.svc.Session(ctx(), s.SessionID)
	wantErr(t, err, ErrNoSession)
	if errs.KindOf(err) != errs.Unauthorized {
		t.Fatalf("kind of %v", err)
	}
	if _, err := e.st.SessionByHash(ctx(), hashOf(s.SessionID)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an idle session was not deleted: %v", err)
	}
}

func TestSessionAbsoluteExpiry(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	s := e.signIn("owner@example.com", pw)
	end := e.clock.Now().Add(SessionMax)
	for e.clock.Now().Add(time.Hour).Before(end) {
		e.clock.Advance(time.Hour)
		if _, err := e.svc.Session(ctx(), s.SessionID); err != nil {
			t.Fatalf("session ended early at %s: %v", e.clock.Now(), err)
		}
	}
	e.clock.Advance(time.Hour)
	_, err := e.svc.Session(ctx(), s.SessionID)
	wantErr(t, err, ErrNoSession)
}

func TestSessionTouchedOncePerMinute(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	s := e.signIn("owner@example.com", pw)
	start := e.clock.Now()
	e.clock.Advance(30 * time.Second)
	if got, _ := e.svc.Session(ctx(), s.SessionID); !got.Session.LastSeenAt.Equal(start) {
		t.Fatalf("touched within the minute: %v", got.Session.LastSeenAt)
	}
	e.clock.Advance(31 * time.Second)
	got, _ := e.svc.Session(ctx(), s.SessionID)
	stored, _ := e.st.SessionByHash(ctx(), hashOf(s.SessionID))
	if !got.Session.LastSeenAt.Equal(e.clock.Now()) || !stored.LastSeenAt.Equal(e.clock.Now()) {
		t.Fatalf("not touched after a minute: %v %v", got.Session.LastSeenAt, stored.LastSeenAt)
	}
}

func TestSessionRejectsGarbage(t *testing.T) {
	e := newEnv(t)
	for _, raw := range []string{"", "x", strings.Repeat("A", 42), strings.Repeat("!", 43), strings.Repeat("A", 44)} {
		_, err := e.svc.Session(ctx(), raw)
		wantErr(t, err, ErrNoSession)
	}
	raw, _ := newSecret() // well formed, never issued
	_, err := e.svc.Session(ctx(), raw)
	wantErr(t, err, ErrNoSession)
}

func TestSignOut(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	a := e.signIn("owner@example.com", pw)
	b := e.signIn("owner@example.com", pw)
	if err := e.svc.SignOut(ctx(), a.SessionID); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.Session(ctx(), a.SessionID)
	wantErr(t, err, ErrNoSession)
	if _, err := e.svc.Session(ctx(), b.SessionID); err != nil {
		t.Fatalf("signing out one browser ended another: %v", err)
	}
	if err := e.svc.SignOut(ctx(), a.SessionID); err != nil {
		t.Fatalf("second sign-out: %v", err)
	}
	if err := e.svc.SignOut(ctx(), "garbage"); err != nil {
		t.Fatalf("sign-out of garbage: %v", err)
	}
}

func TestChangePasswordEndsOtherSessions(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	here := e.signIn("owner@example.com", pw)
	there := e.signIn("owner@example.com", pw)

	err := e.svc.ChangePassword(ctx(), here.User, here.Session.ID, "not it at all", "a brand new password")
	wantErr(t, err, ErrBadCredentials)
	if errs.KindOf(err) != errs.BadRequest {
		t.Fatalf("a wrong current password is the form's error, not a sign-out: %v", err)
	}
	err = e.svc.ChangePassword(ctx(), here.User, here.Session.ID, pw, "short")
	if Reason(err) != "password_too_short" {
		t.Fatalf("weak new password: %v", err)
	}
	if err := e.svc.ChangePassword(ctx(), here.User, here.Session.ID, pw, "a brand new password"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Session(ctx(), here.SessionID); err != nil {
		t.Fatalf("the session that changed the password ended: %v", err)
	}
	_, err = e.svc.Session(ctx(), there.SessionID)
	wantErr(t, err, ErrNoSession)
	_, err = e.svc.SignIn(ctx(), "owner@example.com", pw, "", "")
	wantErr(t, err, ErrBadCredentials)
	e.signIn("owner@example.com", "a brand new password")

	// Guessing the current password through a session is throttled like sign-in.
	for range 5 {
		_ = e.svc.ChangePassword(ctx(), here.User, here.Session.ID, "guess", "another new password")
	}
	var te *ThrottledError
	if err := e.svc.ChangePassword(ctx(), here.User, here.Session.ID, "a brand new password", "another new password"); !errors.As(err, &te) {
		t.Fatalf("sixth guess: %v", err)
	}
}
