package vecindex

import "runtime"

// syncYield lets other goroutines run while a test waits for a state it can
// observe; it never sleeps.
func syncYield() { runtime.Gosched() }
