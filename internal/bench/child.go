package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Time limits of the children. Generous: they only keep a stuck child (a deadlock in the build
// under test) from hanging the bench for ever.
const (
	commandTimeout = 2 * time.Minute  // account create, key rotate, version
	importTimeout  = 60 * time.Minute // kb import of the largest KB
	startTimeout   = 2 * time.Minute  // a server's address line and its first ready answer
	stopTimeout    = 30 * time.Second // a server's graceful shutdown
)

// svcBin runs commands of the svc binary under test.
type svcBin struct {
	path string
	env  []string
}

func newSvcBin(path string) svcBin { return svcBin{path: path, env: childEnv(os.Environ())} }

// withEnv is b with settings (KEY=value) added to its children's environment.
func (b svcBin) withEnv(settings ...string) svcBin {
	b.env = append(slices.Clone(b.env), settings...)
	return b
}

// childEnv is the bench's environment without any SVC_ setting, so that every child runs the
// default configuration whatever the operator's shell exports: the built-in engine, no
// provider, no metrics listener, default logs.
func childEnv(environ []string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "SVC_") {
			out = append(out, kv)
		}
	}
	return append(out, "SVC_LLM_PROVIDER=builtin")
}

// run runs one command to completion and decodes its JSON object into out (when not nil).
func (b svcBin) run(ctx context.Context, timeout time.Duration, out any, args ...string) (*os.ProcessState, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.path, args...)
	cmd.Env = b.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", err, context.Cause(ctx))
		}
		return cmd.ProcessState, fmt.Errorf("svc %s: %w: %s", args[0], err, tail(stderr.String(), 400))
	}
	if out != nil {
		if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
			return cmd.ProcessState, fmt.Errorf("svc %s printed %q: %w", args[0], tail(stdout.String(), 200), err)
		}
	}
	return cmd.ProcessState, nil
}

// tail is the end of a child's output, on one line, for an error message.
func tail(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}

// server is a running `svc serve` or `svc bench reference` child.
type server struct {
	cmd     *exec.Cmd
	base    string // http://host:port
	logPath string
	done    chan struct{}
	waitErr error
}

// start runs a server command whose first stdout line is a JSON object with its listening
// "addr" (serve and the reference both print one), and waits until /readyz answers 200. The
// server's stderr (its log) goes to logPath.
func (b svcBin) start(ctx context.Context, logPath string, args ...string) (*server, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	// A pipe of our own rather than StdoutPipe: the drain below reads until the child exits,
	// and StdoutPipe's reader must not be read after Wait.
	stdout, w, err := os.Pipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	cmd := exec.Command(b.path, args...)
	cmd.Env = b.env
	cmd.Stdout, cmd.Stderr = w, logf
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdout.Close()
		logf.Close()
		return nil, fmt.Errorf("start svc %s: %w", args[0], err)
	}
	s := &server{cmd: cmd, logPath: logPath, done: make(chan struct{})}
	lines := make(chan string, 1)
	go func() {
		br := bufio.NewReader(stdout)
		line, _ := br.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, br) // keep the pipe drained until the child exits
		stdout.Close()
	}()
	go func() {
		s.waitErr = cmd.Wait()
		logf.Close()
		close(s.done)
	}()
	fail := func(err error) (*server, error) {
		s.stop()
		return nil, fmt.Errorf("svc %s: %w; its log: %s", args[0], err, s.logTail())
	}
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	var line string
	select {
	case line = <-lines:
	case <-s.done:
		return fail(fmt.Errorf("exited before listening: %v", s.waitErr))
	case <-timer.C:
		return fail(errors.New("printed no address in time"))
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	var hello struct {
		Addr string `json:"addr"`
	}
	if err := json.Unmarshal([]byte(line), &hello); err != nil || hello.Addr == "" {
		return fail(fmt.Errorf("first line %q has no addr", strings.TrimSpace(line)))
	}
	s.base = "http://" + hello.Addr
	if err := s.waitReady(ctx, timer.C); err != nil {
		return fail(err)
	}
	return s, nil
}

// waitReady polls /readyz until it answers 200.
func (s *server) waitReady(ctx context.Context, deadline <-chan time.Time) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/readyz", nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				client.CloseIdleConnections()
				return nil
			}
		}
		select {
		case <-tick.C:
		case <-s.done:
			return fmt.Errorf("exited before it was ready: %v", s.waitErr)
		case <-deadline:
			return errors.New("not ready in time")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// stop asks the server to shut down (SIGTERM, graceful) and kills it if it does not within
// stopTimeout. It is safe to call twice.
func (s *server) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(stopTimeout)
	defer t.Stop()
	select {
	case <-s.done:
	case <-t.C:
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// logTail is the end of the server's log, for an error message.
func (s *server) logTail() string {
	raw, err := os.ReadFile(s.logPath)
	if err != nil {
		return "(no log)"
	}
	return tail(string(raw), 600)
}
