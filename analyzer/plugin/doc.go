// Package plugin registers the syncio analyzer as a golangci-lint v2 module
// plugin named "syncio" and decodes its settings.
//
// A custom golangci-lint binary picks the plugin up by blank-importing this
// package (see tools/golangci). The linter is then configured in
// .golangci.yml under linters.settings.custom.syncio:
//
//	linters:
//	  enable: [syncio]
//	  settings:
//	    custom:
//	      syncio:
//	        type: module
//	        description: blocking I/O on HTTP request paths
//	        settings:
//	          rules: {SIO006: true, SIO005: false}
//	          blocking: ["example.com/store.(*Client).Fetch | use: c.FetchContext(ctx, key) | method: FetchContext"]
//
// The settings are analyzer.Settings, decoded with register.DecodeSettings;
// the analyzer package owns their meaning and validation, so the plugin and
// the syncio command cannot drift apart.
package plugin
