package bench

import (
	"math"
	"slices"
	"time"
)

// Latencies summarizes response times in milliseconds.
type Latencies struct {
	N    int     `json:"n"`
	P50  float64 `json:"p50_ms"`
	P90  float64 `json:"p90_ms"`
	P99  float64 `json:"p99_ms"`
	Max  float64 `json:"max_ms"`
	Mean float64 `json:"mean_ms"`
}

// summarize sorts lat in place and returns its percentiles.
func summarize(lat []time.Duration) Latencies {
	if len(lat) == 0 {
		return Latencies{}
	}
	slices.Sort(lat)
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	return Latencies{N: len(lat), P50: ms(percentile(lat, 50)), P90: ms(percentile(lat, 90)),
		P99: ms(percentile(lat, 99)), Max: ms(lat[len(lat)-1]), Mean: ms(sum / time.Duration(len(lat)))}
}

// percentile is the nearest-rank percentile of sorted: the smallest value with at least p%
// of the values at or below it. With 300 values the p99 is the third largest.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// ms is d in milliseconds, to two decimals.
func ms(d time.Duration) float64 { return round2(float64(d) / float64(time.Millisecond)) }

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// mb is a byte count in MiB, to one decimal.
func mb(b int64) float64 { return math.Round(float64(b)/(1<<20)*10) / 10 }

// median of xs (the mean of the middle two when even); 0 for none. xs is not changed.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
