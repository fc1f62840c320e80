package api

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPanicBecomesServerErrorEnvelope(t *testing.T) {
	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	h := s.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom: secret detail") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/chat/start", nil))
	var env envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 500 || env.Success || env.Error != "server_error" || env.Message == "" {
		t.Fatalf("panic response: %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), "secret detail") {
		t.Fatal("panic detail leaked to the client")
	}
}
