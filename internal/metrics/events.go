package metrics

import (
	"slices"

	"svc/internal/store"
)

// crawlResults are the label values of svc_crawl_pages_total.
var crawlResults = []string{"updated", "unchanged", "skipped", "error", other}

// noticeKinds are the label values of svc_outbox_send_failures_total's kind.
var noticeKinds = []string{store.NoticeBudgetReached, store.NoticePasswordReset, store.NoticeUserInvite}

// CrawlPage counts one page a crawl fetched (attempted), by result: "updated",
// "unchanged", "skipped" (stored nothing: robots, noindex, not HTML, ...), "error", or
// anything else as "other".
func (m *Metrics) CrawlPage(result string) {
	if m == nil {
		return
	}
	if !slices.Contains(crawlResults, result) {
		result = other
	}
	m.crawl.WithLabelValues(result).Inc()
}

// OutboxFailed counts one failed attempt to send a notice of kind; final means it was the
// last, and the notice is given up.
func (m *Metrics) OutboxFailed(kind string, final bool) {
	if m == nil {
		return
	}
	if !slices.Contains(noticeKinds, kind) {
		kind = other
	}
	outcome := "retry"
	if final {
		outcome = "given_up"
	}
	m.outbox.WithLabelValues(kind, outcome).Inc()
}

// SignInFailed counts one refused dashboard sign-in: reason "bad_credentials" or
// "throttled" (anything else is "other").
func (m *Metrics) SignInFailed(reason string) {
	if m == nil {
		return
	}
	if reason != "bad_credentials" && reason != "throttled" {
		reason = other
	}
	m.signIn.WithLabelValues(reason).Inc()
}
