//go:build !linux

package bench

import (
	"os"
	"time"
)

// peakRSS is not measured off Linux: ru_maxrss has other units elsewhere, and the other
// memory figures come from /proc anyway.
func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }

// cpuTime is not measured off Linux.
func cpuTime(int) (time.Duration, bool) { return 0, false }
