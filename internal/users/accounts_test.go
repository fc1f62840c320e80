package users

import (
	"errors"
	"reflect"
	"sync/atomic"
	"testing"

	"svc/internal/store"
	"svc/internal/store/storetest"
)

// Inviting an address that has a user in another account is answered like inviting a fresh
// one: a user, a link and a mail. It answered "A user with this e-mail already exists",
// which told any account's owner which addresses had a user elsewhere.
func TestInviteAnswersAlikeForKnownAndFreshAddresses(t *testing.T) {
	e := newEnv(t)
	e.addUser("ada@agency.example", "", pw)
	client, _ := storetest.NewAccount(t, e.st, "Client", 0)
	for _, email := range []string{"ada@agency.example", "fresh@agency.example"} {
		u, link, err := e.svc.AddUser(ctx(), client.ID, email, store.UserAgent, "")
		if err != nil || u.ID == 0 || u.AccountID != client.ID || u.PasswordHash != "" || link == "" {
			t.Fatalf("invite %s: %v %+v %q", email, err, u, link)
		}
	}
	ns, _ := e.st.Notices(ctx(), client.ID)
	if len(ns) != 2 {
		t.Fatalf("%d invite mails queued, want one for each address", len(ns))
	}
	// In one account an address is still one user.
	if _, _, err := e.svc.AddUser(ctx(), client.ID, "ADA@agency.example", store.UserAgent, ""); Reason(err) != "email_taken" {
		t.Fatalf("a second invite in the same account: %v", err)
	}
}

// One person in two accounts: with the same password for both, a sign-in asks which one
// (and says nothing else), and signs in to the one named; with a password of each, each
// password opens its own. Either way a sign-in derives one argon2 key.
func TestOnePersonInSeveralAccounts(t *testing.T) {
	e := newEnv(t)
	agency := e.account
	e.addUser("ada@agency.example", "", pw)
	client, _ := storetest.NewAccount(t, e.st, "Client", 0)
	_, link, err := e.svc.AddUser(ctx(), client.ID, "ada@agency.example", store.UserAgent, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.RedeemLink(ctx(), tokenOf(t, link, "invite"), pw); err != nil {
		t.Fatal(err)
	}
	var keys atomic.Int32
	e.svc.key = func(phc, p string) ([]byte, []byte, bool) { keys.Add(1); return argonKey(phc, p) }

	_, err = e.svc.SignIn(ctx(), "ada@agency.example", pw, "203.0.113.7", "")
	var choose *ChooseAccount
	if !errors.As(err, &choose) || !reflect.DeepEqual(choose.Accounts,
		[]AccountChoice{{ID: agency.ID, Name: agency.Name}, {ID: client.ID, Name: "Client"}}) {
		t.Fatalf("sign-in with the password of both: %v", err)
	}
	if keys.Load() != 1 {
		t.Fatalf("%d argon2 keys derived for two memberships, want 1 (they share a salt)", keys.Load())
	}
	for _, a := range []int64{client.ID, agency.ID} {
		s, err := e.svc.SignInTo(ctx(), "ada@agency.example", pw, a, "203.0.113.7", "")
		if err != nil || s.User.AccountID != a || s.Session.AccountID != a {
			t.Fatalf("sign in to account %d: %v %+v", a, err, s.User)
		}
	}
	// An account the password is not right for is a wrong password, whatever it is.
	for _, a := range []int64{9999, client.ID + 1} {
		_, err := e.svc.SignInTo(ctx(), "ada@agency.example", pw, a, "203.0.113.7", "")
		wantErr(t, err, ErrBadCredentials)
	}

	// Forgot password: a link for each membership, each mail naming its account.
	if err := e.svc.RequestReset(ctx(), "ada@agency.example", "203.0.113.8"); err != nil {
		t.Fatal(err)
	}
	for _, a := range []int64{agency.ID, client.ID} {
		ns, _ := e.st.Notices(ctx(), a)
		if len(ns) == 0 || ns[0].Kind != store.NoticePasswordReset {
			t.Fatalf("account %d: no reset mail (%+v)", a, ns)
		}
	}

	// A password of its own for the client's membership: each password opens its account.
	const other = "another long password"
	s, err := e.svc.SignInTo(ctx(), "ada@agency.example", pw, client.ID, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.ChangePassword(ctx(), s.User, s.Session.ID, pw, other); err != nil {
		t.Fatal(err)
	}
	keys.Store(0)
	if got := e.signIn("ada@agency.example", pw); got.User.AccountID != agency.ID {
		t.Fatalf("the agency's password signed in to %d", got.User.AccountID)
	}
	if got := e.signIn("ada@agency.example", other); got.User.AccountID != client.ID {
		t.Fatalf("the client's password signed in to %d", got.User.AccountID)
	}
	if keys.Load() != 2 {
		t.Fatalf("%d keys derived for two sign-ins, want 2", keys.Load())
	}
}

// An owner who invites someone else's address is shown the link (for a server without
// mail) and may set a password with it: that makes a user of their own account, nothing
// more. The person's own password still opens only their account, with no word of the
// other, and the owner's password opens only the owner's account.
func TestAnInviteRedeemedByTheInviterRevealsAndOpensNothingElse(t *testing.T) {
	e := newEnv(t)
	victim := e.account
	e.addUser("ada@agency.example", "", pw)
	evil, _ := storetest.NewAccount(t, e.st, "Evil", 0)
	_, link, err := e.svc.AddUser(ctx(), evil.ID, "ada@agency.example", store.UserOwner, "")
	if err != nil {
		t.Fatal(err)
	}
	const mine = "the inviter's own password"
	if _, err := e.svc.RedeemLink(ctx(), tokenOf(t, link, "invite"), mine); err != nil {
		t.Fatal(err)
	}
	if s := e.signIn("ada@agency.example", pw); s.User.AccountID != victim.ID {
		t.Fatalf("the person's password opened account %d", s.User.AccountID)
	}
	if s := e.signIn("ada@agency.example", mine); s.User.AccountID != evil.ID {
		t.Fatalf("the inviter's password opened account %d", s.User.AccountID)
	}
}
