package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"svc/internal/i18n"
	"svc/internal/store"
)

// testsPath is the dashboard's page of the owner's test set.
const testsPath = "/dashboard/tests"

// The owner mail that tests broke (store.NoticeTestsBroken): a regression run after a crawl,
// an upload or a Q&A edit passed fewer of the account's tests than the run before. The
// payload holds everything the mail says (store.TestsBrokenPayload), so it is written as it
// was when the run ended, whatever became of the run since.

// composeTestsBroken writes the NoticeTestsBroken mail from its payload.
func composeTestsBroken(_ context.Context, w *Worker, a store.Account, n store.Notice) (Message, error) {
	var p store.TestsBrokenPayload
	if err := json.Unmarshal([]byte(n.Payload), &p); err != nil || p.RunID == 0 {
		return Message{}, Permanent(fmt.Errorf("tests notice payload %q is not valid", clip(n.Payload, 200)))
	}
	at, err := time.Parse(time.RFC3339, p.At)
	if err != nil {
		at = n.CreatedAt
	}
	link := testsPath
	if w.publicURL != "" {
		link = w.publicURL + testsPath
	}
	subject, text := w.texts.testsMail(a.Lang, p, at.UTC(), link)
	return Message{Subject: subject, Text: text}, nil
}

// testsMail writes the subject and text in lang (tr, en or de; English otherwise).
func (m *mailTexts) testsMail(lang string, p store.TestsBrokenPayload, at time.Time, link string) (subject, text string) {
	if !i18n.Supported(lang) {
		lang = "en"
	}
	t := m.cat
	after := t.T(lang, "mail.tests.after_"+p.Trigger)
	if strings.HasPrefix(after, "mail.tests.") { // a trigger without words: the catalog has every automatic one
		after = t.T(lang, "mail.tests.after_upload")
	}
	count := max(p.BrokenCount, len(p.Broken))
	when := m.budget[lang].date(at) + " " + at.Format("15:04") + " UTC"

	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(t.T(lang, "mail.tests.greeting"))
	line("")
	line(t.T(lang, "mail.tests.ran", after, when, p.Passed, p.Total, p.PreviousPassed, p.PreviousTotal))
	if len(p.Broken) > 0 {
		line("")
		line(t.T(lang, "mail.tests.broken"))
		line("")
		for _, q := range p.Broken {
			line("  - " + cleanLine(q.Question, 300))
			if why := reasonText(t, lang, q.Reason); why != "" {
				line("    " + why)
			}
		}
		if more := count - len(p.Broken); more > 0 {
			line("  " + t.T(lang, "mail.tests.more", more))
		}
	}
	line("")
	line(t.T(lang, "mail.tests.fix"))
	line("")
	line("  " + link)
	line("")
	line(t.T(lang, "mail.tests.once"))
	return cleanLine(t.N(lang, "mail.tests.subject", count, after), 200), b.String()
}

// reasonText words a test's failure (testsets' Reason: a code, then ": " and what was
// missing) with the catalog's tests.reason.*; "" for none or an unknown code.
func reasonText(t *i18n.Catalog, lang, reason string) string {
	code, detail, _ := strings.Cut(reason, ": ")
	if code == "" || !t.Has("tests.reason."+code) {
		return ""
	}
	raw, _ := t.Raw(lang, "tests.reason."+code)
	if strings.Contains(raw, "%s") {
		return cleanLine(t.T(lang, "tests.reason."+code, detail), 300)
	}
	return t.T(lang, "tests.reason."+code)
}
