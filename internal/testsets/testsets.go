// Package testsets is owners' test sets (issue 26): the questions an owner expects the
// assistant to answer, with what a right reply holds, or to decline; runs that ask every
// one through the real answer pipeline as a visitor would get it (eval.Asker: no
// conversation written, nothing billed with the built-in engine, billed like a Studio call
// with a model); the difference between a run and the one before (broken and fixed
// tests); the one-step fix of a failed test (a curated Q&A entry, the test asked again);
// and the regression runs that follow every change of the knowledge base, with an owner
// mail when tests broke. It knows nothing of HTTP: the CLI (`svc tests`) and the
// dashboard (/dashboard/tests) call Service and Runner.
package testsets

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/lang"
	"svc/internal/nultext"
	"svc/internal/store"
	"svc/internal/textindex"
)

// Limits of a test set (ours; SERVICE.md has no test sets).
const (
	// MaxTests is how many tests an account may hold.
	MaxTests = 2000
	// MaxQuestionChars is a question's limit: a visitor's message's (chat.MaxMessageChars).
	MaxQuestionChars = 2000
	// MaxExpect is how many substrings one test may expect, MaxExpectChars the length of each.
	MaxExpect      = 10
	MaxExpectChars = 200
	// MaxProductChars bounds the expected product's name, URL or id.
	MaxProductChars = 500
	// MaxAnswerChars bounds the answer of "answer this" (a curated entry, as the review
	// queue's answers).
	MaxAnswerChars = 2000
	// KeepRuns is how many runs an account keeps; older ones are pruned when a run starts.
	KeepRuns = 50
	// MaxImportBytes bounds one import file.
	MaxImportBytes = 4 << 20
)

// Input is a test as a person or a file gives it, before validation.
type Input struct {
	Question string
	// Lang is tr, en or de; "" detects it from the question.
	Lang       string
	Expect     []string
	Answerable bool
	Product    string
	Origin     string // store.TestOrigin*; "" is store.TestOriginHand
	OriginRef  string
}

// Key is the form of a question the duplicate check compares: case and accents folded,
// runs of spaces made one, and the punctuation at its ends dropped, so "Do you ship abroad?"
// and "do you  ship abroad" are one test.
func Key(question string) string {
	k := strings.Join(strings.Fields(textindex.Fold(question)), " ")
	return strings.TrimFunc(k, func(r rune) bool { return strings.ContainsRune("?!.,;:¿¡…\"'«»“”„", r) || r == ' ' })
}

// Validate checks in and returns the test it describes (no id yet). Every error is a
// BadRequest with a catalog key.
func Validate(in Input) (store.TestCase, error) {
	q := strings.TrimSpace(in.Question)
	switch {
	case !utf8.ValidString(q):
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.question_utf8", "The question is not valid UTF-8 text.")
	case nultext.In(q):
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.question_nul", "The question contains a NUL character (U+0000).")
	case q == "":
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.question_required", "The question is missing or empty.")
	case utf8.RuneCountInString(q) > MaxQuestionChars:
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.question_too_long",
			"The question is longer than %d characters.", MaxQuestionChars)
	case Key(q) == "":
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.question_empty", "The question has no words.")
	}
	lg := strings.TrimSpace(in.Lang)
	if lg == "" {
		lg, _ = lang.Detect(q)
	}
	if !i18n.Supported(lg) {
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.lang_invalid",
			"The language must be tr, en or de, not %q.", clip(lg, 20))
	}
	c := store.TestCase{Question: q, Lang: lg, Key: Key(q), Answerable: in.Answerable, Expect: []string{},
		Origin: in.Origin, OriginRef: strings.TrimSpace(in.OriginRef)}
	if c.Origin == "" {
		c.Origin = store.TestOriginHand
	}
	if !slices.Contains([]string{store.TestOriginHand, store.TestOriginTranscript, store.TestOriginReview,
		store.TestOriginImport}, c.Origin) {
		return store.TestCase{}, fmt.Errorf("test origin %q is not one of ours", c.Origin)
	}
	for _, e := range in.Expect {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
			continue
		case !utf8.ValidString(e) || nultext.In(e):
			return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.expect_invalid",
				"An expected text is not valid text.")
		case utf8.RuneCountInString(e) > MaxExpectChars:
			return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.expect_too_long",
				"An expected text is longer than %d characters.", MaxExpectChars)
		}
		if !slices.Contains(c.Expect, e) {
			c.Expect = append(c.Expect, e)
		}
	}
	if len(c.Expect) > MaxExpect {
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.expect_too_many",
			"A test expects at most %d texts.", MaxExpect)
	}
	c.Product = strings.TrimSpace(in.Product)
	switch {
	case !utf8.ValidString(c.Product) || nultext.In(c.Product):
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.product_invalid", "The expected product is not valid text.")
	case utf8.RuneCountInString(c.Product) > MaxProductChars:
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.product_too_long",
			"The expected product is longer than %d characters.", MaxProductChars)
	}
	if !c.Answerable && (len(c.Expect) > 0 || c.Product != "") {
		return store.TestCase{}, errs.Coded(errs.BadRequest, "err.tests.unanswerable_expect",
			"A question the assistant should not know has nothing to expect: leave out the expected texts and product.")
	}
	return c, nil
}

// ErrRunning is a run asked for while one of the account runs.
var ErrRunning = &errs.Error{Kind: errs.RateLimited, Safe: "A test run of this account is in progress; wait until it has finished.",
	Key: "err.tests.running", RetryAfter: 30 * time.Second}

// errNoTests is a run asked of an account without tests.
var errNoTests = errs.Coded(errs.BadRequest, "err.tests.none", "The account has no tests to run; add or import some first.")

// errTooMany is an add or import past MaxTests.
func errTooMany() error {
	return errs.Coded(errs.TooMany, "err.tests.too_many", "An account holds at most %d tests; delete some first.", MaxTests)
}

// errNotFound is a test or run id that is not the account's.
func errNotFound(what string, id int64) error {
	return errs.Newf(errs.NotFound, "There is no %s %d.", what, id).WithKey("err.tests."+what+"_not_found", id)
}

// isNotFound reports a store miss.
func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

// clip shortens s to n runes.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// ReviewRef is the OriginRef of a test made from a review queue item.
func ReviewRef(kind string, id int64) string { return kind + ":" + strconv.FormatInt(id, 10) }

// parseReviewRef reads a ReviewRef.
func parseReviewRef(ref string) (kind string, id int64, ok bool) {
	k, v, found := strings.Cut(ref, ":")
	if !found {
		return "", 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return k, n, err == nil && n > 0
}
