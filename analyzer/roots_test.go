package analyzer

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestRoots covers the request roots of httprouter, connect-go, gRPC
// streaming and hertz: a blocking call in each shape is reported, SIO002
// sees the root's context, and near-miss shapes are no roots (they only
// export a fact). One run, to load the dependencies once.
func TestRoots(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer,
		"httprouterdemo", "connectdemo", "hertzdemo")
}
