package billing

import (
	"slices"
	"sync"
	"time"

	"svc/internal/errs"
)

// DefaultHoldTTL is how long a reservation lasts unless it is settled (SVC_HOLD_TTL's
// default): far above any answer (SVC_LLM_TIMEOUT with its retries), so a live answer's hold
// never lapses, and short enough that the holds of a replica killed mid-answer come back
// within minutes, from any replica's sweep or the account's next turn.
const DefaultHoldTTL = 5 * time.Minute

// Holds sizes the reservation an answer makes before it calls a model. The worst case of one
// answer (every prompt at its cap, every output at max_tokens) is many times what answers
// really cost: holding it let a 0.99 USD account keep only 35 answers in flight, and left a
// small balance that no answer could ever reserve. So a hold is the worst case scaled by a
// high percentile of how much of their worst case recent answers really cost, with a margin,
// and never above the worst case. An answer that costs more than its hold may overdraw the
// account by up to one hold at its settle (store.Turn.OverdraftMicro), so the estimate only
// has to be right most of the time, and a wrong one is bounded.
//
// The ratios are shared by every account of the process: they describe the engine and the
// model (prompt sizes, how long replies run), not the business. Until enough answers have
// settled, a hold is the worst case, which is always safe.
type Holds struct {
	mu     sync.Mutex
	ratios []float64 // ring of actual/worst, one per settled paid answer
	next   int
	full   bool
	sorted []float64 // scratch for the percentile
}

const (
	// holdSamples is how many recent answers the estimate looks at: enough for a stable
	// 95th percentile, few enough to follow a change of model or prompt within minutes.
	holdSamples = 256
	// holdMinSamples is how many answers must have settled before holds shrink below the
	// worst case.
	holdMinSamples = 20
	// holdPercentile and holdMargin: the hold covers the 95th percentile of recent answers
	// with a quarter to spare, so about one answer in twenty or fewer overdraws at all.
	holdPercentile = 0.95
	holdMargin     = 1.25
)

// NewHolds returns a sizer with no history: every hold is the worst case.
func NewHolds() *Holds {
	return &Holds{ratios: make([]float64, holdSamples), sorted: make([]float64, 0, holdSamples)}
}

// Size returns the hold for an answer whose worst case is worst micro-USD: at least 1 and at
// most worst.
func (h *Holds) Size(worst int64) int64 {
	if worst <= 1 {
		return max(worst, 0)
	}
	h.mu.Lock()
	n := h.next
	if h.full {
		n = len(h.ratios)
	}
	if n < holdMinSamples {
		h.mu.Unlock()
		return worst
	}
	h.sorted = append(h.sorted[:0], h.ratios[:n]...)
	slices.Sort(h.sorted)
	p := h.sorted[min(n-1, int(float64(n)*holdPercentile))]
	h.mu.Unlock()
	size := int64(float64(worst)*p*holdMargin) + 1
	return min(max(size, 1), worst)
}

// Observe records what a settled answer cost against its worst case. Free answers teach
// nothing about what a paid one costs and are ignored.
func (h *Holds) Observe(worst, actual int64) {
	if worst <= 0 || actual <= 0 {
		return
	}
	r := min(float64(actual)/float64(worst), 4) // a wildly wrong worst case is capped, not trusted
	h.mu.Lock()
	h.ratios[h.next] = r
	h.next++
	if h.next == len(h.ratios) {
		h.next, h.full = 0, true
	}
	h.mu.Unlock()
}

// Refusal is what a refused hold means for the account; see AfterRefusal.
type Refusal int

const (
	// Spent: the balance is zero or less. Only this answers with the balance notice.
	Spent Refusal = iota
	// HoldWhatIsFree: less than the hold is free and nothing else holds any of it, so the
	// free balance is held instead (the settle may overdraw by one hold): a small balance is
	// spent rather than stranded.
	HoldWhatIsFree
	// Contended: other requests in progress hold the balance. The account is funded; the
	// request waits for them or is asked to retry (ErrContended), and nothing is stored.
	Contended
)

// AfterRefusal decides what a hold of amount that the store refused for lack of free
// balance means, from the account's balance and reserved amount read after the refusal, and
// with HoldWhatIsFree the amount to hold instead. One rule for answers and generations.
func AfterRefusal(balance, reserved, amount int64) (Refusal, int64) {
	switch {
	case balance <= 0:
		return Spent, 0
	case reserved == 0:
		return HoldWhatIsFree, min(balance, amount)
	default:
		return Contended, 0
	}
}

// ErrContended answers a request whose account's balance stayed held by its other requests
// in progress: a retry, not a top-up, is what helps.
var ErrContended = &errs.Error{Kind: errs.RateLimited, RetryAfter: 2 * time.Second,
	Safe: "Other requests of this account are still running and hold its balance. Try again in a few seconds."}
