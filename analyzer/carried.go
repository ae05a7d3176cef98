package analyzer

import (
	"encoding/gob"
	"github.com/syncio/syncio/analyzer/internal/ginsetting"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/registry"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// factTypes are the analyzer's fact types, one of each.
func factTypes() []analysis.Fact {
	return []analysis.Fact{new(paths.BlocksFact), new(resolve.CallsFact), new(resolve.AdapterFact), new(join.PendingFact), new(join.ConvFact),
		new(join.JoinedFact), new(attachFact), new(dataflow.BuilderFact), new(registry.RegistrarFact), new(resolve.StoresFact), new(rules.CtxCallbackFact),
		new(resolve.MemoFact), new(join.RootSlotsFact), new(join.CarriedFact), new(paths.ExitsFact),
		new(ginsetting.FallbackFact), new(ginsetting.HeldFact), new(ginsetting.DecidedFact)}
}

// A join.CarriedFact holds facts as interface values, which gob encodes
// only for registered types. go vet registers every fact type, the
// standalone command and golangci-lint do not, and both may encode facts
// (a sanity check, a cache).
func init() {
	for _, f := range factTypes() {
		gob.Register(f)
	}
}
