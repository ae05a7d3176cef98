package join

import (
	"reflect"
	"sort"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// Package facts below a package, under every driver.
//
// The join, the slot roots (slotroots.go) and SIO002's callbacks (the
// analyzer's rule_dropped.go) read package facts of every package below
// the one analysed: a handler's pending call in server, a binding made in
// s3proxy, joined in main, which imports server and config, and config
// imports s3proxy. The standalone command and golangci-lint hand a pass
// the package facts of all its dependencies; go vet (unitchecker) only
// those of its direct imports, since it re-exports no imported package
// fact. Under go vet bazel-remote's main saw no binding of its proxies,
// and 36 of the standalone's 73 findings were missing, without a word.
//
// So a package that sees only its direct imports' facts passes on what it
// read, in a CarriedFact of its own; the packages above read the carried
// facts as if they were their origin's. A package that sees a fact of a
// package it does not import runs under a driver that hands it all, and
// carries nothing. Read facts are keyed by origin package and fact type,
// so a fact seen both ways counts once, and the order (by origin path)
// is the same under every driver.
//
// A CarriedFact holds facts as interface values, which gob encodes only
// for registered types: the analyzer registers every fact type it has.
type CarriedFact struct{ Facts []Carried }

// Carried is a package fact of the package at Pkg.
type Carried struct {
	Pkg  string
	Fact analysis.Fact
}

// AFact marks CarriedFact as a package fact.
func (*CarriedFact) AFact() {}

// CarriesFacts tells the test harness (casetest) that this fact says
// nothing of its own package.
func (*CarriedFact) CarriesFacts() {}

// String is the fact as the tests' // want lines state it.
func (f *CarriedFact) String() string {
	return "carried(" + strconv.Itoa(len(f.Facts)) + ")"
}

// ReadBelow returns the package facts of the packages below pass's, by
// origin path, and carries them on when the driver showed only the direct
// imports'. It must run before the package exports a package fact of its
// own.
func ReadBelow(pass *analysis.Pass) []Carried {
	direct := map[string]bool{}
	for _, p := range pass.Pkg.Imports() {
		direct[p.Path()] = true
	}
	type key struct {
		pkg string
		t   reflect.Type
	}
	got := map[key]bool{}
	var own, via []Carried
	allFacts := false // the driver showed a fact of a package not imported here
	for _, pf := range pass.AllPackageFacts() {
		path := pf.Package.Path()
		if pf.Package == pass.Pkg {
			continue
		}
		if !direct[path] {
			allFacts = true
		}
		if c, ok := pf.Fact.(*CarriedFact); ok {
			via = append(via, c.Facts...)
			continue
		}
		got[key{path, reflect.TypeOf(pf.Fact)}] = true
		own = append(own, Carried{path, pf.Fact})
	}
	// A fact seen at its origin wins over its carried copies, which are
	// the same fact.
	below := own
	for _, c := range via {
		if k := (key{c.Pkg, reflect.TypeOf(c.Fact)}); !got[k] {
			got[k] = true
			below = append(below, c)
		}
	}
	sort.SliceStable(below, func(i, j int) bool {
		if below[i].Pkg != below[j].Pkg {
			return below[i].Pkg < below[j].Pkg
		}
		return reflect.TypeOf(below[i].Fact).String() < reflect.TypeOf(below[j].Fact).String()
	})
	if !allFacts && len(below) > 0 {
		pass.ExportPackageFact(&CarriedFact{Facts: below})
	}
	return below
}
