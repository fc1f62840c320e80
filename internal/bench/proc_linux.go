package bench

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
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

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's times (100 on every
// Linux platform Go runs on).
const clockTicks = 100

// cpuTime is the CPU time (user and system) a running process has used so far, from
// /proc/<pid>/stat; ok is false when it cannot be read.
func cpuTime(pid int) (time.Duration, bool) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces; utime and stime are
	// fields 14 and 15, the 12th and 13th after it.
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(user+sys) * time.Second / clockTicks, true
}
