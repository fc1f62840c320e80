package storetest

// outboxTests cover the Outbox.
var outboxTests = []suiteTest{}

var outboxClockedTests = []clockedTest{}
