package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/gcexportdata"

	"github.com/pecanvet/pecanvet/passes/pecan"
	"github.com/pecanvet/pecanvet/passes/symbolic"
)

// isVetInvocation reports whether the go command runs pecanvet as a vet
// tool: "-V=full" and "-flags" queries, or the analysis of one package
// described by a .cfg file (the last argument).
func isVetInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-V=full", "-V", "-flags":
		return true
	}
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}

// vetMain runs the unitchecker protocol with pecanvet's analyzer. Units
// analyzed only for their facts (dependencies: VetxOnly) get no dynamic
// work.
//
// With -pecan.replay (the default) a dependency's unit costs go vet a
// process and nothing else. go vet runs the vet tool on every dependency
// of the packages it vets, the standard library included, once per tool
// binary and flags, for the facts and types the importers' units read
// (.vetx files). unitchecker writes the types it gets by type-checking
// the dependency from source; pecanvet's analyzer declares no facts, so
// that type-checking was all a dependency's unit did: 2.6 s of CPU over
// the 190 dependencies of Go's race testdata (runtime alone 0.6 s, with
// everything that imports it waiting for it), each time a new pecanvet
// binary or new flags met a warm build cache, before any package was
// checked. The go command compiles those dependencies anyway, and their
// export data holds the same types: a dependency's unit now writes an
// empty .vetx file, and a root unit (a package vetted) reads its direct
// imports' types from the compiler's export data (vetxFromExportData).
// With -pecan.replay=false passes/symbolic's facts are needed, and every
// unit is analyzed except a standard-library dependency (noStdFacts).
func vetMain(args []string) {
	replay := replayFlag(args)
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		cfgPath := args[len(args)-1]
		var cfg struct {
			ImportPath  string
			GoFiles     []string
			VetxOnly    bool
			VetxOutput  string
			PackageFile map[string]string
			PackageVetx map[string]string
		}
		if b, err := os.ReadFile(cfgPath); err == nil && json.Unmarshal(b, &cfg) == nil {
			switch {
			case cfg.VetxOnly && replay:
				// Nothing to export: types are taken from the
				// compiler's export data by the importing root unit.
				if err := writeEmptyVetx(cfg.VetxOutput); err != nil {
					fmt.Fprintf(os.Stderr, "pecanvet: %s: %v\n", cfg.ImportPath, err)
					os.Exit(1)
				}
				os.Exit(0)
			case cfg.VetxOnly:
				if isStd(cfg.ImportPath, cfg.GoFiles) {
					noStdFacts()
				}
				pecan.SkipDynamic = true
			case replay:
				// One unit of a package and its external tests
				// runs their tests (pecan.VetUnits).
				pecan.VetUnits = true
				// unitchecker.Main exits: nothing calls stop.
				pecan.Context, _ = onInterrupt("pecanvet: "+cfg.ImportPath, os.Stderr, interruptGrace)
				// The dependencies' units wrote no types: give
				// unitchecker the imports' types from the compiler's
				// export data instead.
				newCfg, err := vetxFromExportData(cfgPath, b, filepath.Dir(cfg.VetxOutput), cfg.PackageFile, cfg.PackageVetx)
				if err != nil {
					fmt.Fprintf(os.Stderr, "pecanvet: %s: %v\n", cfg.ImportPath, err)
					os.Exit(1)
				}
				os.Args[len(os.Args)-1] = newCfg
			}
		}
	}
	unitchecker.Main(pecan.ForReplay(replay))
}

// writeEmptyVetx writes a .vetx file, unitchecker's format, with no types
// and no facts: "vetx", then the two sections' lengths, 0 and 0.
func writeEmptyVetx(path string) error {
	if path == "" {
		return nil
	}
	return os.WriteFile(path, append([]byte(vetxMagic), make([]byte, 8)...), 0o666)
}

const vetxMagic = "vetx"

// vetxFromExportData writes, into dir, a .vetx file for each direct import
// of the unit whose config is cfgPath (raw: its bytes) that the go command
// compiled (packageFile), holding its types read from the compiler's
// export data and no facts, and a copy of the config that names those
// files (PackageVetx) instead of the empty ones the dependencies' units
// wrote. It returns the copy's path. dir is the unit's own build
// directory, which the go command removes.
func vetxFromExportData(cfgPath string, raw []byte, dir string, packageFile, packageVetx map[string]string) (string, error) {
	if dir == "" || dir == "." {
		dir = filepath.Dir(cfgPath)
	}
	out, err := os.MkdirTemp(dir, "pecanvet-imports-")
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	imports := map[string]*types.Package{}
	vetx := make(map[string]string, len(packageVetx))
	paths := make([]string, 0, len(packageVetx))
	for path := range packageVetx {
		paths = append(paths, path)
	}
	sort.Strings(paths) // file names stable from run to run
	for i, path := range paths {
		vetx[path] = packageVetx[path]
		archive := packageFile[path]
		if archive == "" {
			continue // not compiled (unsafe): unitchecker knows it, or says what is missing
		}
		pkg, err := readExportData(fset, imports, archive, path)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		buf.WriteString(vetxMagic)
		buf.Write(make([]byte, 8)) // the sections' lengths, below
		// gcexportdata.Write's indexed export data, less the leading
		// 'i' that unitchecker's reader does not expect.
		if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
			return "", fmt.Errorf("exporting the types of %s: %v", path, err)
		}
		data := append(buf.Bytes()[:12:12], buf.Bytes()[13:]...)
		binary.LittleEndian.PutUint32(data[4:8], uint32(len(data)-12))
		file := filepath.Join(out, strconv.Itoa(i)+".vetx")
		if err := os.WriteFile(file, data, 0o666); err != nil {
			return "", err
		}
		vetx[path] = file
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return "", err
	}
	b, err := json.Marshal(vetx)
	if err != nil {
		return "", err
	}
	cfg["PackageVetx"] = b
	b, err = json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	newCfg := filepath.Join(out, "vet.cfg")
	return newCfg, os.WriteFile(newCfg, b, 0o666)
}

// readExportData reads the types of package path from the compiler's
// archive (or export data file) file.
func readExportData(fset *token.FileSet, imports map[string]*types.Package, file, path string) (*types.Package, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading the export data of %s: %v", path, err)
	}
	pkg, err := gcexportdata.Read(r, fset, imports, path)
	if err != nil {
		return nil, fmt.Errorf("reading the export data of %s: %v", path, err)
	}
	return pkg, nil
}

// noStdFacts makes a standard-library dependency's unit cheap: go vet asks
// for its facts, and passes/symbolic exports none for the standard library
// (pecanvet records only user code), so nothing that declares facts needs
// to run. Without a fact type unitchecker runs no analyzer on the unit and
// only type-checks it, writing its types and empty facts, which is what
// the analysis would have written, without building the SSA of runtime,
// math and the rest to throw it away. Most of a first run's cost after
// install is type-checking those packages, which unitchecker must still
// do: on examples/demo with a fresh GOCACHE this saves about 6% of the
// CPU time (2.92 s to 2.75 s user, three runs each, side by side).
func noStdFacts() {
	symbolic.Analyzer.FactTypes = nil
}

// replayFlag returns the value of -pecan.replay among args as the flag
// package will parse it (the last setting wins; a malformed value is left
// for unitchecker to report): pecan.ForReplay needs it before
// unitchecker.Main parses the flags.
func replayFlag(args []string) bool {
	replay := true
	for _, arg := range args {
		if !strings.HasPrefix(arg, "-") || arg == "--" {
			break // the flags end here
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(arg[1:], "-"), "=")
		if name != "pecan.replay" {
			continue
		}
		if !hasValue {
			replay = true
		} else if b, err := strconv.ParseBool(value); err == nil {
			replay = b
		}
	}
	return replay
}

// isStd reports whether a unit is a standard-library package, as
// passes/symbolic decides it: a path whose first element has no dot, with
// its files under GOROOT/src. (The config's Standard map covers only the
// unit's imports.)
func isStd(path string, files []string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || len(files) == 0 || build.Default.GOROOT == "" {
		return false
	}
	src := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	for _, f := range files {
		if !strings.HasPrefix(filepath.Clean(f), src) {
			return false
		}
	}
	return true
}
