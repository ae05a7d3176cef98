// Package embedmiss embeds a file that does not exist: go build rejects it,
// so the driver must not pass it as clean.
package embedmiss

import _ "embed"

//go:embed missing.txt
var data string

// Data returns the embedded text.
func Data() string { return data }
