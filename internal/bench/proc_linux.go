package bench

import (
	"os"
	"syscall"
)

// peakRSS is the peak resident set of an exited child (getrusage's ru_maxrss, in KiB on
// Linux), in bytes; ok is false when the platform does not report it.
func peakRSS(ps *os.ProcessState) (bytes int64, ok bool) {
	if ps == nil {
		return 0, false
	}
	ru, isRusage := ps.SysUsage().(*syscall.Rusage)
	if !isRusage || ru == nil {
		return 0, false
	}
	return ru.Maxrss * 1024, true
}
