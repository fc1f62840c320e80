package users

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/errs"
	"svc/internal/store"
)

func TestInviteSetPasswordSignIn(t *testing.T) {
	e := newEnv(t)
	u, link, err := e.svc.AddUser(ctx(), e.account.ID, "New@Example.com", "agent", "")
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "new@example.com" || u.Role != store.UserAgent || u.PasswordHash != "" {
		t.Fatalf("invited user: %+v", u)
	}
	raw := tokenOf(t, link, "invite")
	ns := e.notices()
	if len(ns) != 1 || ns[0].Kind != store.NoticeUserInvite || e.kicks != 1 {
		t.Fatalf("invite notices %+v, kicks %d", ns, e.kicks)
	}
	p := payloadOf(t, ns[0])
	if p.UserID != u.ID || p.URL != link || !p.ExpiresAt.Equal(e.clock.Now().Add(InviteTTL)) {
		t.Fatalf("invite payload %+v", p)
	}
	// Not yet: the invited user has no password.
	_, err = e.svc.SignIn(ctx(), "new@example.com", "", "", "")
	wantErr(t, err, ErrBadCredentials)

	tok, err := e.svc.CheckLink(ctx(), raw)
	if err != nil || tok.Kind != store.AuthInvite || tok.UserID != u.ID {
		t.Fatalf("check link: %v %+v", err, tok)
	}
	// A weak password is refused and leaves the link usable.
	if _, err := e.svc.RedeemLink(ctx(), raw, "short"); Reason(err) != "password_too_short" {
		t.Fatalf("weak password: %v", err)
	}
	e.clock.Advance(6 * 24 * time.Hour) // still inside the week
	got, err := e.svc.RedeemLink(ctx(), raw, "my first password")
	if err != nil || got.ID != u.ID || got.PasswordHash == "" {
		t.Fatalf("redeem: %v %+v", err, got)
	}
	s := e.signIn("new@example.com", "my first password")
	if s.User.Role != store.UserAgent {
		t.Fatalf("signed in as %+v", s.User)
	}
	// Single use.
	_, err = e.svc.RedeemLink(ctx(), raw, "a second password")
	wantErr(t, err, ErrBadLink)
	_, err = e.svc.CheckLink(ctx(), raw)
	wantErr(t, err, ErrBadLink)
	// Inviting a user who has a password is refused.
	_, err = e.svc.Invite(ctx(), e.account.ID, u.ID, "de")
	if Reason(err) != "has_password" {
		t.Fatalf("invite of a user with a password: %v", err)
	}
}

func TestInviteAgain(t *testing.T) {
	e := newEnv(t)
	u, first, err := e.svc.AddUser(ctx(), e.account.ID, "late@example.com", "", "")
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(InviteTTL + time.Second)
	_, err = e.svc.RedeemLink(ctx(), tokenOf(t, first, "invite"), "a good password")
	wantErr(t, err, ErrBadLink)
	again, err := e.svc.Invite(ctx(), e.account.ID, u.ID, "tr")
	if err != nil || again == first {
		t.Fatalf("fresh invite: %q %v", again, err)
	}
	ns := e.notices()
	if len(ns) != 2 || ns[1].Kind != store.NoticeUserInvite || ns[1].DedupeKey == ns[0].DedupeKey {
		t.Fatalf("notices %+v", ns)
	}
	if p := payloadOf(t, ns[1]); p.URL != again || p.Lang != "tr" {
		t.Fatalf("payload %+v", p)
	}
	if _, err := e.svc.Invite(ctx(), e.account.ID, u.ID, "fr"); Reason(err) != "lang_invalid" {
		t.Fatalf("invite in fr: %v", err)
	}
	if _, err := e.svc.RedeemLink(ctx(), tokenOf(t, again, "invite"), "a good password"); err != nil {
		t.Fatal(err)
	}
}

func TestResetFlow(t *testing.T) {
	e := newEnv(t)
	u := e.addUser("owner@example.com", "", pw)
	if err := e.svc.SetLang(ctx(), e.account.ID, u.ID, "de"); err != nil {
		t.Fatal(err)
	}
	old := e.signIn("owner@example.com", pw)
	if err := e.svc.RequestReset(ctx(), " OWNER@example.com", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	ns := e.notices()
	if len(ns) != 1 || ns[0].Kind != store.NoticePasswordReset || e.kicks != 1 {
		t.Fatalf("reset notices %+v, kicks %d", ns, e.kicks)
	}
	p := payloadOf(t, ns[0])
	if p.UserID != u.ID || p.Lang != "de" || !p.ExpiresAt.Equal(e.clock.Now().Add(ResetTTL)) {
		t.Fatalf("reset payload %+v", p)
	}
	tok, err := e.svc.CheckLink(ctx(), tokenOf(t, p.URL, "reset"))
	if err != nil || tok.Kind != store.AuthReset || ns[0].DedupeKey != "reset:"+strconv.FormatInt(tok.ID, 10) {
		t.Fatalf("reset link %v %+v, dedupe key %q", err, tok, ns[0].DedupeKey)
	}
	if _, err := e.svc.RedeemLink(ctx(), tokenOf(t, p.URL, "reset"), "the new password"); err != nil {
		t.Fatal(err)
	}
	// Every session ended; the new password works, the old one not.
	_, err = e.svc.Session(ctx(), old.SessionID)
	wantErr(t, err, ErrNoSession)
	_, err = e.svc.SignIn(ctx(), "owner@example.com", pw, "", "")
	wantErr(t, err, ErrBadCredentials)
	e.signIn("owner@example.com", "the new password")
	_, err = e.svc.RedeemLink(ctx(), tokenOf(t, p.URL, "reset"), "yet another password")
	wantErr(t, err, ErrBadLink)
}

func TestResetLinkExpires(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	if err := e.svc.RequestReset(ctx(), "owner@example.com", ""); err != nil {
		t.Fatal(err)
	}
	raw := tokenOf(t, payloadOf(t, e.notices()[0]).URL, "reset")
	e.clock.Advance(ResetTTL)
	_, err := e.svc.CheckLink(ctx(), raw)
	wantErr(t, err, ErrBadLink)
	_, err = e.svc.RedeemLink(ctx(), raw, "the new password")
	wantErr(t, err, ErrBadLink)
	if errs.KindOf(err) != errs.BadRequest || Reason(err) != "bad_link" {
		t.Fatalf("expired link error %v", err)
	}
	e.signIn("owner@example.com", pw) // unchanged
}

func TestResetUnknownEmailQueuesNothing(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	for _, email := range []string{"nobody@example.com", "", "not an address"} {
		if err := e.svc.RequestReset(ctx(), email, "192.0.2.1"); err != nil {
			t.Fatalf("%q: %v", email, err)
		}
	}
	if ns := e.notices(); len(ns) != 0 || e.kicks != 0 {
		t.Fatalf("notices for unknown e-mails: %+v", ns)
	}
}

func TestResetThrottledSilently(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	for i := range 5 {
		if err := e.svc.RequestReset(ctx(), "owner@example.com", "192.0.2."+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(e.notices()); n != 3 {
		t.Fatalf("%d reset mails in an hour, want 3", n)
	}
	e.clock.Advance(time.Hour)
	if err := e.svc.RequestReset(ctx(), "owner@example.com", "192.0.2.9"); err != nil || len(e.notices()) != 4 {
		t.Fatalf("after the hour: %v, %d mails", err, len(e.notices()))
	}
	// Per address: 10 an hour, whatever the e-mails.
	for i := range 12 {
		_ = e.svc.RequestReset(ctx(), "nobody"+strconv.Itoa(i)+"@example.com", "198.51.100.1")
	}
	e.clock.Advance(30 * time.Minute) // the e-mail's own window has room again
	if err := e.svc.RequestReset(ctx(), "owner@example.com", "198.51.100.1"); err != nil {
		t.Fatal(err)
	}
	if n := len(e.notices()); n != 4 {
		t.Fatalf("a throttled address got a mail out: %d", n)
	}
}

func TestLinkRedeemedOnceUnderRace(t *testing.T) {
	e := newEnv(t)
	_, link, err := e.svc.AddUser(ctx(), e.account.ID, "racer@example.com", "", "")
	if err != nil {
		t.Fatal(err)
	}
	raw := tokenOf(t, link, "invite")
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, refused := 0, 0
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.svc.RedeemLink(ctx(), raw, "a racing password")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, ErrBadLink):
				refused++
			default:
				t.Errorf("redeem: %v", err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 || refused != 9 {
		t.Fatalf("%d wins, %d refused", wins, refused)
	}
}

func TestCheckLinkGarbage(t *testing.T) {
	e := newEnv(t)
	for _, raw := range []string{"", "abc", strings.Repeat("-", 43)} {
		_, err := e.svc.CheckLink(ctx(), raw)
		wantErr(t, err, ErrBadLink)
	}
}

func TestSweep(t *testing.T) {
	e := newEnv(t)
	e.addUser("owner@example.com", "", pw)
	idle := e.signIn("owner@example.com", pw)
	e.clock.Advance(SessionIdle - time.Minute)
	fresh := e.signIn("owner@example.com", pw)
	e.clock.Advance(2 * time.Minute)
	e.svc.Sweep(ctx())
	if _, err := e.st.SessionByHash(ctx(), hashOf(idle.SessionID)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("idle session survived the sweep: %v", err)
	}
	if _, err := e.st.SessionByHash(ctx(), hashOf(fresh.SessionID)); err != nil {
		t.Fatalf("fresh session swept: %v", err)
	}
}
