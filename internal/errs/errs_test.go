package errs

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestCodedKeepsSafeAndKey(t *testing.T) {
	e := Coded(BadRequest, "err.test.too_long", "The label %s is too long: %d characters.", `"x"`, 81)
	if e.Safe != `The label "x" is too long: 81 characters.` {
		t.Errorf("Safe = %q", e.Safe)
	}
	if e.Key != "err.test.too_long" || len(e.Args) != 2 || e.Args[1] != 81 {
		t.Errorf("Key %q Args %v", e.Key, e.Args)
	}
	if e.Kind != BadRequest || e.Error() != e.Safe {
		t.Errorf("Kind %v Error %q", e.Kind, e.Error())
	}
	if got := Coded(BadRequest, "k", "A domain is required."); got.Safe != "A domain is required." || got.Args != nil {
		t.Errorf("no args: %+v", got)
	}
}

func TestWithKeyAndAs(t *testing.T) {
	e := Newf(RateLimited, "Too many %s requests.", "marketing").WithKey("err.test.rate", 5)
	if e.Safe != "Too many marketing requests." || e.Key != "err.test.rate" || e.Args[0] != 5 {
		t.Errorf("%+v", e)
	}
	wrapped := fmt.Errorf("outer: %w", e)
	got, ok := As(wrapped)
	if !ok || got.Key != "err.test.rate" {
		t.Fatalf("As: %v %v", got, ok)
	}
	if KindOf(wrapped) != RateLimited {
		t.Errorf("KindOf = %v", KindOf(wrapped))
	}
	if plain := New(BadRequest, "x"); plain.Key != "" || plain.Args != nil {
		t.Errorf("New has a key: %+v", plain)
	}
	if !errors.Is(Wrap(TooMany, "x", errors.ErrUnsupported).WithKey("k"), errors.ErrUnsupported) {
		t.Error("WithKey lost the cause")
	}
}

func TestClientGone(t *testing.T) {
	live := context.Background()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	wrapped := fmt.Errorf("authenticate: get account: %w", context.Canceled)
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"cancelled request", gone, wrapped, true},
		{"deadline", gone, fmt.Errorf("search: %w", context.DeadlineExceeded), true},
		{"live request, inner timeout", live, fmt.Errorf("provider: %w", context.DeadlineExceeded), false},
		{"live request, inner cancel", live, wrapped, false},
		{"cancelled request, real failure", gone, errors.New("disk I/O error"), false},
		{"client error kind", gone, Wrap(BadRequest, "The body could not be read.", context.Canceled), false},
		{"no error", gone, nil, false},
	}
	for _, tc := range tests {
		if got := ClientGone(tc.ctx, tc.err); got != tc.want {
			t.Errorf("%s: ClientGone = %v, want %v", tc.name, got, tc.want)
		}
	}
}
