package embed

import (
	"math"
	"sync"
	"time"
)

// SurgeOptions tunes surge protection; a zero or negative field takes its default.
type SurgeOptions struct {
	Window time.Duration // bucket length; default 1 minute
	Floor  int           // a bucket above max(Floor, Factor×baseline) is a spike; default 20
	Factor float64       // default 4
	// PerAddress is the questions a client address may ask in a bucket at a human pace;
	// default 6. A bucket is a spike only when more than Floor/2 of its questions came
	// beyond that pace (see Surge).
	PerAddress int
	Alpha      float64       // EWMA weight of a finished bucket in the baseline (at most 1); default 0.2
	Cooldown   time.Duration // stay in surge this long after the last spiking bucket; default 10 minutes
}

const (
	// maxCatchUp bounds the empty buckets folded one by one after a quiet spell. Past it the
	// baseline is taken as 0: with the default weight it would be under 0.8^60 (about a
	// millionth) of what it was, which moves no threshold.
	maxCatchUp = 60
	// surgeIdle is how long a token may go without questions before it is forgotten (at
	// least maxCatchUp windows, so forgetting loses no baseline worth keeping); a token in
	// surge is kept until the surge ends.
	surgeIdle = time.Hour
	// maxAddresses bounds the distinct addresses remembered per token and bucket.
	maxAddresses = 4096
	// sweepEvery is how often Observe looks for idle tokens.
	sweepEvery = time.Minute
)

func (o SurgeOptions) withDefaults() SurgeOptions {
	if o.Window <= 0 {
		o.Window = time.Minute
	}
	if o.Floor <= 0 {
		o.Floor = 20
	}
	if o.Factor <= 0 {
		o.Factor = 4
	}
	if o.PerAddress <= 0 {
		o.PerAddress = 6
	}
	if o.Alpha <= 0 || o.Alpha > 1 {
		o.Alpha = 0.2
	}
	if o.Cooldown <= 0 {
		o.Cooldown = 10 * time.Minute
	}
	return o
}

// Surge detects abnormal spikes of widget questions per embed token, in process. A token's
// questions are counted in fixed buckets of Window; finished buckets feed an exponentially
// weighted baseline of its normal traffic. When the current bucket's count exceeds
// max(Floor, Factor×baseline) the token is in surge until Cooldown after that bucket ends,
// and the widget answers from the cache only, so an attack (or a runaway script on the
// owner's page) cannot spend the owner's money. Buckets that fall in a surge are not folded
// into the baseline, so a long attack never becomes normal; the surge ends by itself.
//
// A crowd is not an attack. People read an answer before they type the next question, one
// every 15-20 seconds at the very most (4 a minute), so a bucket is a spike only when, beside
// exceeding the threshold, more than Floor/2 of its questions came from addresses past
// PerAddress questions: 40 or 500 shoppers at a launch, each on an address of their own, add
// nothing to that excess, while a script is held to 30 requests a minute per address by the
// embed surface and spends its excess at once, even hidden in a crowd. A script spread over
// so many addresses that each stays at a human pace looks like a crowd, and is left to the
// token's daily budget and its 60 new answers a minute. Addresses are counted up to
// maxAddresses a bucket; questions from addresses past that add no excess.
//
// Time comes only from the callers' now, never the clock. A Surge is safe for concurrent
// use; one mutex is enough since each call does a few arithmetic steps.
type Surge struct {
	opt SurgeOptions

	mu        sync.Mutex
	tokens    map[int64]*surgeState
	lastSweep time.Time
}

// surgeState is one token's counters. Buckets are numbered from the Unix epoch in windows;
// until is in Unix nanoseconds.
type surgeState struct {
	bucket   int64     // the current bucket
	count    int       // questions in it
	baseline float64   // EWMA of finished buckets outside surges
	until    int64     // in surge while now is before this; 0 if never
	lastSeen time.Time // the latest question
	// addrs counts the current bucket's questions per client address, and excess those
	// asked past PerAddress.
	addrs  map[string]int
	excess int
}

// NewSurge returns a detector with o's settings, defaults filled in.
func NewSurge(o SurgeOptions) *Surge {
	return &Surge{opt: o.withDefaults(), tokens: make(map[int64]*surgeState)}
}

// Observe counts one question on the token from the client address addr (any stable key of
// it; "" counts as one address) at now and reports whether the token is in surge, counting
// this question: the one that makes the bucket spike is already answered from cache.
func (s *Surge) Observe(tokenID int64, addr string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now)
	k := s.bucketOf(now)
	st := s.tokens[tokenID]
	if st == nil {
		st = &surgeState{bucket: k}
		s.tokens[tokenID] = st
	}
	st.advance(k, &s.opt)
	st.count++
	if st.addrs == nil {
		st.addrs = make(map[string]int)
	}
	if n, seen := st.addrs[addr]; seen || len(st.addrs) < maxAddresses {
		st.addrs[addr] = n + 1
		if n+1 > s.opt.PerAddress {
			st.excess++
		}
	}
	if now.After(st.lastSeen) {
		st.lastSeen = now
	}
	if st.count > st.threshold(&s.opt) && st.excess > s.opt.Floor/2 {
		end := (st.bucket+1)*int64(s.opt.Window) + int64(s.opt.Cooldown)
		st.until = max(st.until, end)
	}
	return now.UnixNano() < st.until
}

// Active reports whether the token is in surge at now, without counting a question.
func (s *Surge) Active(tokenID int64, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.tokens[tokenID]
	return st != nil && now.UnixNano() < st.until
}

// Threshold is the most questions the token's bucket at now may hold without being a spike,
// max(Floor, Factor×baseline) rounded down, for logs and docs. It changes nothing.
func (s *Surge) Threshold(tokenID int64, now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.tokens[tokenID]
	if st == nil {
		return s.opt.Floor
	}
	c := *st
	c.advance(s.bucketOf(now), &s.opt)
	return c.threshold(&s.opt)
}

// advance moves the state to bucket k, folding the finished buckets into the baseline: the
// current one with its count, the ones skipped since as zero. A bucket that began before
// until was part of a surge (it spiked, or fell in the cooldown) and is left out, which
// freezes the baseline for the whole surge. A k at or before the current bucket (the same
// bucket, or a wall clock stepped back) leaves the state as it is.
func (st *surgeState) advance(k int64, o *SurgeOptions) {
	if k <= st.bucket {
		return
	}
	w := int64(o.Window)
	if st.bucket*w >= st.until {
		st.baseline = o.Alpha*float64(st.count) + (1-o.Alpha)*st.baseline
	}
	// Skipped buckets from the first one that began at or after until.
	first := max(st.bucket+1, ceilDiv(st.until, w))
	if empty := k - first; empty > maxCatchUp {
		st.baseline = 0
	} else {
		for range empty {
			st.baseline *= 1 - o.Alpha
		}
	}
	st.bucket, st.count, st.excess = k, 0, 0
	clear(st.addrs)
}

// threshold is max(Floor, Factor×baseline) rounded down: a whole count exceeds the real
// number exactly when it exceeds its floor.
func (st *surgeState) threshold(o *SurgeOptions) int {
	t := o.Factor * st.baseline
	switch {
	case t < float64(o.Floor):
		return o.Floor
	case t >= math.MaxInt32:
		return math.MaxInt32
	default:
		return int(t)
	}
}

// sweep forgets tokens idle for surgeIdle (or maxCatchUp windows, if longer) and not in
// surge, at most once every sweepEvery, so memory follows the tokens in use. A forgotten
// token starts again from a zero baseline, which is where its baseline had decayed to.
func (s *Surge) sweep(now time.Time) {
	if !s.lastSweep.IsZero() && !now.Before(s.lastSweep) && now.Sub(s.lastSweep) < sweepEvery {
		return
	}
	s.lastSweep = now
	idle := max(surgeIdle, maxCatchUp*s.opt.Window)
	n := now.UnixNano()
	for id, st := range s.tokens {
		if now.Sub(st.lastSeen) >= idle && n >= st.until {
			delete(s.tokens, id)
		}
	}
}

func (s *Surge) bucketOf(now time.Time) int64 {
	return floorDiv(now.UnixNano(), int64(s.opt.Window))
}

// floorDiv and ceilDiv round toward minus and plus infinity, also for times before 1970.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
