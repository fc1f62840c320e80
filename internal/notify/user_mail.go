package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"svc/internal/i18n"
	"svc/internal/store"
	"svc/internal/users"
)

// The dashboard's one-time link mails (store.NoticeUserInvite, store.NoticePasswordReset)
// go to the user the link is for, not to the account's address, in the payload's language,
// else the user's, else the account's.
// The payload holds the raw link until the mail is out; the worker clears it then
// (secretKinds).

// userLinkFacts are what a link mail says.
type userLinkFacts struct {
	Account string // the account's name, cleaned
	Email   string // the user's address
	URL     string
	Expires time.Time // UTC
}

// composeUserLink writes an invite or reset mail from its payload and the user.
func composeUserLink(ctx context.Context, w *Worker, a store.Account, n store.Notice) (Message, error) {
	var p users.LinkPayload
	if err := json.Unmarshal([]byte(n.Payload), &p); err != nil || p.UserID == 0 || !plainLink(p.URL) {
		// The payload holds a secret: never quote it in the error.
		return Message{}, Permanent(fmt.Errorf("%s notice %d: the payload is not valid", n.Kind, n.ID))
	}
	if !p.ExpiresAt.IsZero() && !w.now().Before(p.ExpiresAt) {
		return Message{}, Permanent(fmt.Errorf("%s notice %d: the link expired before it could be sent", n.Kind, n.ID))
	}
	u, err := w.store.GetUser(ctx, a.ID, p.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return Message{}, Permanent(fmt.Errorf("user %d of account %d does not exist", p.UserID, a.ID))
	}
	if err != nil {
		return Message{}, fmt.Errorf("read user %d: %w", p.UserID, err)
	}
	to := strings.TrimSpace(u.Email)
	if to == "" {
		return Message{}, Permanent(fmt.Errorf("user %d has no e-mail address", u.ID))
	}
	lang := p.Lang
	for _, l := range []string{u.Lang, a.Lang} {
		if _, ok := w.texts.links[lang]; !ok {
			lang = l
		}
	}
	f := userLinkFacts{Account: cleanLabel(a.Name), Email: to, URL: p.URL, Expires: p.ExpiresAt.UTC()}
	subject, text := w.texts.userLinkMail(n.Kind, lang, f)
	return Message{To: to, Subject: subject, Text: text}, nil
}

// plainLink accepts an http(s) URL without spaces or line breaks.
func plainLink(s string) bool {
	return (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")) &&
		!strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f })
}

// userLinkText is one language's wording of the two link mails.
type userLinkText struct {
	inviteSubject string // %s: account
	invite        string // %s: account
	resetSubject  string // %s: account
	reset         string // %s: e-mail, %s: account
	validUntil    string // %s: date and time
	resetSignsOut string
	inviteIgnore  string
	resetIgnore   string
}

// loadUserLinkTexts reads the link mails' sentences in each language from the i18n catalog
// (mail.link.*).
func loadUserLinkTexts(cat *i18n.Catalog) map[string]userLinkText {
	out := map[string]userLinkText{}
	for _, lang := range i18n.Langs {
		t := func(key string) string { return cat.T(lang, "mail.link."+key) }
		out[lang] = userLinkText{inviteSubject: t("invite_subject"), invite: t("invite"), resetSubject: t("reset_subject"),
			reset: t("reset"), validUntil: t("valid_until"), resetSignsOut: t("reset_signs_out"),
			inviteIgnore: t("invite_ignore"), resetIgnore: t("reset_ignore")}
	}
	return out
}

// userLinkMail writes the subject and text of an invite or reset mail in lang (tr, en or de;
// English otherwise).
func (m *mailTexts) userLinkMail(kind, lang string, f userLinkFacts) (subject, text string) {
	t, ok := m.links[lang]
	if !ok {
		lang, t = "en", m.links["en"]
	}
	dates := m.budget[lang] // the same date wording as the budget mail
	account := dates.quote(f.Account)
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(dates.greeting)
	line("")
	if kind == store.NoticePasswordReset {
		subject = fmt.Sprintf(t.resetSubject, account)
		line(fmt.Sprintf(t.reset, f.Email, account))
	} else {
		subject = fmt.Sprintf(t.inviteSubject, account)
		line(fmt.Sprintf(t.invite, account))
	}
	line("")
	line("  " + f.URL)
	line("")
	if !f.Expires.IsZero() {
		line(fmt.Sprintf(t.validUntil, dates.date(f.Expires)+", "+f.Expires.Format("15:04")))
	}
	if kind == store.NoticePasswordReset {
		line(t.resetSignsOut)
		line(t.resetIgnore)
	} else {
		line(t.inviteIgnore)
	}
	return subject, b.String()
}
