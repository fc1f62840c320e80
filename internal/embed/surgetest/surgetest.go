// Package surgetest is the behaviour every surge store must show, run by embed's tests on
// the memory store and by surgeredis's on Redis: the same questions at the same times must
// give the same decisions and thresholds. Time is only ever the now the tests pass.
package surgetest

import (
	"sync"
	"testing"
	"time"

	"svc/internal/embed"
)

// New returns a fresh detector with o's settings, over the store under test. Each call must
// give a detector that shares no state with any other (in Redis: a key prefix of its own).
type New func(t *testing.T, o embed.SurgeOptions) *embed.Surge

// Run runs every behaviour test on detectors from newSurge, in parallel.
func Run(t *testing.T, newSurge New) {
	for name, test := range map[string]func(*testing.T, New){
		"UnknownTokenHasTheFloor":                unknownTokenHasTheFloor,
		"SteadyTrafficBelowFloorNeverTriggers":   steadyTrafficBelowFloorNeverTriggers,
		"SpikeTriggersWithinBucket":              spikeTriggersWithinBucket,
		"BaselineRaisesThreshold":                baselineRaisesThreshold,
		"RecoversAfterCooldown":                  recoversAfterCooldown,
		"SustainedAttackStaysAndKeepsBaseline":   sustainedAttackStaysAndKeepsBaseline,
		"QuietMinutesLowerBaseline":              quietMinutesLowerBaseline,
		"CatchUpCap":                             catchUpCap,
		"TokensAreIndependent":                   tokensAreIndependent,
		"ReadsDoNotCount":                        readsDoNotCount,
		"ThresholdOfALaterMinuteChangesNothing":  thresholdOfALaterMinuteChangesNothing,
		"ClockSteppingBackCountsInCurrentBucket": clockSteppingBackCountsInCurrentBucket,
		"ConcurrentObserveCountsEveryQuestion":   concurrentObserveCountsEveryQuestion,
		"TellsACrowdFromAScript":                 tellsACrowdFromAScript,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, newSurge)
		})
	}
}

// t0 is the start of a minute, so minute n of a test is bucket n of a 1-minute window.
var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func minute(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }

// feed observes perMinute questions, spread over each of the minutes [from, from+minutes),
// and reports whether any of them found the token in surge.
func feed(s *embed.Surge, token int64, from, minutes, perMinute int) bool {
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
func warm(t *testing.T, s *embed.Surge) {
	t.Helper()
	if feed(s, 1, 0, 30, 15) {
		t.Fatal("steady 15/min below the floor surged")
	}
}

func unknownTokenHasTheFloor(t *testing.T, newSurge New) {
	if th := newSurge(t, embed.SurgeOptions{}).Threshold(7, t0); th != 20 {
		t.Errorf("threshold of an unknown token = %d, want the floor 20", th)
	}
}

func steadyTrafficBelowFloorNeverTriggers(t *testing.T, newSurge New) {
	tests := []struct {
		name      string
		perMinute int
	}{
		{"light", 3},
		{"at the floor exactly", 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSurge(t, embed.SurgeOptions{})
			if feed(s, 1, 0, 180, tc.perMinute) {
				t.Fatalf("steady %d/min for 3 hours surged", tc.perMinute)
			}
			if s.Active(1, minute(180)) {
				t.Fatal("Active after steady traffic")
			}
		})
	}
}

func spikeTriggersWithinBucket(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{})
	for i := 1; i <= 20; i++ {
		if s.Observe(1, "", t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("question %d of a fresh token surged; the floor is 20", i)
		}
	}
	at := t0.Add(21 * time.Second)
	if !s.Observe(1, "", at) {
		t.Fatal("the 21st question in one minute did not surge")
	}
	if !s.Active(1, at) {
		t.Fatal("Active false right after the spike")
	}
}

func baselineRaisesThreshold(t *testing.T, newSurge New) {
	tests := []struct {
		name      string
		burst     int
		surgeFrom int // the question of minute 30 that first surges; 0 for none
	}{
		{"40 in a minute is normal for a busy token", 40, 0},
		{"59 is the threshold itself", 59, 0},
		{"the 60th exceeds 59", 80, 60},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSurge(t, embed.SurgeOptions{})
			warm(t, s)
			if th := s.Threshold(1, minute(30)); th != 59 {
				t.Fatalf("threshold after 30 min of 15/min = %d, want 59", th)
			}
			first := 0
			for i := 1; i <= tc.burst; i++ {
				if s.Observe(1, "", minute(30).Add(time.Duration(i)*time.Millisecond)) && first == 0 {
					first = i
				}
			}
			if first != tc.surgeFrom {
				t.Fatalf("first surging question = %d, want %d", first, tc.surgeFrom)
			}
		})
	}
}

func recoversAfterCooldown(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{})
	feed(s, 1, 0, 1, 30) // minute 0 spikes; surge until its end (10:01) + 10 minutes
	tests := []struct {
		at   time.Time
		want bool
	}{
		{minute(1), true},
		{minute(11).Add(-time.Nanosecond), true},
		{minute(11), false},
		{minute(90), false},
	}
	for _, tc := range tests {
		if got := s.Active(1, tc.at); got != tc.want {
			t.Errorf("Active at %s = %v, want %v", tc.at.Format(time.TimeOnly), got, tc.want)
		}
	}
	if s.Observe(1, "", minute(11)) {
		t.Error("the first question after the cooldown surged")
	}
}

func sustainedAttackStaysAndKeepsBaseline(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{})
	warm(t, s)
	for m := 30; m < 90; m++ {
		feed(s, 1, m, 1, 200)
		if !s.Active(1, minute(m).Add(59*time.Second)) {
			t.Fatalf("not in surge at the end of attack minute %d", m)
		}
		if th := s.Threshold(1, minute(m+1)); th != 59 {
			t.Fatalf("threshold after attack minute %d = %d, want the pre-attack 59", m, th)
		}
	}
	// The last spiking bucket is minute 89: surge until minute 100. The cooldown's empty
	// buckets are not folded either, so the token comes back with its old baseline.
	if !s.Active(1, minute(100).Add(-time.Nanosecond)) || s.Active(1, minute(100)) {
		t.Fatal("surge does not end exactly 10 minutes after the last spiking bucket")
	}
	if th := s.Threshold(1, minute(100)); th != 59 {
		t.Fatalf("threshold after the attack = %d, want 59", th)
	}
	if feed(s, 1, 100, 5, 50) {
		t.Fatal("50/min after the attack surged; the old baseline allows 59")
	}
}

func quietMinutesLowerBaseline(t *testing.T, newSurge New) {
	// After warm, minutes 30.. are empty; each folds as zero: threshold ⌊4×14.9814×0.8^g⌋,
	// never under the floor.
	tests := []struct {
		gap  int
		want int
	}{
		{0, 59}, {1, 47}, {2, 38}, {3, 30}, {4, 24}, {5, 20}, {6, 20}, {61, 20},
	}
	s := newSurge(t, embed.SurgeOptions{})
	warm(t, s)
	for _, tc := range tests {
		if got := s.Threshold(1, minute(30+tc.gap)); got != tc.want {
			t.Errorf("threshold after %d quiet minutes = %d, want %d", tc.gap, got, tc.want)
		}
	}
}

func catchUpCap(t *testing.T, newSurge New) {
	// A huge factor makes the decayed baseline visible: one bucket of 15 gives a baseline of
	// 3, and g empty buckets leave 3×0.8^g. Past 60 of them the baseline is simply 0.
	tests := []struct {
		empty int
		want  int
	}{
		{59, 5746}, // ⌊1e9 × 3 × 0.8^59⌋
		{60, 4597}, // ⌊1e9 × 3 × 0.8^60⌋
		{61, 1000}, // capped: the floor
	}
	for _, tc := range tests {
		s := newSurge(t, embed.SurgeOptions{Floor: 1000, Factor: 1e9})
		feed(s, 1, 0, 1, 15)
		if got := s.Threshold(1, minute(1+tc.empty)); got != tc.want {
			t.Errorf("threshold after %d empty buckets = %d, want %d", tc.empty, got, tc.want)
		}
	}
}

func tokensAreIndependent(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{})
	warm(t, s)
	feed(s, 2, 30, 1, 100)
	if !s.Active(2, minute(31)) {
		t.Fatal("token 2 not in surge after 100 questions in a minute")
	}
	if s.Active(1, minute(31)) || s.Observe(1, "", minute(31)) {
		t.Fatal("token 2's surge reached token 1")
	}
	if th := s.Threshold(1, minute(31)); th != 47 {
		t.Fatalf("token 1 threshold = %d, want 47 (minute 30 empty, folded as zero)", th)
	}
	if th := s.Threshold(3, minute(31)); th != 20 {
		t.Fatalf("unseen token 3 threshold = %d, want the floor 20", th)
	}
}

// A launch is not an attack: crowds of real visitors, each from an address of their own and
// asking at a human pace, never trip surge protection from a cold start (no baseline), while
// scripts are caught within their first minute however they spread over a few addresses.
func tellsACrowdFromAScript(t *testing.T, newSurge New) {
	type wave struct {
		addresses, perAddress int // in one minute, from a token with no history
	}
	for _, tc := range []struct {
		name  string
		waves []wave
		surge bool
	}{
		{"40 shoppers at once, one question each", []wave{{40, 1}}, false},
		{"40 shoppers, two questions each", []wave{{40, 2}}, false},
		{"500 shoppers, three questions each", []wave{{500, 3}}, false},
		{"an office of 5 behind one address, 3 each", []wave{{1, 15}}, false},
		{"a crowd that grows for an hour", []wave{{20, 2}, {60, 2}, {150, 2}, {400, 3}}, false},
		{"a script on one address at the surface's 30 a minute", []wave{{1, 30}}, true},
		{"a script on five addresses", []wave{{5, 30}}, true},
		{"a script hidden in a crowd", []wave{{40, 1}, {3, 30}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSurge(t, embed.SurgeOptions{})
			surged := false
			for m, w := range tc.waves {
				n := w.addresses * w.perAddress
				for i := range n {
					addr := "addr-" + string(rune('A'+i%w.addresses%26)) + "-" + itoa(i%w.addresses) + "-" + itoa(m)
					if tc.name == "a script hidden in a crowd" && m == 1 {
						// the crowd goes on while the script runs
						s.Observe(1, "crowd-"+itoa(i), minute(m).Add(time.Duration(i)*time.Millisecond))
					}
					if s.Observe(1, addr, minute(m).Add(time.Duration(i)*time.Millisecond)) {
						surged = true
					}
				}
			}
			if surged != tc.surge {
				t.Fatalf("surge = %v, want %v", surged, tc.surge)
			}
		})
	}
}

// Reads count nothing: after one question and many reads, 19 more in the minute make 20,
// the floor itself, and no surge; the next one is the 21st and spikes.
func readsDoNotCount(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{})
	s.Observe(1, "", t0)
	for range 100 {
		s.Active(1, t0)
		s.Threshold(1, minute(5))
	}
	if s.Active(1, t0) || s.Threshold(1, t0) != 20 {
		t.Fatal("reads changed the state")
	}
	for i := 2; i <= 20; i++ {
		if s.Observe(1, "", t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("question %d surged: the reads were counted", i)
		}
	}
	if !s.Observe(1, "", t0.Add(21*time.Second)) {
		t.Fatal("the 21st question did not surge")
	}
}

// Asking the threshold of a later minute folds the current bucket into a copy only: a script
// on one address, with the threshold read after each of its questions, still spikes at its
// 21st question of the minute.
func thresholdOfALaterMinuteChangesNothing(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{})
	for i := 1; i <= 21; i++ {
		surged := s.Observe(1, "script", t0.Add(time.Duration(i)*time.Second))
		if surged != (i == 21) {
			t.Fatalf("question %d: surge %v", i, surged)
		}
		s.Threshold(1, minute(3))
	}
}

// A clock stepped back counts in the current bucket: one question at minute 5 and 19 at
// minute 4 are 20 in minute 5's bucket, and the 20th at minute 4 is its 21st.
func clockSteppingBackCountsInCurrentBucket(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{})
	s.Observe(1, "", minute(5))
	for i := 1; i <= 19; i++ {
		if s.Observe(1, "", minute(4).Add(time.Duration(i)*time.Second)) {
			t.Fatalf("question %d at minute 4 surged", i)
		}
	}
	if !s.Observe(1, "", minute(4).Add(30*time.Second)) {
		t.Fatal("the 21st question of minute 5's bucket, asked at minute 4, did not surge")
	}
	if th := s.Threshold(1, minute(6)); th != 20 {
		t.Fatalf("threshold at minute 6 = %d, want the floor (the spiking bucket is not folded)", th)
	}
}

// Concurrent questions are each counted once: 800 over a floor of 800 is no spike, the
// 801st is.
func concurrentObserveCountsEveryQuestion(t *testing.T, newSurge New) {
	s := newSurge(t, embed.SurgeOptions{Floor: 800})
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
		if s.Active(id, t0) {
			t.Fatalf("token %d in surge after exactly the floor of 800 questions", id)
		}
		if !s.Observe(id, "", t0.Add(time.Second)) {
			t.Errorf("token %d: the 801st question did not surge; questions were lost", id)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
