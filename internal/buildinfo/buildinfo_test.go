package buildinfo

import (
	"bytes"
	"log/slog"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	t.Parallel()
	base := Info{Version: "(devel)", Go: runtime.Version(), Platform: "linux/amd64"}
	got := fromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "svc", Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abcd"},
			{Key: "vcs.time", Value: "2025-05-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}, base)
	if got.Version != "v1.4.0" || got.Revision != "0123abcd" || got.Time != "2025-05-01T10:00:00Z" || got.Modified == nil ||
		!*got.Modified || got.Go != "go1.26.8" || got.Platform != "linux/amd64" {
		t.Fatalf("stamped build: %+v", got)
	}
	// go test and go run record no VCS stamp and no module version.
	bare := fromBuildInfo(&debug.BuildInfo{Main: debug.Module{Path: "svc"}}, base)
	if bare.Version != "(devel)" || bare.Revision != "" || bare.Modified != nil || bare.Go != runtime.Version() {
		t.Fatalf("unstamped build: %+v", bare)
	}
}

func TestLogStart(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	LogStart(slog.New(slog.NewTextHandler(&buf, nil)))
	line := buf.String()
	if strings.Count(line, "\n") != 1 || !strings.Contains(line, `msg="svc starting"`) || !strings.Contains(line, "version=") ||
		!strings.Contains(line, "go="+runtime.Version()) || !strings.Contains(line, "level=INFO") {
		t.Fatalf("start-up line: %q", line)
	}
	if r := Read(); r.Go == "" || r.Version == "" || r.Platform == "" {
		t.Fatalf("Read: %+v", r)
	}
}
