package plugin

import (
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer"
)

func init() {
	register.Plugin(analyzer.Name, New)
}

// New is the plugin constructor golangci-lint calls with the raw settings
// of linters.settings.custom.syncio.settings (nil when there are none).
// They are analyzer.Settings, the keys the syncio command takes as flags;
// unknown keys are an error.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[analyzer.Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("syncio settings: %w", err)
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, fmt.Errorf("syncio settings: %w", err)
	}
	return &linter{cfg: cfg}, nil
}

// linter is the registered golangci-lint plugin.
type linter struct {
	cfg analyzer.Config
}

func (l *linter) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{analyzer.New(l.cfg)}, nil
}

// GetLoadMode asks for type information: every rule needs it, and the
// analyzer exports facts across packages.
func (l *linter) GetLoadMode() string { return register.LoadModeTypesInfo }
