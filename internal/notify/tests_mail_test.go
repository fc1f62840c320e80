package notify

import (
	"strings"
	"testing"
	"time"

	"svc/internal/store"
)

func TestTestsMailInEveryLanguage(t *testing.T) {
	t.Parallel()
	p := store.TestsBrokenPayload{RunID: 9, Trigger: store.TestTriggerCrawl, Total: 40, Passed: 37, PreviousTotal: 40,
		PreviousPassed: 40, BrokenCount: 3, Broken: []store.BrokenTest{
			{Question: "Do you ship to Austria?\r\nBcc: x@y", Lang: "en", Reason: "missing_text: 5 days | free"},
			{Question: "Kargo ücreti ne kadar?", Lang: "tr", Reason: "low_confidence"},
		}}
	at := time.Date(2027, 1, 12, 9, 30, 0, 0, time.UTC)
	for lang, want := range map[string][]string{
		"en": {"3 tests of your assistant broke after the crawl of your website", "12 January 2027 09:30 UTC", "37 of 40", "40 of 40",
			"The reply lacks: 5 days | free", "The assistant said it does not know.", "… and 1 more."},
		"tr": {"Asistanınızın 3 testi web sitenizin taranmasından sonra bozuldu", "12 Ocak 2027 09:30 UTC", "37/40", "40/40",
			"Yanıtta eksik olan: 5 days | free", "… ve 1 soru daha."},
		"de": {"3 Tests Ihres Assistenten schlagen nach dem Crawl Ihrer Website fehl", "12. Januar 2027 09:30 UTC", "37 von 40",
			"In der Antwort fehlt: 5 days | free", "… und 1 weitere."},
	} {
		subject, text := testTexts.testsMail(lang, p, at, "https://svc.test/dashboard/tests")
		all := subject + "\n" + text
		for _, w := range append(want, "Do you ship to Austria? Bcc: x@y", "Kargo ücreti ne kadar?", "\n  https://svc.test/dashboard/tests\n") {
			if !strings.Contains(all, w) {
				t.Errorf("%s: mail lacks %q:\n%s", lang, w, all)
			}
		}
		if strings.ContainsAny(subject, "\r\n") || strings.Contains(all, "%!") || strings.Contains(all, "mail.tests.") {
			t.Errorf("%s: broken mail:\n%s", lang, all)
		}
	}
	// One broken test: the singular; an unknown language: English.
	p.BrokenCount, p.Broken = 1, p.Broken[:1]
	p.Trigger = store.TestTriggerQA
	if subject, _ := testTexts.testsMail("fr", p, at, testsPath); subject != "1 test of your assistant broke after an edit of your Q&A entries" {
		t.Errorf("singular subject %q", subject)
	}
}
