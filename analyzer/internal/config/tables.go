package config

import (
	"fmt"
	"sync"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// builtinTables are the call tables as the Config holds them, read once
// from internal/knowledge (blocking.txt and calls.txt). They are data:
// noctx's list, the SDK rows whose evidence docs/rules/libraries.md gives,
// the constructors of clients with their own connections, the waits, file
// and context-aware I/O calls. Default copies them.
type builtinTables struct {
	blocking map[string]Replacement
	clients  map[string]string
	waits    map[string]string
	files    map[string]bool
	io       map[string]bool
	memory   map[string]bool
	exits    map[string]bool
}

var defaultTables = sync.OnceValue(func() *builtinTables {
	rows, err := knowledge.BuiltinRows()
	if err != nil {
		// The files are embedded in the binary, and
		// TestBuiltinRowsParse keeps a bad row from shipping.
		panic(fmt.Sprintf("syncio: the built-in call tables: %v", err))
	}
	t := &builtinTables{blocking: map[string]Replacement{}, clients: map[string]string{}, waits: map[string]string{},
		files: map[string]bool{}, io: map[string]bool{}, memory: map[string]bool{}, exits: map[string]bool{}}
	for _, r := range rows {
		cfg := Config{Blocking: t.blocking, Clients: t.clients, Waits: t.waits, Files: t.files, IO: t.io, Memory: t.memory, Exits: t.exits}
		cfg.addRow(r)
	}
	return t
})

// addRow puts a table row into the map of its kind.
func (c *Config) addRow(r knowledge.Row) {
	switch r.Kind {
	case knowledge.KindClient:
		c.Clients[r.Key] = r.Builds
	case knowledge.KindWait:
		c.Waits[r.Key] = r.Hint
	case knowledge.KindFile:
		c.Files[r.Key] = true
	case knowledge.KindIO:
		c.IO[r.Key] = true
	case knowledge.KindNoIO:
		c.IO[r.Key] = false // known: no I/O (dataflow.IsIOCall)
	case knowledge.KindMemory:
		if c.Memory == nil {
			c.Memory = map[string]bool{}
		}
		c.Memory[r.Key] = true
	case knowledge.KindExit:
		if c.Exits == nil {
			c.Exits = map[string]bool{}
		}
		c.Exits[r.Key] = true
	case knowledge.KindCallback, knowledge.KindGo, knowledge.KindFinisher, knowledge.KindNoQuery, knowledge.KindServe, knowledge.KindOptIn, knowledge.KindInMemory:
		// The tables' own kinds, read from knowledge by resolve and the
		// rules (StdCallbacks, GoStarters, DbxFinisher,
		// GormMigratorMethod, ZeroServers); no user's entry gives them.
	default:
		c.Blocking[r.Key] = replacementOf(r)
	}
}

// replacementOf is the Replacement a blocking row describes.
func replacementOf(r knowledge.Row) Replacement {
	return Replacement{Use: r.Use, Verb: r.Verb, Method: r.Method, ExtraArgs: r.ExtraArgs, Routed: r.Routed}
}
