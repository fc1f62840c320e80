package ratelimit

import (
	"testing"
	"time"
)

func TestMemoryAllowsBurstThenRefuses(t *testing.T) {
	m := NewMemory()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 15; i++ {
		if ok, _ := m.Allow("k", 15, now); !ok {
			t.Fatalf("send %d refused", i+1)
		}
	}
	ok, wait := m.Allow("k", 15, now)
	if ok || wait <= 0 || wait > 4*time.Second {
		t.Fatalf("16th: ok=%v wait=%v; want refused with ~4s", ok, wait)
	}
	if got := RetryAfterSeconds(wait); got != 4 {
		t.Fatalf("retry after %d, want 4", got)
	}
	// A refusal does not consume: after the wait one more fits.
	if ok, _ := m.Allow("k", 15, now.Add(wait)); !ok {
		t.Fatal("refused after waiting")
	}
	// Keys are independent.
	if ok, _ := m.Allow("other", 15, now); !ok {
		t.Fatal("other key limited")
	}
}

func TestMemoryLimitChangeAndUnlimited(t *testing.T) {
	m := NewMemory()
	now := time.Now()
	for i := 0; i < 2; i++ {
		m.Allow("k", 2, now)
	}
	if ok, _ := m.Allow("k", 2, now); ok {
		t.Fatal("third of two allowed")
	}
	if ok, _ := m.Allow("k", 5, now); !ok {
		t.Fatal("raised limit not applied")
	}
	for i := 0; i < 100; i++ {
		if ok, _ := m.Allow("u", 0, now); !ok {
			t.Fatal("unlimited refused")
		}
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, time.Millisecond: 1, time.Second: 1, 1500 * time.Millisecond: 2, 4 * time.Second: 4} {
		if got := RetryAfterSeconds(d); got != want {
			t.Errorf("RetryAfterSeconds(%v) = %d, want %d", d, got, want)
		}
	}
}
