package notify

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/users"
)

func TestUserLinkMailInEachLanguage(t *testing.T) {
	f := userLinkFacts{Account: "Acme Shop", Email: "ayse@acme.example",
		URL:     "https://svc.example/dashboard/reset/AbC_-123",
		Expires: time.Date(2031, 3, 4, 10, 5, 0, 0, time.UTC)}
	for _, tc := range []struct {
		kind, lang, subject string
		body                []string
	}{
		{store.NoticeUserInvite, "en", "You are invited to the “Acme Shop” dashboard",
			[]string{"Hello,", "invited to the dashboard of “Acme Shop”", "until 4 March 2031, 10:05 UTC", "ignore"}},
		{store.NoticeUserInvite, "tr", "“Acme Shop” paneline davet edildiniz",
			[]string{"Merhaba,", "şifrenizi buradan belirleyin", "4 Mart 2031, 10:05 (UTC)"}},
		{store.NoticeUserInvite, "de", "Einladung zum Dashboard von „Acme Shop“",
			[]string{"Hallo,", "Passwort fest", "4. März 2031, 10:05 (UTC)"}},
		{store.NoticePasswordReset, "en", "Reset your password for the “Acme Shop” dashboard",
			[]string{"password of ayse@acme.example", "signs you out everywhere", "your password stays unchanged"}},
		{store.NoticePasswordReset, "tr", "“Acme Shop” paneli için şifre sıfırlama",
			[]string{"“Acme Shop” hesabının panelinde ayse@acme.example adresi", "şifreniz değişmeden kalır"}},
		{store.NoticePasswordReset, "de", "Passwort für das Dashboard von „Acme Shop“ zurücksetzen",
			[]string{"für ayse@acme.example wurde", "Ihr Passwort bleibt unverändert"}},
	} {
		subject, text := testTexts.userLinkMail(tc.kind, tc.lang, f)
		if subject != tc.subject {
			t.Errorf("%s/%s subject %q, want %q", tc.kind, tc.lang, subject, tc.subject)
		}
		if !strings.Contains(text, "\n  "+f.URL+"\n") {
			t.Errorf("%s/%s: the link is not on a line of its own:\n%s", tc.kind, tc.lang, text)
		}
		for _, want := range tc.body {
			if !strings.Contains(text, want) {
				t.Errorf("%s/%s body lacks %q:\n%s", tc.kind, tc.lang, want, text)
			}
		}
	}
	// Unknown languages get English.
	en, _ := testTexts.userLinkMail(store.NoticeUserInvite, "en", f)
	if fr, _ := testTexts.userLinkMail(store.NoticeUserInvite, "fr", f); fr != en {
		t.Fatalf("fallback subject %q", fr)
	}
}

// linkEnv is an account without an e-mail address of its own (a link mail goes to the
// user) and a users service on the same store.
func linkEnv(t *testing.T, lang string) (*env, store.Account, *users.Service) {
	t.Helper()
	e := newEnv(t)
	a := e.owner("Acme "+lang, "", lang)
	svc := users.New(users.Deps{Store: e.store, Now: e.clock.Now, PublicURL: "https://svc.example"})
	return e, a, svc
}

func TestInviteMailGoesToTheUser(t *testing.T) {
	e, a, svc := linkEnv(t, "tr")
	u, link, err := svc.AddUser(context.Background(), a.ID, "Zeynep@Acme.example", "agent", "")
	if err != nil {
		t.Fatal(err)
	}
	w := e.worker(e.store, e.sender(""))
	flush(t, w, 1)
	got := e.server.received()
	if len(got) != 1 {
		t.Fatalf("%d messages", len(got))
	}
	m := got[0]
	if len(m.To) != 1 || m.To[0] != u.Email {
		t.Fatalf("recipient %v, want the user %s", m.To, u.Email)
	}
	if m.Subject != "“Acme tr” paneline davet edildiniz" || !strings.Contains(m.Body, link) {
		t.Fatalf("mail in the account's language with the link %s:\n%s\n%s", link, m.Subject, m.Body)
	}
	if strings.Contains(e.logs.String(), link) || strings.Contains(e.logs.String(), strings.TrimPrefix(link, "https://svc.example/dashboard/invite/")) {
		t.Fatal("the worker logged the link")
	}
	// Once the mail is out the link is no longer in the database.
	ns, err := e.store.Notices(context.Background(), a.ID)
	if err != nil || len(ns) != 1 {
		t.Fatalf("notices: %v %v", ns, err)
	}
	if ns[0].Status != store.NoticeSent || strings.Contains(ns[0].Payload, strings.TrimPrefix(link, "https://svc.example/dashboard/invite/")) {
		t.Fatalf("sent invite notice keeps its link: %+v", ns[0])
	}
}

func TestResetMailInTheUsersLanguage(t *testing.T) {
	e, a, svc := linkEnv(t, "en")
	u, _, err := svc.AddUser(context.Background(), a.ID, "max@acme.example", "owner", "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.SetLang(context.Background(), a.ID, u.ID, "de"); err != nil {
		t.Fatal(err)
	}
	if err := svc.RequestReset(context.Background(), "max@acme.example", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	ns, _ := e.store.Notices(context.Background(), a.ID)
	if len(ns) != 1 {
		t.Fatalf("%d notices", len(ns))
	}
	var p users.LinkPayload
	if err := json.Unmarshal([]byte(ns[0].Payload), &p); err != nil {
		t.Fatal(err)
	}
	flush(t, e.worker(e.store, e.sender("")), 1)
	m := e.server.received()[0]
	if m.To[0] != "max@acme.example" || m.Subject != "Passwort für das Dashboard von „Acme en“ zurücksetzen" ||
		!strings.Contains(m.Body, p.URL) || !strings.Contains(m.Body, "14. März 2026, 16:30 (UTC)") {
		t.Fatalf("reset mail %q to %v:\n%s", m.Subject, m.To, m.Body)
	}
}

func TestUserLinkMailGivenUp(t *testing.T) {
	e, a, svc := linkEnv(t, "en")
	ctx := context.Background()
	gone, _, err := svc.AddUser(ctx, a.ID, "gone@acme.example", "agent", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.AddUser(ctx, a.ID, "stays@acme.example", "owner", "a long enough password"); err != nil {
		t.Fatal(err)
	}
	if err := svc.RemoveUser(ctx, a.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	bad := store.Notice{AccountID: a.ID, Kind: store.NoticePasswordReset, DedupeKey: "reset:garbled",
		Payload: `{"user_id":1,"url":"javascript:alert(1)"}`}
	if _, err := e.store.EnqueueNotice(ctx, &bad); err != nil {
		t.Fatal(err)
	}
	w := e.worker(e.store, e.sender(""))
	flush(t, w, 0)
	ns, _ := e.store.Notices(ctx, a.ID)
	for _, n := range ns {
		if n.Status != store.NoticeFailed {
			t.Errorf("notice %s: %s (%s), want failed at once", n.DedupeKey, n.Status, n.LastError)
		}
		if strings.Contains(n.LastError, "svc.example/dashboard") {
			t.Errorf("the error quotes the link: %s", n.LastError)
		}
	}
	if len(e.server.received()) != 0 {
		t.Fatal("a mail went out")
	}
}

func TestExpiredLinkNotMailed(t *testing.T) {
	e, a, svc := linkEnv(t, "en")
	ctx := context.Background()
	if _, _, err := svc.AddUser(ctx, a.ID, "owner@acme.example", "owner", "a long enough password"); err != nil {
		t.Fatal(err)
	}
	if err := svc.RequestReset(ctx, "owner@acme.example", ""); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(users.ResetTTL) // the mail server was down all that time
	flush(t, e.worker(e.store, e.sender("")), 0)
	ns, _ := e.store.Notices(ctx, a.ID)
	if len(ns) != 1 || ns[0].Status != store.NoticeFailed || !strings.Contains(ns[0].LastError, "expired") {
		t.Fatalf("expired link notice %+v", ns)
	}
}
