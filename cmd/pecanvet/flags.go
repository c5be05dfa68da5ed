package main

import "flag"

// Flag names are spelled as go vet's own are: lowercase, one word, no
// hyphens (-maxreplays, as the vet tool's -pecan.maxreplays and the lsp
// subcommand's -maxreplays). The hyphenated spellings of earlier releases
// still work: aliases maps each to its flag, and -h lists only the
// canonical name.

// aliases maps a flag's old spelling to its canonical name, per
// subcommand.
type aliases map[string]string

var (
	checkAliases = aliases{
		"max-replays":    "maxreplays",
		"rank-reads":     "rankreads",
		"replay-timeout": "replaytimeout",
	}
	predictAliases = aliases{
		"max-events": "maxevents",
		"max-tries":  "maxtries",
	}
)

// register defines each old spelling on fs as another name for its
// canonical flag, which fs must already define: both set one value.
func (a aliases) register(fs *flag.FlagSet) {
	for old, name := range a {
		f := fs.Lookup(name)
		fs.Var(f.Value, old, "old spelling of -"+name)
	}
}

// printDefaults prints fs's flags as fs.PrintDefaults does, leaving out
// the old spellings.
func (a aliases) printDefaults(fs *flag.FlagSet) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shown.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		if _, old := a[f.Name]; old {
			return
		}
		shown.Var(f.Value, f.Name, f.Usage)
		shown.Lookup(f.Name).DefValue = f.DefValue
	})
	shown.PrintDefaults()
}
