package storagetest

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// EnvAzurite names the variable that carries an Azurite connection string.
const EnvAzurite = "SYNCIO_AZURITE_CONNECTION_STRING"

// AzuriteConnectionString returns the Azurite connection string from EnvAzurite. When it
// is unset the test is skipped, or failed if CI=true.
func AzuriteConnectionString(tb testing.TB) string {
	tb.Helper()
	if cs := os.Getenv(EnvAzurite); cs != "" {
		return cs
	}
	const how = "run the tests through tools/azurite/run.sh (make test does)"
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		tb.Fatalf("%s is unset under CI=true: the Azurite variant must run in CI; %s", EnvAzurite, how)
	}
	tb.Skipf("%s is unset: skipping the Azurite variant; %s", EnvAzurite, how)
	return ""
}

// UniqueContainerName returns a valid container name that no other run will use, so
// suites can share one Azurite instance.
func UniqueContainerName(prefix string) string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	suffix := "-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + hex.EncodeToString(b[:])
	// Shorten the prefix, not the unique part: a name cut from the front
	// could start with '-', which the service rejects.
	if len(prefix)+len(suffix) > 63 {
		prefix = strings.TrimRight(prefix[:63-len(suffix)], "-")
	}
	return prefix + suffix
}
