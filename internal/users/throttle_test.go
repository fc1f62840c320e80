package users

import (
	"fmt"
	"testing"
	"time"
)

func TestMemoryThrottleSlidingWindow(t *testing.T) {
	m := NewMemoryThrottle()
	t0 := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	key := classSignInEmail + ":a@x.io"
	for i := range 5 {
		if b, _ := m.Blocked(key, t0.Add(time.Duration(i)*time.Minute)); b {
			t.Fatalf("blocked after %d failures", i)
		}
		m.Fail(key, t0.Add(time.Duration(i)*time.Minute))
	}
	b, wait := m.Blocked(key, t0.Add(5*time.Minute))
	if !b || wait != 10*time.Minute {
		t.Fatalf("after 5 failures: blocked %v, wait %s; want 10m (the first failure leaves the window at 15m)", b, wait)
	}
	if b, _ := m.Blocked(key, t0.Add(15*time.Minute+time.Second)); b {
		t.Fatal("still blocked after the oldest failure left the window")
	}
	if b, _ := m.Blocked(classSignInEmail+":b@x.io", t0); b {
		t.Fatal("another key is blocked")
	}
	m.Reset(key)
	if b, _ := m.Blocked(key, t0.Add(5*time.Minute)); b {
		t.Fatal("blocked after Reset")
	}
}

func TestMemoryThrottleDropsStaleKeys(t *testing.T) {
	m := NewMemoryThrottle()
	t0 := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range sweepEvery - 1 {
		m.Fail(fmt.Sprintf("%s:%d@x.io", classSignInEmail, i), t0)
	}
	// One more failure an hour later triggers a sweep: every earlier key is stale.
	m.Fail(classSignInEmail+":late@x.io", t0.Add(time.Hour))
	if n := m.size(); n != 1 {
		t.Fatalf("%d keys held after the sweep, want 1", n)
	}
}

func TestKeyLimits(t *testing.T) {
	for key, want := range map[string]Limit{
		classSignInEmail + ":a@x.io": {5, 15 * time.Minute},
		classSignInAddr + ":1.2.3.4": {20, 15 * time.Minute},
		classResetEmail + ":a@x.io":  {3, time.Hour},
		classResetAddr + ":1.2.3.4":  {10, time.Hour},
		"whatever":                   {5, 15 * time.Minute},
	} {
		if got := KeyLimit(key); got != want {
			t.Errorf("%s: %+v, want %+v", key, got, want)
		}
	}
	if got := addrKey("2001:db8:1:2:3:4:5:6"); got != "2001:db8:1:2::/64" {
		t.Errorf("IPv6 key %q", got)
	}
	if got := addrKey("::ffff:192.0.2.1"); got != "192.0.2.1" {
		t.Errorf("mapped IPv4 key %q", got)
	}
}
