package users

import (
	"sync"
	"testing"
)

type signInCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *signInCounter) SignInFailed(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[reason]++
}

// Refused sign-ins are reported by reason; a successful one is not reported.
func TestSignInFailuresAreReported(t *testing.T) {
	e := newEnv(t)
	c := &signInCounter{n: map[string]int{}}
	e.svc.metrics = c
	e.addUser("owner@example.com", "", pw)
	e.signIn("owner@example.com", pw)
	for range 5 {
		if _, err := e.svc.SignIn(ctx(), "owner@example.com", "wrong", "192.0.2.1", ""); err == nil {
			t.Fatal("a wrong password signed in")
		}
	}
	if _, err := e.svc.SignIn(ctx(), "owner@example.com", pw, "192.0.2.1", ""); Reason(err) != "throttled" {
		t.Fatalf("sixth attempt: %v", err)
	}
	if c.n["bad_credentials"] != 5 || c.n["throttled"] != 1 || len(c.n) != 2 {
		t.Fatalf("reported %v", c.n)
	}
}
