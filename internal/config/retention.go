package config

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxRetentionDays bounds SVC_RETENTION_DAYS at ten years: a larger number is far more
// likely a typo (hours, or a date) than a policy.
const MaxRetentionDays = 3650

// ParseRetentionDays reads SVC_RETENTION_DAYS: a whole number of days from 1 to
// MaxRetentionDays, or "0" or "off" for no retention limit (the default: conversations are
// kept until deleted).
func ParseRetentionDays(v string) (int, error) {
	v = strings.TrimSpace(v)
	if v == "0" || strings.EqualFold(v, "off") {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxRetentionDays {
		return 0, fmt.Errorf("want a whole number of days from 1 to %d, or off, not %q", MaxRetentionDays, v)
	}
	return n, nil
}
