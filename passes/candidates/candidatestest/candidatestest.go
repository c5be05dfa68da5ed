// Package candidatestest defines a test-only analyzer that reports each
// candidate of package candidates as a diagnostic.
//
// So analysistest and its // want comments can check the candidates.
//
// Each candidate is reported at its first site with the message
//
//	candidate KIND PATTERN: SITE SITE ...
//
// where the sites are in pattern order, written base-file:line:col (an
// event from another package's summary adds "(via base-file:line:col)").
// Candidates are unordered within a line, so a // want comment lists one
// regular expression per candidate reported on its line.
package candidatestest

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/pecanvet/pecanvet/passes/candidates"
	"golang.org/x/tools/go/analysis"
)

// Analyzer reports the candidates of candidates.Analyzer as diagnostics.
var Analyzer = &analysis.Analyzer{
	Name:       "pecancandidatestest",
	Doc:        "report pecanvet's candidate anomalies as diagnostics (for tests)",
	Requires:   []*analysis.Analyzer{candidates.Analyzer},
	ResultType: reflect.TypeFor[*candidates.Result](),
	Run:        run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[candidates.Analyzer].(*candidates.Result)
	for _, c := range *res {
		pass.Reportf(c.Sites[0], "%s", Message(pass, c))
	}
	return res, nil
}

// Message renders a candidate as the analyzer reports it.
func Message(pass *analysis.Pass, c candidates.Candidate) string {
	sites := make([]string, len(c.Sites))
	for i, pos := range c.Sites {
		p := pass.Fset.Position(pos)
		sites[i] = fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
		if ext := c.Events[i].Ext; ext != "" {
			sites[i] += "(via " + filepath.Base(ext) + ")"
		}
	}
	return fmt.Sprintf("candidate %s %s: %s", c.Kind, c.Pattern, strings.Join(sites, " "))
}
