package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/store"
)

func TestValidateMessage(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"  hello  ", "hello", true},
		{strings.Repeat("ş", 2000), strings.Repeat("ş", 2000), true},
		{strings.Repeat("a", 2001), "", false},
		{"", "", false},
		{" \n\t ", "", false},
		{"\x00\x00", "", false},
		{"a\x00b", "ab", true},
		{"\xff", "", false},
	}
	for _, tc := range tests {
		got, err := validateMessage(tc.in, MaxMessageChars)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("validateMessage(%.20q) = %.20q, %v", tc.in, got, err)
		}
		if err != nil && errs.KindOf(err) != errs.BadRequest {
			t.Errorf("%.20q: kind %v", tc.in, errs.KindOf(err))
		}
	}
}

func TestDice(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"deliveri long take", "deliveri long take", 1},
		{"deliveri long take germani", "deliveri long take", 6.0 / 7},
		{"a b", "c d", 0},
		{"dau deutschland lang liefer", "dauert deutschland lang liefer", 7.8 / 8},
		{"dauert lang liefer osterreich", "dauert deutschland lang liefer", 0.75},
		{"ab", "abc", 0},
		{"", "a", 0},
	}
	for _, tc := range tests {
		if got := dice(tc.a, tc.b); got != tc.want {
			t.Errorf("dice(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestProductCardsDedupedAndCapped(t *testing.T) {
	var cards []engine.Card
	for i := range 12 {
		cards = append(cards, engine.Card{DocID: int64(i % 10), Product: store.Product{Name: fmt.Sprint("P", i%10)}})
	}
	cards = append([]engine.Card{cards[0]}, cards...)
	got := productCards(cards)
	if len(got) != MaxProductCards {
		t.Fatalf("%d cards, want %d: %+v", len(got), MaxProductCards, got)
	}
	for i, p := range got {
		if want := fmt.Sprint("P", i); p.Name != want {
			t.Errorf("card %d is %q, want %q", i, p.Name, want)
		}
	}
}

func TestQuotaErrorRetriesAtMidnightUTC(t *testing.T) {
	now := time.Date(2026, 11, 21, 23, 59, 30, 0, time.UTC)
	e, ok := errs.As(quotaError(now))
	if !ok || e.Kind != errs.LimitReached || e.RetryAfter != 30*time.Second {
		t.Fatalf("quota error: %+v", e)
	}
}

func TestBalanceNoticeInEveryLanguage(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range []string{"tr", "en", "de"} {
		n := (&Service{texts: defaultTexts()}).balanceNotice(l)
		if n == "" || seen[n] {
			t.Fatalf("notice for %s: %q", l, n)
		}
		seen[n] = true
	}
}
