package storetest

// usersTests are the conformance tests of store.Users.
func usersTests() []suiteTest { return nil }

// usersClockedTests are the conformance tests of store.Users that move the clock.
func usersClockedTests() []clockedTest { return nil }
