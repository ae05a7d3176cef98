// Package config builds the file store. Its API names files, not remote:
// under go vet a package importing config is handed no fact of remote.
package config

import (
	"example.com/wired/files"
	"example.com/wired/remote"
)

func Files() files.Store { return remote.New("http://files.internal/") }
