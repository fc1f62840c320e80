// Package billing holds the money rules: integer micro-USD inside, USD numbers only at the
// edge, token pricing rounded up explicitly, and the defaults of SERVICE.md.
package billing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MicroPerUSD is the number of micro-USD in one US dollar.
const MicroPerUSD = 1_000_000

// Defaults from SERVICE.md: 3.00 USD per 1M input tokens, 25.00 USD per 1M output tokens, and
// a typical all-in answer cost of 0.0355 USD until an account has usage to average.
const (
	DefaultInputRate  int64 = 3 * MicroPerUSD  // micro-USD per 1M input tokens
	DefaultOutputRate int64 = 25 * MicroPerUSD // micro-USD per 1M output tokens
	DefaultTypical    int64 = 35_500           // micro-USD
)

// USD converts micro-USD to a dollar amount for JSON output.
func USD(micro int64) float64 {
	return float64(micro) / MicroPerUSD
}

// ParseUSD parses a decimal dollar amount ("12", "0.0355", "-1.5") into micro-USD exactly,
// without going through a float. More than six decimal places is an error rather than a
// silent rounding.
func ParseUSD(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty amount")
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" && (!hasDot || frac == "") {
		return 0, fmt.Errorf("%q is not an amount", s)
	}
	if len(frac) > 6 {
		return 0, fmt.Errorf("%q has more than 6 decimal places", s)
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, fmt.Errorf("%q is not an amount", s)
			}
		}
	}
	var w int64
	if whole != "" {
		v, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || v > math.MaxInt64/MicroPerUSD-1 {
			return 0, fmt.Errorf("%q is too large", s)
		}
		w = v
	}
	f := int64(0)
	if frac != "" {
		v, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
		f = v
	}
	m := w*MicroPerUSD + f
	if neg {
		m = -m
	}
	return m, nil
}

// FormatUSD renders micro-USD with as many decimals as needed (at least two), for humans.
func FormatUSD(micro int64) string {
	sign := ""
	if micro < 0 {
		sign, micro = "-", -micro
	}
	s := fmt.Sprintf("%d.%06d", micro/MicroPerUSD, micro%MicroPerUSD)
	s = strings.TrimRight(s, "0")
	if i := strings.IndexByte(s, '.'); len(s)-i-1 < 2 {
		s += strings.Repeat("0", 2-(len(s)-i-1))
	}
	return sign + s
}

// Cost prices a call: tokens times the per-1M rates, rounded up to a whole micro-USD so that
// no fraction is ever given away or lost. Rates are micro-USD per 1M tokens.
func Cost(inputTokens, outputTokens int, inputRate, outputRate int64) int64 {
	num := int64(inputTokens)*inputRate + int64(outputTokens)*outputRate
	if num <= 0 {
		return 0
	}
	return (num + 1_000_000 - 1) / 1_000_000
}
