package testsets

import (
	"strconv"
	"strings"

	"svc/internal/store"
	"svc/internal/textindex"
)

// Why a test failed (TestResult.Reason): a code, then for some ": " and what was missing.
// The dashboard words them with the catalog's "tests.reason.<code>" (ReasonCode splits one).
const (
	// ReasonLowConfidence: an answerable test got the "I do not know" fallback (or another
	// low-confidence reply).
	ReasonLowConfidence = "low_confidence"
	// ReasonMissingText: the reply lacks expected texts (after ": ", joined by " | ").
	ReasonMissingText = "missing_text"
	// ReasonMissingProduct: the expected product is not among the reply's cards.
	ReasonMissingProduct = "missing_product"
	// ReasonAnswered: a question the assistant should not know got an answer.
	ReasonAnswered = "answered"
	// ReasonError: asking failed (the pipeline refused the question).
	ReasonError = "error"
)

// textSep joins the missing texts of a ReasonMissingText.
const textSep = " | "

// ReasonCode splits a Reason into its code and what was missing ("" for none).
func ReasonCode(reason string) (code, detail string) {
	code, detail, _ = strings.Cut(reason, ": ")
	return code, detail
}

// Declined reports whether reply is the decline a test marked unanswerable expects: the
// fallback, low confidence, no product card (eval's rule for a "decline" question).
func Declined(reply store.Message) bool {
	return reply.Source == store.SourceFallback && reply.LowConfidence && len(reply.Products) == 0
}

// Contains reports whether text holds sub, compared as the index compares words: without
// case (Turkish dotted and dotless i included) and accents, and with runs of spaces as one.
func Contains(text, sub string) bool {
	f := func(s string) string { return " " + strings.Join(strings.Fields(textindex.Fold(s)), " ") + " " }
	needle := strings.TrimSpace(f(sub))
	return needle != "" && strings.Contains(f(text), needle)
}

// Check judges reply against test c: passed, or the Reason it failed.
func Check(c store.TestCase, reply store.Message) (passed bool, reason string) {
	if !c.Answerable {
		if Declined(reply) {
			return true, ""
		}
		return false, ReasonAnswered
	}
	if reply.LowConfidence {
		return false, ReasonLowConfidence
	}
	var missing []string
	for _, e := range c.Expect {
		if !Contains(reply.Body, e) {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return false, ReasonMissingText + ": " + strings.Join(missing, textSep)
	}
	if c.Product != "" && !hasProduct(reply, c.Product) {
		return false, ReasonMissingProduct + ": " + c.Product
	}
	return true, ""
}

// hasProduct reports whether one of reply's cards is want: by name (case and accents
// folded), by URL (a trailing slash aside), or, for a number, by the card's document id
// (the reply's DocIDs hold its cards' documents).
func hasProduct(reply store.Message, want string) bool {
	if len(reply.Products) == 0 {
		return false
	}
	if id, err := strconv.ParseInt(want, 10, 64); err == nil && id > 0 {
		for _, d := range reply.DocIDs {
			if d == id {
				return true
			}
		}
	}
	key := Key(want)
	url := strings.TrimRight(want, "/")
	for _, p := range reply.Products {
		if Key(p.Name) == key || (p.URL != "" && strings.EqualFold(strings.TrimRight(p.URL, "/"), url)) {
			return true
		}
	}
	return false
}
