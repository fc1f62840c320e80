package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"svc/internal/store/sqlite"
)

// servingFile is where svc serve (or svc demo) on a data directory records the base URL its
// links use, for the commands run beside it: `svc user add` prints and mails an invite link
// that must open on that server, whatever address it was started with.
const servingFile = "serving.json"

// servingInfo is the content of servingFile.
type servingInfo struct {
	BaseURL string `json:"base_url"`
	PID     int    `json:"pid"`
}

// recordServing writes servingFile in dir (atomically: another command may read it at any
// moment) and returns the function that removes it when the server stops.
func recordServing(dir, baseURL string) (remove func(), err error) {
	b, err := json.Marshal(servingInfo{BaseURL: baseURL, PID: os.Getpid()})
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, servingFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("record the serving address: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("record the serving address: %w", err)
	}
	return func() { _ = os.Remove(path) }, nil
}

// servingBase is the base URL of the svc serve running on dir, when one does (it holds the
// serve lock) and recorded it.
func servingBase(dir string) (string, bool) {
	if !sqlite.Serving(dir) {
		return "", false
	}
	b, err := os.ReadFile(filepath.Join(dir, servingFile))
	if err != nil {
		return "", false
	}
	var info servingInfo
	if json.Unmarshal(b, &info) != nil || info.BaseURL == "" {
		return "", false
	}
	return info.BaseURL, true
}

// linkBase is the base URL of the links a command makes (invites): SVC_PUBLIC_URL when it is
// set; else that of the svc serve running on the data directory, where the link will be
// opened; else the guess from SVC_ADDR, which the server may not listen on (guessed: the
// command then says that SVC_PUBLIC_URL is needed, with guessNotice).
func (c *command) linkBase() (base string, guessed bool) {
	if !c.cfg.PublicURLFromAddr {
		return c.cfg.PublicURL, false
	}
	if c.cfg.DatabaseURL == "" {
		if base, ok := servingBase(c.cfg.DataDir); ok {
			return base, false
		}
	}
	return c.cfg.PublicURL, true
}

// guessNotice says on stderr that a link was built on SVC_ADDR's guess.
func (c *command) guessNotice() {
	fmt.Fprintf(c.env.Stderr, "svc: %s: SVC_PUBLIC_URL is not set and no svc serve runs on this data, so the link assumes the server at %s (SVC_ADDR); set SVC_PUBLIC_URL to the address people open the dashboard at\n",
		c.name, c.cfg.PublicURL)
}
