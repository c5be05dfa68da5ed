// Package dynamic embeds the source that pecanvet compiles into the user's
// test binaries: the runtime and its trace model.
//
// The source is that of the recorder and replay runtime (dynamic/rt) and
// of the trace model it writes (dynamic/trace).
//
// The instrumenter (dynamic/instrument) writes this source into a
// temporary module that the overlaid go.mod of the user's module requires
// (`go test -overlay`), so the user's module needs no dependency on
// pecanvet.
package dynamic

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

//go:embed rt trace
var runtimeFS embed.FS

// RuntimeFiles returns the source of the runtime: the non-test .go and .s
// files of dynamic/rt and dynamic/trace, keyed by their slash path
// relative to dynamic ("rt/x.go", "trace/y.go"). Subdirectories
// (testdata) are not included.
func RuntimeFiles() (map[string][]byte, error) {
	files := make(map[string][]byte)
	for _, dir := range []string{"rt", "trace"} {
		ents, err := fs.ReadDir(runtimeFS, dir)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			name := e.Name()
			if e.IsDir() || strings.HasSuffix(name, "_test.go") ||
				!(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".s")) {
				continue
			}
			b, err := fs.ReadFile(runtimeFS, path.Join(dir, name))
			if err != nil {
				return nil, err
			}
			files[path.Join(dir, name)] = b
		}
	}
	return files, nil
}
