package remote

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestErrorKind(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{ErrCircuitOpen, "circuit_open"},
		{fmt.Errorf("answer: %w", ErrCircuitOpen), "circuit_open"},
		{&Error{Provider: "openai", Retryable: true, Err: fmt.Errorf("%w after 1s", ErrTimeout)}, "timeout"},
		{&Error{Provider: "openai", Err: context.Canceled}, "canceled"},
		{&Error{Provider: "openai", Err: context.DeadlineExceeded}, "canceled"},
		{&Error{Provider: "openai", Status: 429}, "rate_limited"},
		{&Error{Provider: "openai", Status: 401}, "client_error"},
		{&Error{Provider: "anthropic", Status: 529}, "server_error"},
		{&Error{Provider: "openai", Err: errors.New("connection refused")}, "transport"},
		{errors.New("something else"), "other"},
	} {
		if got := ErrorKind(c.err); got != c.want {
			t.Errorf("ErrorKind(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// TestErrorKindsListsEveryKind: every kind ErrorKind returns for an error is in ErrorKinds,
// which metrics bound their label values by.
func TestErrorKindsListsEveryKind(t *testing.T) {
	t.Parallel()
	for _, err := range []error{ErrCircuitOpen, ErrTimeout, context.Canceled, &Error{Status: 429}, &Error{Status: 404},
		&Error{Status: 503}, &Error{Err: errors.New("refused")}, errors.New("else"), &Error{Status: 302}} {
		if k := ErrorKind(err); !slices.Contains(ErrorKinds, k) {
			t.Errorf("ErrorKind(%v) = %q, not in ErrorKinds", err, k)
		}
	}
	if len(ErrorKinds) != len(slices.Compact(slices.Sorted(slices.Values(ErrorKinds)))) {
		t.Errorf("ErrorKinds repeats a kind: %v", ErrorKinds)
	}
}
