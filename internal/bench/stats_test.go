package bench

import (
	"testing"
	"time"
)

func TestPercentileIsNearestRank(t *testing.T) {
	t.Parallel()
	var lat []time.Duration
	for i := 300; i >= 1; i-- {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	s := summarize(lat)
	want := Latencies{N: 300, P50: 150, P90: 270, P99: 297, Max: 300, Mean: 150.5}
	if s != want {
		t.Errorf("summarize = %+v, want %+v", s, want)
	}
	if got := percentile([]time.Duration{7 * time.Millisecond}, 99); got != 7*time.Millisecond {
		t.Errorf("p99 of one value = %v", got)
	}
	if (summarize(nil) != Latencies{}) {
		t.Error("summarize(nil) is not empty")
	}
}

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		in := append([]float64(nil), tt.in...)
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
		for i := range in {
			if in[i] != tt.in[i] {
				t.Errorf("median changed its input")
			}
		}
	}
}
