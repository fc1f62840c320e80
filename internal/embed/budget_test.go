package embed

import (
	"math"
	"strings"
	"testing"
)

func TestParseBudgetAccepts(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"1", 1_000_000},
		{"1.0", 1_000_000},
		{"0.05", 50_000},
		{"0.0500", 50_000},
		{"100", 100_000_000},
		{"100.0000", 100_000_000},
		{"99.9999", 99_999_900},
		{"2.5", 2_500_000},
		{" 2.5 ", 2_500_000},
		{"007", 7_000_000},
		{"0100.00", 100_000_000},
		{".5", 500_000},
		{"3.", 3_000_000},
	}
	for _, tc := range tests {
		got, err := ParseBudget(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseBudget(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseBudgetRejects(t *testing.T) {
	tests := []struct {
		in, reason string
	}{
		{"", "required"},
		{"   ", "required"},
		{".", "not an amount"},
		{"-1", "not an amount"},
		{"+1", "not an amount"},
		{"1e2", "not an amount"},
		{"1E-1", "not an amount"},
		{"NaN", "not an amount"},
		{"Inf", "not an amount"},
		{"+Infinity", "not an amount"},
		{"0x10", "not an amount"},
		{"1,5", "not an amount"},
		{"1 .5", "not an amount"},
		{"1. 5", "not an amount"},
		{"1.2.3", "not an amount"},
		{"１", "not an amount"},
		{"1.5\x00", "not an amount"},
		{"1.23456", "more than 4 decimal places"},
		{"0.00001", "more than 4 decimal places"},
		{"0", "from 0.05 to 100 US dollars"},
		{"0.0499", "from 0.05 to 100 US dollars"},
		{"100.0001", "from 0.05 to 100 US dollars"},
		{"101", "from 0.05 to 100 US dollars"},
		{"1000", "from 0.05 to 100 US dollars"},
		{"99999999999999999999999", "from 0.05 to 100 US dollars"},
	}
	for _, tc := range tests {
		got, err := ParseBudget(tc.in)
		if err == nil {
			t.Errorf("ParseBudget(%q) = %d, want an error", tc.in, got)
			continue
		}
		quoted := ""
		if strings.TrimSpace(tc.in) != "" {
			quoted = shown(strings.TrimSpace(tc.in))
		}
		checkBadRequest(t, err, quoted)
		if !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("ParseBudget(%q): message %q does not say %q", tc.in, err.Error(), tc.reason)
		}
	}
}

func TestFormatBudget(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{1_000_000, "1.0000"},
		{50_000, "0.0500"},
		{100_000_000, "100.0000"},
		{DefaultBudgetMicro, "1.0000"},
		{0, "0.0000"},
		{99_999_900, "99.9999"},
		{49, "0.0000"},
		{50, "0.0001"},
		{123_456_789, "123.4568"},
		{-50_000, "-0.0500"},
		{-50, "-0.0001"},
		{math.MinInt64, "-9223372036854.7758"},
		{math.MaxInt64, "9223372036854.7758"},
	}
	for _, tc := range tests {
		if got := FormatBudget(tc.in); got != tc.want {
			t.Errorf("FormatBudget(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBudgetRoundTrip(t *testing.T) {
	for micro := MinBudgetMicro; micro <= MaxBudgetMicro; micro += 999_900 {
		got, err := ParseBudget(FormatBudget(micro))
		if err != nil || got != micro {
			t.Fatalf("ParseBudget(FormatBudget(%d)) = %d, %v", micro, got, err)
		}
	}
	if MinBudgetMicro > DefaultBudgetMicro || DefaultBudgetMicro > MaxBudgetMicro {
		t.Fatal("the default budget is outside the allowed range")
	}
}
