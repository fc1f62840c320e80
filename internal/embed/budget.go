package embed

import (
	"fmt"
	"strconv"
	"strings"
)

// Daily budget bounds in micro-USD: 0.05 to 100 USD a day, 1 USD unless the owner sets one.
const (
	MinBudgetMicro     int64 = 50_000
	MaxBudgetMicro     int64 = 100_000_000
	DefaultBudgetMicro int64 = 1_000_000
)

const (
	microPerUSD    = 1_000_000
	budgetDecimals = 4
	microPerStep   = microPerUSD / 10_000 // micro-USD in the budget's smallest step, 0.0001 USD
)

// ParseBudget parses daily_budget_usd ("1", "1.0", "0.05", "100.0000") into micro-USD exactly,
// on integers only, so what the owner typed is what is enforced: digits with at most four
// decimals, from 0.05 to 100. Signs, exponents, NaN, Inf and spaces inside are refused rather
// than read the way a float parser would.
func ParseBudget(s string) (int64, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return 0, badKey("err.embed.budget_required", "A daily budget in US dollars is required.")
	}
	whole, frac, _ := strings.Cut(in, ".")
	if whole+frac == "" || !allDigits(whole) || !allDigits(frac) {
		return 0, badKey("err.embed.budget_invalid", "The daily budget %s is not an amount of US dollars like 1.50.", shown(in))
	}
	if len(frac) > budgetDecimals {
		return 0, badKey("err.embed.budget_decimals", "The daily budget %s has more than %d decimal places.", shown(in), budgetDecimals)
	}
	whole = strings.TrimLeft(whole, "0")
	outOfRange := badKey("err.embed.budget_range", "The daily budget %s is out of range: it must be from %s to %s US dollars.",
		shown(in), plainUSD(MinBudgetMicro), plainUSD(MaxBudgetMicro))
	if len(whole) > len(strconv.FormatInt(MaxBudgetMicro/microPerUSD, 10)) {
		return 0, outOfRange // also keeps the arithmetic below from overflowing
	}
	w, _ := strconv.ParseInt("0"+whole, 10, 64)
	f, _ := strconv.ParseInt((frac + "0000")[:budgetDecimals], 10, 64)
	micro := w*microPerUSD + f*microPerStep
	if micro < MinBudgetMicro || micro > MaxBudgetMicro {
		return 0, outOfRange
	}
	return micro, nil
}

// FormatBudget renders micro-USD with exactly four decimals, the budget's precision:
// 1_000_000 → "1.0000", 50_000 → "0.0500". An amount finer than that (a day's spend) is
// rounded to the nearest 0.0001, halves away from zero.
func FormatBudget(micro int64) string {
	sign := ""
	u := uint64(micro)
	if micro < 0 {
		sign, u = "-", -u // two's complement, so math.MinInt64 is handled too
	}
	steps := (u + microPerStep/2) / microPerStep
	return fmt.Sprintf("%s%d.%04d", sign, steps/10_000, steps%10_000)
}

// plainUSD is FormatBudget without trailing zeros, for sentences: "0.05", "100".
func plainUSD(micro int64) string {
	return strings.TrimSuffix(strings.TrimRight(FormatBudget(micro), "0"), ".")
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
