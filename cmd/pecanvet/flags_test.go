package main

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// TestFlagSpellings: -h lists every flag of check and predict in go vet's
// spelling (lowercase, no hyphens) and none of the old hyphenated
// spellings, which are still accepted.
func TestFlagSpellings(t *testing.T) {
	values := map[string]string{"maxreplays": "7", "rankreads": "true", "replaytimeout": "1s", "maxevents": "7", "maxtries": "7"}
	for _, tc := range []struct {
		cmd     string
		aliases aliases
	}{
		{"check", checkAliases},
		{"predict", predictAliases},
	} {
		code, _, help := runCmd(t, tc.cmd, "-h")
		if code != 0 {
			t.Fatalf("%s -h: exit %d\n%s", tc.cmd, code, help)
		}
		for _, m := range regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(help, -1) {
			if strings.Contains(m[1], "-") {
				t.Errorf("%s -h lists -%s: want no hyphen in a flag's name", tc.cmd, m[1])
			}
		}
		for old, name := range tc.aliases {
			if !regexp.MustCompile(`(?m)^  -` + name + `(\s|$)`).MatchString(help) {
				t.Errorf("%s -h does not list -%s", tc.cmd, name)
			}
			if strings.Contains(help, "-"+old) {
				t.Errorf("%s -h lists the old spelling -%s", tc.cmd, old)
			}
			// Accepted before -h, in either spelling.
			for _, spelled := range []string{old, name} {
				arg := "-" + spelled + "=" + values[name]
				if code, _, errs := runCmd(t, tc.cmd, arg, "-h"); code != 0 {
					t.Errorf("%s %s -h: exit %d\n%s", tc.cmd, arg, code, errs)
				}
			}
		}
	}
	// The old spelling sets the flag's value: predict refuses a trace
	// over -max-events as over -maxevents.
	fig1 := "../../examples/fig1.trace"
	for _, spelled := range []string{"-maxevents", "-max-events"} {
		if code, _, errs := runCmd(t, "predict", spelled, "3", fig1); code != 2 || !strings.Contains(errs, "more than 3 events") || !strings.Contains(errs, "raise -maxevents") {
			t.Errorf("predict %s 3: exit %d, stderr %q", spelled, code, errs)
		}
	}
}

// TestAliasesShareValue: an old spelling and its canonical name set one
// value, of the canonical flag's type.
func TestAliasesShareValue(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	n := fs.Int("maxreplays", 100, "")
	b := fs.Bool("rankreads", false, "")
	a := aliases{"max-replays": "maxreplays", "rank-reads": "rankreads"}
	a.register(fs)
	if err := fs.Parse([]string{"-max-replays", "7", "-rank-reads"}); err != nil {
		t.Fatal(err)
	}
	if *n != 7 || !*b {
		t.Errorf("after -max-replays 7 -rank-reads: maxreplays %d, rankreads %v", *n, *b)
	}
	var out strings.Builder
	fs.SetOutput(&out)
	a.printDefaults(fs)
	if got := out.String(); strings.Contains(got, "max-replays") || !strings.Contains(got, "-maxreplays int\n") || !strings.Contains(got, "(default 100)") {
		t.Errorf("printDefaults:\n%s", got)
	}
}

// TestFlagsDoc: docs/flags.md names every flag -h lists for each
// subcommand, and every flag of the vet tool's analyzer.
func TestFlagsDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/flags.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, cmd := range []string{"check", "record", "predict", "trace", "lsp"} {
		_, _, help := runCmd(t, cmd, "-h")
		i := strings.Index(doc, "\n## pecanvet "+cmd+"\n")
		if i < 0 {
			t.Errorf("docs/flags.md has no section for pecanvet %s", cmd)
			continue
		}
		section := doc[i+1:]
		if j := strings.Index(section, "\n## "); j >= 0 {
			section = section[:j]
		}
		for _, m := range regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(help, -1) {
			if !strings.Contains(section, "`-"+m[1]) {
				t.Errorf("docs/flags.md: pecanvet %s's section lacks -%s", cmd, m[1])
			}
		}
	}
	pecan.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(doc, "`-pecan."+f.Name) {
			t.Errorf("docs/flags.md lacks the vet tool's -pecan.%s", f.Name)
		}
	})
}
