package billing

import (
	"sync"
	"testing"
)

func TestHoldsShrinkToWhatAnswersCost(t *testing.T) {
	t.Parallel()
	const worst = 28_000
	h := NewHolds()
	if got := h.Size(worst); got != worst {
		t.Fatalf("no history: hold %d, want the worst case", got)
	}
	// Nineteen answers are not enough to trust.
	for range holdMinSamples - 1 {
		h.Observe(worst, 9_000)
	}
	if got := h.Size(worst); got != worst {
		t.Fatalf("%d answers: hold %d, want the worst case", holdMinSamples-1, got)
	}
	h.Observe(worst, 9_000)
	// 9,000 of 28,000 with a quarter to spare.
	if got := h.Size(worst); got < 11_250 || got > 11_260 {
		t.Fatalf("hold %d, want about 11,250", got)
	}
	// A hold scales with the request's own worst case and never exceeds it.
	if got := h.Size(2 * worst); got < 22_500 || got > 22_510 {
		t.Fatalf("hold for twice the worst case %d, want about 22,500", got)
	}
	if got := h.Size(1); got != 1 {
		t.Fatalf("hold of a worst case of 1: %d", got)
	}
	if got := h.Size(0); got != 0 {
		t.Fatalf("hold of a worst case of 0: %d", got)
	}
	// The 95th percentile: a few expensive answers among many cheap ones raise the hold only
	// once they are more than one in twenty.
	h2 := NewHolds()
	for i := range 100 {
		cost := int64(5_000)
		if i%50 == 0 {
			cost = worst
		}
		h2.Observe(worst, cost)
	}
	if got := h2.Size(worst); got > 6_300 {
		t.Fatalf("2%% expensive answers: hold %d, want about 6,250", got)
	}
	for range 20 {
		h2.Observe(worst, worst)
	}
	if got := h2.Size(worst); got != worst {
		t.Fatalf("many expensive answers: hold %d, want the worst case", got)
	}
	// Free answers teach nothing.
	h3 := NewHolds()
	for range 100 {
		h3.Observe(worst, 0)
	}
	if got := h3.Size(worst); got != worst {
		t.Fatalf("only free answers: hold %d, want the worst case", got)
	}
}

func TestHoldsConcurrentUse(t *testing.T) {
	t.Parallel()
	h := NewHolds()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				h.Observe(10_000, int64(1_000+(w*i)%5_000))
				if s := h.Size(10_000); s < 1 || s > 10_000 {
					t.Errorf("hold %d out of range", s)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestAfterRefusal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                      string
		balance, reserved, amount int64
		want                      Refusal
		hold                      int64
	}{
		{"no money", 0, 0, 5_000, Spent, 0},
		{"overdrawn, still held", -300, 1_000, 5_000, Spent, 0},
		{"a small balance, nothing held", 1_200, 0, 5_000, HoldWhatIsFree, 1_200},
		{"held by others", 9_000, 6_000, 5_000, Contended, 0},
	} {
		if got, hold := AfterRefusal(tc.balance, tc.reserved, tc.amount); got != tc.want || hold != tc.hold {
			t.Errorf("%s: %v %d, want %v %d", tc.name, got, hold, tc.want, tc.hold)
		}
	}
}
