package storetest

// embedTests cover EmbedTokens, visitor conversations and token budgets.
var embedTests = []suiteTest{}

var embedClockedTests = []clockedTest{}
