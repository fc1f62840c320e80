package storetest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

// usersTests are the conformance tests of store.Users.
func usersTests() []suiteTest {
	return []suiteTest{
		{"UserLifecycle", testUserLifecycle},
		{"UserEmailUniquePerAccount", testUserEmailUniquePerAccount},
		{"UserTenantIsolation", testUserTenantIsolation},
		{"RemoveUserEndsSessionsAndLinks", testRemoveUserEndsSessions},
		{"SetPasswordKeepsOneSession", testSetPasswordKeepsOneSession},
		{"RedeemAuthToken", testRedeemAuthToken},
		{"RedeemAuthTokenOnceUnderRace", testRedeemAuthTokenRace},
		{"Sessions", testSessions},
	}
}

// usersClockedTests are the conformance tests of store.Users that move the clock.
func usersClockedTests() []clockedTest {
	return []clockedTest{
		{"ExpiredLinkRefused", testExpiredLinkRefused},
		{"DeleteStaleSessions", testDeleteStaleSessions},
	}
}

// hashOf stands for the users package's SHA-256 of a random secret.
func hashOf(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// userFixture creates a user of the account with a placeholder password hash ("" when
// withPassword is false).
func userFixture(t *testing.T, s store.Store, accountID int64, email, role string, withPassword bool) store.User {
	t.Helper()
	u := store.User{AccountID: accountID, Email: email, Role: role}
	if withPassword {
		u.PasswordHash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"
	}
	if err := s.CreateUser(ctx(), &u); err != nil {
		t.Fatalf("create user %s: %v", email, err)
	}
	return u
}

// newSession signs u in with a session named by secret, created at now.
func newSession(t *testing.T, s store.Store, u store.User, secret string, now time.Time) store.Session {
	t.Helper()
	x := store.Session{Hash: hashOf(secret), UserID: u.ID, AccountID: u.AccountID, UserAgent: "test/1.0",
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(7 * 24 * time.Hour)}
	if err := s.CreateSession(ctx(), &x); err != nil {
		t.Fatalf("create session: %v", err)
	}
	return x
}

// newLink gives u a one-time link named by secret, expiring at expires.
func newLink(t *testing.T, s store.Store, u store.User, kind, secret string, expires time.Time) store.AuthToken {
	t.Helper()
	l := store.AuthToken{Hash: hashOf(secret), UserID: u.ID, AccountID: u.AccountID, Kind: kind, ExpiresAt: expires}
	if err := s.CreateAuthToken(ctx(), &l); err != nil {
		t.Fatalf("create link: %v", err)
	}
	return l
}

func sessionGone(t *testing.T, s store.Store, secret string) bool {
	t.Helper()
	_, err := s.SessionByHash(ctx(), hashOf(secret))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("session by hash: %v", err)
	}
	return err != nil
}

func linkGone(t *testing.T, s store.Store, secret string) bool {
	t.Helper()
	_, err := s.AuthTokenByHash(ctx(), hashOf(secret))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("link by hash: %v", err)
	}
	return err != nil
}

func testUserLifecycle(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Users", 0)
	before := time.Now().Add(-time.Second)
	owner := userFixture(t, s, a.ID, "owner@example.com", store.UserOwner, true)
	if owner.ID == 0 || owner.CreatedAt.Before(before) || !owner.LastSignInAt.IsZero() {
		t.Fatalf("created user not filled: %+v", owner)
	}
	agent := userFixture(t, s, a.ID, "agent@example.com", store.UserAgent, false)

	got, err := s.GetUser(ctx(), a.ID, owner.ID)
	if err != nil || got.Email != owner.Email || got.Role != store.UserOwner || got.PasswordHash != owner.PasswordHash ||
		!got.CreatedAt.Equal(owner.CreatedAt) {
		t.Fatalf("get user: %v %+v, want %+v", err, got, owner)
	}
	byMail, err := s.UsersByEmail(ctx(), "agent@example.com")
	if err != nil || len(byMail) != 1 || byMail[0].ID != agent.ID || byMail[0].AccountID != a.ID || byMail[0].PasswordHash != "" {
		t.Fatalf("users by e-mail: %v %+v", err, byMail)
	}
	if none, err := s.UsersByEmail(ctx(), "nobody@example.com"); err != nil || none == nil || len(none) != 0 {
		t.Fatalf("unknown e-mail: %v %#v, want an empty list", err, none)
	}
	list, err := s.ListUsers(ctx(), a.ID)
	if err != nil || len(list) != 2 || list[0].ID != owner.ID || list[1].ID != agent.ID {
		t.Fatalf("list users, oldest first: %v %+v", err, list)
	}
	if list, err := s.ListUsers(ctx(), a.ID+1000); err != nil || len(list) != 0 {
		t.Fatalf("list of an account without users: %v %+v", err, list)
	}

	agent.Role, agent.Lang = store.UserOwner, "de"
	agent.Email, agent.PasswordHash = "changed@example.com", "changed" // not written by UpdateUser
	if err := s.UpdateUser(ctx(), &agent); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetUser(ctx(), a.ID, agent.ID)
	if got.Role != store.UserOwner || got.Lang != "de" || got.Email != "agent@example.com" || got.PasswordHash != "" {
		t.Fatalf("after update: %+v", got)
	}

	at := time.Date(2030, 5, 6, 7, 8, 9, 123456000, time.UTC)
	if err := s.RecordSignIn(ctx(), a.ID, owner.ID, at); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetUser(ctx(), a.ID, owner.ID)
	if !got.LastSignInAt.Equal(at) {
		t.Fatalf("last sign-in %v, want %v", got.LastSignInAt, at)
	}

	if err := s.SetPassword(ctx(), a.ID, agent.ID, "new-hash", at, 0); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetUser(ctx(), a.ID, agent.ID)
	if got.PasswordHash != "new-hash" || !got.PasswordChangedAt.Equal(at) {
		t.Fatalf("after set password: %+v", got)
	}

	// A user of an account that does not exist is refused.
	ghost := store.User{AccountID: a.ID + 1000, Email: "ghost@example.com", Role: store.UserOwner}
	if err := s.CreateUser(ctx(), &ghost); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("user of a missing account: %v", err)
	}
}

// testUserEmailUniquePerAccount: an e-mail is unique within an account, and one person (one
// e-mail) may be a user of several accounts, each membership a user of its own.
func testUserEmailUniquePerAccount(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "First", 0)
	b, _ := NewAccount(t, s, "Second", 0)
	first := userFixture(t, s, a.ID, "same@example.com", store.UserOwner, true)
	again := store.User{AccountID: a.ID, Email: "same@example.com", Role: store.UserAgent}
	if err := s.CreateUser(ctx(), &again); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second user with the e-mail in the same account: %v", err)
	}
	if list, _ := s.ListUsers(ctx(), a.ID); len(list) != 1 {
		t.Fatalf("a refused user was stored: %+v", list)
	}
	second := userFixture(t, s, b.ID, "same@example.com", store.UserAgent, false)
	if second.ID == first.ID || second.AccountID != b.ID {
		t.Fatalf("the other account's user: %+v", second)
	}
	both, err := s.UsersByEmail(ctx(), "same@example.com")
	if err != nil || len(both) != 2 || both[0].ID != first.ID || both[1].ID != second.ID ||
		both[0].PasswordHash == "" || both[1].PasswordHash != "" {
		t.Fatalf("users by e-mail, oldest first: %v %+v", err, both)
	}
	// Each membership is its own: removing one leaves the other.
	if err := s.RemoveUser(ctx(), a.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if left, _ := s.UsersByEmail(ctx(), "same@example.com"); len(left) != 1 || left[0].ID != second.ID {
		t.Fatalf("after removing one: %+v", left)
	}
	userFixture(t, s, a.ID, "same@example.com", store.UserOwner, false)
}

func testUserTenantIsolation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Mine", 0)
	b, _ := NewAccount(t, s, "Theirs", 0)
	theirs := userFixture(t, s, b.ID, "theirs@example.com", store.UserOwner, true)
	now := time.Now()
	newSession(t, s, theirs, "their-session", now)
	newLink(t, s, theirs, store.AuthReset, "their-link", now.Add(time.Hour))

	if _, err := s.GetUser(ctx(), a.ID, theirs.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get: %v", err)
	}
	forged := theirs
	forged.AccountID, forged.Role = a.ID, store.UserAgent
	if err := s.UpdateUser(ctx(), &forged); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("update: %v", err)
	}
	if err := s.RemoveUser(ctx(), a.ID, theirs.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("remove: %v", err)
	}
	if err := s.SetPassword(ctx(), a.ID, theirs.ID, "stolen", now, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("set password: %v", err)
	}
	if err := s.RecordSignIn(ctx(), a.ID, theirs.ID, now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("record sign-in: %v", err)
	}
	if err := s.DeleteUserSessions(ctx(), a.ID, theirs.ID); err != nil {
		t.Fatalf("delete sessions: %v", err)
	}
	x := store.Session{Hash: hashOf("forged"), UserID: theirs.ID, AccountID: a.ID, ExpiresAt: now.Add(time.Hour)}
	if err := s.CreateSession(ctx(), &x); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("session for another account's user: %v", err)
	}
	l := store.AuthToken{Hash: hashOf("forged"), UserID: theirs.ID, AccountID: a.ID, Kind: store.AuthReset,
		ExpiresAt: now.Add(time.Hour)}
	if err := s.CreateAuthToken(ctx(), &l); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("link for another account's user: %v", err)
	}

	got, err := s.GetUser(ctx(), b.ID, theirs.ID)
	if err != nil || got.Role != store.UserOwner || got.PasswordHash != theirs.PasswordHash || !got.LastSignInAt.IsZero() {
		t.Fatalf("the other account's user changed: %v %+v", err, got)
	}
	if sessionGone(t, s, "their-session") || linkGone(t, s, "their-link") {
		t.Fatal("the other account's session or link went")
	}
}

func testRemoveUserEndsSessions(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Remover", 0)
	gone := userFixture(t, s, a.ID, "gone@example.com", store.UserAgent, true)
	stays := userFixture(t, s, a.ID, "stays@example.com", store.UserOwner, true)
	now := time.Now()
	newSession(t, s, gone, "gone-1", now)
	newSession(t, s, gone, "gone-2", now)
	newSession(t, s, stays, "stays-1", now)
	newLink(t, s, gone, store.AuthReset, "gone-link", now.Add(time.Hour))
	newLink(t, s, stays, store.AuthReset, "stays-link", now.Add(time.Hour))

	if err := s.RemoveUser(ctx(), a.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetUser(ctx(), a.ID, gone.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("removed user still there: %v", err)
	}
	if !sessionGone(t, s, "gone-1") || !sessionGone(t, s, "gone-2") || !linkGone(t, s, "gone-link") {
		t.Fatal("a removed user's session or link survived")
	}
	if sessionGone(t, s, "stays-1") || linkGone(t, s, "stays-link") {
		t.Fatal("another user's session or link went")
	}
	if err := s.RemoveUser(ctx(), a.ID, gone.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second removal: %v", err)
	}
}

func testSetPasswordKeepsOneSession(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Changer", 0)
	u := userFixture(t, s, a.ID, "changer@example.com", store.UserOwner, true)
	other := userFixture(t, s, a.ID, "other@example.com", store.UserOwner, true)
	now := time.Now()
	newSession(t, s, u, "keep", now)
	newSession(t, s, u, "drop-1", now)
	newSession(t, s, u, "drop-2", now)
	newSession(t, s, other, "other", now)
	newLink(t, s, u, store.AuthReset, "unused", now.Add(time.Hour))
	used := newLink(t, s, u, store.AuthReset, "used", now.Add(time.Hour))
	if _, err := s.RedeemAuthToken(ctx(), used.Hash, now, "from-link"); err != nil {
		t.Fatal(err)
	}
	newLink(t, s, other, store.AuthReset, "other-link", now.Add(time.Hour))
	keep := newSession(t, s, u, "keep-2", now) // the redemption ended every session
	newSession(t, s, u, "drop-3", now)
	newLink(t, s, u, store.AuthInvite, "unused-2", now.Add(time.Hour))

	if err := s.SetPassword(ctx(), a.ID, u.ID, "changed", now, keep.ID); err != nil {
		t.Fatal(err)
	}
	if sessionGone(t, s, "keep-2") {
		t.Fatal("the kept session went")
	}
	if !sessionGone(t, s, "drop-3") {
		t.Fatal("another session of the user survived")
	}
	if !linkGone(t, s, "unused-2") {
		t.Fatal("an unused link survived the password change")
	}
	if l, err := s.AuthTokenByHash(ctx(), used.Hash); err != nil || l.UsedAt.IsZero() {
		t.Fatalf("the used link (a record) went: %v %+v", err, l)
	}
	if sessionGone(t, s, "other") || linkGone(t, s, "other-link") {
		t.Fatal("another user's session or link went")
	}
	// keepSessionID 0 ends them all.
	if err := s.SetPassword(ctx(), a.ID, u.ID, "again", now, 0); err != nil {
		t.Fatal(err)
	}
	if !sessionGone(t, s, "keep-2") {
		t.Fatal("keepSessionID 0 kept a session")
	}
}

func testRedeemAuthToken(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Redeemer", 0)
	u := userFixture(t, s, a.ID, "invited@example.com", store.UserAgent, false)
	now := time.Now().UTC()
	newSession(t, s, u, "before", now)
	before := time.Now().Add(-time.Second)
	l := newLink(t, s, u, store.AuthInvite, "invite", now.Add(7*24*time.Hour))
	if l.ID == 0 || l.CreatedAt.Before(before) || !l.UsedAt.IsZero() {
		t.Fatalf("created link not filled: %+v", l)
	}
	newLink(t, s, u, store.AuthReset, "sibling", now.Add(time.Hour))
	got, err := s.AuthTokenByHash(ctx(), hashOf("invite"))
	if err != nil || got.ID != l.ID || got.Kind != store.AuthInvite || got.UserID != u.ID || got.AccountID != a.ID ||
		!got.ExpiresAt.Equal(l.ExpiresAt) {
		t.Fatalf("link by hash: %v %+v", err, got)
	}

	user, err := s.RedeemAuthToken(ctx(), hashOf("invite"), now, "first-password")
	if err != nil || user.ID != u.ID || user.PasswordHash != "first-password" || user.PasswordChangedAt.IsZero() {
		t.Fatalf("redeem: %v %+v", err, user)
	}
	if got, _ := s.AuthTokenByHash(ctx(), hashOf("invite")); got.UsedAt.IsZero() {
		t.Fatalf("redeemed link not marked used: %+v", got)
	}
	if !sessionGone(t, s, "before") || !linkGone(t, s, "sibling") {
		t.Fatal("redeeming kept a session or another unused link")
	}
	if _, err := s.RedeemAuthToken(ctx(), hashOf("invite"), now, "second"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second redemption: %v", err)
	}
	if _, err := s.RedeemAuthToken(ctx(), hashOf("unknown"), now, "x"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown link: %v", err)
	}
	if got, _ := s.GetUser(ctx(), a.ID, u.ID); got.PasswordHash != "first-password" {
		t.Fatalf("a refused redemption changed the password: %+v", got)
	}
}

func testRedeemAuthTokenRace(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Racer", 0)
	u := userFixture(t, s, a.ID, "racer@example.com", store.UserOwner, false)
	newLink(t, s, u, store.AuthReset, "contested", time.Now().Add(time.Hour))
	const n = 20
	var wg sync.WaitGroup
	start := make(chan struct{})
	results := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := s.RedeemAuthToken(ctx(), hashOf("contested"), time.Now(), fmt.Sprintf("hash-%d", i))
			results <- err
		}()
	}
	close(start)
	wg.Wait()
	close(results)
	wins := 0
	for err := range results {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, store.ErrNotFound):
			t.Fatalf("a losing redemption failed otherwise: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d redemptions won, want exactly 1", wins)
	}
}

func testSessions(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Sessions", 0)
	u := userFixture(t, s, a.ID, "s@example.com", store.UserOwner, true)
	now := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
	x := newSession(t, s, u, "browser", now)
	got, err := s.SessionByHash(ctx(), hashOf("browser"))
	if err != nil || got.ID != x.ID || got.UserID != u.ID || got.AccountID != a.ID || got.UserAgent != "test/1.0" ||
		!got.CreatedAt.Equal(now) || !got.LastSeenAt.Equal(now) || !got.ExpiresAt.Equal(x.ExpiresAt) {
		t.Fatalf("session by hash: %v %+v", err, got)
	}
	dup := store.Session{Hash: hashOf("browser"), UserID: u.ID, AccountID: a.ID, ExpiresAt: now}
	if err := s.CreateSession(ctx(), &dup); err == nil {
		t.Fatal("a second session with the same hash was stored")
	}

	later := now.Add(3 * time.Minute)
	if err := s.TouchSession(ctx(), x.ID, later); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchSession(ctx(), x.ID, now.Add(time.Minute)); err != nil { // late, older: ignored
		t.Fatal(err)
	}
	if got, _ := s.SessionByHash(ctx(), hashOf("browser")); !got.LastSeenAt.Equal(later) {
		t.Fatalf("last seen %v, want %v", got.LastSeenAt, later)
	}

	if err := s.DeleteSession(ctx(), x.ID); err != nil {
		t.Fatal(err)
	}
	if !sessionGone(t, s, "browser") {
		t.Fatal("deleted session still there")
	}
	if err := s.DeleteSession(ctx(), x.ID); err != nil {
		t.Fatalf("deleting a gone session: %v", err)
	}

	newSession(t, s, u, "one", now)
	newSession(t, s, u, "two", now)
	if err := s.DeleteUserSessions(ctx(), a.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	if !sessionGone(t, s, "one") || !sessionGone(t, s, "two") {
		t.Fatal("DeleteUserSessions kept a session")
	}
}

func testExpiredLinkRefused(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Expiry", 0)
	u := userFixture(t, s, a.ID, "late@example.com", store.UserOwner, true)
	l := newLink(t, s, u, store.AuthReset, "short", clock.Now().Add(time.Hour))
	clock.Advance(time.Hour + time.Second)
	if _, err := s.RedeemAuthToken(ctx(), l.Hash, clock.Now(), "late"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired link redeemed: %v", err)
	}
	got, err := s.AuthTokenByHash(ctx(), l.Hash)
	if err != nil || !got.UsedAt.IsZero() {
		t.Fatalf("the refused link changed: %v %+v", err, got)
	}
	if u2, _ := s.GetUser(ctx(), a.ID, u.ID); u2.PasswordHash != u.PasswordHash {
		t.Fatal("an expired link changed the password")
	}
	// Exactly at ExpiresAt the link is already unusable.
	at := newLink(t, s, u, store.AuthReset, "edge", clock.Now().Add(time.Minute))
	if _, err := s.RedeemAuthToken(ctx(), at.Hash, at.ExpiresAt, "edge"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("link redeemed at its expiry: %v", err)
	}
}

func testDeleteStaleSessions(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Sweeper", 0)
	u := userFixture(t, s, a.ID, "sweep@example.com", store.UserOwner, true)
	now := clock.Now()
	newSession(t, s, u, "idle", now.Add(-9*time.Hour)) // last seen 9 h ago
	newSession(t, s, u, "fresh", now)
	expired := store.Session{Hash: hashOf("expired"), UserID: u.ID, AccountID: a.ID, CreatedAt: now.Add(-time.Hour),
		LastSeenAt: now, ExpiresAt: now.Add(-time.Second)}
	if err := s.CreateSession(ctx(), &expired); err != nil {
		t.Fatal(err)
	}
	newLink(t, s, u, store.AuthReset, "old-link", now.Add(-time.Minute))
	newLink(t, s, u, store.AuthInvite, "live-link", now.Add(time.Hour))

	n, err := s.DeleteStaleSessions(ctx(), now.Add(-8*time.Hour), now)
	if err != nil || n != 2 {
		t.Fatalf("deleted %d sessions, want 2 (idle, expired): %v", n, err)
	}
	if !sessionGone(t, s, "idle") || !sessionGone(t, s, "expired") || sessionGone(t, s, "fresh") {
		t.Fatal("the sweep took the wrong sessions")
	}
	if !linkGone(t, s, "old-link") || linkGone(t, s, "live-link") {
		t.Fatal("the sweep took the wrong links")
	}
	clock.Advance(2 * time.Hour)
	if n, err := s.DeleteStaleSessions(ctx(), clock.Now().Add(-8*time.Hour), clock.Now()); err != nil || n != 0 {
		t.Fatalf("second sweep: %d %v", n, err)
	}
	if !linkGone(t, s, "live-link") {
		t.Fatal("a link past its expiry survived the sweep")
	}
}
