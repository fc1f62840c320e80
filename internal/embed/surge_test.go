package embed

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// t0 is the start of a minute, so minute n of a test is bucket n of a 1-minute window.
var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func minute(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }

// feed observes perMinute questions, spread over each of the minutes [from, from+minutes),
// and reports whether any of them found the token in surge.
func feed(s *Surge, token int64, from, minutes, perMinute int) bool {
	surged := false
	for m := from; m < from+minutes; m++ {
		for i := range perMinute {
			at := minute(m).Add(time.Duration(i) * time.Minute / time.Duration(perMinute))
			if s.Observe(token, "", at) {
				surged = true
			}
		}
	}
	return surged
}

// warm gives token 1 steady 15 questions a minute for minutes 0..29. The baseline at minute
// 30 is then 15×(1−0.8^30) ≈ 14.9814 and the threshold ⌊4×14.9814⌋ = ⌊59.926⌋ = 59.
func warm(t *testing.T, s *Surge) {
	t.Helper()
	if feed(s, 1, 0, 30, 15) {
		t.Fatal("steady 15/min below the floor surged")
	}
}

func TestSurgeDefaults(t *testing.T) {
	got := NewSurge(SurgeOptions{Floor: -1, Alpha: 1.5}).opt
	want := SurgeOptions{Window: time.Minute, Floor: 20, Factor: 4, PerAddress: 6, Alpha: 0.2, Cooldown: 10 * time.Minute}
	if got != want {
		t.Fatalf("defaults = %+v, want %+v", got, want)
	}
	if th := NewSurge(SurgeOptions{}).Threshold(7, t0); th != 20 {
		t.Errorf("threshold of an unknown token = %d, want the floor 20", th)
	}
}

func TestSurgeReadsDoNotCount(t *testing.T) {
	s := NewSurge(SurgeOptions{})
	s.Observe(1, "", t0)
	for range 100 {
		s.Active(1, t0)
		s.Threshold(1, minute(5))
	}
	if st := s.mem.tokens[1]; st.count != 1 || st.bucket != s.bucketOf(t0) || st.baseline != 0 {
		t.Fatalf("reads changed the state: %+v", *st)
	}
	if s.Active(1, t0) {
		t.Fatal("Active after one question")
	}
}

func TestSurgeClockSteppingBackCountsInCurrentBucket(t *testing.T) {
	s := NewSurge(SurgeOptions{})
	s.Observe(1, "", minute(5))
	s.Observe(1, "", minute(4))
	st := s.mem.tokens[1]
	if st.bucket != s.bucketOf(minute(5)) || st.count != 2 || st.baseline != 0 {
		t.Fatalf("state after a step back = %+v, want bucket of minute 5 with 2 questions", *st)
	}
}

func TestSurgeSweepsIdleTokens(t *testing.T) {
	s := NewSurge(SurgeOptions{Cooldown: 3 * time.Hour})
	s.Observe(1, "", t0)         // idle afterwards
	feed(s, 2, 0, 1, 30)         // spikes: in surge until 13:01
	s.Observe(3, "", minute(59)) // recent
	s.Observe(4, "", minute(61)) // an hour and a minute on: sweeps
	if _, ok := s.mem.tokens[1]; ok {
		t.Error("token idle for over an hour was kept")
	}
	for _, id := range []int64{2, 3, 4} {
		if _, ok := s.mem.tokens[id]; !ok {
			t.Errorf("token %d was swept while in surge or recently used", id)
		}
	}
	s.Observe(4, "", minute(181)) // token 2's surge is over, token 3 idle too
	if len(s.mem.tokens) != 1 {
		t.Errorf("after every other token went idle, %d tokens are kept, want 1", len(s.mem.tokens))
	}
	if s.Active(1, minute(61)) || s.Threshold(1, minute(61)) != 20 {
		t.Error("a forgotten token does not start afresh")
	}
}

func TestSurgeConcurrentObserve(t *testing.T) {
	s := NewSurge(SurgeOptions{Floor: 500})
	const workers, each = 8, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				s.Observe(int64(w%2), "", t0.Add(time.Duration(i)*time.Millisecond))
				s.Active(int64(w%2), t0)
				s.Threshold(int64(w%2), t0)
			}
		})
	}
	wg.Wait()
	for id := range int64(2) {
		if got := s.mem.tokens[id].count; got != workers/2*each {
			t.Errorf("token %d counted %d questions, want %d", id, got, workers/2*each)
		}
		if !s.Active(id, t0) {
			t.Errorf("token %d not in surge after 800 questions in a minute over a floor of 500", id)
		}
	}
}

// failingStore is a shared store that never answers.
type failingStore struct{ calls int }

func (f *failingStore) Observe(SurgeOptions, int64, string, time.Time) (bool, error) {
	f.calls++
	return false, errors.New("connection refused")
}
func (f *failingStore) Active(SurgeOptions, int64, time.Time) (bool, error) {
	f.calls++
	return false, errors.New("connection refused")
}
func (f *failingStore) Threshold(SurgeOptions, int64, time.Time) (int, error) {
	f.calls++
	return 0, errors.New("connection refused")
}

// health tries the store until told to pause, and counts what it hears.
type health struct{ pause, failed, ok int }

func (h *health) Try() bool    { return h.pause == 0 }
func (h *health) Failed(error) { h.failed++ }
func (h *health) OK()          { h.ok++ }

// A shared store that fails leaves every decision to the process's memory, with the memory
// detector's results, and each failure is reported; a paused store is not called at all.
func TestSharedSurgeFallsBackToMemory(t *testing.T) {
	t.Parallel()
	st, h := &failingStore{}, &health{}
	s := NewSharedSurge(SurgeOptions{}, st, h)
	for i := 1; i <= 20; i++ {
		if s.Observe(1, "", t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("question %d surged", i)
		}
	}
	if !s.Observe(1, "", t0.Add(21*time.Second)) || !s.Active(1, t0.Add(22*time.Second)) {
		t.Fatal("the memory fallback did not surge at the 21st question")
	}
	if th := s.Threshold(2, t0); th != 20 {
		t.Fatalf("fallback threshold = %d, want the floor", th)
	}
	if st.calls != 23 || h.failed != 23 || h.ok != 0 {
		t.Fatalf("store called %d times, %d failures reported, %d successes; want 23, 23, 0", st.calls, h.failed, h.ok)
	}
	h.pause = 1
	s.Active(1, t0)
	if st.calls != 23 {
		t.Fatal("a paused store was called")
	}
}
