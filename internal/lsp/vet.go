package lsp

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// vetDiag is a diagnostic of go vet -json (x/tools' analysisflags
// JSONDiagnostic: positions as "file:line:col").
type vetDiag struct {
	Category string `json:"category"`
	Posn     string `json:"posn"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
}

// vet runs go vet with pecanvet on the package in dir: the static phase
// (-pecan.replay=false) or the dynamic one. Results are cached by the
// content hash; a cancelled run kills go vet and everything it started.
func (s *server) vet(ctx context.Context, dir, hash string, static bool) (_ []vetDiag, cached bool, _ error) {
	args := []string{"vet", "-vettool=" + s.opt.Tool, "-json"}
	args = append(args, s.opt.VetFlags...)
	if static {
		args = append(args, "-pecan.replay=false")
	}
	args = append(args, ".")
	key := strings.Join(args, "\x00") + "\x00" + dir + "\x00" + hash
	s.mu.Lock()
	diags, ok := s.cache[key]
	s.mu.Unlock()
	if ok {
		return diags, true, nil
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, false, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		killTree(cmd.Process.Pid)
		<-done
		return nil, false, ctx.Err()
	}
	diags, errs := parseVetJSON(stdout.Bytes())
	if len(errs) > 0 {
		return diags, false, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	if err != nil && len(diags) == 0 {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + "…"
		}
		return nil, false, fmt.Errorf("go vet: %v\n%s", err, msg)
	}
	s.mu.Lock()
	s.cache[key] = diags
	s.mu.Unlock()
	return diags, false, nil
}

// parseVetJSON reads go vet -json's output: one object per unit, mapping
// the package to its analyzers, each to a list of diagnostics or to
// {"error": …}. A diagnostic reported by several units (a package and its
// test variant) is kept once.
func parseVetJSON(b []byte) (diags []vetDiag, errs []string) {
	dec := json.NewDecoder(bytes.NewReader(b))
	seen := map[string]bool{}
	for {
		var unit map[string]map[string]json.RawMessage
		if err := dec.Decode(&unit); err != nil {
			if err != io.EOF {
				errs = append(errs, "reading go vet -json: "+err.Error())
			}
			break
		}
		pkgs := make([]string, 0, len(unit))
		for p := range unit {
			pkgs = append(pkgs, p)
		}
		sort.Strings(pkgs)
		for _, p := range pkgs {
			for _, raw := range unit[p] {
				var ds []vetDiag
				if json.Unmarshal(raw, &ds) == nil {
					for _, d := range ds {
						k := d.Posn + "\x00" + d.Message
						if !seen[k] {
							seen[k] = true
							diags = append(diags, d)
						}
					}
					continue
				}
				var e struct {
					Error string `json:"error"`
				}
				if json.Unmarshal(raw, &e) == nil && e.Error != "" {
					errs = append(errs, p+": "+e.Error)
				}
			}
		}
	}
	return diags, errs
}

// killTree kills a process group led by root and every descendant of
// root: pecanvet starts test binaries in process groups of their own.
func killTree(root int) {
	for _, pid := range descendants(root) {
		syscall.Kill(-pid, syscall.SIGKILL) // fails harmlessly if pid leads no group
		syscall.Kill(pid, syscall.SIGKILL)
	}
	syscall.Kill(-root, syscall.SIGKILL)
}

// descendants lists root's live descendants, read from /proc.
func descendants(root int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// "pid (comm) state ppid …": comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			parent[pid] = ppid
		}
	}
	in := map[int]bool{root: true}
	var out []int
	for changed := true; changed; {
		changed = false
		for pid, pp := range parent {
			if !in[pid] && in[pp] {
				in[pid] = true
				out = append(out, pid)
				changed = true
			}
		}
	}
	return out
}

// contentHash hashes what a check of the package in dir depends on in its
// module: the Go files of the package and of the packages it imports from
// the module (transitively), and the module's go.mod, go.sum and go.work.
func contentHash(root, dir string) (string, error) {
	modPath, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range []string{"go.mod", "go.sum", "go.work", "go.work.sum"} {
		b, _ := os.ReadFile(filepath.Join(root, f))
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if seen[d] {
			continue
		}
		seen[d] = true
		names, _ := filepath.Glob(filepath.Join(d, "*.go"))
		sort.Strings(names)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			fmt.Fprintf(h, "%s %d\n", name, len(b))
			h.Write(b)
			f, err := parser.ParseFile(fset, name, b, parser.ImportsOnly)
			if err != nil {
				continue
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if p == modPath {
					queue = append(queue, root)
				} else if rest, ok := strings.CutPrefix(p, modPath+"/"); ok {
					queue = append(queue, filepath.Join(root, filepath.FromSlash(rest)))
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

var moduleLine = regexp.MustCompile(`(?m)^\s*module\s+("?)([^"\s/][^"\s]*)("?)\s*(//.*)?$`)

// modulePath reads the module path of a go.mod file.
func modulePath(gomod string) (string, error) {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	m := moduleLine.FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("%s: no module line", gomod)
	}
	return string(m[2]), nil
}

// lineCache holds the lines of the files positions point into.
type lineCache map[string][]string

func (c lineCache) line(file string, n int) (string, bool) {
	ls, ok := c[file]
	if !ok {
		f, err := os.Open(file)
		if err == nil {
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 1<<20), 1<<24)
			for sc.Scan() {
				ls = append(ls, sc.Text())
			}
			f.Close()
		}
		c[file] = ls
	}
	if n < 1 || n > len(ls) {
		return "", false
	}
	return ls[n-1], true
}

// location turns "file:line:col" (col in bytes, from 1) into a file URI
// and an LSP range (characters in UTF-16 code units, from 0) covering the
// identifier or operator that starts there.
func location(posn string, lines lineCache) (string, map[string]any, bool) {
	site, err := trace.ParseSite(posn)
	if err != nil || !filepath.IsAbs(site.Path) {
		return "", nil, false
	}
	file, line, col := site.Path, site.Line, site.Col
	start, end := 0, 0
	if text, ok := lines.line(file, line); ok {
		b := min(max(col-1, 0), len(text))
		e := b
		for e < len(text) {
			r, size := utf8.DecodeRuneInString(text[e:])
			if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > utf8.RuneSelf) {
				break
			}
			e += size
		}
		if e == b && e < len(text) {
			_, size := utf8.DecodeRuneInString(text[e:])
			e += size // an operator or punctuation: one character
		}
		start, end = utf16Len(text[:b]), utf16Len(text[:e])
	}
	pos := func(ch int) map[string]any { return map[string]any{"line": line - 1, "character": ch} }
	return pathURI(file), map[string]any{"start": pos(start), "end": pos(end)}, true
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}
