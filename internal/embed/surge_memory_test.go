package embed_test

import (
	"testing"

	"svc/internal/embed"
	"svc/internal/embed/surgetest"
)

// The memory store shows the behaviour every surge store must (surgeredis runs the same on
// Redis).
func TestSurgeMemory(t *testing.T) {
	t.Parallel()
	surgetest.Run(t, func(_ *testing.T, o embed.SurgeOptions) *embed.Surge { return embed.NewSurge(o) })
}
