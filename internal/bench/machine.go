package bench

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// machine describes the host; version is the `svc version` object of the binary under test.
func machine(version json.RawMessage) Machine {
	m := Machine{NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Go: runtime.Version(), SVC: version}
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPU = procField(raw, "model name")
	}
	if m.CPU == "" {
		m.CPU = runtime.GOOS + "/" + runtime.GOARCH
	}
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		if kb, ok := procKB(procField(raw, "MemTotal")); ok {
			m.MemTotalMB = mb(kb * 1024)
		}
	}
	return m
}

// version runs `svc version` and returns its object, and a short label for messages.
func (b svcBin) version(ctx context.Context) (json.RawMessage, string, error) {
	var raw json.RawMessage
	if _, err := b.run(ctx, commandTimeout, &raw, "version"); err != nil {
		return nil, "", err
	}
	return raw, svcVersionLabel(raw), nil
}

// svcVersionLabel is "svc <version> (<revision>[, modified])".
func svcVersionLabel(raw json.RawMessage) string {
	var v struct {
		Version  string `json:"version"`
		Revision string `json:"revision"`
		Modified *bool  `json:"modified"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Version == "" {
		return "svc (version unknown)"
	}
	s := "svc " + v.Version
	var extra []string
	if v.Revision != "" {
		extra = append(extra, v.Revision[:min(12, len(v.Revision))])
	}
	if v.Modified != nil && *v.Modified {
		extra = append(extra, "modified")
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// procField is the value of the first "name: value" line of a /proc file.
func procField(raw []byte, name string) string {
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// procKB reads a "1234 kB" value.
func procKB(v string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(v, "kB")), 10, 64)
	return n, err == nil
}

// memory reads a process's resident set now (VmRSS) and its peak (VmHWM), in bytes.
func memory(pid int) (rss, hwm int64, err error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("read the server's memory: %w (the rss scenario needs Linux /proc)", err)
	}
	r, ok1 := procKB(procField(raw, "VmRSS"))
	h, ok2 := procKB(procField(raw, "VmHWM"))
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("no VmRSS/VmHWM in /proc/%d/status", pid)
	}
	return r * 1024, h * 1024, nil
}

// binaryInfo is the size of the binary at path and whether it carries a symbol table or DWARF
// (what -ldflags '-s -w' strips).
func binaryInfo(path string) (Binary, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Binary{}, err
	}
	b := Binary{Path: path, Bytes: fi.Size(), MB: mb(fi.Size())}
	f, err := elf.Open(path)
	if err != nil {
		return b, nil // not ELF (macOS): size only
	}
	defer f.Close()
	for _, s := range f.Sections {
		switch s.Name {
		case ".symtab":
			b.Symbols = true
		case ".debug_info", ".zdebug_info":
			b.DWARF = true
		}
	}
	return b, nil
}
