package hosted

// What the external tests (package hosted_test, which plays real matches on the server) use
// of the internal helpers.
var (
	GoWasm      = goWasm
	TestRuntime = testRuntime
	TestModule  = module
	StartBot    = start
	CModule     = cModule
	WATModule   = watModule
	SkipShort   = skipShort
)
