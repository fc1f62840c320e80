package billing

import "testing"

func TestParseUSD(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"12", 12_000_000, true},
		{"0.0355", 35_500, true},
		{"1.5", 1_500_000, true},
		{".25", 250_000, true},
		{"-2.000001", -2_000_001, true},
		{"+3", 3_000_000, true},
		{" 4.10 ", 4_100_000, true},
		{"", 0, false},
		{"abc", 0, false},
		{"1.2345678", 0, false},
		{"1,5", 0, false},
		{".", 0, false},
		{"1e3", 0, false},
		{"99999999999999999999", 0, false},
	}
	for _, tc := range tests {
		got, err := ParseUSD(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseUSD(%q) = %d, %v; want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestCostRoundsUp(t *testing.T) {
	tests := []struct {
		in, out int
		want    int64
	}{
		{0, 0, 0},
		{1, 0, 3},                // 3 micro-USD per input token at 3.00/1M
		{0, 1, 25},               // 25 micro-USD per output token at 25.00/1M
		{1000, 200, 3000 + 5000}, // 0.008 USD
		{10_000, 1_000, 55_000},  // 0.055 USD
	}
	for _, tc := range tests {
		if got := Cost(tc.in, tc.out, DefaultInputRate, DefaultOutputRate); got != tc.want {
			t.Errorf("Cost(%d,%d) = %d, want %d", tc.in, tc.out, got, tc.want)
		}
	}
	// A fractional micro-USD is charged as a whole one.
	if got := Cost(1, 0, 1, 0); got != 1 {
		t.Errorf("fraction not rounded up: %d", got)
	}
}

func TestUSDAndFormat(t *testing.T) {
	if USD(35_500) != 0.0355 {
		t.Errorf("USD(35500) = %v", USD(35_500))
	}
	for micro, want := range map[int64]string{0: "0.00", 5_000_000: "5.00", 35_500: "0.0355", -1_250_000: "-1.25", 1: "0.000001"} {
		if got := FormatUSD(micro); got != want {
			t.Errorf("FormatUSD(%d) = %q, want %q", micro, got, want)
		}
	}
}
