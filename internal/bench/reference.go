package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// referenceEnvelope is the API's response envelope (SERVICE.md).
type referenceEnvelope struct {
	Success bool `json:"success"`
	Data    any  `json:"data"`
}

// ReferenceHandler is the bare handler the service's throughput is a share of: what any Go
// form API does per request at least. It parses the form, reads message and writes it back
// in the API's JSON envelope with the API's headers; /readyz answers like the service's.
func ReferenceHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var data any
		if r.URL.Path == "/readyz" {
			data = map[string]string{"status": "ok"}
		} else {
			if err := r.ParseForm(); err != nil {
				http.Error(w, "bad form", http.StatusBadRequest)
				return
			}
			data = map[string]string{"echo": r.Form.Get("message")}
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(referenceEnvelope{Success: true, Data: data})
	})
}

// ServeReference serves ReferenceHandler on addr until ctx ends. Like `svc serve` it first
// prints {"addr": ...} (the address it listens on, so port 0 works) as one line on out.
func ServeReference(ctx context.Context, addr string, out io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(out).Encode(map[string]string{"addr": ln.Addr().String()}); err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{Handler: ReferenceHandler(), ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	err = srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		<-stopped
		return nil
	}
	return fmt.Errorf("reference server: %w", err)
}
