package config

import (
	"strings"
	"testing"
)

func TestRetentionDays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  string
		want int
	}{{"", 0}, {"0", 0}, {"off", 0}, {"OFF", 0}, {"1", 1}, {"30", 30}, {" 90 ", 90}, {"3650", 3650}} {
		cfg, err := Load(func(k string) string {
			if k == "SVC_RETENTION_DAYS" {
				return c.env
			}
			return ""
		})
		if err != nil || cfg.RetentionDays != c.want {
			t.Errorf("SVC_RETENTION_DAYS=%q: %d %v, want %d", c.env, cfg.RetentionDays, err, c.want)
		}
	}
	for _, bad := range []string{"-1", "3651", "30d", "1.5", "720h", "thirty", "1e3"} {
		_, err := Load(func(k string) string {
			if k == "SVC_RETENTION_DAYS" {
				return bad
			}
			return ""
		})
		if err == nil || !strings.HasPrefix(err.Error(), "SVC_RETENTION_DAYS: want a whole number of days from 1 to 3650") ||
			!strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), "\n") {
			t.Errorf("SVC_RETENTION_DAYS=%q: %v", bad, err)
		}
	}
}
