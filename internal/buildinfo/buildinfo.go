// Package buildinfo reports what binary is running: the module version and the VCS revision
// the Go toolchain stamped into it, and the Go version it was built with. `svc version`
// prints it, and `svc serve` logs it once at start-up, so a log or a bug report names the
// exact build.
package buildinfo

import (
	"log/slog"
	"runtime"
	"runtime/debug"
	"strconv"
)

// Info is the build of the running binary.
type Info struct {
	// Version is the main module's version: a release tag, a pseudo-version derived from the
	// commit (go build in a checkout), or "(devel)" when the toolchain recorded none.
	Version string `json:"version"`
	// Revision, Time and Modified come from the VCS stamp (go build -buildvcs, the default in
	// a checkout); empty when the binary has none (go run, go test, a source tarball).
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified *bool  `json:"modified,omitempty"` // uncommitted changes in the build's tree
	Go       string `json:"go"`
	Platform string `json:"platform"` // GOOS/GOARCH
}

// Read returns the build of the running binary.
func Read() Info {
	info := Info{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	return fromBuildInfo(bi, info)
}

// fromBuildInfo fills info from what the toolchain recorded.
func fromBuildInfo(bi *debug.BuildInfo, info Info) Info {
	if v := bi.Main.Version; v != "" {
		info.Version = v
	}
	if bi.GoVersion != "" {
		info.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.time":
			info.Time = s.Value
		case "vcs.modified":
			if m, err := strconv.ParseBool(s.Value); err == nil {
				info.Modified = &m
			}
		}
	}
	return info
}

// LogAttrs are the attributes of the start-up log line.
func (i Info) LogAttrs() []any {
	attrs := []any{slog.String("version", i.Version), slog.String("go", i.Go)}
	if i.Revision != "" {
		attrs = append(attrs, slog.String("revision", i.Revision))
	}
	if i.Time != "" {
		attrs = append(attrs, slog.String("vcs_time", i.Time))
	}
	if i.Modified != nil {
		attrs = append(attrs, slog.Bool("modified", *i.Modified))
	}
	return attrs
}

// LogStart logs the "svc starting" line with the build of the running binary.
func LogStart(log *slog.Logger) {
	log.Info("svc starting", Read().LogAttrs()...)
}
