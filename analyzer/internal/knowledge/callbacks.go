package knowledge

// StdCallbacks are the standard library's functions and methods that call
// one of their func parameters (by index) before they return, keyed as the
// SIO001 table is (import path, receiver, name). The standard library is
// not analysed, so its callbacks get no fact from their source: a func
// literal or function value given there runs on the caller's path
// (re.ReplaceAllStringFunc(s, func(m string) string { …lookup… })).
// Evidence: each function's documentation at go.dev/pkg, which says the
// function is applied to, or called for, the elements before it returns.
var StdCallbacks = map[string][]int{
	"regexp.(*Regexp).ReplaceAllFunc":       {1},
	"regexp.(*Regexp).ReplaceAllStringFunc": {1},
	"strings.Map":                           {0},
	"strings.FieldsFunc":                    {1},
	"strings.IndexFunc":                     {1},
	"strings.LastIndexFunc":                 {1},
	"strings.ContainsFunc":                  {1},
	"strings.TrimFunc":                      {1},
	"strings.TrimLeftFunc":                  {1},
	"strings.TrimRightFunc":                 {1},
	"bytes.Map":                             {0},
	"bytes.FieldsFunc":                      {1},
	"sort.Slice":                            {1},
	"sort.SliceStable":                      {1},
	"sort.Search":                           {1},
	"slices.SortFunc":                       {1},
	"slices.SortStableFunc":                 {1},
	"slices.IndexFunc":                      {1},
	"slices.ContainsFunc":                   {1},
	"slices.DeleteFunc":                     {1},
	"sync.(*Once).Do":                       {0},
	"sync.(*Map).Range":                     {0},
	"path/filepath.Walk":                    {1},
	"path/filepath.WalkDir":                 {1},
	"io/fs.WalkDir":                         {2},
}

// StdOnce are the standard library's callbacks that run their function
// once per value, not once per call (a subset of StdCallbacks' shape):
// sync.(*Once).Do "calls the function f if and only if Do is being called
// for the first time for this instance of Once" (go.dev/pkg/sync#Once.Do).
// A client built there is built once, not per request (SIO004), and a
// wait there is the first caller's only (SIO005). sync.OnceFunc,
// OnceValue and OnceValues return a function that calls f later, so f is
// no callback here. singleflight's Do is not listed: it shares one call
// among the callers that overlap it, and the next request runs the
// function again.
var StdOnce = map[string][]int{
	"sync.(*Once).Do": {0},
}
